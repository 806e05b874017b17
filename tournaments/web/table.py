"""The table's pages: a phone or tablet at the table enters and confirms its scores.

A table opens its page with its code (a link, a QR code, or typed at /t/); the
code is the table's key, so codes the phone does not already hold go through the
one table-code throttle (tournaments/throttle.py), as the API's do. Every write goes
through tournaments.services with the table as the actor; the services decide what
the laws allow (Duplicate Law E: after the round is agreed only the director changes
a score).
"""

from __future__ import annotations

import functools
import secrets

from django.contrib import messages
from django.core.cache import cache
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from .. import access, polls, prepared, presenters, selectors, services
from ..converters import NUMBER
from ..forms import TableCodeForm, result_form_class
from ..inputs import query_number, whole_number
from ..models import Board, Event, Meeting, PartyTable, Result, TableCode
from ..outages import cache_tolerant
from ..tablecodes import normalise
from ..throttle import CodeGate
from .polling import tagged

TOKEN_TTL = 6 * 3600  # a night's play
NOT_PLAYED = "not-played"  # the director's ruling: the board was not played here


# --- table codes and throttling ------------------------------------------------------------------


def _too_many(request: HttpRequest, wait: int, code: str = "") -> HttpResponse:
    form = TableCodeForm(initial={"code": code} if code else None)
    return render(request, "tournaments/table/enter.html", {
        "form": form, "too_many": True, "wait": wait,
        "error": "Too many wrong codes from this device or network. Wait "
                 f"{wait} second{'' if wait == 1 else 's'}, then try again.",
    }, status=429)


def _open_table(request: HttpRequest, code: str) -> tuple[TableCode | None, HttpResponse | None]:
    """The table a code opens, through the one table-code throttle (tournaments/throttle.py).

    A code this session (or, for a phone that lost its cookie, this address) already
    holds opens at once and is never counted; any other code is one attempt.
    Returns (table, None), (None, None) for an unknown code, or (None, a 429 page).
    """
    code = normalise(code or "")
    gate = CodeGate(request)
    held = bool(code) and (request.session.get("table_code") == code or gate.holds(code))
    table = selectors.table_by_code(code) if code else None
    if not held:
        verdict = gate.decide(code, right=table is not None)
        if not verdict.allowed:
            return None, _too_many(request, verdict.wait, code)
    return table, None


# A party night's table code: secrets.token_urlsafe(9), the secret of its link (services/party).
PARTY_CODE_LENGTH = 12


def with_table(view):
    """Resolve the URL's code to its table, or answer "no table has that code"."""

    @functools.wraps(view)
    def wrapper(request: HttpRequest, code: str, *args, **kwargs):
        table, refused = _open_table(request, code)
        if refused is not None:
            return refused
        if table is None:
            return render(request, "tournaments/table/enter.html",
                          {"form": TableCodeForm(initial={"code": code}),
                           "error": "no table has that code"}, status=404)
        if request.session.get("table_code") != table.code:
            request.session["table_code"] = table.code
        try:
            return view(request, table, *args, **kwargs)
        except NotPlayedHere as exc:
            return render(request, "tournaments/table/forbidden.html", {
                "table": table, "message": exc.message, "heading": "Not at this table",
            }, status=404)

    return wrapper


@require_http_methods(["GET", "POST"])
def enter_code(request: HttpRequest) -> HttpResponse:
    """/t/: type the code on the table card (or come back to the remembered table)."""
    if request.method == "GET":
        remembered = request.session.get("table_code")
        if remembered and "new" not in request.GET and selectors.table_by_code(remembered):
            return redirect("table-home", code=remembered)
        return render(request, "tournaments/table/enter.html", {"form": TableCodeForm()})
    form = TableCodeForm(request.POST)
    if not form.is_valid():
        return render(request, "tournaments/table/enter.html", {"form": form}, status=400)
    # A party night's table: its code is the secret of its link (long, and read as typed),
    # not a short code to guess, so it is looked up before the code gate counts a try.
    typed = form.cleaned_data["code"].strip()
    if len(typed) >= PARTY_CODE_LENGTH and PartyTable.objects.filter(code=typed).exists():
        return redirect("party-table", code=typed)
    table, refused = _open_table(request, form.cleaned_data["code"])
    if refused is not None:
        return refused
    if table is None:
        return render(request, "tournaments/table/enter.html",
                      {"form": form, "error": "no table has that code"}, status=404)
    request.session["table_code"] = table.code
    return redirect("table-home", code=table.code)


# --- the round -----------------------------------------------------------------------------------


def _actor(table: TableCode) -> services.Actor:
    return services.Actor.at_table(table.section, table.table)


def _meeting(table: TableCode, round_number: int) -> Meeting:
    for meeting in selectors.table_meetings(table.section, table.table):
        if meeting.round == round_number:
            return meeting
    raise Http404(f"table {table.table} has no round {round_number}")


def _locked_message(event: Event, meeting: Meeting | None, seated: Meeting | None,
                    board: int | None = None) -> str:
    """Why this table cannot (or can no longer) enter or confirm this round's scores, or
    this board's; "" while it can."""
    if event.status == Event.Status.CLOSED:
        return "The event is closed: only the director can change a score now."
    if event.status == Event.Status.AGREED:
        return services.AGREED_FOR_TABLES + "."
    if meeting is not None and board is not None and (
            selectors.late_leave(meeting.late_boards, board)
            or (meeting.agreed_at is not None and _late_to_confirm(meeting, board))):
        # Late play: the director's leave opens this board, whatever the round, and the
        # opponents then confirm the late result.
        return ""
    if meeting is not None and meeting.agreed_at is not None:
        return (f"Round {meeting.round} is agreed (Duplicate Law E): only the director can "
                "change its scores now. Ask the director if a score is wrong.")
    if meeting is not None:
        return selectors.later_round_refusal(meeting, seated, board)
    return ""


def _late_to_confirm(meeting: Meeting, board: int) -> bool:
    """Is the board's result one played late that the opponents have still to confirm?"""
    result = selectors.meeting_result(meeting, board)
    return (result is not None and result.late_play
            and result.status == Result.Status.ENTERED)


def _later_round(request: HttpRequest, table: TableCode, meeting: Meeting, board: int
                 ) -> HttpResponse | None:
    """A board of a later round than the table is at: a 403 page saying so (the services
    refuse the write the same way, for the API too); None when the table may go on."""
    refusal = selectors.later_round_refusal(
        meeting, selectors.seated_meeting(table.section, table.table), board)
    if not refusal:
        return None
    return render(request, "tournaments/table/forbidden.html",
                  {"table": table, "message": refusal}, status=403)


class NotPlayedHere(Http404):
    """A board the table does not play in the round asked for (a wrong board taken from
    the relay, a number mistyped): a 404 whose page tells the players so in their words
    (``with_table`` draws it), not the site's bare "nothing at this address"."""

    def __init__(self, meeting: Meeting, board: int):
        boards = presenters.listed(meeting.boards)
        this = (f"this round's board is {boards}" if len(meeting.boards) == 1
                else f"this round's boards are {boards}")
        self.message = (f"Board {board} is not played at this table in round "
                        f"{meeting.round}: {this}. If you have played board {board}, call "
                        "the director.")
        super().__init__(self.message)


def _board_of(meeting: Meeting, board: int) -> Board:
    if board not in meeting.boards:
        raise NotPlayedHere(meeting, board)
    return Board.objects.get(event_id=meeting.section.event_id, number=board)


@require_http_methods(["GET"])
@with_table
def home(request: HttpRequest, table: TableCode, round_number: int | None = None
         ) -> HttpResponse:
    """The table's round: pairs, directions, the boards and where each stands."""
    event = table.section.event
    meetings = selectors.table_meetings(table.section, table.table)
    seated = selectors.current_meeting(meetings)
    if round_number is None:
        meeting = seated
    else:
        meeting = next((m for m in meetings if m.round == round_number), None)
        if meeting is None:
            raise Http404(f"table {table.table} has no round {round_number}")
    lines = selectors.meeting_boards(meeting) if meeting else []
    all_confirmed = bool(lines) and all(line.status == "confirmed" for line in lines)
    shown = access.table_travellers(
        table, [line.number for line in lines if line.result is not None], seated=seated)
    irregular = selectors.meeting_irregular(meeting) if meeting else {}
    playing = event.status in (Event.Status.SETTING_UP, Event.Status.RUNNING)
    for line in lines:
        line.traveller = line.number in shown
        line.irregular = irregular.get(line.number)  # Duplicate Law B: the table waits
        line.wait = presenters.irregular_wait(line.irregular) if line.irregular else ""
        line.director = _director_words(line.result)
        # Marked not played, with the director's leave to play it late: it is to enter.
        line.late = (playing and line.result is not None and line.result.ruling == NOT_PLAYED
                     and selectors.late_leave(meeting.late_boards, line.number))
    sits_out = (selectors.table_sits_out(table.section, table.table, meetings)
                if meeting == seated else None)
    return render(request, "tournaments/table/round.html", {
        "late_play": selectors.late_play_boards(meetings) if playing else [],
        # Duplicate Law B(2): boards another table found wrong, sent back here to be put
        # right and returned.
        "sent_back": [(irr, presenters.sent_back_here(irr)) for irr in
                      selectors.sent_back_to(table.section, table.table)] if playing else [],
        "table": table, "event": event, "meetings": meetings, "meeting": meeting,
        "seated": seated, "lines": lines, "all_confirmed": all_confirmed,
        # Duplicate Law B: the page offers the report for the boards still to be played
        # here; with none left the question is not asked (for a board already scored,
        # the players call the director).
        "reportable": [line.number for line in lines
                       if line.result is None and line.irregular is None],
        "sits_out": sits_out,
        "opens": selectors.table_opens(table.section, meetings) if meeting == seated else None,
        "closed": event.status == Event.Status.CLOSED,
        **_where_to_go(table, meetings, meeting, seated, lines, sits_out),
        "locked": _locked_message(event, meeting, seated),
        "closed_table": selectors.closed_table(table),
        # No round here in a section that has its movement: the movement leaves this
        # table out (a Howell's missing pair's), not "still setting up".
        "left_out": not meetings and Meeting.objects.filter(section=table.section).exists(),
        "state_url": reverse("table-state", kwargs={"code": table.code,
                                                    "round_number": meeting.round})
        if meeting else "",
    })


def _director_words(result: Result | None) -> str:
    """How the round page names a board the director entered or ruled on: "director's
    ruling: fouled board (Duplicate Law B), N–S at fault", "entered or corrected by the
    director"; "" for a result of the table's own. The players neither entered nor
    confirmed such a board, so it is not called "confirmed"."""
    if result is None or not (result.ruling or result.status == Result.Status.DIRECTOR):
        return ""
    if not result.ruling:
        return "entered or corrected by the director"
    words = presenters.result_line(result)  # the one place a ruling is written
    return "director's ruling: " + words[:1].lower() + words[1:]


def _where_to_go(table: TableCode, meetings: list[Meeting], meeting: Meeting | None,
                 seated: Meeting | None, lines: list, sits_out: int | None = None) -> dict:
    """Where the pairs and boards go after the round shown ("where_next"), and, while
    a new round has not started here, after the round just agreed ("round_over"): the
    round before, or the last this table played when it sits out the rounds between
    (its pairs and boards still have to be told where to go)."""
    if meeting is None:
        return {}
    movement = selectors.section_movement(table.section)  # rebuilt once for both answers
    where = selectors.where_next(table.section, table.table, meeting.round, movement=movement)
    over = None
    if meeting == seated and not any(line.result for line in lines):
        before = [m for m in meetings if m.round < meeting.round]
        if before and before[-1].agreed_at and (
                before[-1].round == meeting.round - 1 or sits_out == before[-1].round + 1):
            over = selectors.where_next(table.section, table.table, before[-1].round,
                                        movement=movement)
    return {"where_next": where, "round_over": over}


def _held_code(request: HttpRequest, code: str) -> str | None:
    """The URL's code when this phone's session holds it (it opened the table), else None:
    a table's writes then read the code with what they need in one statement, and any
    other code goes through with_table and its throttle."""
    code = normalise(code or "")
    if not code or not prepared.available():
        return None  # (on SQLite every write goes through with_table)
    return code if request.session.get("table_code") == code else None


@require_http_methods(["GET", "POST"])
def agree(request: HttpRequest, code: str, round_number: int) -> HttpResponse:
    """Duplicate Law E: both pairs agree the round; after that only the director changes it.

    GET asks first (``_agree_ask``): the round's scores, and the button that agrees them.
    The POST agrees. Its common case, every board in and confirmed, from the phone that
    holds the code: the session, one read (the code's table and its meeting of the round),
    one write."""
    if request.method == "GET":
        return _agree_ask(request, code, round_number=round_number)
    held = _held_code(request, code)
    if held is not None:
        table, meeting = selectors.table_code_meeting(held, round_number)
        if (table is not None and meeting is not None and meeting.agreed_at is None
                and services.round_agree_at_table(
                    event=table.section.event, section=table.section, meeting=meeting,
                    actor=_actor(table)) is not None):
            return _agreed(request, table, meeting)
    return _agree(request, code, round_number=round_number)


@with_table
def _agree_ask(request: HttpRequest, table: TableCode, round_number: int) -> HttpResponse:
    """"Agree round 4?": the round's boards with their results and scores, what agreeing
    means, and the button that agrees (a POST to the same address). Agreeing cannot be
    undone at the table, so the page's own button only leads here. A round that cannot be
    agreed now (a board not in or not confirmed, agreed already, the table shut out) goes
    back to the round's page, which says why."""
    event = table.section.event
    meetings = selectors.table_meetings(table.section, table.table)
    meeting = next((m for m in meetings if m.round == round_number), None)
    if meeting is None:
        raise Http404(f"table {table.table} has no round {round_number}")
    lines = selectors.meeting_boards(meeting)
    if meeting.agreed_at is not None:
        _flash(request, f"Round {meeting.round} is agreed already.")
    if (meeting.agreed_at is not None or not lines
            or any(line.status != "confirmed" for line in lines)
            or _locked_message(event, meeting, selectors.current_meeting(meetings))):
        return redirect("table-round", code=table.code, round_number=meeting.round)
    return render(request, "tournaments/table/agree.html", {
        "table": table, "event": event, "meeting": meeting, "is_whist": event.is_whist,
        "locked": "",  # open (checked above); table.js shuts the page if that changes
        "state_url": reverse("table-state", kwargs={"code": table.code,
                                                    "round_number": meeting.round}),
        "rows": [_agree_row(line.number, line.result, event) for line in lines],
        "signed": event.kind == "pairs" and not event.is_whist,
    })


def _agree_row(number: int, result: Result, event: Event) -> tuple:
    """A board as the round's agreement lists it: its number, its result in words with
    what else its score counts (a revoke, a penalty), and each side's board score as its
    contest counts it: in a pair contest the net, signed (rules.md §4); in a team match
    the total (trick + honour) each side won for its team (Duplicate Law G); at whist the
    tricks each side scores, after any revoke (§8). None for a side with no score (a
    ruling)."""
    is_whist = event.is_whist
    words = "; ".join([presenters.result_line(result, is_whist=is_whist),
                       *presenters.result_marks(result, is_whist=is_whist)])
    if is_whist or event.kind == "pairs":
        return number, words, result.ns_score, result.ew_score
    return number, words, result.ns_total, result.ew_total


def _agreed(request: HttpRequest, table: TableCode, meeting: Meeting) -> HttpResponse:
    _flash(request, f"Round {meeting.round} agreed. Thank you.")
    return redirect("table-home", code=table.code)


@with_table
def _agree(request: HttpRequest, table: TableCode, round_number: int) -> HttpResponse:
    # The table's rounds without the pairs: all the agree reads.
    meeting = next((m for m in selectors.table_rounds(table.section, table.table)
                    if m.round == round_number), None)
    if meeting is None:
        raise Http404(f"table {table.table} has no round {round_number}")
    try:
        # Every board in and confirmed (the common case): one write statement.
        if meeting.agreed_at is not None or services.round_agree_at_table(
                event=table.section.event, section=table.section, meeting=meeting,
                actor=_actor(table)) is None:
            services.round_agree(section=table.section, round_number=meeting.round,
                                 actor=_actor(table))
    except services.ServiceError as exc:
        _flash(request, exc.message, error=True)
        return redirect("table-round", code=table.code, round_number=meeting.round)
    return _agreed(request, table, meeting)


# --- one board -----------------------------------------------------------------------------------


def _flash(request: HttpRequest, text: str, *, error: bool = False) -> None:
    (messages.error if error else messages.success)(request, text)


def _new_token() -> str:
    return secrets.token_urlsafe(18)


def _claim(token: str) -> str | None:
    """Claim a form's submission token; None if it was claimed already (a resend).

    cache.add is atomic, so of two taps that arrive together only one goes on.
    """
    if not token:
        return "no-token"
    if _add_token(f"table-submit:{token}"):
        return token
    return None


@cache_tolerant(default=True)
def _add_token(key: str) -> bool:
    """True for the first claim of a token. While the cache is down every claim goes
    on: a double tap is then not caught here, but the services store one result per
    board and pair meeting, so the second tap finds the board saved already."""
    return cache.add(key, "pending", timeout=TOKEN_TTL)


@cache_tolerant(default=None)
def _release(token: str) -> None:
    """A failed submission frees its token so the corrected form can be sent."""
    if token and token != "no-token":
        cache.delete(f"table-submit:{token}")


def _form_for(event: Event, board: Board, *, data=None, initial=None):
    form_class = result_form_class(event.rules)
    initial = dict(initial or {})
    initial["token"] = _new_token()
    return form_class(data, rules=event.rules, deal=board.deal, initial=initial)


def _board_context(table: TableCode, meeting: Meeting, board: Board, result: Result | None,
                   **extra) -> dict:
    event = table.section.event
    seated = selectors.seated_meeting(table.section, table.table)
    # A late board: its state is asked board by board (the round may be agreed).
    late = selectors.late_leave(meeting.late_boards, board.number) or (
        meeting.agreed_at is not None and _late_to_confirm(meeting, board.number))
    context = {
        "table": table, "event": event, "meeting": meeting, "board": board,
        "result": result, "rules": event.rules, "is_whist": event.is_whist,
        "closed": event.status == Event.Status.CLOSED,
        "agreed": meeting.agreed_at is not None,
        "locked": _locked_message(event, meeting, seated, board.number),
        "state_url": reverse("table-state", kwargs={"code": table.code,
                                                    "round_number": meeting.round})
        + (f"?board={board.number}" if late else ""),
        # Leave for a board of the round the table is at (a new deal's, Duplicate Law
        # B(3)) is no late play: the board is played in its round.
        "late_play": (selectors.late_leave(meeting.late_boards, board.number)
                      and not selectors.in_its_round(meeting, seated)),
        "preview_url": reverse("table-preview", kwargs={"code": table.code}),
    }
    context.update(extra)
    return context


def one_transaction_post(view):
    """A POST answered in one database transaction, the session and the table's code read
    in it too: one commit."""

    @functools.wraps(view)
    def wrapper(request: HttpRequest, *args, **kwargs):
        if request.method != "POST":
            return view(request, *args, **kwargs)
        with transaction.atomic():
            return view(request, *args, **kwargs)

    return wrapper


@require_http_methods(["GET", "POST"])
def board_page(request: HttpRequest, code: str, round_number: int, board: int
               ) -> HttpResponse:
    """Enter a board's result; once entered, show it with its score for the opponents."""
    if request.method == "POST" and request.POST.get("action") != "preview" and (
            entered := _enter_at_once(request, code, round_number, board)) is not None:
        return entered
    return _board_page(request, code, round_number=round_number, board=board)


@one_transaction_post
@with_table
def _board_page(request: HttpRequest, table: TableCode, round_number: int, board: int
                ) -> HttpResponse:
    meeting = _meeting(table, round_number)
    board_row = _board_of(meeting, board)
    if (refused := _later_round(request, table, meeting, board)) is not None:
        return refused
    event = table.section.event
    result = selectors.pair_result(event, board, meeting.ns_pair.number, meeting.ew_pair.number)
    if result is None and (wait := selectors.irregular_refusal(meeting, board)):
        # Duplicate Law B: reported, or sent back to be put right: wait for the director.
        return render(request, "tournaments/table/forbidden.html",
                      {"table": table, "message": wait}, status=403)
    if request.method == "GET":
        # A board marked not played that the table has leave to play late: enter it.
        late = (result is not None and result.ruling == NOT_PLAYED
                and selectors.late_leave(meeting.late_boards, board))
        if result is not None and not late:
            return _show_result(request, table, meeting, board_row, result)
        form = _form_for(event, board_row)
        return render(request, "tournaments/table/board.html",
                      _board_context(table, meeting, board_row, None, form=form, mode="enter",
                                     replaces_not_played=late))
    return _submit(request, table, meeting, board_row, result=None, mode="enter")


@require_http_methods(["GET", "POST"])
@with_table
def change(request: HttpRequest, table: TableCode, round_number: int, board: int
           ) -> HttpResponse:
    """The table changes its own result, until the round is agreed (Duplicate Law E)."""
    meeting = _meeting(table, round_number)
    board_row = _board_of(meeting, board)
    if (refused := _later_round(request, table, meeting, board)) is not None:
        return refused
    event = table.section.event
    result = selectors.pair_result(event, board, meeting.ns_pair.number, meeting.ew_pair.number)
    if result is None:
        return redirect("table-board", code=table.code, round_number=meeting.round, board=board)
    if result.ruling or result.status == Result.Status.DIRECTOR:
        # The director's entry or ruling stands until the director changes it.
        _flash(request, "The director has entered or ruled on this board: ask the director "
                        "to change it", error=True)
        return redirect("table-board", code=table.code, round_number=meeting.round, board=board)
    if request.method == "GET":
        if meeting.agreed_at is not None:
            _flash(request, f"round {meeting.round} at table {meeting.table} is agreed "
                            "(Duplicate Law E): ask the director to correct a score", error=True)
            return redirect("table-board", code=table.code, round_number=meeting.round,
                            board=board)
        form_class = result_form_class(event.rules)
        form = _form_for(event, board_row, initial=form_class.initial_from(result))
        return render(request, "tournaments/table/board.html",
                      _board_context(table, meeting, board_row, result, form=form,
                                     mode="change"))
    return _submit(request, table, meeting, board_row, result=result, mode="change")


def _enter_at_once(request: HttpRequest, code: str, round_number: int, board: int
                   ) -> HttpResponse | None:
    """The common case of a board's entry, as _submit answers it (saved, and back to the
    board), in three statements and no transaction around them: the session, then the
    code's table with the meeting and the board in one read, then the services'
    result_enter_at_table (its own transaction). Only for the code this phone's session
    holds (any other goes through the throttle). None for anything else (a form with
    mistakes, an unusual result, a refusal, a board saved already, a resend): the page's
    full path answers it as it always has, having written nothing here."""
    code = _held_code(request, code)
    if code is None:
        return None
    table, entry = selectors.table_code_entry(code, round_number, board)
    if (table is None or entry.meeting is None or entry.board is None
            or board not in entry.meeting.boards):
        return None
    event = table.section.event
    form = result_form_class(event.rules)(request.POST, rules=event.rules,
                                          deal=entry.board.deal)
    if not form.is_valid():
        return None
    token = _claim(form.cleaned_data.get("token") or "")
    if token is None:
        return None
    try:
        result = services.result_enter_at_table(
            event=event, entry=entry, actor=_actor(table), data=form.result_data(),
            as_entered=form.saved_as_entered())
    except services.ServiceError:
        result = None  # the full path puts the message next to the field
    if result is None:
        _release(token)
        return None
    _flash(request, f"Board {board} saved.")
    return redirect("table-board", code=table.code, round_number=round_number, board=board)


def _submit(request: HttpRequest, table: TableCode, meeting: Meeting, board: Board, *,
            result: Result | None, mode: str) -> HttpResponse:
    event = table.section.event
    form_class = result_form_class(event.rules)
    form = form_class(request.POST, rules=event.rules, deal=board.deal)
    here = _board_context(table, meeting, board, result, mode=mode)
    if not form.is_valid():
        return render(request, "tournaments/table/board.html", {**here, "form": form})
    data = form.result_data()
    if request.POST.get("action") == "preview":
        # Without the script: the server shows the score before anything is saved.
        preview = selectors.result_preview(event, board, data, live=True)
        if not preview["ok"]:
            form.add_service_error(services.ServiceError(preview["message"],
                                                         field="result." + preview["field"]))
        return render(request, "tournaments/table/board.html",
                      {**here, "form": form, "preview": preview})
    token = _claim(form.cleaned_data.get("token") or "")
    if token is None:
        # The same form sent twice (a double tap, a reload): the first one counts.
        return redirect("table-board", code=table.code, round_number=meeting.round,
                        board=board.number)
    actor = _actor(table)
    as_entered = form.saved_as_entered()
    try:
        if mode == "change":
            changed = services.result_correct(result=result, actor=actor, data=data,
                                              as_entered=as_entered,
                                              version=form.cleaned_data.get("version"))
            message = (f"Board {board.number} changed: East–West, please confirm it again."
                       if changed.version != result.version
                       else f"Board {board.number} is unchanged: nothing was saved.")
        else:
            _, created = services.result_record(
                event=event, board=board.number, ns=meeting.ns_pair.number,
                ew=meeting.ew_pair.number, data=data, actor=actor, meeting=meeting,
                as_entered=as_entered)
            message = (f"Board {board.number} saved." if created
                       else f"Board {board.number} was saved already.")
    except services.UnusualResult as exc:
        # Nothing is saved: the players look again, then save it as entered or change it.
        _release(token)
        return render(request, "tournaments/table/board.html", {
            **here, "form": form, "warnings": exc.warnings,
            "as_entered": form.entry_digest(),
            "preview": selectors.result_preview(event, board, data, live=True)})
    except services.ResultChanged as exc:
        # Changed on another phone (or by the director) since this form was opened: the
        # board's page shows it as it now stands, with its Change button.
        _release(token)
        _flash(request, exc.message, error=True)
        return redirect("table-board", code=table.code, round_number=meeting.round,
                        board=board.number)
    except services.ResultConflict as exc:
        # Entered on the other phone (or by the director) while this form was open: the
        # board's page shows it, with its Change button while the table may still use it.
        _release(token)
        existing = exc.existing
        ours = (not existing.ruling and existing.status != Result.Status.DIRECTOR
                and meeting.agreed_at is None)
        _flash(request, f"Board {board.number} has a result already: "
                        f"{selectors.describe(existing, is_whist=event.is_whist)}. Nothing was "
                        "saved; " + ("if it is wrong, tap Change." if ours
                                     else "ask the director if it is wrong."), error=True)
        return redirect("table-board", code=table.code, round_number=meeting.round,
                        board=board.number)
    except services.ServiceError as exc:
        _release(token)
        if mode == "change" and isinstance(exc, services.Forbidden):
            # The round agreed (or the event shut) while the change was open: the board's
            # page shows the result as it stands, not a form holding what was refused.
            _flash(request, f"Nothing was changed: {exc.message[0].lower()}{exc.message[1:]}",
                   error=True)
            return redirect("table-board", code=table.code, round_number=meeting.round,
                            board=board.number)
        stored = (selectors.pair_result(event, board.number, meeting.ns_pair.number,
                                        meeting.ew_pair.number)
                  if mode == "enter" and isinstance(exc, services.Forbidden) else None)
        if stored is not None and stored.ruling != NOT_PLAYED:
            # Entered already (a second tab, the other phone) in a round the table may no
            # longer write to, a late board's leave used up: say so, not only the refusal.
            form.add_error(None, f"Board {board.number} was entered already: "
                                 f"{selectors.describe(stored, is_whist=event.is_whist)}. "
                                 f"Nothing was saved; {exc.message[0].lower()}"
                                 f"{exc.message[1:]}")
            return render(request, "tournaments/table/board.html", {**here, "form": form},
                          status=409)
        form.add_service_error(exc)
        return render(request, "tournaments/table/board.html", {**here, "form": form},
                      status=403 if isinstance(exc, services.Forbidden) else 400)
    _flash(request, message)
    return redirect("table-board", code=table.code, round_number=meeting.round,
                    board=board.number)


def _show_result(request: HttpRequest, table: TableCode, meeting: Meeting, board: Board,
                 result: Result) -> HttpResponse:
    event = table.section.event
    context = _board_context(
        table, meeting, board, result,
        text=selectors.describe(result, is_whist=event.is_whist),
        # What the line does not say but the score counts: the opponents confirm it too.
        marks=[] if result.ruling else presenters.result_marks(result,
                                                               is_whist=event.is_whist),
        score=selectors.result_score(result),
        honours=(result.details or {}).get("honours"),
        derived=selectors.deal_honours(board, result.denomination)
        if not event.is_whist and result.level else None,
        can_confirm=result.status == Result.Status.ENTERED,
        director=selectors.result_director(result)
        if result.status == Result.Status.DIRECTOR else None,
        may_see_traveller=access.table_may_see_traveller(table, board.number),
    )
    # Played late with the director's leave, for East–West to confirm now: the page says
    # so, not that it was left unconfirmed when its round was agreed (it was played after).
    context["late_to_confirm"] = (result.late_play and result.status == Result.Status.ENTERED
                                  and not context["locked"])
    return render(request, "tournaments/table/result.html", context)


@require_POST
def confirm(request: HttpRequest, code: str, round_number: int, board: int) -> HttpResponse:
    """East-West confirm on the same device: "this is right".

    The common case, from the phone that holds the code: the session, one read (the code's
    table, its meeting of the round and the board's result between its pairs), one write.
    The form carries the version of the result it showed: one changed since (Change on
    the other phone) is not confirmed (the full path says what it now reads)."""
    held = _held_code(request, code)
    version = _shown_version(request)
    if held is not None:
        table, meeting, result = selectors.table_code_pair_result(held, round_number, board)
        if (result is not None and board in meeting.boards
                and result.status == Result.Status.ENTERED
                and version in (None, result.version)
                and services.result_confirm_at_table(
                    event=table.section.event, result=result, actor=_actor(table),
                    by=f"E–W pair {meeting.ew_pair.number}") is not None):
            return _confirmed(request, table, meeting, board)
    return _confirm(request, code, round_number=round_number, board=board, version=version)


def _shown_version(request: HttpRequest) -> int | None:
    """The result's version the confirm form showed; None from a form without one."""
    text = request.POST.get("version", "").strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) < 10 else None


def _confirmed(request: HttpRequest, table: TableCode, meeting: Meeting, board: int
               ) -> HttpResponse:
    _flash(request, f"Board {board} confirmed.")
    return redirect("table-round", code=table.code, round_number=meeting.round)


@with_table
def _confirm(request: HttpRequest, table: TableCode, round_number: int, board: int,
             version: int | None) -> HttpResponse:
    meeting = _meeting(table, round_number)
    _board_of(meeting, board)
    result = selectors.pair_result(table.section.event, board, meeting.ns_pair.number,
                                   meeting.ew_pair.number)
    if result is None:
        raise Http404("this board has no result to confirm yet")
    if result.status != Result.Status.ENTERED:
        # Confirmed already, or the director's: nothing for the opponents to confirm.
        return redirect("table-round", code=table.code, round_number=meeting.round)
    try:
        services.result_confirm(result=result, actor=_actor(table),
                                by=f"E–W pair {meeting.ew_pair.number}", version=version)
    except services.ServiceError as exc:
        _flash(request, exc.message, error=True)
        return redirect("table-board", code=table.code, round_number=meeting.round, board=board)
    return _confirmed(request, table, meeting, board)


@require_http_methods(["GET"])
@never_cache
@with_table
def state(request: HttpRequest, table: TableCode, round_number: int) -> JsonResponse:
    """What static/js/table.js polls: may this table still enter and confirm the round?

    So a table is told at once when the director agrees its round (or the event) while
    it is still on a board, not only when it presses Save. Every change that could alter
    the answer moves the event's change number: a poll bringing back the ETag of the
    event as it still is gets a 304 from the cache alone, before the session and the
    database (web/polling.py).
    """
    # One query for the table's rounds: this one, and the one it is seated at.
    rounds = selectors.table_rounds(table.section, table.table)
    meeting = next((m for m in rounds if m.round == round_number), None)
    if meeting is None:
        raise Http404(f"table {table.table} has no round {round_number}")
    try:  # ?board=N: a board the table may have leave to play late
        board = query_number(request.GET, "board", low=NUMBER[0], high=NUMBER[1],
                             blank_is_absent=True)
    except services.ServiceError:
        board = None
    event = table.section.event
    message = _locked_message(event, meeting, selectors.current_meeting(rounds), board)
    # Without ?board the answer is made of the status and the rounds agreed: their
    # fingerprint lets a poll after another table's change be a 304 (web/polling.py).
    fingerprint = "" if board is not None else polls.table_fingerprint(
        event.status, [(m.round, m.agreed_at is not None) for m in rounds])
    return tagged(request, JsonResponse({"round": meeting.round, "open": not message,
                                         "message": message,
                                         "agreed": meeting.agreed_at is not None,
                                         "status": event.status}), event, fingerprint)


@require_POST
@with_table
def preview(request: HttpRequest, table: TableCode) -> JsonResponse:
    """The live score as the players fill in the form: nothing is written."""
    try:
        round_number = whole_number(request.POST.get("round", ""), field="round",
                                    low=NUMBER[0], high=NUMBER[1])
        board_number = whole_number(request.POST.get("board", ""), field="board",
                                    low=NUMBER[0], high=NUMBER[1])
    except services.ServiceError as exc:
        return JsonResponse({"ok": False, "field": exc.field, "message": exc.message},
                            status=400)
    meeting = _meeting(table, round_number)
    try:
        board = _board_of(meeting, board_number)
    except NotPlayedHere as exc:
        return JsonResponse({"ok": False, "field": "board", "message": exc.message},
                            status=404)
    if not access.may_preview(access.Caller(table=table), table.section.event, board.number):
        # The preview reads honours from the hand record: only for the boards played now.
        return JsonResponse({"ok": False, "field": "", "message":
                             f"Board {board.number} is not played at your table this round."},
                            status=403)
    return JsonResponse(preview_answer(table.section.event, board, request.POST))


def preview_answer(event: Event, board: Board, post) -> dict:
    """The preview JSON for a posted result form (the table's and the director's)."""
    form_class = result_form_class(event.rules)
    form = form_class(post, rules=event.rules, deal=board.deal)
    if not form.is_valid():
        field, errors = next(iter(form.errors.items()))
        return {"ok": False, "field": "" if field == "__all__" else field,
                "message": errors[0]}
    answer = selectors.result_preview(event, board, form.result_data(), live=True)
    if not answer["ok"]:
        error = services.ServiceError(answer["message"], field="result." + answer["field"])
        form.add_service_error(error)
        answer["field"] = next((name for name in form.errors if name != "__all__"), "")
    return answer


@require_http_methods(["GET"])
@with_table
def traveller(request: HttpRequest, table: TableCode, board: int) -> HttpResponse:
    """Every table's result on a board, when the pairs at the table may see it (access.py)."""
    seated = selectors.current_meeting(selectors.table_meetings(table.section, table.table))
    refusal = access.traveller_refusal(access.Caller(table=table), table.section.event, board)
    if refusal is not None:
        return render(request, "tournaments/table/forbidden.html", {
            "table": table, "message": refusal,
        }, status=403)
    event = table.section.event
    data = selectors.traveller(event, board)
    return render(request, "tournaments/table/traveller.html", {
        "table": table, "event": event, "traveller": data, "seated": seated,
    })
