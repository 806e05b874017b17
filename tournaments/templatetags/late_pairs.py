"""``late_pairs``: the night's late pairs, for the standings page's Boards column.

The standings the page is given (interfaces.md §3) count a pair's boards played and not
played at its table; a late pair's boards of the rounds before it joined are neither
(decision 102), so its row read "10" where the others read "14". ``{% late_pairs event
standings as late %}`` reads them (``selectors.late_pairs``) for ``row|boards_played:late``
("10 of 14") and ``standings|late_pairs_notes:late``: only where a ranking has a pair with
fewer boards than another (presenters.some_pair_short), so a night every pair played
whole costs the page no query more.
"""

from django import template

from .. import presenters, selectors

register = template.Library()


@register.simple_tag
def late_pairs(event, standings=None) -> list[dict]:
    """[{"pair", "joined_round", "missed"}] (selectors.late_pairs); [] without an event,
    or when `standings` show no pair short of boards."""
    if event is None or (standings is not None and not presenters.some_pair_short(standings)):
        return []
    return selectors.late_pairs(event)
