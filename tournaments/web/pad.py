"""The score pad: a table keeps a rubber on one phone (rules.md §10).

A pad is opened by its link, whose code is its secret (made by ``secrets``: too long to
guess, so no throttle); the phone that made it remembers it in its session. Every write
is a ``services.rubber_*`` call; every score on these pages is the engine's
(``services.rubber_sheet`` / ``rubber_preview``). The deal form posts tap-first fields;
``deal_from_post`` turns them into the engine's rubber input, leaving what was not tapped
out so the engine names what is missing.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.files.storage import default_storage
from django.http import FileResponse, Http404, HttpRequest, HttpResponse, JsonResponse, QueryDict
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from scoring.engine import get_rules

from .. import presenters, services
from ..models import ReportJob, Rubber
from ..reports import services as reports
from ..services.rubbers import FOUR_SEATS, THREE_PLAYERS, seats_of

SESSION_KEY = "pads"  # the codes of the pads this phone made or opened


def _pad(code: str) -> Rubber:
    rubber = Rubber.objects.filter(code=code).first()
    if rubber is None:
        raise Http404("No score pad has this link.")
    return rubber


def _remember(request: HttpRequest, rubber: Rubber) -> None:
    codes = [c for c in request.session.get(SESSION_KEY, []) if c != rubber.code]
    request.session[SESSION_KEY] = [rubber.code, *codes][:10]


def _int(value: Any) -> int | None:
    try:
        return int(str(value).strip())
    except (TypeError, ValueError):
        return None


PENALTY_RULES = ("5", "9", "10")  # Three-Hand Auction's penalties the pad records
# Four-hand Auction's penalties at rubber play (rules.md §3.7; Duplicate Law F's are the
# duplicate game's own): the form's key for each law's code.
AUCTION_PENALTIES = {"90": "90", "54d": "54-double-partner",
                     "54r": "54-redouble-more-than-once"}


def _penalty_keys(game: str) -> tuple[str, ...]:
    """The penalties the game's deal form offers: Three-Hand's rules, four-hand's laws;
    none at whist (its revokes have their own fields)."""
    if game == "whist":
        return ()
    return PENALTY_RULES if game == "three-hand" else tuple(AUCTION_PENALTIES)


def deal_from_post(game: str, post: Any) -> tuple[dict, dict | None]:
    """The form's fields as the engine's rubber input (interfaces.md §5), and a whist's
    revokes by seat (``None`` for the other games)."""
    if game == "whist":
        deal: dict[str, Any] = {}
        if (t := _int(post.get("tricks_ns"))) is not None:
            deal["tricks_ns"] = t
        if (h := _int(post.get("honours_ns"))) is not None:
            deal["honours"] = {"NS": h}
        if post.get("revoke_penalty"):
            deal["revoke_penalty"] = post.get("revoke_penalty")
        revokes = {s: _int(post.get(f"revokes_{s}")) or 0 for s in FOUR_SEATS}
        return deal, revokes
    deal = {}
    if post.get("passed_out"):
        deal["contract"] = None
        deal["tricks"] = 0
        return deal, None
    contract: dict[str, Any] = {}
    if (lv := _int(post.get("level"))) is not None:
        contract["level"] = lv
    for key in ("denomination", "declarer"):
        if post.get(key):
            contract[key] = post.get(key)
    contract["doubled"] = post.get("doubled", "") or ""
    if game == "three-hand":
        declarer = contract.pop("declarer", None)
        if declarer:
            deal["declarer"] = declarer
    deal["contract"] = contract
    if (t := _int(post.get("tricks"))) is not None:
        deal["tricks"] = t
    seats = (*THREE_PLAYERS, "dummy") if game == "three-hand" else FOUR_SEATS
    honours = {s: n for s in seats if (n := _int(post.get(f"honours_{s}")))}
    if honours:
        deal["honours"] = honours
    declaring, defending = _int(post.get("revokes_declaring")) or 0, \
        _int(post.get("revokes_defending")) or 0
    if declaring or defending:
        deal["revokes"] = {"declaring": declaring, "defending": defending}
        if post.get("first_penalty"):
            deal["revokes"]["first_penalty"] = post.get("first_penalty")
    if game == "three-hand":
        penalties = [{"rule": rule, "by": by} for rule in PENALTY_RULES
                     for by in post.getlist(f"penalty_{rule}") if by in THREE_PLAYERS]
    else:
        penalties = [{"law": law, "by": by} for key, law in AUCTION_PENALTIES.items()
                     for by in post.getlist(f"penalty_{key}") if by in FOUR_SEATS]
    if penalties:
        deal["penalties"] = penalties
    return deal, None


# What a deal needs tapped, in the form's order, as its message names each.
_NEEDED = {
    "whist": (("tricks_ns", "the tricks North–South won"),),
    "auction": (("level", "the contract's level"), ("denomination", "the denomination"),
                ("declarer", "the declarer"), ("tricks", "the tricks the declaring side won")),
}


# The counts the form takes, in the words of its labels.
_COUNTS = {"revokes_declaring": "the revokes by the declarer's side",
           "revokes_defending": "the revokes by the adversaries",
           **{f"revokes_{s}": f"{presenters.seat(s)}'s revokes" for s in FOUR_SEATS}}


def not_a_count(post: Any) -> str:
    """A count typed that is not one ("1.5", "-1"): the message saying so, "" if none is.
    Left to the form's parsing it would read as no revoke at all."""
    for field, what in _COUNTS.items():
        text = str(post.get(field) or "").strip()
        if text and not (text.isascii() and text.isdigit()):
            return f"{presenters.sentence(what)}: a whole number, 0 or more (not “{text}”)."
    return ""


def _revoke_choice_missing(game: str, post: Any, dummy: str) -> str:
    """The revoke penalty's choice, when the revokes entered call for it and none was
    tapped: named as the form names it (the engine's own words name its input's keys).
    A dummy's revokes are not counted: the service refuses them, in its own words."""
    if game == "whist":
        sides = {side: sum(_int(post.get(f"revokes_{s}")) or 0 for s in side
                           if s not in dummy) for side in ("NS", "EW")}
        if bool(sides["NS"]) != bool(sides["EW"]) and not post.get("revoke_penalty"):
            return ("what the other side takes for the revoke (take 3 tricks, deduct 3 from "
                    "theirs, or add 3 to own score)")
        return ""
    declaring = _int(post.get("revokes_declaring")) or 0
    defending = _int(post.get("revokes_defending")) or 0
    if defending and not declaring and not post.get("first_penalty"):
        return "what the declarer takes for the adversaries' revoke (points or tricks)"
    return ""


def still_to_choose(game: str, post: Any, dummy: str = "") -> str:
    """What the form was sent without, all of it in one message ("Still to choose: the
    contract's level, the declarer and the tricks the declaring side won."), as the
    table's form lists every field missing; "" when nothing is (a passed-out deal needs
    none). A count that is not one is said first. The engine's own words then say
    anything else that is wrong."""
    if bad := not_a_count(post):
        return bad
    if game != "whist" and post.get("passed_out"):
        return ""
    missing = [what for field, what in _NEEDED["whist" if game == "whist" else "auction"]
               if not str(post.get(field) or "").strip()]
    if choice := _revoke_choice_missing(game, post, dummy):
        missing.append(choice)
    if not missing:
        return ""
    listed = missing[0] if len(missing) == 1 else ", ".join(missing[:-1]) + " and " + missing[-1]
    return f"Still to choose: {listed}."


def _choices(rubber: Rubber, sheet: dict, values: Any) -> dict[str, Any]:
    """What the deal form offers: levels, denominations, players by seat and so on, each
    with the value entered so far."""
    names = {p["seat"]: p["name"] for p in sheet["players"]}
    # The penalties (Three-Hand's rules; four-hand's laws), each a list of the seats that
    # incurred it: a form sent back (its checkboxes) or a deal being corrected.
    keys = _penalty_keys(rubber.game)
    marked = {key: (values.getlist(f"penalty_{key}") if hasattr(values, "getlist")
                    else values.get(f"penalty_{key}") or [])
              for key in keys}
    out: dict[str, Any] = {
        "levels": range(1, 8), "tricks": range(0, 14),
        "seats": [{"seat": s, "name": names[s], "dummy": s in rubber.dummy,
                   "revokes": values.get(f"revokes_{s}"),
                   "value": values.get(f"honours_{s}"),
                   "penalties": {key: s in marked[key] for key in keys}}
                  for s in seats_of(rubber.game)],
        "penalties_marked": any(marked.values()),
    }
    if rubber.game != "whist":
        rules = get_rules(rubber.rules or "american-1913")
        out["denominations"] = [(d, presenters.denomination(d)) for d in rules.denominations]
        out["english"] = rubber.rules == "english"
        out["honour_counts"] = range(0, 6)
        out["honour_hands"] = [*out["seats"], {"seat": "dummy", "name": "Dummy",
                                               "dummy": True,
                                               "value": values.get("honours_dummy")}] \
            if rubber.game == "three-hand" else out["seats"]
    else:
        out["honour_counts"] = range(0, 5)
    return out


def for_page(sheet: dict) -> dict:
    """The sheet with its per-column numbers as lists, in the columns' order (a
    template cannot index a dict by a variable)."""
    keys = [c["key"] for c in sheet["columns"]]
    for d in sheet["deals"]:
        d["above_list"] = [d["above"][k] for k in keys]
        d["below_list"] = [d["below"][k] for k in keys]
    sheet["below_rows"] = [{"what": r["what"], "values": [r["points"][k] or "" for k in keys]}
                           for r in sheet["below"]]
    sheet["totals_list"] = [sheet["totals"][k] for k in keys]
    sheet["so_far_list"] = [sheet["so_far"][k] for k in keys] if sheet["so_far"] else None
    sheet["net_list"] = [{"label": c["label"], "value": presenters.signed(sheet["net"][c["key"]])}
                         for c in sheet["columns"]]
    return sheet


def _preview_for_page(answer: dict | None, sheet: dict) -> dict | None:
    if answer and answer.get("ok"):
        keys = [c["key"] for c in sheet["columns"]]
        answer["above_list"] = [answer["deal"]["above"][k] for k in keys]
        answer["below_list"] = [answer["deal"]["below"][k] for k in keys]
    return answer


def _scored_now(sheet: dict) -> dict:
    """What the sheet's last deal scores now, as the live preview shows a deal: the
    correction and the removal pages open with it."""
    return {"ok": True, "deal": dict(sheet["deals"][-1]), "result": sheet["result"],
            "complete": sheet["complete"]}


def _new_page(pads: list[Rubber], values: Any, error: str | None) -> dict[str, Any]:
    return {"pads": pads, "games": Rubber.GAMES, "rules": Rubber.RUBBER_RULES,
            "forms": Rubber.FORMS, "values": values, "error": error,
            # the dummy hands ticked (a form sent back keeps them)
            "dummy": values.getlist("dummy") if hasattr(values, "getlist") else [],
            "four_seats": [(s, presenters.seat(s)) for s in FOUR_SEATS],
            "three_seats": THREE_PLAYERS}


def home(request: HttpRequest) -> HttpResponse:
    """The pads this phone keeps, and the form for a new one; ``?again=<code>``: filled in
    as that pad was (the same game, players and seats), for the next rubber of a table."""
    codes = request.session.get(SESSION_KEY, [])
    pads = sorted(Rubber.objects.filter(code__in=codes), key=lambda r: codes.index(r.code))
    values: Any = {"game": "auction", "rules": "american-1913", "form": "plain",
                   "first_dealer_four": FOUR_SEATS[0], "first_dealer_three": THREE_PLAYERS[0]}
    again = Rubber.objects.filter(code=request.GET.get("again") or None).first()
    if again is not None:
        values = QueryDict(mutable=True)
        values.update({"game": again.game, "rules": again.rules or "american-1913",
                       "form": again.form or "plain", "first_dealer_four": FOUR_SEATS[0],
                       "first_dealer_three": THREE_PLAYERS[0]})
        for seat, name in zip(seats_of(again.game), again.players, strict=False):
            values[f"player_{seat}"] = name
        values.setlist("dummy", list(again.dummy))
    return render(request, "tournaments/pad/new.html", _new_page(pads, values, None))


def first_dealer_from_post(game: str, form: str, post: Any) -> str:
    """The first dealer tapped on the new pad page: four hands and Three-Hand have their
    own choice (both are on the page, one shown); at Dummy Whist and Double Dummy there is
    none, a dummy deals first (the service puts it in)."""
    if game == "whist" and form in ("dummy", "double-dummy"):
        return ""
    return post.get("first_dealer_three" if game == "three-hand" else "first_dealer_four",
                    "") or post.get("first_dealer", "")


@require_POST
def create(request: HttpRequest) -> HttpResponse:
    game = request.POST.get("game", "")
    seats = seats_of(game)
    players = [request.POST.get(f"player_{s}", "") for s in seats]
    form = request.POST.get("form", "plain")
    dummy = "".join(request.POST.getlist("dummy"))
    try:
        rubber = services.rubber_create(
            game=game, players=players, rules=request.POST.get("rules", "american-1913"),
            form=form, dummy=dummy,
            first_dealer=first_dealer_from_post(game, form, request.POST))
    except services.ServiceError as exc:
        return render(request, "tournaments/pad/new.html",
                      _new_page([], request.POST, exc.message), status=400)
    _remember(request, rubber)
    return redirect("pad-sheet", code=rubber.code)


def sheet(request: HttpRequest, code: str) -> HttpResponse:
    rubber = _pad(code)
    _remember(request, rubber)
    job = ReportJob.objects.filter(rubber=rubber).first()
    return render(request, "tournaments/pad/sheet.html", {
        "rubber": rubber, "sheet": for_page(services.rubber_sheet(rubber=rubber)), "job": job,
        "share_url": request.build_absolute_uri(reverse("pad-sheet", args=[rubber.code]))})


def _deal_page(request: HttpRequest, rubber: Rubber, *, change: bool) -> HttpResponse:
    sheet_data = services.rubber_sheet(rubber=rubber)
    last = sheet_data["deals"][-1] if sheet_data["deals"] else None
    if change and last is None:
        return redirect("pad-sheet", code=rubber.code)
    if not change and sheet_data["complete"]:
        if request.method == "POST":  # won on another phone while this form was open
            messages.warning(request, f"The rubber was won at deal {len(sheet_data['deals'])}"
                             ": this deal was not saved. If a deal on the sheet is wrong, "
                             "correct or remove the last one.")
        return redirect("pad-sheet", code=rubber.code)
    error = None
    preview = None
    values: Any = {}
    if change and last:
        values = _values_of(rubber, last["data"])
        preview = _scored_now(sheet_data)  # shown before anything is changed
    if request.method == "POST":
        values = request.POST
        deal, revokes_by = deal_from_post(rubber.game, request.POST)
        try:
            if missing := still_to_choose(rubber.game, request.POST, rubber.dummy):
                raise services.ServiceError(missing)
            # The deal the form was opened for: another phone may have entered or removed
            # one since, and a correction then must not land on a different deal.
            number = _int(request.POST.get("number"))
            if change:
                services.rubber_deal_correct(rubber=rubber, deal=deal, number=number,
                                             revokes_by=revokes_by)
            else:
                services.rubber_deal_add(rubber=rubber, deal=deal, revokes_by=revokes_by,
                                         number=number)
        except services.ServiceError as exc:
            if exc.field == "number":  # the sheet changed since the form was opened
                messages.warning(request, exc.message + ".")
                return redirect("pad-sheet", code=rubber.code)
            error = exc.message
            preview = services.rubber_preview(rubber=rubber, deal=deal, revokes_by=revokes_by,
                                              replace_last=change)
        else:
            return redirect("pad-sheet", code=rubber.code)
    number = last["number"] if change else len(sheet_data["deals"]) + 1
    dealer = last["dealer_name"] if change else sheet_data["next_dealer_name"]
    return render(request, "tournaments/pad/deal.html", {
        "rubber": rubber, "sheet": sheet_data, "change": change, "number": number,
        "dealer": dealer, "error": error, "values": values,
        "preview": _preview_for_page(preview, sheet_data),
        **_choices(rubber, sheet_data, values),
        "preview_url": reverse("pad-preview", args=[rubber.code])
        + ("?last=1" if change else "")}, status=400 if error else 200)


def _values_of(rubber: Rubber, data: dict) -> dict[str, Any]:
    """A stored deal back as the form's values (to correct it)."""
    if rubber.game == "whist":
        v = {"tricks_ns": data.get("tricks_ns"),
             "honours_ns": (data.get("honours") or {}).get("NS"),
             "revoke_penalty": data.get("revoke_penalty", "")}
        # revokes are stored by side: shown on the first seat of the side that is no dummy
        for side, seats in (("NS", "NS"), ("EW", "EW")):
            n = (data.get("revokes") or {}).get(side, 0)
            seat = next(s for s in seats if s not in rubber.dummy)
            v[f"revokes_{seat}"] = n
        return v
    c = data.get("contract") or {}
    v = {"passed_out": "on" if data.get("contract", {}) is None else "",
         "level": c.get("level"), "denomination": c.get("denomination"),
         "declarer": c.get("declarer") or data.get("declarer"),
         "doubled": c.get("doubled", ""), "tricks": data.get("tricks")}
    for s, n in (data.get("honours") or {}).items():
        v[f"honours_{s}"] = n
    r = data.get("revokes") or {}
    v.update(revokes_declaring=r.get("declaring", 0), revokes_defending=r.get("defending", 0),
             first_penalty=r.get("first_penalty", ""))
    for key in _penalty_keys(rubber.game):  # who incurred each penalty
        code = key if rubber.game == "three-hand" else AUCTION_PENALTIES[key]
        v[f"penalty_{key}"] = [p["by"] for p in data.get("penalties") or ()
                               if str(p.get("rule", p.get("law"))) == code]
    return v


@require_http_methods(["GET", "POST"])
def deal(request: HttpRequest, code: str) -> HttpResponse:
    return _deal_page(request, _pad(code), change=False)


@require_http_methods(["GET", "POST"])
def correct(request: HttpRequest, code: str) -> HttpResponse:
    return _deal_page(request, _pad(code), change=True)


@require_http_methods(["GET", "POST"])
def remove(request: HttpRequest, code: str) -> HttpResponse:
    """Take the last deal off the sheet (entered twice, or not played): asked first."""
    rubber = _pad(code)
    sheet_data = services.rubber_sheet(rubber=rubber)
    if not sheet_data["deals"]:
        return redirect("pad-sheet", code=rubber.code)
    last = sheet_data["deals"][-1]
    if request.method == "POST":
        try:
            services.rubber_deal_remove(rubber=rubber,
                                        number=_int(request.POST.get("number")) or 0)
        except services.ServiceError as exc:
            messages.warning(request, exc.message)
        else:
            messages.success(request, f"Deal {last['number']} is removed from the sheet.")
        return redirect("pad-sheet", code=rubber.code)
    return render(request, "tournaments/pad/remove.html", {
        "rubber": rubber, "sheet": sheet_data, "last": last,
        "preview": _preview_for_page(_scored_now(sheet_data), sheet_data)})


@require_POST
def preview(request: HttpRequest, code: str) -> JsonResponse:
    """The live score of the deal being entered (stores nothing): JSON with the preview
    box's HTML, rendered by the same partial the page uses."""
    rubber = _pad(code)
    deal_in, revokes_by = deal_from_post(rubber.game, request.POST)
    bad = not_a_count(request.POST)
    answer = {"ok": False, "message": bad} if bad else services.rubber_preview(
        rubber=rubber, deal=deal_in, revokes_by=revokes_by,
        replace_last=request.GET.get("last") == "1")
    sheet_data = services.rubber_sheet(rubber=rubber)
    html = render_to_string("tournaments/pad/_preview.html",
                            {"preview": _preview_for_page(answer, sheet_data),
                             "sheet": sheet_data}, request=request)
    return JsonResponse({"ok": answer["ok"], "html": html,
                         "message": answer.get("message", "")})


def _print_status(request: HttpRequest, rubber: Rubber, job: ReportJob) -> dict[str, Any]:
    """The job's state as the print room's status URL gives it (``report_status``), with
    the pad's own addresses: live.js keeps the page's progress bar moving from it."""
    data = reports.report_status(job)
    data["status_url"] = reverse("pad-print-status", args=[rubber.code])
    data["file_url"] = None
    if job.status == ReportJob.Status.DONE and job.file:
        data["file_url"] = (reverse("pad-print-file", args=[rubber.code])
                            + f"?v={int(job.updated_at.timestamp())}")
    return data


@require_http_methods(["GET", "POST"])
@never_cache
def print_sheet(request: HttpRequest, code: str) -> HttpResponse:
    """Ask for the sheet as a PDF (POST), and follow the job (GET): a progress bar that
    live.js moves by polling ``print_status``, as in the print room (no page refresh)."""
    rubber = _pad(code)
    if request.method == "POST":
        reports.rubber_report_request(rubber=rubber)
        return redirect("pad-print", code=rubber.code)
    job = ReportJob.objects.filter(rubber=rubber).first()
    status = _print_status(request, rubber, job) if job else None
    return render(request, "tournaments/pad/print.html", {
        "rubber": rubber, "job": job, "status": status})


@require_GET
@never_cache
def print_status(request: HttpRequest, code: str) -> JsonResponse:
    """The sheet's print job as JSON (the print room's status shape), for the progress bar."""
    rubber = _pad(code)
    job = ReportJob.objects.filter(rubber=rubber).first()
    if job is None:
        return JsonResponse({"error": "Nothing is being printed: tap Print the sheet.",
                             "status": None}, status=404)
    if reports.report_requeue(job=job):  # a job left waiting for the broker: sent again
        job.refresh_from_db()
    return JsonResponse(_print_status(request, rubber, job))


def print_file(request: HttpRequest, code: str) -> HttpResponse:

    rubber = _pad(code)
    job = ReportJob.objects.filter(rubber=rubber, status=ReportJob.Status.DONE).first()
    if job is None or not job.file:
        raise Http404("The score sheet is not printed yet.")
    return FileResponse(default_storage.open(job.file.name, "rb"), as_attachment=False,
                        filename=job.file.name.rsplit("/", 1)[-1],
                        content_type="application/pdf")
