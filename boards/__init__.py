"""Deals (dealing, PBN) and movements (Mitchell, Howell, team match): a library.

Like ``scoring``, it knows no database and no Django; the ``Board`` model, the admin and
the ``movement`` command live in ``tournaments``.
"""
