"""An event of several sessions (an afternoon and an evening, or two weeks).

Terms: a *session* is an event of its own (its boards, sections, movement, table codes
and standings), linked to the *first session* (`Event.session_of`, numbered by
`Event.session_number`); the pairs *carry over*: a new session starts with the last
session's pairs, with the same numbers, players and sections. The *overall* standings
(standings.overall_standings) combine the sessions, each earlier session counted at the
first session's *carry-over* percentage (`Event.carry_over`; 100: every session counts in
full). Team matches are played as one event and get no sessions (docs/decisions.md).
"""

import datetime

from django.db import transaction

from ..models import Event, Pair, Section
from .base import Actor, Forbidden, ServiceError, _audit, _lock_event

MAX_SESSIONS = 20  # a club's longest series: a session a week for a season
TEAMS_REFUSED = ("sessions are for pairs events: a team match is played as one event, "
                 "its matches added to it")


@transaction.atomic
def session_add(*, event: Event, actor: Actor, date: datetime.date | None = None) -> Event:
    """Add the next session to `event`'s series (any of its sessions may be named): a new
    event on `date` (else the last session's), scored as the first, with the last
    session's pairs (numbers, players, sections). Its boards and movement are set up as
    for any event. Returns the new session."""
    if not actor.directs:
        raise Forbidden("only the director adds a session")
    if event.kind == "teams":
        raise ServiceError(TEAMS_REFUSED, field="kind")
    # The first session's row is the series' lock: two directors adding a session at
    # once get numbers 2 and 3, never two 2s.
    first = _lock_event(event.first_session_id)
    sessions = list(first.session_events())
    last = sessions[-1]
    if len(sessions) >= MAX_SESSIONS:
        raise ServiceError(f"an event has at most {MAX_SESSIONS} sessions", field="session")
    date = date or last.date
    if date < last.date:
        raise ServiceError(f"session {last.session_number + 1} cannot be before session "
                           f"{last.session_number} ({last.date:%-d %B %Y})", field="date")
    pairs = list(Pair.objects.filter(event=last).select_related("section").order_by("number"))
    if not pairs:
        raise ServiceError("enter the pairs first: they carry over to the next session",
                           field="pairs")
    number = last.session_number + 1
    session = Event.objects.create(
        name=f"{first.name}, session {number}"[:120], date=date, rules=first.rules,
        kind=first.kind, method=first.method, not_played_scoring=last.not_played_scoring,
        club_adjustments=last.club_adjustments, compare_by_section=last.compare_by_section,
        correction_minutes=last.correction_minutes, session_of=first, session_number=number)
    names = list(last.sections.order_by("name").values_list("name", flat=True)) or ["A"]
    sections = {name: Section.objects.create(event=session, name=name) for name in names}
    Pair.objects.bulk_create(
        Pair(event=session, number=p.number, player_1_id=p.player_1_id,
             player_2_id=p.player_2_id,
             section=sections.get(p.section.name if p.section else names[0]))
        for p in pairs)
    carried = [p.number for p in pairs]
    _audit(event=session, actor=actor, action="create session",
           after={"name": session.name, "session": number, "of": first.name,
                  "pairs": carried, "sections": names})
    _audit(event=first, actor=actor, action="add session",
           after={"session": number, "event": session.pk, "date": date.isoformat(),
                  "pairs": carried})
    return session


@transaction.atomic
def carry_over_set(*, event: Event, percent: int, actor: Actor, reason: str = "") -> Event:
    """Count each earlier session at `percent` of its score in the overall standings (the
    last session always in full). Kept on the first session; returns it. Not once the last
    session is closed: the overall standings are then final."""
    if not actor.directs:
        raise Forbidden("only the director sets the carry-over")
    if isinstance(percent, bool) or not isinstance(percent, int) or not 0 <= percent <= 100:
        raise ServiceError("the carry-over is a whole percentage from 0 to 100",
                           field="carry_over")
    first = _lock_event(event.first_session_id)
    last = first.session_events().last()
    if last.status == Event.Status.CLOSED:
        raise Forbidden(f"session {last.session_number} is closed: the overall standings "
                        "are final (reopen it to change the carry-over)")
    if first.carry_over == percent:
        return first
    before = {"carry_over": first.carry_over}
    first.carry_over = percent
    first.save(update_fields=["carry_over", "updated_at"])
    _audit(event=first, actor=actor, action="carry over", before=before,
           after={"carry_over": percent}, reason=(reason or "").strip())
    return first
