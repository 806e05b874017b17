"""The score pad: a table keeps a rubber on one phone (rules.md §10).

A pad is opened by its link, whose code is its secret (made by ``secrets``: too long to
guess, so no throttle); the phone that made it remembers it in its session. Every write
is a ``services.rubber_*`` call; every score on these pages is the engine's
(``services.rubber_sheet`` / ``rubber_preview``). The deal form posts tap-first fields;
``deal_from_post`` turns them into the engine's rubber input, leaving what was not tapped
out; ``still_to_choose`` names it in the form's words, on Save and in the live score alike.

Two phones may keep one pad. A form says what it was opened on (the deal's number; a
correction or a removal also the deal's row and version), and is checked against the
sheet before anything else: a deal entered, corrected or removed on the other phone since
is told in words, and the form's deal is never taken for another.
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
from ..services.rubbers import (
    FOUR_SEATS,
    THREE_PLAYERS,
    RubberDealChanged,
    RubberSheetMoved,
    deal_as_stored,
    rubber_deal_check,
    seats_of,
)

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
        # English rule: no contract, no play. What else was tapped still goes to the
        # engine, which scores a penalty that stands without a declaration (Three-Hand
        # rules 5, 9 and 10: 50 or 100 to each other player) and refuses, in words, what
        # cannot be (honours, revokes, any four-hand penalty): dropped here, a
        # penalty ticked had vanished without a word.
        deal["contract"] = None
        deal["tricks"] = 0
    else:
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
    return f"Still to choose: {presenters.listed(missing)}."


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


def _scored_now(sheet: dict, row: dict) -> dict:
    """What a deal of the sheet scores now, as the live preview shows a deal: the
    correction and the removal pages open with it."""
    return {"ok": True, "deal": dict(row), "result": sheet["result"],
            "complete": sheet["complete"]}


def _said(text: str) -> str:
    """A message shown alone, as a sentence with its full stop."""
    return text if text.endswith((".", "!", "?")) else text + "."


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


def _row(sheet: dict, number: int | None) -> dict | None:
    """The sheet's deal ``number`` (the last when None); None when there is no such deal."""
    deals = sheet["deals"]
    if number is None:
        return deals[-1] if deals else None
    return deals[number - 1] if 1 <= number <= len(deals) else None


def _deal_form(request: HttpRequest, rubber: Rubber, sheet_data: dict, *,
               row: dict | None, values: Any, error: str | None = None,
               preview: dict | None = None, number: int | None = None) -> HttpResponse:
    """The deal form: a new deal's (``row`` None: deal ``number``, the next by default)
    or the correction of ``row``. Its hidden fields say what it was opened on (the deal's
    number; for a correction, also its row and version), so the write can tell if the
    sheet moved on."""
    change = row is not None
    if change:
        number = row["number"]
    elif number is None:
        number = len(sheet_data["deals"]) + 1
    return render(request, "tournaments/pad/deal.html", {
        "rubber": rubber, "sheet": sheet_data, "change": change, "number": number,
        "is_last": change and number == len(sheet_data["deals"]),
        "version": row["version"] if change else None,
        "deal_id": row["id"] if change else None,
        "dealer": row["dealer_name"] if change else sheet_data["next_dealer_name"],
        "error": error, "values": values,
        "preview": _preview_for_page(preview, sheet_data),
        **_choices(rubber, sheet_data, values),
        "preview_url": reverse("pad-preview", args=[rubber.code])
        + (f"?deal={number}" if change else "")}, status=400 if error else 200)


def _deal_page(request: HttpRequest, rubber: Rubber, *, change: bool) -> HttpResponse:
    """A new deal's form (``change`` False) or a correction of any deal (``?deal=N``, the
    last by default), and their Save.

    A form sent is checked against the sheet first (``rubber_deal_check``), before any
    tap still to make or the engine's words: another phone may have entered, corrected
    or removed a deal since it was opened. The page never changes the deal a form was
    for: a form for deal 3 is never redrawn, nor saved, as deal 2 or 4."""
    sheet_data = services.rubber_sheet(rubber=rubber)
    if request.method != "POST":
        if change:
            wanted = _int(request.GET.get("deal"))
            row = _row(sheet_data, wanted)
            if row is None:
                if wanted is not None:
                    messages.warning(request, f"There is no deal {wanted} on the sheet.")
                return redirect("pad-sheet", code=rubber.code)
            return _deal_form(request, rubber, sheet_data, row=row,
                              values=_values_of(rubber, row["data"]),
                              preview=_scored_now(sheet_data, row))  # before any tap
        if sheet_data["complete"]:
            return redirect("pad-sheet", code=rubber.code)
        return _deal_form(request, rubber, sheet_data, row=None, values={})
    post = request.POST
    deal, revokes_by = deal_from_post(rubber.game, post)
    number = _int(post.get("number"))
    version, deal_id = _int(post.get("version")), _int(post.get("deal_id"))
    try:
        rubber_deal_check(rubber=rubber, number=number, version=version, deal_id=deal_id,
                          change=change)
        if missing := still_to_choose(rubber.game, post, rubber.dummy):
            raise services.ServiceError(missing)
        if change:
            services.rubber_deal_correct(rubber=rubber, deal=deal, number=number,
                                         revokes_by=revokes_by, version=version,
                                         deal_id=deal_id)
        else:
            services.rubber_deal_add(rubber=rubber, deal=deal, revokes_by=revokes_by,
                                     number=number)
    except RubberDealChanged as exc:
        if exc.now is None:  # the deal is off the sheet: nothing left to correct
            messages.warning(request, _said(exc.message))
            return redirect("pad-sheet", code=rubber.code)
        # Changed (or entered again) since: this phone's taps come back beside the deal
        # as it now reads, on a form opened on it as it now is; a second Save puts them
        # in its place (decision 197, as the director's correction of a result).
        return _changed_form(request, rubber, exc.now.number, deal, revokes_by,
                             f"{exc.told}; your taps are below: save them again to put "
                             "them in its place, or go back to the sheet.")
    except RubberSheetMoved as exc:
        row = exc.on_sheet
        if row is not None and not deal_as_stored(rubber=rubber, row=row, deal=deal,
                                                  revokes_by=revokes_by):
            # Another phone entered this deal, with other taps: they are not lost, but
            # come back as the correction of that same deal, for the players to choose.
            return _changed_form(request, rubber, row.number, deal, revokes_by,
                                 _said(exc.message) + f" Yours is below, as a correction "
                                 f"of deal {row.number}: save it if yours is right, or go "
                                 "back to the sheet.")
        messages.warning(request, _said(exc.message))  # sent twice, or the sheet moved on
        return redirect("pad-sheet", code=rubber.code)
    except services.ServiceError as exc:
        row = _row(sheet_data, number) if change else None
        if change and row is None:
            return redirect("pad-sheet", code=rubber.code)
        # Sent back as it was sent: for the deal it was for (the posted number, which the
        # sheet was checked against), never the one the sheet would take next.
        return _deal_form(request, rubber, sheet_data, row=row, values=post,
                          error=exc.message, number=number,
                          preview=services.rubber_preview(
                              rubber=rubber, deal=deal, revokes_by=revokes_by,
                              replace=row["number"] if row else None))
    return redirect("pad-sheet", code=rubber.code)


def _changed_form(request: HttpRequest, rubber: Rubber, number: int, deal: dict,
                  revokes_by: dict | None, error: str) -> HttpResponse:
    """The correction of deal ``number`` as the sheet has it now, with the taps sent."""
    sheet_data = services.rubber_sheet(rubber=rubber)
    row = _row(sheet_data, number)
    if row is None:
        messages.warning(request, error)
        return redirect("pad-sheet", code=rubber.code)
    return _deal_form(request, rubber, sheet_data, row=row, values=request.POST, error=error,
                      preview=services.rubber_preview(rubber=rubber, deal=deal,
                                                      revokes_by=revokes_by, replace=number))


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
    """Take the last deal off the sheet (entered twice, or not played): asked first. The
    question carries the deal it was asked on (its number, row and version): a deal
    changed, or removed and entered again, since is not removed (``_opened``)."""
    rubber = _pad(code)
    sheet_data = services.rubber_sheet(rubber=rubber)
    if not sheet_data["deals"]:
        return redirect("pad-sheet", code=rubber.code)
    last = sheet_data["deals"][-1]
    if request.method == "POST":
        try:
            removed = services.rubber_deal_remove(
                rubber=rubber, number=_int(request.POST.get("number")) or 0,
                version=_int(request.POST.get("version")),
                deal_id=_int(request.POST.get("deal_id")))
        except services.ServiceError as exc:
            messages.warning(request, _said(exc.message))
        else:
            messages.success(request, f"Deal {removed.number} is removed from the sheet.")
        return redirect("pad-sheet", code=rubber.code)
    return render(request, "tournaments/pad/remove.html", {
        "rubber": rubber, "sheet": sheet_data, "last": last,
        "preview": _preview_for_page(_scored_now(sheet_data, last), sheet_data)})


@require_POST
def preview(request: HttpRequest, code: str) -> JsonResponse:
    """The live score of the deal being entered, or of deal ``?deal=N`` being corrected
    (stores nothing): JSON with the preview box's HTML, rendered by the same partial the
    page uses. What is still to tap is said in the form's words, as Save says it (the
    engine's own words name its input's keys, for programs): a note while tapping, not
    an error."""
    rubber = _pad(code)
    post = request.POST
    deal_in, revokes_by = deal_from_post(rubber.game, post)
    bad = not_a_count(post)
    missing = "" if bad else still_to_choose(rubber.game, post, rubber.dummy)
    if bad or missing:
        answer: dict[str, Any] = {"ok": False, "message": bad or missing,
                                  "pending": bool(missing)}
    else:
        answer = services.rubber_preview(
            rubber=rubber, deal=deal_in, revokes_by=revokes_by,
            replace=_int(request.GET.get("deal")),
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
