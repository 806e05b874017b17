"""The score pad: a rubber kept on one phone (rules.md §10; interfaces.md §5).

Terms: a *pad* is one ``Rubber`` with its deals in play order; its *code* is the secret
in its link. Only what the table entered is stored (each deal as the engine's rubber
input); every score on the pad, the API and the printed sheet comes from
``scoring.engine.score_rubber`` over the stored deals, so there is one truth.

Writers to one rubber serialise on its row (``select_for_update``), taken first; the
rubber's deals are then read and written under it. A pad has no event, so these
services take no event lock and write no audit entry (a pad is the players' own
record: decisions.md).
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction

from scoring.engine import RUBBER_GAMES, RUBBER_RULE_SETS, RubberError, score_rubber

from .. import presenters
from ..models import Rubber, RubberDeal
from .base import ServiceError

FOUR_SEATS: tuple[str, ...] = ("N", "E", "S", "W")  # the deal passes to the left
THREE_PLAYERS: tuple[str, ...] = ("A", "B", "C")  # Three-Hand Auction, rule (1)
WHIST_FORMS: tuple[str, ...] = ("plain", "dummy", "double-dummy")
NAME_MAX = 40
_SIDE_OF = {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}


def seats_of(game: str) -> tuple[str, ...]:
    """The seats of a game's players, in dealing order."""
    return THREE_PLAYERS if game == "three-hand" else FOUR_SEATS


# --- making a pad --------------------------------------------------------------------------


def _names(game: str, players: object) -> list[str]:
    seats = seats_of(game)
    if not isinstance(players, (list, tuple)) or len(players) != len(seats):
        raise ServiceError(
            f"name the {len(seats)} players ({', '.join(seats)} in dealing order)",
            field="players")
    names = []
    for seat, name in zip(seats, players, strict=True):
        name = str(name or "").strip()
        if not name:
            raise ServiceError(f"give a name for {presenters.seat(seat)}", field="players")
        if len(name) > NAME_MAX:
            raise ServiceError(f"the name for {presenters.seat(seat)} is too long: at most "
                               f"{NAME_MAX} letters", field="players")
        names.append(name)
    return names


def _dummy(form: str, dummy: str) -> str:
    dummy = "".join(dict.fromkeys(ch for ch in str(dummy or "").upper() if ch.isalpha()))
    if form == "plain":
        return ""
    if form == "dummy":
        if len(dummy) != 1 or dummy not in FOUR_SEATS:
            raise ServiceError("Dummy Whist: choose the seat of the dummy hand (N, E, S or W)",
                               field="dummy")
        return dummy
    if (len(dummy) != 2 or any(s not in FOUR_SEATS for s in dummy)
            or _SIDE_OF[dummy[0]] == _SIDE_OF[dummy[1]]):
        raise ServiceError("Double Dummy: choose the two dummy hands, one of each side "
                           "(N or S, and E or W)", field="dummy")
    return "".join(s for s in FOUR_SEATS if s in dummy)


@transaction.atomic
def rubber_create(*, game: str, players: Sequence[str], rules: str = "american-1913",
                  form: str = "plain", dummy: str = "", first_dealer: str = "") -> Rubber:
    """Start a pad. ``players`` by seat (N E S W; A B C for Three-Hand); whist takes
    ``form`` (plain, dummy, double-dummy) and ``dummy`` (the dummy seats); the first
    dealer is ``first_dealer`` when given, else N (A); at Dummy Whist it is always the
    dummy (Dummy Whist rule 1: "Dummy deals at the commencement of each rubber"), and at
    Double Dummy, whose laws are Dummy Whist's, one of the two dummies (the first in seat
    order unless the other is chosen)."""
    if game not in RUBBER_GAMES:
        raise ServiceError("choose the game: Auction Bridge, Three-Hand Auction or Whist",
                           field="game")
    names = _names(game, players)
    if game == "whist":
        rules = ""
        if form not in WHIST_FORMS:
            raise ServiceError("choose Whist, Dummy Whist or Double Dummy", field="form")
        dummy = _dummy(form, dummy)
    else:
        if rules not in RUBBER_RULE_SETS:
            raise ServiceError("choose the American rule (1913) or the English rule",
                               field="rules")
        form, dummy = "plain", ""
    seats = seats_of(game)
    if first_dealer:
        if first_dealer not in seats:
            raise ServiceError(f"the first dealer is one of {', '.join(seats)}",
                               field="first_dealer")
        if form == "dummy" and first_dealer != dummy:
            raise ServiceError(
                f"at Dummy Whist the dummy deals first (Dummy Whist rule 1): leave the first "
                f"dealer out, or choose the dummy ({presenters.seat(dummy)})",
                field="first_dealer")
        if form == "double-dummy" and first_dealer not in dummy:
            raise ServiceError(
                "at Double Dummy a dummy deals first (its laws are Dummy Whist's, rule 1): "
                f"choose {presenters.seat(dummy[0])} or {presenters.seat(dummy[1])}",
                field="first_dealer")
    else:
        first_dealer = dummy[:1] if form in ("dummy", "double-dummy") else seats[0]
    return Rubber.objects.create(game=game, rules=rules, form=form, dummy=dummy,
                                 players=names, first_dealer=first_dealer,
                                 code=secrets.token_urlsafe(12))


# --- adding and correcting deals -----------------------------------------------------------


def _lock(rubber: Rubber) -> Rubber:
    return Rubber.objects.select_for_update().get(pk=rubber.pk)


def _stored(rubber: Rubber) -> list[RubberDeal]:
    return list(rubber.deals.order_by("number"))


def _engine_rules(rubber: Rubber) -> str:
    return rubber.rules or "american-1913"


def next_dealer(rubber: Rubber, deals: Sequence[RubberDeal]) -> str:
    """Who deals next: the deal passes to the left (clockwise) after every deal."""
    seats = seats_of(rubber.game)
    if not deals:
        return rubber.first_dealer
    return seats[(seats.index(deals[-1].dealer) + 1) % len(seats)]


def _input(rubber: Rubber, deal: object, dealer: str,
           revokes_by: Mapping[str, Any] | None) -> dict:
    """The deal as the engine's input: the dealer put in, a whist's revokes by seat
    gathered by side (a dummy's refused: it is never liable for a revoke)."""
    if not isinstance(deal, Mapping):
        raise ServiceError("a deal is an object of its fields", field="deal")
    data = dict(deal)
    seats = seats_of(rubber.game)
    if dealer not in seats:
        raise ServiceError(f"the dealer is one of {', '.join(seats)}", field="dealer")
    if rubber.game == "whist":
        data.pop("dealer", None)
        if revokes_by:
            counts = {"NS": 0, "EW": 0}
            for seat, n in revokes_by.items():
                if seat not in FOUR_SEATS:
                    raise ServiceError("revokes are counted by seat: N, E, S or W",
                                       field="revokes_by")
                n = _count(n)
                if n is None:
                    raise ServiceError(
                        f"{presenters.seat(seat)}'s revokes: a whole number, 0 or more",
                        field=f"revokes_by.{seat}")
                if n and seat in rubber.dummy:
                    raise ServiceError(
                        f"the dummy ({presenters.seat(seat)}) is never liable for a revoke "
                        "(Dummy Whist rule 2): leave its revokes at 0",
                        field=f"revokes_by.{seat}")
                counts[_SIDE_OF[seat]] += n
            if counts["NS"] or counts["EW"]:
                data["revokes"] = counts
            else:
                data.pop("revokes", None)
                data.pop("revoke_penalty", None)
        revokes = data.get("revokes")
        if not (isinstance(revokes, Mapping) and (bool(revokes.get("NS")) != bool(
                revokes.get("EW")))):
            data.pop("revoke_penalty", None)  # a choice only when one side revoked
    else:
        data["dealer"] = dealer
    return data


def _count(value: object) -> int | None:
    """A count as entered (a number, or its digits): None unless a whole number, 0 or
    more ("1.5", "-1", 1.5 and True are not counts; blank is 0)."""
    if value is None or value == "":
        return 0
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if value >= 0 else None
    text = str(value).strip() if isinstance(value, str) else ""
    return int(text) if text.isascii() and text.isdigit() else None


def deal_input(*, game: str, deal: object, dealer: str,
               revokes_by: Mapping[str, Any] | None = None) -> dict:
    """A deal as the engine's input, as the pad makes it (``_input``), for a game played
    without a dummy hand: a party night's deal (services/party.py)."""
    return _input(Rubber(game=game), deal, dealer, revokes_by)


def _score(rubber: Rubber, deals: list[dict]):
    """The engine's rubber over these inputs; its first complaint as a ServiceError."""
    try:
        return score_rubber(rubber.game, deals, _engine_rules(rubber))
    except RubberError as exc:
        field = exc.field or "deal"
        raise ServiceError(exc.message, field=field) from None


@transaction.atomic
def rubber_deal_add(*, rubber: Rubber, deal: Mapping[str, Any], dealer: str = "",
                    revokes_by: Mapping[str, Any] | None = None,
                    number: int | None = None) -> RubberDeal:
    """Add the next deal (the engine's rubber input; ``dealer`` defaults to whoever
    deals next). Refused, in the engine's words, once the rubber is won. ``number``,
    when given, is the deal the form was for: a form sent again (the browser's Back, a
    second tap) is refused, not stored as a copy."""
    rubber = _lock(rubber)
    stored = _stored(rubber)
    if number is not None and number != len(stored) + 1:
        raise ServiceError(f"deal {number} is on the sheet already (this form was sent "
                           "before, or another phone entered it): this one was not saved. "
                           "Check the sheet, and correct the last deal if it is wrong",
                           field="number")
    data = _input(rubber, deal, dealer or next_dealer(rubber, stored), revokes_by)
    result = _score(rubber, [d.data for d in stored] + [data])
    row = RubberDeal.objects.create(rubber=rubber, number=len(stored) + 1,
                                    dealer=dealer or next_dealer(rubber, stored), data=data)
    if result.complete != rubber.finished:
        Rubber.objects.filter(pk=rubber.pk).update(finished=result.complete)
    return row


@transaction.atomic
def rubber_deal_correct(*, rubber: Rubber, deal: Mapping[str, Any], number: int | None = None,
                        dealer: str = "",
                        revokes_by: Mapping[str, Any] | None = None) -> RubberDeal:
    """Put right the last deal (and only the last: the ones before it are settled by
    the deals that followed). ``number``, when given, must be the last deal's."""
    rubber = _lock(rubber)
    stored = _stored(rubber)
    if not stored:
        raise ServiceError("there is no deal to correct yet: enter the first deal",
                           field="number")
    last = stored[-1]
    if number is not None and number != last.number:
        since = (f"deal {last.number} was entered after it" if number < last.number
                 else f"it was removed: deal {last.number} is the last one")
        raise ServiceError(f"deal {number} is no longer the last deal ({since}), so this "
                           "correction was not saved: only the last deal can be corrected",
                           field="number")
    data = _input(rubber, deal, dealer or last.dealer, revokes_by)
    result = _score(rubber, [d.data for d in stored[:-1]] + [data])
    last.data = data
    last.dealer = dealer or last.dealer
    last.save(update_fields=["data", "dealer", "changed_at"])
    if result.complete != rubber.finished:
        Rubber.objects.filter(pk=rubber.pk).update(finished=result.complete)
    return last


@transaction.atomic
def rubber_deal_remove(*, rubber: Rubber, number: int) -> RubberDeal:
    """Take the last deal off the sheet: one entered twice, or not played (Whist Law 57:
    an erroneous score may be put right at any time during the rubber). Only the last,
    as only the last is corrected; a won rubber is open again if it was that deal that
    won it. Returns the deal removed (no longer stored)."""
    rubber = _lock(rubber)
    stored = _stored(rubber)
    if not stored:
        raise ServiceError("there is no deal to remove", field="number")
    last = stored[-1]
    if number != last.number:
        raise ServiceError(f"only the last deal can be removed: deal {last.number} is the "
                           "last one", field="number")
    result = _score(rubber, [d.data for d in stored[:-1]]) if len(stored) > 1 else None
    last.delete()
    finished = bool(result and result.complete)
    if finished != rubber.finished:
        Rubber.objects.filter(pk=rubber.pk).update(finished=finished)
    return last


# --- what the pad shows --------------------------------------------------------------------


def rubber_preview(*, rubber: Rubber, deal: Mapping[str, Any], dealer: str = "",
                   revokes_by: Mapping[str, Any] | None = None,
                   replace_last: bool = False) -> dict[str, Any]:
    """The live score of a deal being entered: stores nothing. ``{"ok": True, "deal":
    its row on the sheet, "result": the rubber's result after it}`` or ``{"ok": False,
    "message", "field"}``."""
    stored = _stored(rubber)
    if replace_last and stored:
        before, dealer = stored[:-1], dealer or stored[-1].dealer
    else:
        before, dealer = stored, dealer or next_dealer(rubber, stored)
    try:
        data = _input(rubber, deal, dealer, revokes_by)
        result = _score(rubber, [d.data for d in before] + [data])
    except ServiceError as exc:
        return {"ok": False, "message": exc.message, "field": exc.field}
    rows = [RubberDeal(rubber=rubber, number=d.number, dealer=d.dealer, data=d.data)
            for d in before]
    rows.append(RubberDeal(rubber=rubber, number=len(before) + 1, dealer=dealer, data=data))
    sheet = _sheet(rubber, rows, result)
    return {"ok": True, "deal": sheet["deals"][-1], "result": sheet["result"],
            "complete": sheet["complete"]}


def rubber_sheet(*, rubber: Rubber) -> dict[str, Any]:
    """The score sheet, computed by the engine from the stored deals (see ``_sheet``)."""
    rows = _stored(rubber)
    result = _score(rubber, [d.data for d in rows])
    return _sheet(rubber, rows, result)


def _labels(rubber: Rubber) -> tuple[list[str], dict[str, str], dict[str, str]]:
    """The sheet's columns (sides, or Three-Hand's players), their labels and who plays
    each seat."""
    names = dict(zip(seats_of(rubber.game), rubber.players, strict=False))
    if rubber.game == "three-hand":
        return list(THREE_PLAYERS), {p: names[p] for p in THREE_PLAYERS}, names
    labels = {"NS": f"{names['N']} & {names['S']}", "EW": f"{names['E']} & {names['W']}"}
    return ["NS", "EW"], labels, names


def _what(rubber: Rubber, data: dict, names: dict[str, str]) -> str:
    """A deal in words: "2♥ × by Ann (S), 9 tricks"; "N–S 8 tricks"."""
    if rubber.game == "whist":
        return f"N–S {data.get('tricks_ns')} tricks, E–W {13 - int(data.get('tricks_ns', 0))}"
    c = data.get("contract")
    if not c:
        return "Passed out"
    declarer = c.get("declarer") if rubber.game == "auction" else data.get("declarer")
    text = presenters.contract(c.get("level"), c.get("denomination"), c.get("doubled"))
    who = f"{names.get(declarer, declarer)} ({declarer})" if declarer else ""
    return f"{text} by {who}, {data.get('tricks')} tricks"


def _sheet(rubber: Rubber, rows: Sequence[RubberDeal], result: Any) -> dict[str, Any]:
    """The pad's score sheet as plain data (the page, the API and the PDF share it).

    ``deals``: each deal with its trick column (``above``: toward game; at whist, the
    deal's points) and honour column (``below``) by column key, its items with their
    laws, and the game it won. ``periods``: the trick column game by game, each ruled
    off when won. ``below``: the honour column's rows, then the bonuses. ``result``: the
    rubber's result in words; ``settlement``: who pays whom (Three-Hand: each pair).
    """
    keys, labels, names = _labels(rubber)
    out = result.to_dict()
    game_of: dict[int, int] = {}
    for g, game in enumerate(out["games"]):
        for i in game["deals"]:
            game_of[i] = g
    deals = []
    for i, (row, score) in enumerate(zip(rows, out["deals"], strict=True)):
        if rubber.game == "auction":
            above = {"NS": score["ns"]["trick_score"], "EW": score["ew"]["trick_score"]}
            below = {"NS": score["ns"]["honour_score"], "EW": score["ew"]["honour_score"]}
            items = [{"to": labels[it["side"].upper()], "column": it["column"],
                      "points": it["points"], "what": presenters.dashed_sides(it["what"]),
                      "law": presenters.law_text(it["law"])} for it in score["items"]]
        elif rubber.game == "three-hand":
            above = {p: score["players"][p]["trick_score"] for p in keys}
            below = {p: score["players"][p]["honour_score"] for p in keys}
            items = [{"to": labels[it["player"]], "column": it["column"],
                      "points": it["points"], "what": presenters.dashed_sides(it["what"]),
                      "law": presenters.law_text(it["law"])} for it in score["items"]]
        else:
            above = dict(score["points"])
            below = {"NS": 0, "EW": 0}
            items = [{"to": labels[it["side"]], "column": "points", "points": it["points"],
                      "what": presenters.dashed_sides(it["what"]),
                      "law": presenters.law_text(it["law"])}
                     for it in score["items"]]
        g = game_of.get(i)
        won = g is not None and out["games"][g]["deals"][-1] == i
        deals.append({
            "number": row.number, "dealer": row.dealer,
            "dealer_name": names.get(row.dealer, row.dealer),
            "what": _what(rubber, row.data, names), "data": row.data,
            "above": above, "below": below, "items": items,
            "game_won_by": labels[out["games"][g]["winner"]] if won else None,
        })
    periods = []
    for g, game in enumerate(out["games"]):
        periods.append({"number": g + 1, "deals": [deals[i] for i in game["deals"]],
                        "winner": game["winner"], "winner_label": labels[game["winner"]],
                        "value": game.get("value"), "ruled_off": True})
    done = {i for game in out["games"] for i in game["deals"]}
    rest = [d for i, d in enumerate(deals) if i not in done]
    if rest or not periods or not out["complete"]:
        periods.append({"number": len(out["games"]) + 1, "deals": rest, "winner": None,
                        "winner_label": "", "value": None, "ruled_off": False})
    below: list[dict[str, Any]] = []
    if rubber.game != "whist":
        for d in deals:
            if any(d["below"].values()):
                below.append({"what": f"Deal {d['number']}", "points": d["below"]})
        for b in out["bonuses"]:
            law = presenters.law_text(b["law"])
            # "Rubber (two games won; Whist Club 1913)", not two brackets side by side.
            what = (f"{b['what'][:-1]}; {law})" if b["what"].endswith(")")
                    else f"{b['what']} ({law})")
            below.append({"what": presenters.sentence(what),
                          "points": {k: (b["points"] if k == b["to"] else 0) for k in keys}})
    else:
        for g, game in enumerate(out["games"]):
            below.append({"what": f"Game {g + 1}: worth {game['value']} (Whist Law 53)",
                          "points": {k: (game["value"] if k == game["winner"] else 0)
                                     for k in keys}})
        if out["complete"]:
            below.append({"what": "Rubber (Whist Law 54)",
                          "points": {k: out["rubber_points"][k] for k in keys}})
    totals = out["totals"] if rubber.game != "whist" else {
        k: sum(r["points"][k] for r in below) for k in keys}
    seats = seats_of(rubber.game)
    upcoming = next_dealer(rubber, rows)
    sheet = {
        "code": rubber.code, "game": rubber.game, "game_name": rubber.get_game_display(),
        "rules": rubber.rules, "rules_name": rubber.get_rules_display() if rubber.rules else "",
        "form": rubber.form, "form_name": rubber.get_form_display(),
        "dummy": list(rubber.dummy), "players": [
            {"seat": s, "seat_name": presenters.seat(s) if len(seats) == 4 else s,
             "name": names[s], "dummy": s in rubber.dummy} for s in seats],
        "columns": [{"key": k, "label": labels[k]} for k in keys],
        "deals": deals, "periods": periods, "below": below,
        "above_totals": {k: sum(d["above"][k] for d in deals) for k in keys},
        "totals": totals, "complete": out["complete"], "winner": out["winner"],
        "winner_label": labels[out["winner"]] if out["winner"] else "",
        "net": out["net"],
        "part_scores": out.get("part_scores") or out.get("score") or {},
        # The game being played, as it stands (toward game; at whist its points, which
        # Law 49's "score of four" turns on): None before its first deal and once won.
        "so_far": None if out["complete"] or not rest else {
            k: (out.get("part_scores") or out.get("score") or {}).get(k, 0) for k in keys},
        "next_dealer": None if out["complete"] else upcoming,
        "next_dealer_name": None if out["complete"] else names.get(upcoming, upcoming),
        "created_at": rubber.created_at.isoformat() if rubber.created_at else None,
    }
    sheet["settlement"] = _settlement(rubber, out, labels)
    sheet["result"] = _result_words(rubber, sheet, labels)
    return sheet


def _settlement(rubber: Rubber, out: dict, labels: dict[str, str]) -> list[dict[str, Any]]:
    """Who wins what from whom: Three-Hand by each pair of players (rule 15) and each
    player's net; four hands, the side ahead on the net."""
    if rubber.game == "three-hand":
        rows = []
        for pair, n in out["settlement"].items():
            a, b = pair.split("-")
            winner, loser = (a, b) if n >= 0 else (b, a)
            rows.append({"from": labels[loser], "to": labels[winner], "points": abs(n),
                         "words": f"{labels[winner]} wins {abs(n)} from {labels[loser]}"
                         if n else f"{labels[a]} and {labels[b]} are level"})
        return rows
    n = out["net"]["NS"]
    unit = "" if rubber.game != "whist" else " (game values and rubber points)"
    if not n:
        return [{"from": "", "to": "", "points": 0, "words": "The sides are level" + unit}]
    winner, loser = ("NS", "EW") if n > 0 else ("EW", "NS")
    return [{"from": labels[loser], "to": labels[winner], "points": abs(n),
             "words": f"{labels[winner]} win {abs(n)} from {labels[loser]}{unit}"}]


def _result_words(rubber: Rubber, sheet: dict, labels: dict[str, str]) -> str:
    """The rubber's state in one sentence."""
    if not sheet["deals"]:
        return f"No deals yet: {sheet['next_dealer_name']} deals first."
    if sheet["complete"]:
        return f"Rubber to {sheet['winner_label']}. " + "; ".join(
            s["words"] for s in sheet["settlement"]) + "."
    games = [p for p in sheet["periods"] if p["ruled_off"]]
    score = ", ".join(f"{p['winner_label']}" for p in games)
    won = f"Games won: {score}. " if games else "No game won yet. "
    return won + f"{sheet['next_dealer_name']} deals next."
