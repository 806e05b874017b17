"""Who may see what: one policy for the API, the web pages and the reports.

Terms. A *caller* is the director (a staff user with a session), a *table* (it holds
a table code: sent with each API request, or remembered by the web session of the
phone at the table), or the *public* (anyone else; a table of another event counts
as the public here). A board is *finished* once every meeting scheduled to play it
has a live result (with no movement: once it has any result). A table's *seated
meeting* is the one its players are at now (selectors.current_meeting).

The rules (docs/decisions.md, "Access"):

- The director sees everything and alone prints and downloads the PDFs.
- An event is seen by the director, by its own tables, and by everyone once its
  standings are published (provisional or final); to anyone else it does not exist:
  the same 404 as an id no event has (``shown_event``).
- Standings and score cards: the director's, and everyone's once published; a card's
  row of a board not yet finished shows only who played it (``shown_scorecard``).
- A traveller (every table's contract, tricks and score on a board): the director's;
  a table's when the screen at the table shows it only to pairs who may know it (see
  ``table_may_see_traveller``); everyone's once published and the board is finished.
- A hand record: the director's; everyone's once published and the board finished.
- The live score preview: the director's, and a table's for the boards it plays in
  its seated meeting, or has the director's leave to play late (the preview reads
  honours from the hand record).

The edges turn the answers into their own forms (DRF exceptions, a page, a JSON
403): api/permissions.py, web/public.py, web/table.py, web/director.py and
reports/views.py call this module and decide nothing themselves.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from django.db.models import Count, Q, QuerySet

from . import selectors
from .models import Event, Meeting, Result, Season, TableCode
from .selectors import table_by_code

NO_SUCH_EVENT = "There is no such event."
NOT_PUBLISHED = "The standings of this event are not published yet."
ONLY_DIRECTOR = "Only the director can do this: log in as the director."
ONLY_DIRECTOR_PRINTS = "Only the director prints reports."
NO_SUCH_SEASON = "There is no such season."


@dataclass(frozen=True)
class Caller:
    """Who is asking: the director, a table (its TableCode), or the public."""

    director: bool = False
    table: TableCode | None = None

    def table_of(self, event: Event) -> TableCode | None:
        """The calling table when it belongs to `event`; another event's table is public."""
        if self.table is not None and self.table.section.event_id == event.pk:
            return self.table
        return None


def is_director(user) -> bool:
    """A club director: a staff user who has logged in."""
    return bool(user is not None and user.is_authenticated and user.is_staff)


def api_caller(request) -> Caller:
    """An API request: a table sends its code with each request (api/auth.py)."""
    auth = getattr(request, "auth", None)
    return Caller(director=is_director(getattr(request, "user", None)),
                  table=auth if isinstance(auth, TableCode) else None)


def web_caller(request) -> Caller:
    """A page request: the phone at a table keeps its code in the web session."""
    code = request.session.get("table_code") if hasattr(request, "session") else None
    return Caller(director=is_director(getattr(request, "user", None)),
                  table=table_by_code(code) if code else None)


def published(event: Event) -> bool:
    return event.published != Event.Published.NONE


# --- events, standings, score cards -----------------------------------------------------


def visible_events(caller: Caller) -> QuerySet[Event]:
    """The events this caller may see at all."""
    if caller.director:
        return Event.objects.all()
    shown = ~Q(published=Event.Published.NONE)
    if caller.table is not None:
        shown |= Q(pk=caller.table.section.event_id)
    return Event.objects.filter(shown)


def may_see_event(caller: Caller, event: Event) -> bool:
    return caller.director or published(event) or caller.table_of(event) is not None


def shown_event(caller: Caller, event: Event | None) -> Event | None:
    """`event` if this caller may see it; None if not, as for an id no event has (None).

    Every edge answers None alike, a 404 saying NO_SUCH_EVENT and nothing else: event ids
    are sequential, so any difference between a hidden event and a missing one would tell
    which ids exist (and a page naming the event, what it is called). The edges ask before
    anything else touches the event (such as publishing it final when its correction period
    is over): a caller who may not see an event changes nothing about it.
    """
    return event if event is not None and may_see_event(caller, event) else None


def may_see_standings(caller: Caller, event: Event) -> bool:
    """Standings and score cards: the director's always, everyone's once published."""
    return caller.director or published(event)


def may_see_overall(caller: Caller, sessions: list[Event]) -> bool:
    """The overall standings of several sessions: the director's always, everyone's once
    every session's standings are published (each column is a session's standings)."""
    return all(may_see_standings(caller, session) for session in sessions)


def may_print(caller: Caller) -> bool:
    """The PDFs (travellers with hand records, standings, cards) are the director's."""
    return caller.director


# --- finished boards ----------------------------------------------------------------------


def finished_boards(event: Event) -> set[int]:
    """The event's finished boards, in two queries.

    A board is finished when it has as many live results as meetings scheduled to play
    it; a night without a movement (imported from a night file) counts a board finished
    once it has any result.
    """
    scheduled: Counter[int] = Counter()
    for boards in Meeting.objects.filter(section__event=event).values_list("boards", flat=True):
        scheduled.update(boards)
    done = dict(Result.objects.filter(event=event, voided=False)
                .values_list("board__number").annotate(n=Count("id"))
                .values_list("board__number", "n"))
    if not scheduled:
        return {board for board, n in done.items() if n > 0}
    return {board for board, n in done.items() if scheduled[board] and n >= scheduled[board]}


# What a score card's row says of the play: a traveller's line (its contract, tricks, score).
_PLAY = {"level": None, "denomination": "", "declarer": "", "doubled": "", "tricks": None,
         "passed_out": False, "ruling": "", "offending": "", "adjustment": "", "note": "",
         "score": None, "plus_minus": None, "shown": None, "late_play": False,
         "award": None, "left": None}


def shown_scorecard(caller: Caller, event: Event, card: dict) -> dict:
    """A pair's score card (selectors.scorecard) as this caller may see it.

    A row of the card is the pair's line of that board's traveller, so it follows the
    traveller's rule: the director sees every row; anyone else sees a board's play only
    once the board is finished. A board still being played keeps its number, seat and
    opponents, marked ``hidden``; the running totals from it on are left out, as they
    would give its score away. The total stays: the standings give it."""
    if caller.director:
        return card
    finished = finished_boards(event)
    rows, hiding = [], False
    for row in card["rows"]:
        row = {**row, "hidden": row["board"] not in finished}
        if row["hidden"]:
            hiding = True
            row.update(_PLAY)
        if hiding:
            row.update(running=None, running_shown=None)
        rows.append(row)
    in_play = sum(row["hidden"] for row in rows)
    # "Each board's score is rounded" says nothing while no board's score is shown.
    return {**card, "rows": rows, "in_play": in_play,
            "rounded": card["rounded"] and in_play < len(rows)}


def board_finished(event: Event, number: int) -> bool:
    """Has every table scheduled to play this board scored it? (finished_boards' rule)"""
    plays = [number in boards for boards in Meeting.objects.filter(section__event=event)
             .values_list("boards", flat=True)]
    done = Result.objects.filter(event=event, board__number=number, voided=False).count()
    if not plays:  # no movement: finished once it has any result
        return done > 0
    scheduled = sum(plays)  # with one, a board no meeting plays is never finished
    return scheduled > 0 and done >= scheduled


# --- tables ------------------------------------------------------------------------------


def seated_meeting(table: TableCode) -> Meeting | None:
    """The meeting the players at this table are at now."""
    return selectors.seated_meeting(table.section, table.table)


def table_plays_now(table: TableCode, number: int) -> bool:
    """Is the board one of those played at this table in its seated meeting, or one it has
    the director's leave to play late?

    The live score takes honours from the hand record, so previewing any other board
    would tell the players how the honours lie on a board they may still have to play.
    """
    seated = seated_meeting(table)
    if seated is not None and number in seated.boards:
        return True
    # A board the director has given the table leave to play late is played now too.
    return any(selectors.late_leave(late, number) for late in Meeting.objects.filter(
        section=table.section, table=table.table).values_list("late_boards", flat=True))


def _pair_status(event: Event, pair_ids: list[int], numbers: list[int]
                 ) -> dict[int, dict[int, tuple[int, int]]]:
    """Board -> pair id -> (meetings in which it is scheduled to play the board, of those
    played), for these boards, in two queries."""
    results: dict[int, set[tuple[int, int]]] = {number: set() for number in numbers}
    # A board marked not played is not played: the pairs may yet play it late.
    for number, ns, ew in (Result.objects
                           .filter(event=event, board__number__in=numbers, voided=False)
                           .exclude(ruling="not-played")
                           .values_list("board__number", "ns_pair_id", "ew_pair_id")):
        results[number].add((ns, ew))
    status = {number: dict.fromkeys(pair_ids, (0, 0)) for number in numbers}
    meetings = list(Meeting.objects.filter(section__event=event).filter(
        Q(ns_pair_id__in=pair_ids) | Q(ew_pair_id__in=pair_ids)).values_list(
        "ns_pair_id", "ew_pair_id", "boards"))
    for number in numbers:
        board = status[number]
        played_here = results[number]
        for ns, ew, boards in meetings:
            if number not in boards:
                continue
            for pair in (ns, ew):
                if pair in board:
                    scheduled, played = board[pair]
                    board[pair] = (scheduled + 1, played + ((ns, ew) in played_here))
        # A result entered without a meeting (the director's, or a night file's) still counts.
        for ns, ew in played_here:
            for pair in (ns, ew):
                if pair in board and board[pair][0] == 0:
                    board[pair] = (1, 1)
    return status


def table_travellers(table: TableCode, numbers: list[int], *,
                     seated: Meeting | None = None) -> set[int]:
    """Which of these boards' travellers the screen at this table may show.

    The screen is shared by the two pairs now seated, so what it shows, both see. It
    shows a traveller when a pair seated here has played the board and no pair seated
    here still has the board to play (neither in its seated meeting nor in a later one).
    So the pairs that have just played a board see how it went at once; after the move,
    a pair that played it sees it again unless its new opponents still have it to play
    (in a Mitchell the arriving E-W pair often does); and an opponent that never plays
    the board learns nothing that could change a score of its own.
    """
    seated = seated or seated_meeting(table)
    if seated is None or not numbers:
        return set()
    status = _pair_status(table.section.event, [seated.ns_pair_id, seated.ew_pair_id],
                          numbers)
    return {
        number for number, pairs in status.items()
        if all(played >= scheduled for scheduled, played in pairs.values())
        and any(played > 0 for _, played in pairs.values())
    }


def table_may_see_traveller(table: TableCode, number: int) -> bool:
    """May the screen at this table show the traveller of board `number`? (table_travellers)"""
    return number in table_travellers(table, [number])


# --- travellers and hand records --------------------------------------------------------


def traveller_refusal(caller: Caller, event: Event, number: int, *,
                      finished: bool | None = None) -> str | None:
    """Why this caller may not see the traveller of board `number` (None: it may).

    `finished` spares a query when the caller already knows whether the board is.
    """
    if caller.director:
        return None
    table = caller.table_of(event)
    if table is not None and table_may_see_traveller(table, number):
        return None
    if published(event) and (board_finished(event, number) if finished is None else finished):
        return None
    if table is not None:
        return (f"Board {number}'s traveller is shown here once a pair at this table has "
                "played it and neither pair here still has it to play.")
    if not published(event):
        return NOT_PUBLISHED
    return (f"Board {number} is still being played: its results show here once every "
            "table has played it.")


def may_see_traveller(caller: Caller, event: Event, number: int) -> bool:
    return traveller_refusal(caller, event, number) is None


def may_see_deal(caller: Caller, event: Event, number: int, *,
                 finished: bool | None = None) -> bool:
    """Hand records: the director's until the board is finished and the standings published."""
    if caller.director:
        return True
    return published(event) and (board_finished(event, number) if finished is None
                                 else finished)


def deals_shown(caller: Caller, event: Event, numbers: list[int]) -> set[int]:
    """Which of these boards' hand records this caller may see (two queries in all)."""
    if caller.director:
        return set(numbers)
    if not published(event):
        return set()
    return set(numbers) & finished_boards(event)


def may_preview(caller: Caller, event: Event, number: int) -> bool:
    """The live score of a result not yet stored (it shows the hand record's honours)."""
    if caller.director:
        return True
    table = caller.table_of(event)
    return table is not None and table_plays_now(table, number)



def member_events(caller: Caller, event_ids) -> QuerySet[Event]:
    """A member's own results page lists only the events whose standings this caller may
    see: everyone's once published, the director's always. An unpublished event is not
    there at all (not even its name)."""
    events = Event.objects.filter(pk__in=event_ids)
    if caller.director:
        return events
    return events.exclude(published=Event.Published.NONE)


# --- seasons ----------------------------------------------------------------------------


def visible_seasons(caller: Caller) -> QuerySet[Season]:
    """The seasons this caller may see: the published ones; the director's, all."""
    if caller.director:
        return Season.objects.all()
    return Season.objects.filter(published=True)


def shown_season(caller: Caller, season: Season | None) -> Season | None:
    """`season` if this caller may see it, else None (one 404 for hidden and missing, as
    for events). Which of its events count is the table's business: the public counts
    the nights whose standings are final, the director every night
    (selectors.season_events)."""
    if season is None or not (caller.director or season.published):
        return None
    return season
