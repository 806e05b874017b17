"""The party night's pages: the director's console, each table's phone, the live standings.

The director sets the night up (players from the club's member list, or visitors by
name), starts it, watches the tables' entry, calls each round, prints the progression and
the standings, and corrects a deal. Each table's phone opens its page by the link in the
table's code (a secret, like the score pad's): it enters its deals with the pad's
tap-first fields (``pad.deal_from_post``) and sees where its players go next. Every write
is a ``services.party_*`` call; every score is the engine's.
"""

from __future__ import annotations

import datetime
from typing import Any

import segno
from django.contrib import messages
from django.core.files.storage import default_storage
from django.http import FileResponse, Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from .. import services
from ..models import Party, PartyTable, Player, ReportJob, Rubber
from ..reports import services as reports
from ..services import ServiceError
from ..services.party import round_ends_at, table_size
from .director import _actor, director_required
from .pad import _choices, _values_of, deal_from_post
from .public import POLL_SECONDS

GAMES = Rubber.GAMES
RULES = Rubber.RUBBER_RULES


def _int(value: Any) -> int | None:
    try:
        return int(str(value).strip())
    except (TypeError, ValueError):
        return None


def _party(party_id: int) -> Party:
    return get_object_or_404(Party, pk=party_id)


def _players_from_post(post: Any) -> list[Any]:
    """The members ticked, then the visitors typed one a line, as the service takes them."""
    players: list[Any] = [{"member": m} for m in post.getlist("members") if m]
    players += [line.strip() for line in post.get("visitors", "").splitlines() if line.strip()]
    return players


def _members() -> Any:
    return Player.objects.exclude(number=None).filter(active=True).order_by(
        "last_name", "first_name", "name")


# --- the director's console -------------------------------------------------------------


@director_required
@require_http_methods(["GET", "POST"])
def parties(request: HttpRequest) -> HttpResponse:
    """The party nights, and the form for a new one."""
    values: Any = {"game": "auction", "rules": "american-1913", "per": "deals",
                   "deals_per_round": 4, "minutes_per_round": 20, "rounds": 6,
                   "date": datetime.date.today().isoformat()}
    error = None
    if request.method == "POST":
        values = request.POST
        per = request.POST.get("per", "deals")
        try:
            date = datetime.date.fromisoformat(request.POST.get("date", ""))
        except ValueError:
            error = "Give the date of the night."
        else:
            try:
                party = services.party_create(
                    name=request.POST.get("name", ""), date=date,
                    game=request.POST.get("game", ""), rules=request.POST.get("rules", ""),
                    rounds=_int(request.POST.get("rounds")) or 0,
                    deals_per_round=_int(request.POST.get("deals_per_round"))
                    if per == "deals" else None,
                    minutes_per_round=_int(request.POST.get("minutes_per_round"))
                    if per == "minutes" else None,
                    players=_players_from_post(request.POST), actor=_actor(request))
            except ServiceError as exc:
                error = exc.message
            else:
                return redirect("director-party", party_id=party.pk)
    chosen = {str(m) for m in (request.POST.getlist("members") if request.method == "POST"
                               else [])}
    return render(request, "tournaments/director/parties.html", {
        "parties": Party.objects.all()[:50], "games": GAMES, "rules": RULES,
        "values": values, "error": error, "members": _members(), "chosen": chosen,
        "visitors": values.get("visitors", ""),
    }, status=400 if error else 200)


def _table_links(request: HttpRequest, party: Party) -> list[dict[str, Any]]:
    rows = []
    for table in party.tables.all():
        url = request.build_absolute_uri(reverse("party-table", kwargs={"code": table.code}))
        rows.append({"table": table.number, "code": table.code, "url": url,
                     "svg": segno.make(url, error="m").svg_inline(
                         scale=3, title=f"Table {table.number}")})
    return rows


@director_required
@require_GET
def console(request: HttpRequest, party_id: int) -> HttpResponse:
    """The night at a glance: the players (before the start), each table's entry in the
    round in play, the buttons to start and to call the next round, the table links."""
    party = _party(party_id)
    players = list(party.players.select_related("member"))
    rnd = services.party_round(party=party) if party.current_round else None
    progression = (services.party_progression(party=party, round_number=party.current_round)
                   if party.current_round else None)
    ids = {p.member_id for p in players if p.member_id}
    if request.GET.get("fragment"):  # live.js: the tables' entry, as it now stands
        return render(request, "tournaments/director/_party_tables.html", {
            "party": party, "round": rnd, "progression": progression})
    return render(request, "tournaments/director/party.html", {
        "party": party, "players": players, "round": rnd, "progression": progression,
        "size": table_size(party.game), "links": _table_links(request, party),
        "members": _members(), "chosen": {str(i) for i in ids},
        "visitors": "\n".join(p.name for p in players if not p.member_id),
        "rounds_played": range(1, party.current_round + 1),
        "job": ReportJob.objects.filter(party=party).first(), "poll_seconds": POLL_SECONDS,
        "ends_at": round_ends_at(party),
        "standings_url": request.build_absolute_uri(
            reverse("party-standings", kwargs={"party_id": party.pk})),
    })


@director_required
@require_POST
def players(request: HttpRequest, party_id: int) -> HttpResponse:
    party = _party(party_id)
    try:
        services.party_players_set(party=party, players=_players_from_post(request.POST),
                                   actor=_actor(request))
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, "The players are saved.")
    return redirect("director-party", party_id=party.pk)


@director_required
@require_POST
def start(request: HttpRequest, party_id: int) -> HttpResponse:
    party = _party(party_id)
    try:
        services.party_start(party=party, actor=_actor(request),
                             draw=request.POST.get("draw") == "on")
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, "Round 1 is seated: give each table its link.")
    return redirect("director-party", party_id=party.pk)


@director_required
@require_POST
def advance(request: HttpRequest, party_id: int) -> HttpResponse:
    party = _party(party_id)
    try:
        level = {key.removeprefix("level_"): value for key, value in request.POST.items()
                 if key.startswith("level_") and value}
        party = services.party_round_advance(party=party, actor=_actor(request),
                                             force=request.POST.get("force") == "on",
                                             level=level)
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("director-party", party_id=party.pk)
    if party.status == Party.Status.FINISHED:
        messages.success(request, "The night is over: the standings are final.")
        return redirect("director-party", party_id=party.pk)
    messages.success(request, f"Round {party.current_round} is seated.")
    return redirect("director-party-progression", party_id=party.pk,
                    round_number=party.current_round - 1)


@director_required
@require_GET
def progression(request: HttpRequest, party_id: int, round_number: int) -> HttpResponse:
    """The progression card after a round: the next round's tables, and each player (by
    name) with the table and seat to go to. Printable (print.js)."""
    party = _party(party_id)
    card = services.party_progression(party=party, round_number=round_number)
    if card is None:
        raise Http404("There is no progression after this round yet.")
    return render(request, "tournaments/director/party_progression.html",
                  {"party": party, "card": card})


@director_required
@require_GET
def round_page(request: HttpRequest, party_id: int, round_number: int) -> HttpResponse:
    """One round's tables with their deals, each deal with a link to correct it."""
    party = _party(party_id)
    if not 1 <= round_number <= party.current_round:
        raise Http404("There is no such round yet.")
    return render(request, "tournaments/director/party_round.html", {
        "party": party, "round": services.party_round(party=party, round_number=round_number)})


def _table(party: Party, number: int) -> PartyTable:
    return get_object_or_404(PartyTable, party=party, number=number)


@director_required
@require_http_methods(["GET", "POST"])
def correct(request: HttpRequest, party_id: int, round_number: int, table: int,
            number: int) -> HttpResponse:
    """The director corrects a deal of any round, with the reason (audited)."""
    party = _party(party_id)
    row = _table(party, table)
    rnd = services.party_round(party=party, round_number=round_number)
    here = next((t for t in rnd["tables"] if t["table"] == table), None)
    stored = next((d for d in (here or {}).get("deals", []) if d["number"] == number), None)
    if stored is None:
        raise Http404("There is no such deal.")
    values: Any = _values_of(Rubber(game=party.game), stored["data"])
    error = None
    if request.method == "POST":
        values = request.POST
        deal, revokes_by = deal_from_post(party.game, request.POST)
        try:
            services.party_deal_correct(table=row, number=number, round_number=round_number,
                                        deal=deal, revokes_by=revokes_by,
                                        actor=_actor(request),
                                        reason=request.POST.get("reason", ""))
        except ServiceError as exc:
            error = exc.message
        else:
            messages.success(request, f"Deal {number} at table {table} is corrected.")
            return redirect("director-party-round", party_id=party.pk,
                            round_number=round_number)
    return render(request, "tournaments/director/party_correct.html", {
        "party": party, "round_number": round_number, "table": here, "number": number,
        "stored": stored, "error": error, "values": values, "game": party.game,
        "entered": {"ok": True, "deal": stored},
        "sheet": {"columns": here["columns"], "game": party.game},
        **_form_choices(party, here, values)}, status=400 if error else 200)


def _form_choices(party: Party, here: dict | None, values: Any) -> dict[str, Any]:
    """The pad's deal-form choices for the players seated at this table."""
    sheet = {"players": [{"seat": s["seat"], "name": s["name"]} for s in
                         (here or {}).get("seats", [])]}
    return _choices(Rubber(game=party.game, rules=party.rules or "american-1913"), sheet,
                    values)


# --- printing the standings --------------------------------------------------------------


def _print_status(party: Party, job: ReportJob) -> dict[str, Any]:
    data = reports.report_status(job)
    data["status_url"] = reverse("director-party-print-status", args=[party.pk])
    data["file_url"] = None
    if job.status == ReportJob.Status.DONE and job.file:
        data["file_url"] = (reverse("director-party-print-file", args=[party.pk])
                            + f"?v={int(job.updated_at.timestamp())}")
    return data


@director_required
@require_http_methods(["GET", "POST"])
@never_cache
def print_standings(request: HttpRequest, party_id: int) -> HttpResponse:
    """Ask for the standings as a PDF (POST) and follow the job (GET), as the pad does."""
    party = _party(party_id)
    if request.method == "POST":
        reports.party_report_request(party=party)
        return redirect("director-party-print", party_id=party.pk)
    job = ReportJob.objects.filter(party=party).first()
    return render(request, "tournaments/director/party_print.html", {
        "party": party, "job": job, "status": _print_status(party, job) if job else None})


@director_required
@require_GET
@never_cache
def print_status(request: HttpRequest, party_id: int) -> JsonResponse:
    party = _party(party_id)
    job = ReportJob.objects.filter(party=party).first()
    if job is None:
        return JsonResponse({"error": "Nothing is being printed: press Print the standings.",
                             "status": None}, status=404)
    if reports.report_requeue(job=job):
        job.refresh_from_db()
    return JsonResponse(_print_status(party, job))


@director_required
@require_GET
def print_file(request: HttpRequest, party_id: int) -> HttpResponse:
    party = _party(party_id)
    job = ReportJob.objects.filter(party=party, status=ReportJob.Status.DONE).first()
    if job is None or not job.file:
        raise Http404("The standings are not printed yet.")
    return FileResponse(default_storage.open(job.file.name, "rb"), as_attachment=False,
                        filename=job.file.name.rsplit("/", 1)[-1],
                        content_type="application/pdf")


# --- the table's phone --------------------------------------------------------------------


def _by_code(code: str) -> PartyTable:
    table = PartyTable.objects.select_related("party").filter(code=code).first()
    if table is None:
        raise Http404("No party table has this link.")
    return table


@require_GET
@never_cache
def table_home(request: HttpRequest, code: str) -> HttpResponse:
    """The table's page: who sits where this round, the deals entered, the next deal to
    enter, and where the players go next. It follows the night by itself (live.js), so
    a table waiting for the next round sees it seated when the director calls it."""
    table = _by_code(code)
    view = services.party_table_view(table=table)
    context = {**view, "code": code, "poll_seconds": POLL_SECONDS,
               "phone_correct": table.party.status == Party.Status.PLAYING}
    if request.GET.get("fragment"):  # live.js: the page below its title, as it now stands
        return render(request, "tournaments/party/_table_body.html", context)
    return render(request, "tournaments/party/table.html", context)


@require_http_methods(["GET", "POST"])
def table_deal(request: HttpRequest, code: str, number: int | None = None) -> HttpResponse:
    """Enter the next deal (``number`` None) or correct one of this round's."""
    table = _by_code(code)
    party = table.party
    view = services.party_table_view(table=table)
    here = view["here"]
    if here is None or party.status != Party.Status.PLAYING:
        return redirect("party-table", code=code)
    stored = None
    if number is not None:
        stored = next((d for d in here["deals"] if d["number"] == number), None)
        if stored is None:
            raise Http404("There is no such deal in this round.")
    elif view["next_deal"] is None:
        return redirect("party-table", code=code)
    values: Any = _values_of(Rubber(game=party.game), stored["data"]) if stored else {}
    error = None
    # A deal being corrected shows what it scores now, before a tap.
    preview = {"ok": True, "deal": stored} if stored else None
    if request.method == "POST":
        values = request.POST
        deal, revokes_by = deal_from_post(party.game, request.POST)
        actor = services.table_actor(table)
        try:
            if stored:
                services.party_deal_correct(table=table, number=number, deal=deal,
                                            revokes_by=revokes_by, actor=actor)
            else:
                services.party_deal_add(table=table, deal=deal, revokes_by=revokes_by,
                                        actor=actor)
        except ServiceError as exc:
            error = exc.message
            preview = services.party_preview(table=table, deal=deal, revokes_by=revokes_by,
                                             number=number)
        else:
            return redirect("party-table", code=code)
    n = number or view["next_deal"]["number"]
    dealer = stored["dealer_name"] if stored else view["next_deal"]["dealer_name"]
    preview_url = reverse("party-table-preview", kwargs={"code": code})
    if number:
        preview_url += f"?number={number}"
    return render(request, "tournaments/party/deal.html", {
        "party": party, "code": code, "here": here, "number": n, "change": bool(stored),
        "dealer": dealer, "error": error, "values": values, "game": party.game,
        "preview": preview, "sheet": {"columns": here["columns"], "game": party.game},
        "preview_url": preview_url, **_form_choices(party, here, values)},
        status=400 if error else 200)


@require_POST
def table_preview(request: HttpRequest, code: str) -> JsonResponse:
    """The live score of the deal being entered (stores nothing), as the pad's."""
    table = _by_code(code)
    deal, revokes_by = deal_from_post(table.party.game, request.POST)
    answer = services.party_preview(table=table, deal=deal, revokes_by=revokes_by,
                                    number=_int(request.GET.get("number")))
    here = services.party_round(party=table.party)
    columns = next((t["columns"] for t in here["tables"] if t["table"] == table.number), [])
    html = render_to_string("tournaments/party/_preview.html",
                            {"preview": answer, "sheet": {"columns": columns}},
                            request=request)
    return JsonResponse({"ok": answer["ok"], "html": html,
                         "message": answer.get("message", "")})


@require_POST
def table_over(request: HttpRequest, code: str) -> HttpResponse:
    """The table's time is up (a round of a fixed time)."""
    table = _by_code(code)
    try:
        services.party_round_over(table=table, actor=services.table_actor(table))
    except ServiceError as exc:
        messages.error(request, exc.message)
    return redirect("party-table", code=code)


# --- the live standings -----------------------------------------------------------------


def _started(party_id: int) -> Party:
    party = get_object_or_404(Party, pk=party_id)
    if party.status == Party.Status.SETTING_UP:
        raise Http404("This party night has not started yet.")
    return party


@require_GET
@never_cache
def standings(request: HttpRequest, party_id: int) -> HttpResponse:
    """The ranking of individuals, live: live.js swaps in the table when ``seq`` moves."""
    party = _started(party_id)
    context = {"party": party, "standings": services.party_standings(party=party),
               "seq": party.seq, "poll_seconds": POLL_SECONDS}
    if request.GET.get("fragment"):
        return render(request, "tournaments/party/_standings.html", context)
    return render(request, "tournaments/party/standings.html", context)


@require_GET
@never_cache
def live(request: HttpRequest, party_id: int) -> JsonResponse:
    """What live.js polls: the night's change number."""
    party = _started(party_id)
    return JsonResponse({"party": party.pk, "seq": party.seq, "status": party.status,
                         "round": party.current_round})
