"""The migration history of the app label ``boards``, kept so databases made before the
``Board`` model moved to ``tournaments`` migrate forward with their data.

The ``boards`` package used to be a Django app holding ``Board``; it is now a library, and
its old migrations live here under the same label (docs/decisions.md, item 61). This app
has no models: 0001/0002 are the old history as it was applied, 0003 removes ``Board``
from the label's state once ``tournaments`` has taken it over (tournaments 0004), and
touches no table.
"""
