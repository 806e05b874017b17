"""The director's console: set up a night, watch the tables, correct and rule.

Staff only. Each page validates its form, calls one service, and reports with
django.contrib.messages. Changes to results are audited by the services
and can be undone from the audit page; what cannot be undone (agreeing a round,
closing the event) asks for confirmation first.
"""

from __future__ import annotations

import datetime
import functools
import ipaddress
import json
from collections.abc import Callable
from urllib.parse import urlsplit

import segno
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import BadRequest, PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.defaultfilters import pluralize
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from boards.dealing import deal_boards
from boards.movements import Movement, board_range
from boards.pbn import read_hand_record, write_pbn

from .. import access, presenters, seam, selectors, services
from ..converters import NUMBER
from ..forms import (
    BoardsUploadForm,
    DealForm,
    EventForm,
    MovementForm,
    PairsForm,
    ReasonForm,
    RulingForm,
    director_result_form,
    result_form_class,
)
from ..inputs import column_range, query_number, whole_number
from ..models import AuditEntry, Board, Event, Meeting, Result, Section
from ..presenters import actor as actor_name
from ..presenters import clock, movement_size, table_label
from ..services import Actor, ServiceError
from ..services.members import Namesake, numbers_named_otherwise, visitors_named_as_members
from .table import preview_answer

# --- access --------------------------------------------------------------------------------------


def director_required(view: Callable) -> Callable:
    """Log in first; then only staff (the club's directors) may use the console."""

    @functools.wraps(view)
    def wrapper(request: HttpRequest, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not access.is_director(request.user):
            raise PermissionDenied("the director's console is for the club's directors")
        return view(request, *args, **kwargs)

    return wrapper


def _actor(request: HttpRequest) -> Actor:
    return Actor.director(request.user)


def _event(event_id: int) -> Event:
    # The correction period may have ended since anyone last looked.
    return services.event_final_if_due(event=get_object_or_404(Event, pk=event_id))


def _section(event: Event, request: HttpRequest | None = None) -> Section:
    """The section a page works on: ?section=B (or a form's "section"), else the first."""
    name = request and (request.POST.get("section") or request.GET.get("section"))
    sections = event.sections.order_by("name")
    section = (sections.filter(name=name).first() if name else None) or sections.first()
    if section is None:
        raise Http404("this event has no section")
    return section


def _fail(request: HttpRequest, exc: ServiceError) -> None:
    messages.error(request, exc.message)


def _reason(request: HttpRequest) -> str:
    """The reason typed for the audit trail, checked as every reason form checks it."""
    form = ReasonForm(request.POST)
    if not form.is_valid():
        raise ServiceError(form.errors["reason"][0], field="reason")
    return form.cleaned_data["reason"]


def _back(event: Event) -> HttpResponse:
    return redirect("director-event", event_id=event.pk)


def not_in_yet(count: int) -> str:
    """The heading of the boards a step would agree as they stand: "Not in yet: 147 board
    results" (a board at a table; "" for none)."""
    return f"Not in yet: {count} board result{pluralize(count)}" if count else ""


# --- events --------------------------------------------------------------------------------------


@director_required
@require_GET
def events(request: HttpRequest) -> HttpResponse:
    services.events_final_due()
    return render(request, "tournaments/director/events.html",
                  {"events": Event.objects.all()[:200]})


@director_required
@require_http_methods(["GET", "POST"])
def event_new(request: HttpRequest) -> HttpResponse:
    form = EventForm(request.POST or None,
                     initial={"rules": "american-1913", "kind": "pairs", "method": "plus-minus",
                              "date": timezone.localdate()})  # the club's day (TIME_ZONE)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            event = services.event_create(name=data["name"], date=data["date"],
                                          rules=data["rules"], kind=data["kind"],
                                          method=data["method"], actor=_actor(request))
        except ServiceError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        else:
            messages.success(request, f"{event.name} created. Next: the pairs.")
            return redirect("director-pairs", event_id=event.pk)
    return render(request, "tournaments/director/event_new.html", {"form": form})


STATUS_ACTIONS = {
    # What the console offers in each state (the services decide what is allowed). The
    # first is the main button; "mark agreed" is offered as such only when every board is
    # in (event_detail), otherwise the page lists what is missing.
    Event.Status.SETTING_UP: [("running", "Start the night")],
    # "Back to setting up" asks first (event_status shows what it means), as closing does.
    Event.Status.RUNNING: [("agreed", "All rounds are played: mark agreed"),
                           ("setting-up", "Back to setting up…")],
    Event.Status.AGREED: [("running", "Back to running: the tables may enter again")],
    Event.Status.CLOSED: [],
}
AGREED_MEANS = ("Agreed (Duplicate Law E) means the scores are agreed: the tables can no "
                "longer enter or confirm a board, and only the director changes a score.")
# Setting up and running are one to the tables (services: only agreed and closed shut them
# out), so the console says so where the director would think otherwise.
SETTING_UP_MEANS = (
    "Setting up is the console's word for a night not started: it does not stop the "
    "tables. They can still enter, confirm and agree results, as while it runs (only an "
    "agreed or closed event shuts them out); the results already entered stay as they are "
    "and still count; and the movement cannot change in a section with results. To stop "
    "the tables entering results, mark the event agreed instead.")
SETTING_UP_STARTS = (
    "Setting up: the tables can already enter results once the movement is stored (the "
    "night's state shuts them out only when agreed or closed). “Start the night” "
    "marks the event running and offers agreeing and closing.")
# Matchpoints: how a board not played at a table is scored (web/director_scoring.py).
NOT_PLAYED_CHOICES = [("neuberg", "Neuberg: over the boards played"),
                      ("own-average", "The pair's own average")]
SHOWN_OUTSTANDING = 12  # the event page lists this many boards not in; the rest are counted


def _publish_offers(event: Event) -> list[tuple[str, str]]:
    """The changes of publishing level the console offers now (the current one is a state).

    Final comes with closing: before it only provisional standings are offered; in the
    correction period "Publish final now" ends it.
    """
    offers = []
    if event.published != Event.Published.PROVISIONAL and not (
            event.status == Event.Status.CLOSED and event.final_after is None):
        offers.append(("provisional", "Publish provisional"))
    if event.status == Event.Status.CLOSED and event.published != Event.Published.FINAL:
        offers.append(("final", "Publish final now"))
    if event.published != Event.Published.NONE:
        offers.append(("none", "Take down"))
    return offers


CONSOLE_MAIL = "django.core.mail.backends.console.EmailBackend"


def mail_setup() -> dict:
    """What the score cards' mail would get wrong here, for the pages where the cards go
    out (``_site_url_warning.html``): `mail_console` while EMAIL_URL is left at its default
    (the mail is written to the server's log and no player receives it), and
    `local_site_url`, the address the mails' links start with, when no player can open
    it (else "")."""
    return {"mail_console": settings.EMAIL_BACKEND == CONSOLE_MAIL,
            "local_site_url": settings.SITE_URL if site_url_is_local(settings.SITE_URL)
            else ""}


def site_url_is_local(url: str) -> bool:
    """Whether the site's address (settings.SITE_URL, which starts every link in the score
    cards' mail) is this computer's own: localhost or a loopback address, which a player's
    phone resolves to itself, never to the club's site. A LAN address may be the club's."""
    host = (urlsplit(url).hostname or "").rstrip(".")
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    address = getattr(address, "ipv4_mapped", None) or address  # ::ffff:127.0.0.1
    return address.is_loopback or address.is_unspecified


@director_required
@require_GET
def event_detail(request: HttpRequest, event_id: int) -> HttpResponse:
    event = _event(event_id)
    sections = list(event.sections.order_by("name"))
    if not sections:
        raise Http404("this event has no section")
    section = sections[0]
    actions = STATUS_ACTIONS[Event.Status(event.status)]
    outstanding = []
    # A table can enter a result before "Start the night" (SETTING_UP_MEANS): say so.
    count_in, results_in = (_results_in(event) if event.status == Event.Status.SETTING_UP
                            else (0, []))
    irregular = selectors.open_irregularities(event)
    if event.status == Event.Status.RUNNING:
        outstanding = selectors.boards_outstanding(event)
        if outstanding:  # "mark agreed" is not the main button while boards are missing
            actions = [a for a in actions if a[0] != "agreed"]
    return render(request, "tournaments/director/event.html", {
        "event": event,
        "section": section,
        "sections": sections,
        # "4 tables and one sit-out, 9 pairs", from the meetings as stored.
        "movement_size": movement_size(
            selectors.section_movement(section),
            left=selectors.pairs_left(section, several=len(sections) > 1))
        if section.movement != "none" else "",
        "grids": selectors.grid_irregular(selectors.round_grid(event), irregular),
        "irregular": irregular,  # Duplicate Law B: reports still open
        "pairs": event.pairs.count(),
        "boards": event.boards.count(),
        "deals": event.boards.exclude(deal="").count(),
        "status_actions": actions,
        "outstanding": outstanding[:SHOWN_OUTSTANDING],
        "outstanding_more": max(len(outstanding) - SHOWN_OUTSTANDING, 0),
        "not_in_yet": not_in_yet(len(outstanding)),
        "agreed_means": AGREED_MEANS,
        "setting_up_means": SETTING_UP_STARTS,
        "results_in": results_in,
        "results_in_more": count_in - len(results_in),
        "results_in_title": f"Already in: {count_in} board result{pluralize(count_in)}",
        "final_after": clock(event.final_after) if event.in_correction_period else "",
        "publish_offers": _publish_offers(event),
        "closed": event.status == Event.Status.CLOSED,
        "not_played_choices": NOT_PLAYED_CHOICES,
        # How the score cards went by e-mail: only once final (no query before).
        "mails": selectors.score_card_mails(event)
        if event.published == Event.Published.FINAL else None,
        # Mail written to the log only, or links that no player can open.
        **mail_setup(),
    })


@director_required
@require_GET
def grid_json(request: HttpRequest, event_id: int) -> JsonResponse:
    """The live grid's counts, polled by static/js/director.js."""
    return JsonResponse(selectors.grid_json(_event(event_id)))


def _results_in(event: Event) -> tuple[int, list[str]]:
    """How many live results the event has, and the first SHOWN_OUTSTANDING of them as the
    console lists boards not in: "Round 1, table 1: board 1" ("Round 1, section B, table
    1: board 1" with several sections)."""
    live = Result.objects.filter(event=event, voided=False)
    count = live.count()
    found = list(live.select_related("board", "meeting__section")
                 .order_by("meeting__round", "meeting__section__name", "meeting__table",
                           "board__number")[:SHOWN_OUTSTANDING]) if count else []
    several = event.sections.count() > 1

    def where(r: Result) -> str:
        if r.meeting is None:
            return f"Board {r.board.number}"
        section = f"section {r.meeting.section.name}, " if several else ""
        return f"Round {r.meeting.round}, {section}table {r.meeting.table}: board {r.board.number}"

    return count, [where(r) for r in found]


def _setting_up_confirm(request: HttpRequest, event: Event, error: str = "") -> HttpResponse:
    """Back to setting up asks first: it sounds like undoing the night, and does not."""
    if event.status != Event.Status.RUNNING:
        messages.error(request, "Only a running event can go back to setting up.")
        return _back(event)
    count, results = _results_in(event)
    return render(request, "tournaments/director/confirm.html", {
        "event": event, "title": f"Put {event.name} back to setting up?", "error": error,
        "explain": SETTING_UP_MEANS,
        "items": results + ([f"and {count - len(results)} more"]
                            if count > len(results) else []),
        "items_title": f"Already in: {count} board result{pluralize(count)}"
        if count else "No result is in yet.",
        "items_note": "These stay as they are: going back to setting up removes no score."
        if results else "",
        # With results in, the audit says why the night was said not to have started.
        "reason": "required" if results else "optional",
        "hidden": {"status": Event.Status.SETTING_UP},
        "buttons": [("confirmed", "1", "Back to setting up", "confirm-setting-up")],
    })


@director_required
@require_http_methods(["GET", "POST"])
def event_status(request: HttpRequest, event_id: int) -> HttpResponse:
    event = _event(event_id)
    status = (request.POST if request.method == "POST" else request.GET).get("status", "")
    if status not in Event.Status.values or status == Event.Status.CLOSED:
        messages.error(request, "Choose running, agreed or setting up (close the event from "
                                "its own button).")
        return _back(event)
    if status == Event.Status.SETTING_UP and event.status == Event.Status.RUNNING and (
            request.method == "GET" or request.POST.get("confirmed") != "1"):
        return _setting_up_confirm(request, event)
    if request.method == "GET":
        return _back(event)
    reason = ""
    try:
        if status == Event.Status.SETTING_UP:
            reason = _reason(request)
        event = services.event_set_status(event=event, status=status, actor=_actor(request),
                                          reason=reason)
    except ServiceError as exc:
        if status == Event.Status.SETTING_UP and event.status == Event.Status.RUNNING:
            return _setting_up_confirm(request, event, error=exc.message)
        _fail(request, exc)
    else:
        messages.success(request, f"The event is now {event.get_status_display().lower()}.")
    return _back(event)


def _correction_minutes(request: HttpRequest, event: Event) -> int | None:
    raw = request.POST.get("correction_minutes", "").strip()
    if not raw:
        return None
    # Read within the column's range; the service applies the rule (0 to a day).
    low, high = column_range(Event, "correction_minutes")
    try:
        return whole_number(raw, field="correction_minutes", low=low, high=high)
    except ServiceError:
        raise ServiceError("Give the correction period in whole minutes",
                           field="correction_minutes") from None


@director_required
@require_http_methods(["GET", "POST"])
def event_agree(request: HttpRequest, event_id: int) -> HttpResponse:
    """Mark the event agreed while boards are not in: list them, and ask why."""
    event = _event(event_id)
    error = ""
    if request.method == "POST":
        try:
            event = services.event_set_status(event=event, status=Event.Status.AGREED,
                                              actor=_actor(request),
                                              reason=_reason(request))
        except ServiceError as exc:
            error = exc.message
        else:
            messages.success(request, "The event is now agreed.")
            return _back(event)
    outstanding = selectors.boards_outstanding(event)
    return render(request, "tournaments/director/confirm.html", {
        "event": event, "title": f"Mark {event.name} agreed?", "error": error,
        "explain": AGREED_MEANS,
        "items": [str(o) for o in outstanding],
        "items_title": not_in_yet(len(outstanding)) or "Every board is in.",
        "items_note": "Agreeing now agrees these as they stand: a board not entered stays "
                      "without a score until you enter it or give a ruling." if outstanding
                      else "",
        "reason": "required" if outstanding else "",
        "buttons": [("status", "agreed", "Mark agreed" + (" anyway" if outstanding else ""),
                     "confirm-agree-event")],
    })


@director_required
@require_http_methods(["GET", "POST"])
def event_close(request: HttpRequest, event_id: int) -> HttpResponse:
    """Closing starts the correction period, then the standings are final: ask first."""
    event = _event(event_id)
    error = ""
    if request.method == "POST":
        try:
            event = services.event_close(
                event=event, actor=_actor(request), reason=_reason(request),
                publish_final=request.POST.get("publish") == "now",
                correction_minutes=_correction_minutes(request, event))
        except ServiceError as exc:
            error = exc.message
        else:
            if event.in_correction_period:
                messages.success(
                    request, "The event is closed. The standings become final at "
                             f"{clock(event.final_after)}, at the end of the correction "
                             "period; until then you can reopen the event to correct a score.")
            else:
                messages.success(request, "The event is closed: its scores are final, and "
                                          "the standings are published final.")
            return _back(event)
    outstanding = (selectors.boards_outstanding(event)
                   if event.status == Event.Status.RUNNING else [])
    minutes = event.correction_minutes
    return render(request, "tournaments/director/confirm.html", {
        "event": event, "title": f"Close {event.name}?", "error": error,
        "explain": "Closing ends the night. During the correction period the players check "
                   "the standings (shown provisional, if they are not published yet) and "
                   "you can still reopen the event, with a reason, to "
                   "correct a score; when it ends the standings are published final and "
                   "nobody, not even the director, can change a result.",
        "items": [str(o) for o in outstanding],
        "items_title": not_in_yet(len(outstanding)),
        "items_note": "Closing now agrees these as they stand." if outstanding else "",
        "reason": "required" if outstanding else "",
        "minutes": minutes,
        # Closing publishes final (now, or after the correction period): the cards go out.
        **mail_setup(),
        "buttons": [
            ("publish", "later", "Close; publish final after the correction period",
             "confirm-close"),
            ("publish", "now", "Close and publish final now", "confirm-close-final"),
        ],
    })


@director_required
@require_http_methods(["GET", "POST"])
def event_reopen(request: HttpRequest, event_id: int) -> HttpResponse:
    """In the correction period: reopen the closed event (back to agreed) to correct it."""
    event = _event(event_id)
    error = ""
    if request.method == "POST":
        try:
            event = services.event_reopen(event=event, actor=_actor(request),
                                          reason=_reason(request))
        except ServiceError as exc:
            error = exc.message
        else:
            messages.success(request, "The event is open again (agreed): correct the score, "
                                      "then close it again.")
            return _back(event)
    if not event.in_correction_period and not error:
        messages.error(request, "Only a closed event in its correction period can be reopened.")
        return _back(event)
    return render(request, "tournaments/director/confirm.html", {
        "event": event, "title": f"Reopen {event.name}?", "error": error,
        "explain": "The event goes back to agreed: you can correct a score (the tables "
                   "still cannot), then close it again, which starts a new correction "
                   "period. The standings stay as they are published.",
        "reason": "required",
        "buttons": [("reopen", "1", "Reopen the event", "confirm-reopen")],
    })


@director_required
@require_POST
def correction_period(request: HttpRequest, event_id: int) -> HttpResponse:
    event = _event(event_id)
    try:
        minutes = _correction_minutes(request, event)
        if minutes is None:
            raise ServiceError("Give the correction period in minutes",
                               field="correction_minutes")
        event = services.correction_period_set(event=event, minutes=minutes,
                                               actor=_actor(request))
    except ServiceError as exc:
        _fail(request, exc)
    else:
        messages.success(request, f"Correction period: {event.correction_minutes} minutes.")
    return _back(event)


@director_required
@require_POST
def event_publish(request: HttpRequest, event_id: int) -> HttpResponse:
    event = _event(event_id)
    try:
        event = services.event_publish(event=event, level=request.POST.get("level", ""),
                                       actor=_actor(request))
    except ServiceError as exc:
        _fail(request, exc)
    else:
        messages.success(request, f"Standings: {event.get_published_display().lower()}.")
    return _back(event)


# --- set-up: pairs, movement, boards -------------------------------------------------------------


@director_required
@require_http_methods(["GET", "POST"])
def pairs(request: HttpRequest, event_id: int) -> HttpResponse:
    """One pair per line, numbered in order ("Team: A & B" for teams)."""
    event = _event(event_id)
    teams = event.kind == "teams"
    form = PairsForm(request.POST or None, teams=teams,
                     initial={"pairs": selectors.pairs_text(event)})
    if request.method == "POST" and form.is_valid():
        lines = form.cleaned_data["pairs"]
        actor = _actor(request)
        try:
            services.pairs_set(event=event, lines=lines, actor=actor)
        except ServiceError as exc:
            form.add_error("pairs", exc.message)
        else:
            messages.success(request, f"{len(lines)} pairs stored. Next: the movement.")
            namesakes = visitors_named_as_members(event=event)
            if namesakes:
                # The rule stands (a name alone is a visitor); the director is told at once,
                # before the night is missing from the member's page and their card's mail.
                messages.warning(request, namesakes_words(namesakes))
            for other in numbers_named_otherwise(lines):
                messages.warning(request, (
                    f"Pair {other.pair}: “{other.typed}”: member #{other.number} is "
                    f"{other.member}, who is seated. If you meant someone else, correct the "
                    "number."))
            return redirect("director-movement", event_id=event.pk)
    extra = event.pairs.count()
    sections = list(event.sections.order_by("name"))
    return render(request, "tournaments/director/pairs.html",
                  {"event": event, "form": form, "teams": teams, "stored": extra,
                   "changes": selectors.pair_changes(event), "sections": sections,
                   # Several sections: each pair's section, picked pair by pair.
                   "section_pairs": list(event.pairs.select_related(
                       "player_1", "player_2", "section").order_by("number"))
                   if len(sections) > 1 else []})


def _member_numbers(numbers: tuple[str, ...]) -> str:
    shown = [f"#{n}" for n in numbers]
    if len(shown) == 1:
        return f"member {shown[0]}"
    return "members " + presenters.listed(shown)


def namesakes_words(namesakes: list[Namesake]) -> str:
    """The warning after saving pairs that name members' names without their numbers:
    "Saved as visitors: Winifred Delancey (pair 5) is the name of member #109, Ada
    Lispenard (pair 5) of member #110. To credit the members, write “Winifred Delancey
    #109”." """
    several = len(namesakes) > 1
    parts = [f"{n.name} (pair {n.pair}) {'is the name of' if i == 0 else 'of'} "
             f"{_member_numbers(n.numbers)}" for i, n in enumerate(namesakes)]
    first = namesakes[0]
    return (f"Saved as {'visitors' if several else 'a visitor'}: {', '.join(parts)}. "
            f"To credit the member{'s' if several else ''}, write "
            f"“{first.name} #{first.numbers[0]}”.")


def _generate(event: Event, data: dict, pair_count: int):
    """The movement the form describes, and its problems: services.movement_generate
    (a ServiceError says what is wrong with the request)."""
    kind = data["kind"]
    team_match = kind == "team-match"
    return services.movement_generate(
        event=event, kind=kind, boards_per_round=data["boards_per_round"],
        tables=None if team_match else data["tables"],
        pairs=None if team_match else pair_count,
        variant=(data.get("variant") or None) if kind == "mitchell" else None,
        pairs_per_team=data["pairs_per_team"] if team_match else None)


@director_required
@require_http_methods(["GET", "POST"])
def movement(request: HttpRequest, event_id: int) -> HttpResponse:
    """Choose the movement; "Show" lays it out, "Save" stores its boards and meetings."""
    event = _event(event_id)
    section = _section(event, request)
    sections = list(event.sections.order_by("name"))
    # Several sections: the section's own pairs play its movement as pairs 1, 2, … in turn.
    own = list(section.pairs.order_by("number").values_list("number", flat=True)) \
        if len(sections) > 1 else None
    pair_count = len(own) if own is not None else event.pairs.count()
    kind = section.movement if section.movement != "none" else \
        ("team-match" if event.kind == "teams" else "mitchell")
    if kind == "mitchell" and section.movement == "none" and 2 < pair_count < 5:
        kind = "howell"  # a Mitchell needs 3 tables: 3 or 4 pairs play a Howell
    initial = {
        "kind": kind,
        # A workable count for the pairs entered (10 pairs: 5 tables), not the stored one.
        "tables": services.tables_needed(kind, pair_count),
        "boards_per_round": section.boards_per_round or 3,
        "variant": section.variant,
        "pairs_per_team": max(pair_count // 2, 2) if event.kind == "teams" else None,
    }
    form = MovementForm(request.POST or None, initial=initial, teams=event.kind == "teams")
    shown = problems = None
    if request.method == "POST" and form.is_valid():
        try:
            shown, problems = _generate(event, form.cleaned_data, pair_count)
        except ServiceError as exc:
            form.add_error(None, exc.message)
        else:
            if request.POST.get("action") == "save" and not problems:
                actor = _actor(request)
                try:
                    services.movement_and_boards_set(section=section, movement=shown, actor=actor)
                except ServiceError as exc:
                    form.add_error(None, exc.message)
                else:
                    messages.success(request, f"Movement stored: {movement_size(shown)}, "
                                              f"{len(shown.rounds)} rounds, {shown.boards} boards.")
                    return redirect("director-event", event_id=event.pk)
    stored = list(Meeting.objects.filter(section=section).order_by("round", "table")
                  .select_related("ns_pair", "ew_pair"))
    return render(request, "tournaments/director/movement.html", {
        "event": event, "section": section, "sections": sections, "own_pairs": own,
        "form": form, "movement": shown,
        "problems": problems, "stored": stored, "pair_count": pair_count,
        "team_names": _team_names(event, shown, own) if shown and shown.teams else {},
        # The workable tables of each movement, which the page's script puts in "Tables"
        # when another movement is chosen (7 pairs: a Mitchell 4, a Howell 3).
        "workable": json.dumps({k: services.tables_needed(k, pair_count)
                                for k in ("mitchell", "howell", "three-quarter-howell")}),
    })


def _team_names(event: Event, movement: Movement, own: list[int] | None) -> dict[str, str]:
    """What the preview calls the team match's two sides, "A" and "B": the team the
    director entered for their pairs ("Gramercy"). A side whose pairs were entered under
    no team is "Team A"; one whose pairs are in different teams says so, "Team A
    (Gramercy, Murray Hill)", since the match would not be the teams the director meant.

    The movement's pair n is event pair n, or with several sections the section's n-th
    pair (``own``), as services.movement_meetings_set seats them.
    """
    teams = {p.number: p.team.name for p in event.pairs.select_related("team") if p.team}
    seated = dict(enumerate(own, start=1)) if own is not None else None
    names = {}
    for side, numbers in movement.teams.items():
        entered = [teams.get(seated.get(n) if seated is not None else n) for n in numbers]
        found = list(dict.fromkeys(name for name in entered if name))
        if len(found) == 1 and all(entered):
            names[side] = found[0]
        elif found:
            names[side] = f"Team {side} ({', '.join(found)})"
        else:
            names[side] = f"Team {side}"
    return names


@director_required
@require_http_methods(["GET", "POST"])
def boards(request: HttpRequest, event_id: int) -> HttpResponse:
    """The hand record: upload a PBN file, deal new hands, or download it (?download=pbn)."""
    event = _event(event_id)
    if request.method == "GET" and request.GET.get("download") == "pbn":
        return _hand_record_pbn(event)
    count = event.boards.count()
    upload = BoardsUploadForm()
    deal = DealForm(initial={"count": count or None})
    if request.method == "POST":
        action = request.POST.get("action")
        try:
            if action == "upload":
                upload = BoardsUploadForm(request.POST, request.FILES)
                if upload.is_valid():
                    try:
                        deals = read_hand_record(upload.cleaned_data["pbn"])
                    except ValueError as exc:
                        raise ServiceError(f"the hand record cannot be read: {exc}",
                                           field="pbn") from None
                    # A dealing program's set is often longer than the night: once the
                    # movement has made the boards, a deal beyond them would only show as
                    # a board never played on the travellers and hand records.
                    left_out = sorted(n for n in deals if count and n > count)
                    deals = {n: d for n, d in deals.items() if n not in left_out}
                    if not deals:
                        upload.add_error("pbn", f"The night plays boards 1–{count}: this file "
                                         "has none of them" if left_out
                                         else "This file has no deals in it")
                    else:
                        services.boards_set(event=event, count=max(count, max(deals)),
                                            deals=deals, actor=_actor(request))
                        messages.success(request, f"Hand record stored: {len(deals)} deals."
                                         + _left_out(left_out))
                        return redirect("director-boards", event_id=event.pk)
            elif action == "deal":
                deal = DealForm(request.POST)
                if deal.is_valid():
                    n = deal.cleaned_data["count"]
                    deals = dict(enumerate(deal_boards(n), start=1))
                    services.boards_set(event=event, count=max(count, n), deals=deals,
                                        actor=_actor(request))
                    messages.success(request, f"{len(deals)} new hands dealt.")
                    return redirect("director-boards", event_id=event.pk)
            else:
                messages.error(request, "Upload a hand record or deal new hands")
        except ServiceError as exc:
            target = upload if action == "upload" else deal
            field = "pbn" if action == "upload" else None
            target.add_error(field, exc.message)
    return render(request, "tournaments/director/boards.html", {
        "event": event, "upload": upload, "deal": deal,
        "boards": event.boards.order_by("number"),
    })


def _left_out(numbers: list[int]) -> str:
    """Words for the boards of a hand record the night does not play ("" for none)."""
    if not numbers:
        return ""
    which = (f"Board {numbers[0]} is" if len(numbers) == 1
             else f"Boards {board_range(numbers)} are")
    return f" {which} not in this night's movement: left out."


def _hand_record_pbn(event: Event) -> HttpResponse:
    """The event's boards as a PBN hand record, for a dealing program or a hand-record sheet."""
    boards = [(b.number, b.deal or None) for b in event.boards.order_by("number")]
    if not boards:
        raise Http404("this event has no boards yet")
    response = HttpResponse(write_pbn(boards, event=event.name, date=event.date),
                            content_type="application/x-pbn; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="hand-record-{event.pk}.pbn"'
    return response


# --- tables: links, QR codes, guide cards --------------------------------------------------------


@director_required
@require_GET
def tables(request: HttpRequest, event_id: int) -> HttpResponse:
    event = _event(event_id)
    rows = []
    for code in selectors.table_links(event):
        url = request.build_absolute_uri(reverse("table-home", kwargs={"code": code.code}))
        qr = segno.make(url, error="m")
        rows.append({"code": code, "url": url,
                     "svg": qr.svg_inline(scale=4, title=f"Table {code.table}")})
    return render(request, "tournaments/director/tables.html",
                  {"event": event, "rows": rows,
                   "enter_url": request.build_absolute_uri(reverse("table-enter"))})


@director_required
@require_GET
def guide_cards(request: HttpRequest, event_id: int) -> HttpResponse:
    event = _event(event_id)
    cards = selectors.guide_cards_of_section(selectors.guide_cards(event),
                                             request.GET.get("section", ""))
    return render(request, "tournaments/director/guide_cards.html", {**cards, "event": event})


# --- during play: meetings, results, rulings -----------------------------------------------------


def _meeting(event: Event, meeting_id: int) -> Meeting:
    meeting = selectors.meeting_detail(event, meeting_id)
    if meeting is None:
        raise Http404("no such table and round in this event")
    return meeting


def _result(event: Event, result_id: int) -> Result:
    return get_object_or_404(
        Result.objects.select_related("board", "ns_pair", "ew_pair", "meeting__section",
                                      "event"),
        pk=result_id, event=event)


def _meeting_url(event: Event, meeting: Meeting | None) -> str:
    if meeting is None:
        return reverse("director-event", kwargs={"event_id": event.pk})
    return reverse("director-meeting", kwargs={"event_id": event.pk, "meeting_id": meeting.pk})


@director_required
@require_GET
def meeting(request: HttpRequest, event_id: int, meeting_id: int) -> HttpResponse:
    """One table in one round: its boards, their results, and what the director can do."""
    event = _event(event_id)
    m = _meeting(event, meeting_id)
    lines = selectors.meeting_boards(m)
    for line in lines:
        line.text = selectors.describe(line.result, is_whist=event.is_whist)
        line.score = selectors.describe_score(line.result) if line.result else ""
        # A table's entry the director corrected or ruled on since: "By" names both.
        line.changed_by = ""
        if line.result is not None and line.result.status == Result.Status.DIRECTOR:
            director = selectors.result_director(line.result)
            name = presenters.person(director) if director is not None else ""
            if name != line.result.entered_by:
                line.changed_by = name
    # Every board in but the round not agreed: the table's phone keeps it there until it
    # agrees the round (the grid's cells say so by the same rule).
    must_agree = selectors.table_must_agree(
        m, boards=len(lines), confirmed=sum(line.status == "confirmed" for line in lines),
        event_status=event.status)
    return render(request, "tournaments/director/meeting.html", {
        "event": event, "meeting": m, "lines": lines, "must_agree": must_agree,
        "closed": event.status == Event.Status.CLOSED,
    })


def _result_form_page(request, event, meeting, board, form, *, title, result=None,
                      warnings=(), status=200):
    # The score box starts from what is stored (a correction) and follows the form.
    preview = None
    if warnings:  # an unusual result to look at again: show its score, not the stored one
        preview = selectors.result_preview(event, board, form.result_data(), live=True)
    elif result is not None and not result.ruling:
        preview = selectors.result_preview(
            event, board, seam.engine_input(result, is_whist=event.is_whist))
    return render(request, "tournaments/director/result_form.html", {
        "event": event, "meeting": meeting, "board": board, "form": form, "title": title,
        "result": result, "is_whist": event.is_whist,
        "current": selectors.describe(result, is_whist=event.is_whist) if result else "",
        "preview": preview, "score": preview["score"] if preview and preview["ok"] else None,
        "preview_url": reverse("director-preview", kwargs={"event_id": event.pk,
                                                           "board": board.number}),
        "warnings": warnings, "as_entered": form.entry_digest() if warnings else "",
    }, status=status)


@director_required
@require_POST
def preview(request: HttpRequest, event_id: int, board: int) -> JsonResponse:
    """The live score of the director's result form: nothing is written."""
    event = _event(event_id)
    board_row = get_object_or_404(Board, event=event, number=board)
    return JsonResponse(preview_answer(event, board_row, request.POST))


@director_required
@require_http_methods(["GET", "POST"])
def enter_result(request: HttpRequest, event_id: int, meeting_id: int, board: int
                 ) -> HttpResponse:
    """The director enters a board the table did not."""
    event = _event(event_id)
    m = _meeting(event, meeting_id)
    if board not in m.boards:
        raise Http404(f"board {board} is not played at this table in this round")
    board_row = get_object_or_404(Board, event=event, number=board)
    form = director_result_form(event.rules, deal=board_row.deal, data=request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            _, created = services.result_record(
                event=event, board=board, ns=m.ns_pair.number, ew=m.ew_pair.number,
                data=form.result_data(), actor=_actor(request), meeting=m,
                as_entered=form.saved_as_entered())
        except services.UnusualResult as exc:
            return _result_form_page(request, event, m, board_row, form,
                                     title=f"Enter board {board}", warnings=exc.warnings)
        except services.ResultConflict as exc:
            form.add_error(None, "This board already has a result: "
                           f"{selectors.describe(exc.existing, is_whist=event.is_whist)}; "
                           "correct it instead")
        except ServiceError as exc:
            form.add_service_error(exc)
        else:
            messages.success(request, f"Board {board} entered." if created
                             else f"Board {board} had that result already.")
            return redirect(_meeting_url(event, m))
    return _result_form_page(request, event, m, board_row, form,
                             title=f"Enter board {board}")


@director_required
@require_http_methods(["GET", "POST"])
def correct_result(request: HttpRequest, event_id: int, result_id: int) -> HttpResponse:
    """Correct a result (Duplicate Law E: the director's, with a reason, audited)."""
    event = _event(event_id)
    result = _result(event, result_id)
    form_class = result_form_class(event.rules)
    form = director_result_form(event.rules, deal=result.board.deal, data=request.POST or None,
                                initial=form_class.initial_from(result))
    if request.method == "POST" and form.is_valid():
        try:
            services.result_correct(result=result, actor=_actor(request),
                                    data=form.result_data(),
                                    reason=form.cleaned_data.get("reason", ""),
                                    as_entered=form.saved_as_entered(),
                                    version=form.cleaned_data.get("version"))
        except services.ResultChanged as exc:
            # Another tab, or the table, changed it since this form was opened: the
            # director's entry is kept to look at against the result as it now stands,
            # and saving it again is then a correction of that result.
            data = request.POST.copy()
            data["version"] = str(exc.existing.version)
            form = director_result_form(event.rules, deal=result.board.deal, data=data)
            form.is_valid()
            form.add_error(None, exc.message)
            return _result_form_page(request, event, exc.existing.meeting, exc.existing.board,
                                     form, title=f"Correct board {result.board.number}",
                                     result=exc.existing, status=409)
        except services.UnusualResult as exc:
            return _result_form_page(request, event, result.meeting, result.board, form,
                                     title=f"Correct board {result.board.number}",
                                     result=result, warnings=exc.warnings)
        except ServiceError as exc:
            form.add_service_error(exc)
        else:
            messages.success(request, f"Board {result.board.number} corrected. "
                                      "Undo it from the audit page if that was a mistake.")
            return redirect(_meeting_url(event, result.meeting))
    return _result_form_page(request, event, result.meeting, result.board, form,
                             title=f"Correct board {result.board.number}", result=result)


@director_required
@require_http_methods(["GET", "POST"])
def rule_board(request: HttpRequest, event_id: int, meeting_id: int, board: int
               ) -> HttpResponse:
    """Duplicate Law B: average, fouled (naming the offenders) or, at two tables, cancelled."""
    event = _event(event_id)
    m = _meeting(event, meeting_id)
    if board not in m.boards:
        raise Http404(f"board {board} is not played at this table in this round")
    two_tables = selectors.event_tables(event) == 2
    form = RulingForm(request.POST or None, two_tables=two_tables)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            if data["kind"] == "cancelled":
                # Duplicate Law B(3): in two-table duplicate, cancelled at both tables.
                ruled = services.board_cancel(event=event, board=board,
                                              reason=data.get("reason", ""),
                                              actor=_actor(request))
            else:
                ruled = [services.ruling_given(
                    event=event, board=board, ns=m.ns_pair.number, ew=m.ew_pair.number,
                    kind=data["kind"], offending=data.get("offending") or "",
                    reason=data.get("reason", ""), actor=_actor(request), meeting=m)]
        except ServiceError as exc:
            field = exc.field if exc.field in form.fields else None
            form.add_error(field, exc.message)
        else:
            tables = ", ".join(str(r.meeting.table) for r in ruled)
            messages.success(request, f"Board {board}: {data['kind']} at table "
                                      f"{tables}. Undo it from the audit page if needed.")
            return redirect(_meeting_url(event, m))
    return render(request, "tournaments/director/rule.html", {
        "event": event, "meeting": m, "board": board, "form": form,
        "two_tables": two_tables,
        "result": selectors.pair_result(event, board, m.ns_pair.number, m.ew_pair.number),
    })


@director_required
@require_http_methods(["GET", "POST"])
def void_result(request: HttpRequest, event_id: int, result_id: int) -> HttpResponse:
    event = _event(event_id)
    result = _result(event, result_id)
    form = ReasonForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            services.result_void(result=result, actor=_actor(request),
                                 reason=form.cleaned_data["reason"])
        except ServiceError as exc:
            form.add_error("reason" if exc.field == "reason" else None, exc.message)
        else:
            messages.success(request, f"Board {result.board.number}'s result removed. "
                                      "Undo it from the audit page if needed.")
            return redirect(_meeting_url(event, result.meeting))
    return render(request, "tournaments/director/void.html", {
        "event": event, "result": result, "form": form,
        "text": selectors.describe(result, is_whist=event.is_whist),
    })


@director_required
@require_http_methods(["GET", "POST"])
def agree_round(request: HttpRequest, event_id: int, section_id: int, round_number: int
                ) -> HttpResponse:
    """Agree one table's round (?table=N) or the whole round: ask first, it cannot be undone.

    A round agreed already (an old page, a second tab) is not asked about nor agreed
    again: the director is told so and nothing is written.
    """
    event = _event(event_id)
    section = get_object_or_404(Section, pk=section_id, event=event)
    try:
        table = query_number(request.POST if "table" in request.POST else request.GET, "table",
                             low=NUMBER[0], high=NUMBER[1], blank_is_absent=True)
    except ServiceError as exc:
        raise BadRequest(exc.message) from None
    meetings = Meeting.objects.filter(section=section, round=round_number)
    if table:
        meetings = meetings.filter(table=table)
    if not meetings.exists():
        raise Http404(f"there is no round {round_number}" + (f" at table {table}" if table else ""))
    where = f"table {table}" if table else "every table"
    agreed_already = f"Round {round_number} is agreed already at {where}."
    # Checked first, so that the director is not asked to confirm what is done already.
    # Another tab may still agree the round between this check and round_agree's lock:
    # round_agree then agrees no meeting, returns 0 and changes nothing (no audit entry,
    # no change number), and the message below says so.
    if not meetings.filter(agreed_at__isnull=True).exists():
        messages.info(request, agreed_already)
        return _back(event)
    if request.method == "POST":
        try:
            count = services.round_agree(section=section, round_number=round_number,
                                         actor=_actor(request),
                                         tables=[table] if table else None)
        except ServiceError as exc:
            _fail(request, exc)
        else:
            if count:
                messages.success(request, f"Round {round_number} agreed at {where} "
                                          f"({count} newly agreed).")
            else:
                messages.info(request, agreed_already)
        return _back(event)
    outstanding = selectors.boards_outstanding(
        event, section=section, round_number=round_number,
        tables=[table] if table else None)
    count = len(outstanding)
    return render(request, "tournaments/director/confirm.html", {
        "event": event, "title": f"Agree round {round_number} at {where}?",
        "explain": "Duplicate Law E: after this the tables can no longer change these scores; "
                   "only the director can.",
        "items": [str(o) for o in outstanding],
        "items_title": not_in_yet(count) or "Every board of the round is in and confirmed.",
        "items_note": "Agreeing now agrees these as they stand: an unconfirmed board is "
                      "agreed as entered, and a board not entered stays without a score "
                      "until you enter it or give a ruling." if count else "",
        "button": "Agree the round" + (" anyway" if count else ""), "testid": "confirm-agree",
        "hidden": {"table": table or ""},
    })


# --- the audit trail -----------------------------------------------------------------------------


AUDIT_PAGE_SIZE = 50
AUDIT_FILTERS = {"table": "Table", "board": "Board", "who": "Who", "kind": "Kind of change"}


@director_required
@require_GET
def audit(request: HttpRequest, event_id: int) -> HttpResponse:
    """Every change, newest first, AUDIT_PAGE_SIZE a page; narrowed by the filters in the
    query string (a value the event does not have is ignored)."""
    event = _event(event_id)
    choices = selectors.audit_choices(event)
    chosen = {key: request.GET.get(key, "") for key in AUDIT_FILTERS}
    chosen = {key: value if value in dict(choices[key]) else ""
              for key, value in chosen.items()}
    section, _, table = chosen["table"].rpartition(":")
    narrow = selectors.AuditFilter(
        section=section or None, table=int(table) if table else None,
        board=int(chosen["board"]) if chosen["board"] else None,
        who=chosen["who"] or None, kind=chosen["kind"] or None)
    page = Paginator(selectors.audit_entries(event, narrow), AUDIT_PAGE_SIZE).get_page(
        request.GET.get("page"))
    # Offer Undo only where services.audit_undo would allow it.
    undoable = selectors.audit_undoable(event, list(page))
    # A Law B ruling is undone on its irregular board's page, with the table's report.
    law_b = selectors.audit_law_b(event, list(page))
    several = event.sections.count() > 1
    rows = [{
        "entry": entry,
        "who": _audit_who(entry, several=several),
        **_audit_columns(entry, event, several=several),
        "undoable": entry.pk in undoable,
        "law_b": law_b.get(entry.pk),
        "action": AUDIT_ACTIONS.get(entry.action, entry.action),
    } for entry in page]
    filters = [{"name": key, "label": label, "choices": choices[key], "chosen": chosen[key]}
               for key, label in AUDIT_FILTERS.items()]
    return render(request, "tournaments/director/audit.html",
                  {"event": event, "rows": rows, "page": page, "filters": filters,
                   "filtered": any(chosen.values()),
                   "closed": event.status == Event.Status.CLOSED})


def _audit_who(entry: AuditEntry, *, several: bool) -> str:
    """Who made the change, by name; a table "Section B, table 3" where the event has
    several sections (its result's meeting says which, else the entry's own record)."""
    label = entry.actor_label or ""
    if several and entry.actor_id is None and label.lower().startswith("table "):
        meeting = entry.result.meeting if entry.result_id and entry.result else None
        section = (meeting.section.name if meeting is not None
                   else (entry.after or {}).get("section") or (entry.before or {}).get("section"))
        number = label[len("table "):].strip()
        if section and number.isdigit():
            return table_label(int(number), str(section), several=True)
    return actor_name(label, entry.actor)


def _audit_columns(entry: AuditEntry, event: Event, *, several: bool = False
                   ) -> dict[str, str]:
    """The Before and After columns: a merge of two records as a sentence (its snapshots
    hold two records, which key by key read as program data), a round agreed as one
    ("Round 2 agreed at table 3", never "section: A, round: 2, tables: 3"), the rest key
    by key."""
    if entry.action == "merge players":
        before, after = presenters.merge_words(entry.before, entry.after)
    elif entry.action == "agree round":
        before, after = "", presenters.agree_round_words(entry.after, several=several)
    elif "stage" in (entry.after or {}) and entry.action in ("irregular board", "new deal"):
        before, after = (_irregular_text(entry.before, event, several),
                         _irregular_text(entry.after, event, several))
    else:
        before, after = _audit_text(entry.before, event), _audit_text(entry.after, event)
    return {"before": before, "after": after}


def _irregular_text(snapshot: dict | None, event: Event, several: bool) -> str:
    """An irregular board's entry in words (presenters.irregular_audit_words); what else a
    new deal's entry keeps (the hands, the results voided) key by key after it."""
    if snapshot is None:
        return ""
    rest = {k: v for k, v in snapshot.items() if k not in presenters.IRREGULAR_AUDIT_KEYS}
    extra = _audit_text(rest, event) if rest else ""
    words = presenters.irregular_audit_words(snapshot, several=several)
    return f"{words}; {extra}" if extra else words


def _audit_text(snapshot: dict | None, event: Event) -> str:
    if snapshot is None:
        return ""
    if "board" in snapshot and "ns" in snapshot:
        text = selectors.describe(snapshot, is_whist=event.is_whist)
        score = selectors.describe_score(snapshot)
        status = snapshot.get("status", "")
        return (f"Board {snapshot['board']}, pairs {snapshot['ns']} v {snapshot['ew']}: {text}"
                + (f" ({score})" if score else "")
                + (f", {RESULT_STATUS.get(status, status)}" if status else ""))

    def shown(key: str, value) -> str:
        if key == "final_after" and value:  # when the correction period ends, club time
            return clock(datetime.datetime.fromisoformat(value))
        if isinstance(value, bool):
            return "on" if value else "off"
        if key in AUDIT_VALUES:
            return AUDIT_VALUES[key].get(str(value), str(value))
        if isinstance(value, list | tuple) and value and isinstance(value[0], dict):
            # meetings added or taken out (a late pair, a pair that left)
            return "; ".join(f"round {m.get('round')} table {m.get('table')}: "
                             f"{m.get('ns')} v {m.get('ew')}" for m in value)
        if not isinstance(value, list | tuple):
            return str(value)
        if not value:
            return "none"
        if key in ("notes", "outstanding"):
            return "; ".join(value)  # sentences (a movement change, boards not in)
        if all(isinstance(v, int) for v in value):
            return board_range(value)  # boards, tables as a director writes them: "7–10"
        return " & ".join(map(str, value))  # names

    # PostgreSQL's jsonb keeps its own order of the keys (the shortest first): the ones a
    # director reads first go first, the rest after in the stored order.
    keys = sorted((k for k in snapshot if k not in AUDIT_HIDDEN),
                  key=lambda k: AUDIT_ORDER.get(k, len(AUDIT_ORDER)))
    return ", ".join(f"{AUDIT_KEYS.get(key, key.replace('_', ' '))}: {shown(key, snapshot[key])}"
                     for key in keys)


AUDIT_KEYS = {"final_after": "final after", "correction_minutes": "correction period (minutes)",
              "outstanding": "not in", "not_played_scoring": "a board not played scored by",
              "late_boards": "leave to play late", "published": "standings",
              "stage": "found", "kind": "movement"}
# Values in the players' words: an irregular board's (Duplicate Law B) and the standings'.
AUDIT_VALUES = {
    "stage": presenters.IRREGULAR_FOUND,
    "status": {"reported": "reported", "sent-back": "sent back", "resolved": "decided",
               # an event's (the action "status")
               "setting-up": "setting up"},
    "outcome": presenters.IRREGULAR_OUTCOMES,
    "published": {"none": "not published", "provisional": "provisional", "final": "final"},
    "kind": presenters.MOVEMENTS, "variant": presenters.VARIANTS,
}
AUDIT_ORDER = {key: rank for rank, key in enumerate((
    "pair", "section", "from_round", "kind", "variant", "tables", "boards_per_round", "boards",
    "meetings", "new_boards", "new_tables", "closed_tables", "notes"))}
# A row's id in the database says nothing to a director (the ruling's result is in its
# own entry), nor a publication's number (the score card mails' key), nor a new session's
# event id ("add session" names the session by its number).
AUDIT_HIDDEN = {"id", "result", "publication", "event"}
RESULT_STATUS = {"entered": "entered, not yet confirmed", "confirmed": "confirmed",
                 "director": "by the director"}
# The What column: the actions whose stored names read oddly to a director.
AUDIT_ACTIONS = {"void": "remove", "rule": "ruling"}


@director_required
@require_http_methods(["GET", "POST"])
def undo(request: HttpRequest, event_id: int, entry_id: int) -> HttpResponse:
    event = _event(event_id)
    entry = get_object_or_404(AuditEntry, pk=entry_id, event=event)
    if request.method == "POST":
        try:
            services.audit_undo(entry=entry, actor=_actor(request), reason=_reason(request))
        except ServiceError as exc:
            _fail(request, exc)
        else:
            messages.success(request, f"Change #{entry.pk} undone.")
        return redirect("director-audit", event_id=event.pk)
    if entry.undone_by_id is not None:
        # A stale tab, or the back button: the page says so, with nothing to press.
        return render(request, "tournaments/director/confirm.html", {
            "event": event, "title": f"Change #{entry.pk} is undone already",
            "explain": f"Change #{entry.undone_by_id} undid it: there is nothing more to "
                       "undo. To put it back, undo that change on the audit page.",
            "done": True, "testid": "undone-already",
            "back": reverse("director-audit", kwargs={"event_id": event.pk}),
        })
    return render(request, "tournaments/director/confirm.html", {
        "event": event, "title": f"Undo change #{entry.pk}?",
        "explain": f"{actor_name(entry.actor_label, entry.actor)}, "
                   f"{AUDIT_ACTIONS.get(entry.action, entry.action)}: "
                   + (f"{_audit_text(entry.before, event)} → " if entry.before else "")
                   + f"{_audit_text(entry.after, event)}. Undoing puts the result back as it "
                   "was before; the undo itself is recorded.",
        "button": "Undo", "testid": "confirm-undo", "reason": True,
        "back": reverse("director-audit", kwargs={"event_id": event.pk}),
    })
