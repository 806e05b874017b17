"""The score pad: a rubber kept on one phone (rules.md §10; interfaces.md §5).

Terms: a *pad* is one ``Rubber`` with its deals in play order; its *code* is the secret
in its link. Only what the table entered is stored (each deal as the engine's rubber
input); every score on the pad, the API and the printed sheet comes from
``scoring.engine.score_rubber`` over the stored deals, so there is one truth.

Writers to one rubber serialise on its row (``select_for_update``), taken first; the
rubber's deals are then read and written under it. A pad has no event, so these
services take no event lock and write no audit entry (a pad is the players' own
record: decisions.md).

Two phones share a pad by its link. Every write moves the rubber's change number
(``Rubber.seq``), and a deal keeps the number of its last write as its ``version``. A
form says what it was opened on: a new deal's form the deal's number, a correction or a
removal also the deal's row and version. Each is checked against the sheet, under the
lock, before anything else about the deal; a sheet that moved on is told in words
(``RubberSheetMoved``, ``RubberDealChanged``) and nothing is written. Any deal may be
corrected, the whole list scored again (the engine is a function of it); only the last
is removed.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction
from django.db.models import F

from scoring.engine import (
    PENALTY_RULES,
    RUBBER_GAMES,
    RUBBER_RULE_SETS,
    RubberError,
    score_rubber,
)

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


class RubberSheetMoved(ServiceError):
    """A new deal's form sent for a deal the sheet no longer expects: one on the sheet
    already (the form sent twice, or another phone entered it), one after the last (a deal
    was removed since), or any after the rubber was won. Nothing is saved, and the form's
    deal is never taken for another. ``on_sheet``: the stored deal of the form's number,
    when there is one."""

    def __init__(self, message: str, *, on_sheet: RubberDeal | None = None,
                 field: str = "number"):
        super().__init__(message, field=field)
        self.on_sheet = on_sheet


class RubberDealChanged(ServiceError):
    """A correction or removal begun on a deal that was corrected, or removed (and perhaps
    entered again), since: it was made to a deal the phone no longer sees, so nothing is
    written (decisions.md 197: ``ResultChanged`` for a duplicate result). ``now``: the
    deal of that number as the sheet has it now (None once it is off the sheet)."""

    def __init__(self, message: str, *, now: RubberDeal | None, advice: str = ""):
        super().__init__(f"{message}; {advice}" if advice else message, field="version")
        self.now = now
        self.told = presenters.sentence(message)  # what happened, without what to do


class RubberWonEarlier(ServiceError):
    """The deals, as they would stand, end the rubber before the last of them: the engine
    takes no deal after the rubber's end. ``won_at``: the deal that would win it."""

    def __init__(self, message: str, *, won_at: int):
        super().__init__(message, field="deal")
        self.won_at = won_at


def _lock(rubber: Rubber) -> Rubber:
    return Rubber.objects.select_for_update().get(pk=rubber.pk)


def _stored(rubber: Rubber) -> list[RubberDeal]:
    return list(rubber.deals.order_by("number"))


def _engine_rules(rubber: Rubber) -> str:
    return rubber.rules or "american-1913"


def _written(rubber: Rubber, *, finished: bool) -> int:
    """Count one more change of the (locked) rubber and keep its ``finished`` cache;
    returns the new change number, the version of the deal just written. The row is
    locked, so ``rubber.seq + 1`` is what ``F("seq") + 1`` makes."""
    Rubber.objects.filter(pk=rubber.pk).update(seq=F("seq") + 1, finished=finished)
    return rubber.seq + 1


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
    """The engine's rubber over these inputs; its first complaint as a ServiceError. A
    deal after the rubber's end is told by the deal numbers of the sheet, not the list
    indexes of the engine's words (``RubberWonEarlier``)."""
    try:
        return score_rubber(rubber.game, deals, _engine_rules(rubber))
    except RubberError as exc:
        won = _won_before(rubber, deals, exc)
        if won is not None:
            number, winner = won
            _, labels, _ = _labels(rubber)
            raise RubberWonEarlier(f"the rubber was won at deal {number} by {labels[winner]}",
                                   won_at=number) from None
        raise ServiceError(exc.message, field=exc.field or "deal") from None


def _won_before(rubber: Rubber, deals: list[dict],
                exc: RubberError) -> tuple[int, str] | None:
    """(the deal that won the rubber, its winner) when the engine refused a deal for
    coming after the rubber's end, else None. Asked of the engine itself (the deals
    before the one refused make a rubber complete), not read from its words."""
    if exc.field or not 0 < exc.index <= len(deals):
        return None
    try:
        before = score_rubber(rubber.game, deals[:exc.index], _engine_rules(rubber))
    except RubberError:
        return None
    return (exc.index, before.winner) if before.complete and before.winner else None


def _line_of(rubber: Rubber, stored: Sequence[RubberDeal], row: RubberDeal) -> str:
    """A stored deal in the sheet's words ("4♥ by Cy (S), 10 tricks; revoke by the
    adversaries: 3 tricks taken"): a refusal says what the deal now reads."""
    sheet = _sheet(rubber, stored, score_rubber(rubber.game, [d.data for d in stored],
                                                _engine_rules(rubber)))
    return sheet["deals"][stored.index(row)]["what"]


def _ends(stored: Sequence[RubberDeal]) -> str:
    return f"the sheet now ends at deal {len(stored)}" if stored else \
        "the sheet has no deals now"


def _check_next(rubber: Rubber, stored: list[RubberDeal], number: int | None,
                complete: bool) -> None:
    """A new deal's form is checked against the sheet before anything else about it (a
    tap still to make, the engine's complaints): the deal it was opened for must be the
    next one, and the rubber not won. Each case is told as it is; the form's deal is
    never taken for another (a form for deal 3 is never saved as deal 2 or 4)."""
    last = len(stored)
    if number is not None:
        if 1 <= number <= last:
            row = stored[number - 1]
            raise RubberSheetMoved(
                f"deal {number} is on the sheet already (this form was sent before, or "
                "another phone entered it): this one was not saved. The sheet has it as "
                f"{_line_of(rubber, stored, row)}", on_sheet=row)
        if number != last + 1:
            raise RubberSheetMoved(
                f"this form was for deal {number}, but {_ends(stored)} (a deal was removed "
                "on another phone since the form was opened): it was not saved. Check the "
                f"sheet, then enter the next deal played as deal {last + 1}")
    if complete:
        _, labels, _ = _labels(rubber)
        winner = score_rubber(rubber.game, [d.data for d in stored],
                              _engine_rules(rubber)).winner
        raise RubberSheetMoved(
            f"the rubber was won at deal {last} by {labels[winner]}: this deal comes "
            "after the end of the rubber and was not saved. Start a new rubber for it, or "
            "correct a deal on the sheet if one is wrong",
            field="number" if number is not None else "deal")


def rubber_deal_check(*, rubber: Rubber, number: int | None = None,
                      version: int | None = None, deal_id: int | None = None,
                      change: bool = False) -> None:
    """Is the form still for a deal the sheet has as the form saw it? The deal form asks
    this first, so that a form sent with a tap missing is told the sheet has moved on
    (not redrawn for another deal). A read only: the write checks again under the lock."""
    stored = _stored(rubber)
    if change:
        _opened(rubber, stored, number, version, deal_id, doing="correction")
    else:
        _check_next(rubber, stored, number, bool(stored) and rubber.finished)


def deal_as_stored(*, rubber: Rubber, row: RubberDeal, deal: object,
                   revokes_by: Mapping[str, Any] | None = None) -> bool:
    """Would this deal be stored as ``row`` is? (The same form sent twice, against a
    different deal entered on another phone.)"""
    try:
        return _input(rubber, deal, row.dealer, revokes_by) == row.data
    except ServiceError:
        return False


def _opened(rubber: Rubber, stored: list[RubberDeal], number: int | None,
            version: int | None, deal_id: int | None, *, doing: str) -> RubberDeal:
    """The deal a correction or removal was begun on, as it was then: ``number`` (the
    last deal when None), the row ``deal_id`` and its ``version`` when given. A deal
    removed since, removed and entered again, or corrected since is refused in words
    that say what the sheet has now (RubberDealChanged)."""
    what = {"correction": ("correct", "this correction was begun", "saved",
                           "look at it again before you correct it"),
            "removal": ("remove", "its removal was asked for", "removed",
                        "if it should still go, remove it again")}
    verb, since, done, advice = what[doing]
    if not stored:
        raise ServiceError(f"there is no deal to {verb}" + (
            ": enter the first deal" if doing == "correction" else ""), field="number")
    if number is None:
        row = stored[-1]
    elif not 1 <= number <= len(stored):
        raise RubberDealChanged(
            f"deal {number} was removed on another phone since {since}: {_ends(stored)}. "
            f"Nothing was {done}", now=None)
    else:
        row = stored[number - 1]
    if deal_id is not None and row.pk != deal_id:
        raise RubberDealChanged(
            f"deal {row.number} was removed on another phone, and entered again, since "
            f"{since}: it now reads {_line_of(rubber, stored, row)}. Nothing was {done}",
            now=row, advice=advice)
    if version is not None and row.version != version:
        raise RubberDealChanged(
            f"deal {row.number} was changed on another phone since {since}: it now reads "
            f"{_line_of(rubber, stored, row)}. Nothing was {done}", now=row, advice=advice)
    return row


@transaction.atomic
def rubber_deal_add(*, rubber: Rubber, deal: Mapping[str, Any], dealer: str = "",
                    revokes_by: Mapping[str, Any] | None = None,
                    number: int | None = None) -> RubberDeal:
    """Add the next deal (the engine's rubber input; ``dealer`` defaults to whoever
    deals next). ``number``, when given, is the deal the form was for: it is checked
    first (``_check_next``), so a form sent again (the browser's Back, a second tap) or
    for a deal removed since is refused, never stored as a copy or as another deal. A
    deal after the rubber's end is refused."""
    rubber = _lock(rubber)
    stored = _stored(rubber)
    before = _score(rubber, [d.data for d in stored]) if stored else None
    _check_next(rubber, stored, number, bool(before and before.complete))
    dealer = dealer or next_dealer(rubber, stored)
    data = _input(rubber, deal, dealer, revokes_by)
    result = _score(rubber, [d.data for d in stored] + [data])
    version = _written(rubber, finished=result.complete)
    return RubberDeal.objects.create(rubber=rubber, number=len(stored) + 1, dealer=dealer,
                                     data=data, version=version)


def _rescored(rubber: Rubber, deals: list[dict], number: int):
    """The whole rubber again with deal ``number`` corrected (the engine is a function of
    the list: games, bonuses and who won follow). Refused when the correction would end
    the rubber before the last deal on the sheet: the deals after that belong to no
    rubber until they are taken off."""
    try:
        return _score(rubber, deals)
    except RubberWonEarlier as exc:
        won, last = exc.won_at, len(deals)
        after = f"deal {last} follows" if won + 1 == last else f"deals {won + 1}–{last} follow"
        raise RubberWonEarlier(
            f"with this correction the rubber would be "
            f"{exc.message.removeprefix('The rubber was ')}, but {after} it on the sheet: "
            f"nothing was saved. Remove the deals after deal {won} first (the last first: "
            f"they are a new rubber's), then correct deal {number} again",
            won_at=won) from None


@transaction.atomic
def rubber_deal_correct(*, rubber: Rubber, deal: Mapping[str, Any], number: int | None = None,
                        dealer: str = "", revokes_by: Mapping[str, Any] | None = None,
                        version: int | None = None,
                        deal_id: int | None = None) -> RubberDeal:
    """Put right deal ``number`` (the last when None): any deal, as the laws let an
    erroneous score be corrected (Auction Law 60(e); Whist Laws 56 and 57), and the whole
    rubber is scored again from the list (decisions.md). ``version`` and ``deal_id``, when
    given, are those of the deal as the form was opened on it: a deal changed, or removed
    and entered again, since is refused (``RubberDealChanged``), not overwritten. A
    correction that would end the rubber before the last deal is refused
    (``RubberWonEarlier``): those deals come off first."""
    rubber = _lock(rubber)
    stored = _stored(rubber)
    row = _opened(rubber, stored, number, version, deal_id, doing="correction")
    dealer = dealer or row.dealer
    data = _input(rubber, deal, dealer, revokes_by)
    deals = [d.data for d in stored]
    deals[row.number - 1] = data
    result = _rescored(rubber, deals, row.number)
    row.data, row.dealer = data, dealer
    row.version = _written(rubber, finished=result.complete)
    row.save(update_fields=["data", "dealer", "version", "changed_at"])
    return row


@transaction.atomic
def rubber_deal_remove(*, rubber: Rubber, number: int, version: int | None = None,
                       deal_id: int | None = None) -> RubberDeal:
    """Take the last deal off the sheet: one entered twice, or not played (Whist Law 57:
    an erroneous score may be put right at any time during the rubber). Only the last:
    a deal taken from the middle would pass the deal wrongly to every deal after it. A
    won rubber is open again if it was that deal that won it. ``version`` and
    ``deal_id``, when given, are those the question was asked on (``_opened``). Returns
    the deal removed (no longer stored)."""
    rubber = _lock(rubber)
    stored = _stored(rubber)
    if stored and not 1 <= number <= len(stored):
        raise RubberDealChanged(
            f"deal {number} is off the sheet already (removed on another phone, or this "
            f"was sent twice): {_ends(stored)}. Nothing else was removed", now=None)
    row = _opened(rubber, stored, number, version, deal_id, doing="removal")
    last = stored[-1]
    if row.pk != last.pk:
        raise ServiceError(f"deal {number} is not the last deal (deal {last.number} is): "
                           "nothing was removed. Only the last deal can be removed",
                           field="number")
    result = _score(rubber, [d.data for d in stored[:-1]]) if len(stored) > 1 else None
    last.delete()
    _written(rubber, finished=bool(result and result.complete))
    return last


# --- what the pad shows --------------------------------------------------------------------


def _copy(row: RubberDeal, data: dict | None = None) -> RubberDeal:
    """A stored deal as an unsaved row (for a preview: nothing is written)."""
    return RubberDeal(pk=row.pk, rubber_id=row.rubber_id, number=row.number,
                      dealer=row.dealer, data=row.data if data is None else data,
                      version=row.version)


def rubber_preview(*, rubber: Rubber, deal: Mapping[str, Any], dealer: str = "",
                   revokes_by: Mapping[str, Any] | None = None,
                   replace_last: bool = False, replace: int | None = None) -> dict[str, Any]:
    """The live score of a deal being entered, or of deal ``replace`` being corrected
    (``replace_last``: the last), the whole rubber scored again: stores nothing.
    ``{"ok": True, "deal": its row on the sheet, "result": the rubber's result after
    it}`` or ``{"ok": False, "message", "field"}``."""
    stored = _stored(rubber)
    if replace_last and stored:
        replace = stored[-1].number
    if replace is not None and not 1 <= replace <= len(stored):
        return {"ok": False, "field": "number", "message": presenters.sentence(
            f"deal {replace} was removed on another phone: {_ends(stored)}")}
    try:
        if replace is not None:
            index = replace - 1
            row = stored[index]
            data = _input(rubber, deal, dealer or row.dealer, revokes_by)
            rows = [_copy(d) for d in stored]
            rows[index] = _copy(row, data)
            rows[index].dealer = dealer or row.dealer
            result = _rescored(rubber, [d.data for d in rows], replace)
        else:
            dealer = dealer or next_dealer(rubber, stored)
            data = _input(rubber, deal, dealer, revokes_by)
            rows = [*stored, RubberDeal(rubber=rubber, number=len(stored) + 1,
                                        dealer=dealer, data=data)]
            index = len(rows) - 1
            result = _score(rubber, [d.data for d in rows])
    except ServiceError as exc:
        return {"ok": False, "message": exc.message, "field": exc.field}
    sheet = _sheet(rubber, rows, result)
    return {"ok": True, "deal": sheet["deals"][index], "result": sheet["result"],
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


def deal_line(*, game: str, data: dict, names: Mapping[str, str],
              score: Mapping[str, Any] | None) -> tuple[str, list[str]]:
    """A deal's line as the sheet words it, and its notes: "2R♠ by Cy (S), 8 tricks;
    revoke by the adversaries: 3 tricks taken" (``_what``, then ``_notes``). The pad's
    sheet and the party night's deals both word their lines here, so a revoke, an honour
    or a penalty reads the same on either. ``score``: the engine's score of the deal
    (its ``to_dict()``), whose items decide what the laws' arithmetic does."""
    notes = _notes(game, data, score)
    return "; ".join([_what(game, data, names), *notes]), notes


def _what(game: str, data: dict, names: Mapping[str, str]) -> str:
    """A deal's contract and tricks in words: "2♥ × by Ann (S), 9 tricks"; "N–S 8 tricks,
    E–W 5" (the tricks won in play). ``_notes`` says the rest."""
    if game == "whist":
        return f"N–S {data.get('tricks_ns')} tricks, E–W {13 - int(data.get('tricks_ns', 0))}"
    c = data.get("contract")
    if not c:
        return "Passed out"
    declarer = c.get("declarer") if game == "auction" else data.get("declarer")
    text = presenters.contract(c.get("level"), c.get("denomination"), c.get("doubled"))
    who = f"{names.get(declarer, declarer)} ({declarer})" if declarer else ""
    return f"{text} by {who}, {data.get('tricks')} tricks"


def _n(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _revokes(n: int) -> str:
    """"revoke", "2 revokes": one revoke is the usual case, and said as players say it."""
    return "revoke" if n == 1 else f"{n} revokes"


# Four-hand Auction's penalties at rubber play in the deal form's words (web/pad.py).
_PENALTY_WORDS = {"54-double-partner": "Law 54 by {by} (doubled partner)",
                  "54-redouble-more-than-once": "Law 54 by {by} (redoubled twice)"}


def _notes(game: str, data: dict, score: Mapping[str, Any] | None) -> list[str]:
    """What else a deal's score counts, briefly, so that each number on the sheet can be
    checked from its line: honours, revokes and their penalty, penalties ("revoke by the
    adversaries: 3 tricks taken"; "honours: 4 in one hand (N–S)"; "rule 9 by A"). From
    the deal as stored, and the engine's items (``score``) where the laws' arithmetic
    decides (which honours score; the points a whist revoke could deduct)."""
    items = list((score or {}).get("items") or ())
    if game == "whist":
        return _whist_notes(data, items)
    notes = []
    if game == "three-hand":
        held = data.get("honours") or {}
        counts = [f"{k} {held[k]}" for k in (*THREE_PLAYERS, "dummy") if held.get(k)]
        if counts:
            notes.append("honours: " + ", ".join(counts))
    else:
        for it in items:
            what = str(it.get("what", ""))
            if it.get("law") == "3" and ("honour" in what or "ace" in what):
                short = "simple" if what == "simple honours" else what.replace(" honours", "", 1)
                notes.append(f"honours: {short} ({presenters.side(it.get('side'))})")
    revokes = data.get("revokes") or {}
    declaring, defending = int(revokes.get("declaring") or 0), int(revokes.get("defending") or 0)
    to = "each adversary" if game == "three-hand" else "the adversaries"
    if declaring and defending:
        notes.append(f"revokes by both sides: {declaring} by the declarer's side, "
                     f"{defending} by the adversaries (Law 89)")
    elif declaring:
        notes.append(f"{_revokes(declaring)} by the declarer's side: "
                     f"{100 * declaring} to {to}")
    elif defending:
        if revokes.get("first_penalty") == "tricks":
            # Law 84(b): three tricks, never more than the adversaries won (the engine's).
            moved = min(3, 13 - int(data.get("tricks") or 0))
            taken = _n(moved, "trick") + (f" and {100 * (defending - 1)}"
                                          if defending > 1 else "")
        else:
            taken = str(100 * defending)
        notes.append(f"{_revokes(defending)} by the adversaries: {taken} taken")
    for p in data.get("penalties") or ():
        by = p.get("by", "")
        if game == "three-hand":
            notes.append(f"rule {p.get('rule')} by {by}")
        else:
            code = str(p.get("law"))
            rule = PENALTY_RULES.get(code)
            notes.append(_PENALTY_WORDS.get(code, "{law} by {by}").format(
                by=by, law=presenters.law_text(rule.law if rule else code)))
    return notes


def _whist_notes(data: dict, items: list[dict]) -> list[str]:
    """A whist deal's honours and revokes (Whist Laws 48, 75, 85) in a line's words."""
    notes = []
    held = (data.get("honours") or {}).get("NS")
    if held is not None:
        for side, n in (("NS", held), ("EW", 4 - int(held))):
            if n >= 3:
                notes.append(f"honours: {presenters.side(side)} {n}")
    revokes = data.get("revokes") or {}
    ns, ew = int(revokes.get("NS") or 0), int(revokes.get("EW") or 0)
    if ns and ew:
        notes.append("revokes by both sides cancel each other (Whist Law 85)")
    elif ns or ew:
        offender, k = ("NS", ns) if ns else ("EW", ew)
        other = "EW" if offender == "NS" else "NS"
        choice = data.get("revoke_penalty")
        if choice == "tricks":
            won = int(data.get("tricks_ns") or 0)
            won = won if offender == "NS" else 13 - won
            what = f"{_n(min(3 * k, won), 'trick')} taken"  # never more than it won
        elif choice == "deduct":
            cut = next((-it["points"] for it in items if it.get("law") == "Whist 75"
                        and "deducted" in str(it.get("what"))), 3 * k)
            what = f"{cut} deducted"  # its score stops at 0
        else:
            what = f"{3 * k} added to {presenters.side(other)}"
        notes.append(f"{_revokes(k)} by {presenters.side(offender)}: {what}")
    return notes


def _sheet(rubber: Rubber, rows: Sequence[RubberDeal], result: Any) -> dict[str, Any]:
    """The pad's score sheet as plain data (the page, the API and the PDF share it).

    ``deals``: each deal with its line (``what``: contract and tricks, then ``notes``),
    its trick column (``above``: toward game; at whist, the deal's points) and honour
    column (``below``) by column key, its items with their laws, the game it won, and
    its ``version`` (a correction carries it). ``periods``: the trick column game by
    game, each ruled off when won. ``below``: the honour column's rows, then the
    bonuses. ``result``: the rubber's state in words; ``settlement``: who wins what from
    whom (Three-Hand: each pair), as it stands, and ``stop_here`` its words while the
    rubber is unfinished (rules.md §10: a rubber stopped is settled on its totals).
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
        what, notes = deal_line(game=rubber.game, data=row.data, names=names, score=score)
        deals.append({
            "number": row.number, "dealer": row.dealer,
            "dealer_name": names.get(row.dealer, row.dealer),
            "what": what, "notes": notes,
            "data": row.data, "id": row.pk, "version": row.version,
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
        "seq": rubber.seq,
    }
    sheet["settlement"] = _settlement(rubber, out, labels)
    sheet["state"] = _state_words(sheet)
    sheet["stop_here"] = _stop_here_words(sheet)
    sheet["result"] = _result_words(sheet)
    return sheet


def _settlement(rubber: Rubber, out: dict, labels: dict[str, str]) -> list[dict[str, Any]]:
    """Who wins what from whom, the rubber won or stopped where it stands: Three-Hand by
    each pair of players (rule 15); four hands, the side ahead on the net (Auction: the
    N–S total less the E–W total, rules.md §10.1; whist: the game values, Laws 53–55)."""
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
    unit = "" if rubber.game != "whist" else (
        " (game values and rubber points)" if out["complete"] else " (game values)")
    if not n:
        return [{"from": "", "to": "", "points": 0, "words": "The sides are level" + unit}]
    winner, loser = ("NS", "EW") if n > 0 else ("EW", "NS")
    return [{"from": labels[loser], "to": labels[winner], "points": abs(n),
             "words": f"{labels[winner]} win {abs(n)} from {labels[loser]}{unit}"}]


def _state_words(sheet: dict) -> str:
    """Where the rubber is, in one sentence: the games won and who deals next."""
    if not sheet["deals"]:
        return f"No deals yet: {sheet['next_dealer_name']} deals first."
    if sheet["complete"]:
        return f"Rubber to {sheet['winner_label']}."
    games = [p for p in sheet["periods"] if p["ruled_off"]]
    won = (f"Games won: {', '.join(p['winner_label'] for p in games)}. " if games
           else "No game won yet. ")
    return won + f"{sheet['next_dealer_name']} deals next."


def _stop_here_words(sheet: dict) -> str:
    """What each side (player) wins or loses if the rubber stops after the last deal
    (the end of the night): "" before the first deal and once the rubber is won."""
    if not sheet["deals"] or sheet["complete"]:
        return ""
    return "If the rubber stops here: " + presenters.listed(
        [s["words"][0].lower() + s["words"][1:] if s["words"].startswith("The ")
         else s["words"] for s in sheet["settlement"]]) + "."


def _result_words(sheet: dict) -> str:
    """The rubber's state in words: won, with who wins what; or where it stands, and
    what a stop here would settle."""
    if sheet["complete"]:
        return f"Rubber to {sheet['winner_label']}. " + "; ".join(
            s["words"] for s in sheet["settlement"]) + "."
    return " ".join(w for w in (sheet["state"], sheet["stop_here"]) if w)
