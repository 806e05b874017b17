"""The public live pages: an event's standings, travellers, score cards and hand records.

The public sees only what the director has published (provisional or final; the
page says which); the director, a staff user, sees everything. Pages update
themselves while the night runs: static/js/live.js polls the event's small
``live`` JSON every few seconds and, when the event's change number (``seq``)
moves, fetches the page's table again (``?fragment=1``). No websockets.

Who sees what is decided by tournaments.access, as for the API: a board's
traveller once it is finished (every table scheduled to play it has scored it), or
to the table whose pairs may see it (the phone's session holds the table's code);
its hand record once it is finished; nobody still to play a board can read it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from django.core.exceptions import PermissionDenied
from django.db.models import Exists, OuterRef
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from scoring import engine

from .. import access, presenters, selectors, services
from .. import standings as scores
from ..models import Board, Event, Pair, Player, Season
from .polling import tagged

SEATS = tuple((seat, presenters.SEATS[seat]) for seat in engine.SEATS)
POLL_SECONDS = 5


def public_event(view: Callable) -> Callable:
    """Load the event the caller may see (access.shown_event); else the site's one 404,
    the same for an event not published as for an id no event has."""

    @functools.wraps(view)
    def wrapper(request: HttpRequest, pk: int, *args, **kwargs) -> HttpResponse:
        caller = access.web_caller(request)
        # Whether later sessions follow this one (the link to the overall standings), in
        # the same query as the event.
        event = access.shown_event(caller, Event.objects.filter(pk=pk).annotate(
            has_later_sessions=Exists(Event.objects.filter(session_of=OuterRef("pk")))).first())
        if event is None:
            raise Http404(access.NO_SUCH_EVENT)
        # The correction period may have ended since anyone last looked.
        event = services.event_final_if_due(event=event)
        return view(request, event, *args, caller=caller, **kwargs)

    return wrapper


def _context(event: Event, director: bool, **extra) -> dict:
    return {"event": event, "director": director, "poll_seconds": POLL_SECONDS, **extra}


def _not_yet(request: HttpRequest, event: Event) -> HttpResponse:
    """Standings and score cards before they are published (a table may see its event)."""
    if request.GET.get("fragment"):
        raise PermissionDenied(access.NOT_PUBLISHED)
    return render(request, "tournaments/public/unpublished.html", {"event": event}, status=403)


def _page(request: HttpRequest, template: str, fragment: str, context: dict) -> HttpResponse:
    """The whole page, or only its live part when live.js asks for ``?fragment=1``."""
    if request.GET.get("fragment"):
        return render(request, fragment, context)
    return render(request, template, {**context, "fragment": fragment})


# --- the pages ---------------------------------------------------------------------------


@require_GET
@public_event
def event_page(request: HttpRequest, event: Event, *, caller: access.Caller) -> HttpResponse:
    """The event: what is published, its boards (with hand records once finished), its pairs."""
    boards = list(Board.objects.filter(event=event).order_by("number")
                  .values_list("number", "deal"))
    finished = access.finished_boards(event)
    pairs = list(Pair.objects.filter(event=event).select_related("player_1", "player_2", "team",
                                                         "section").order_by("number"))
    subs = scores.pair_substitutes(event)
    for pair in pairs:  # as the standings and the card name them: with any substitute
        pair.names_text = presenters.pair_names(pair.names, subs.get(pair.number))
    board_rows = [{"number": n, "finished": n in finished, "has_deal": bool(deal)}
                  for n, deal in boards]
    return render(request, "tournaments/public/event.html", _context(
        event, caller.director, boards=board_rows, pairs=pairs,
        sections=list(event.sections.all())))


@require_GET
@never_cache
@public_event
def standings_page(request: HttpRequest, event: Event, *, caller: access.Caller) -> HttpResponse:
    if not access.may_see_standings(caller, event):
        return _not_yet(request, event)
    table = scores.standings(event)
    # A late pair's Boards read "10 of 14" (read only where some pair is short of boards).
    late = selectors.late_pairs(event, table)
    return _page(request, "tournaments/public/standings.html",
                 "tournaments/public/_standings.html",
                 _context(event, caller.director, standings=table, seq=event.seq, late=late))


@require_GET
@never_cache
@public_event
def overall_page(request: HttpRequest, event: Event, *, caller: access.Caller) -> HttpResponse:
    """An event of several sessions: each pair's score in each session and overall. Shown
    to everyone once every session's standings are published; the director always."""
    if event.kind == "teams":
        raise Http404("a team match has no sessions")
    if event.session_of_id is None and not event.has_later_sessions:
        # Decision 129: an event of one session has its own standings and no overall (it
        # would rank a Mitchell's N–S and E–W pairs together in one column).
        raise Http404("an event of one session has no overall standings: see its standings")
    # Each session's correction period may have ended since anyone last looked.
    sessions = [services.event_final_if_due(event=s) for s in event.session_events()]
    if not access.may_see_overall(caller, sessions):
        return _not_yet(request, event)
    return render(request, "tournaments/public/overall.html", _context(
        event, caller.director, standings=scores.overall_standings(event)))


@require_GET
@never_cache
@public_event
def board_page(request: HttpRequest, event: Event, number: int, *,
               caller: access.Caller) -> HttpResponse:
    """The traveller of a board, and its hand record once every table has played it."""
    numbers = list(Board.objects.filter(event=event).order_by("number")
                   .values_list("number", flat=True))
    if number not in numbers:
        raise Http404("no such board")
    at = numbers.index(number)
    around = {"previous": numbers[at - 1] if at else None,
              "next": numbers[at + 1] if at + 1 < len(numbers) else None}
    finished = access.board_finished(event, number)
    refusal = access.traveller_refusal(caller, event, number, finished=finished)
    if refusal is not None:
        # A board still being played: nothing of it (contract, tricks, cards) is shown.
        if request.GET.get("fragment"):
            raise PermissionDenied(refusal)
        return render(request, "tournaments/public/board_hidden.html", _context(
            event, caller.director, number=number, message=refusal, **around), status=403)
    traveller = selectors.traveller(event, number)
    # The live pages are also projected in the club room: even the director's shows the
    # diagram only once the board is finished (the director's console has the deal).
    finished = finished and access.may_see_deal(caller, event, number, finished=finished)
    hands = hand_diagram(traveller["hands"]) if finished and traveller["hands"] else None
    return _page(request, "tournaments/public/board.html", "tournaments/public/_board.html",
                 _context(event, caller.director, traveller=traveller, finished=finished,
                          hands=hands, seq=event.seq, **around))


@require_GET
@never_cache
@public_event
def pair_page(request: HttpRequest, event: Event, number: int, *,
              caller: access.Caller) -> HttpResponse:
    """A pair's personal score card: board by board, with the running total."""
    if not access.may_see_standings(caller, event):
        return _not_yet(request, event)
    try:
        card = access.shown_scorecard(caller, event, selectors.scorecard(event, number))
    except Pair.DoesNotExist:
        raise Http404("no such pair") from None
    return _page(request, "tournaments/public/pair.html", "tournaments/public/_pair.html",
                 _context(event, caller.director, card=card, seq=event.seq))


@require_GET
@never_cache
@public_event
def live(request: HttpRequest, event: Event, *, caller: access.Caller) -> JsonResponse:
    """What live.js polls: the event's change number, and what is published. A poll that
    brings back the ETag of the event as it still is gets a 304 from the cache alone,
    before the session and the database (web/polling.py)."""
    return tagged(request, JsonResponse({
        "event": event.pk,
        "seq": event.seq,
        "published": event.published,
        "status": event.status,
    }), event)


# --- helpers -----------------------------------------------------------------------------


def cards_text(cards: str) -> str:
    """"AKT2" as players read it: "A K 10 2"; a void is a dash."""
    if not cards:
        return "—"
    return " ".join("10" if c == "T" else c for c in cards)


def hand_diagram(hands: dict[str, dict[str, str]]) -> dict[str, dict]:
    """Seat -> {"name", "suits": [(suit, cards as read)]} for the compass diagram."""
    return {
        seat: {"name": name,
               "suits": [(suit, cards_text(hands.get(seat, {}).get(suit, "")))
                         for suit in engine.SUITS]}
        for seat, name in SEATS
        if seat in hands
    }


@require_GET
def member_page(request: HttpRequest, number: str) -> HttpResponse:
    """A member's own results across events: event, date, partner, score, place. Only
    the events whose standings the caller may see (access.member_events)."""
    player = Player.objects.filter(number=number).first()
    if player is None:
        raise Http404("no such member")
    caller = access.web_caller(request)
    events = access.member_events(caller, selectors.member_event_ids(player))
    rows = selectors.member_results(player, events)
    seasons = selectors.member_seasons(player, access.visible_seasons(caller),
                                       director=caller.director)
    return render(request, "tournaments/public/member.html",
                  {"member": player, "rows": rows, "seasons": seasons,
                   "director": caller.director})


# --- seasons -----------------------------------------------------------------------------


@require_GET
@never_cache
def seasons_page(request: HttpRequest) -> HttpResponse:
    """The club's seasons: the published ones (the director sees every one)."""
    caller = access.web_caller(request)
    seasons = list(access.visible_seasons(caller).prefetch_related("events"))
    for season in seasons:  # the season's page counts only the final nights so far
        # The public is not told of a night not published.
        season.nights = len(selectors.season_nights(season, director=caller.director))
        season.final_nights = sum(e.published == Event.Published.FINAL
                                  for e in season.events.all())
    return render(request, "tournaments/public/seasons.html",
                  {"seasons": seasons, "director": caller.director})


@require_GET
@never_cache
def season_page(request: HttpRequest, pk: int) -> HttpResponse:
    """A season's table: the public counts the nights whose standings are final."""
    caller = access.web_caller(request)
    season = access.shown_season(caller, Season.objects.filter(pk=pk).first())
    if season is None:
        raise Http404(access.NO_SUCH_SEASON)
    services.season_events_final_if_due(season=season)  # a correction period may be over
    table = selectors.season_table(season, director=caller.director)
    columns, rows = presenters.season_rows(table)
    return render(request, "tournaments/public/season.html", {
        "season": season, "table": table, "columns": columns, "rows": rows,
        "rule": presenters.season_rule(season), "director": caller.director,
        "not_counted": [{**e, "day": presenters.day(e["date"])} for e in table["events"]
                        if not e["counts"]]})
