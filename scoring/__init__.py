"""Scoring for Duplicate Auction (Laws of Auction, November 1913) and Duplicate Whist.

``scoring.engine`` is the pure-Python engine (no Django); ``python -m scoring score``
is the JSON command of docs/interfaces.md §1.
"""
