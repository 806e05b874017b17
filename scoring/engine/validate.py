"""Checking a deal result given as JSON-like data (docs/interfaces.md §1).

Terms:
    field     the dotted path of a value in the result: "contract.level",
              "honours.N", "revokes.first_penalty", "penalties.0.by".
    hand record  the board's deal (PBN); when known, honours come from it.

Every check raises ResultError(field, message) with words a player understands.
Unknown keys are rejected (a misspelt "honors" must not be silently ignored).
Whole numbers must be JSON integers: true/false, 8.0, "8" are refused.

strict      the scoring command's reading of interfaces.md §1: an optional key may be
            left out but is never null (only ``contract`` is: the passed-out deal), and
            a passed-out deal has no tricks. Off (the product's paths: the night file,
            the API, the pad), null reads as left out (engine.md decision 2).
"""

from __future__ import annotations

import difflib

from .deal import known_honours
from .model import NO_REVOKES, AuctionResult, Contract, Penalty, ResultError, Revokes, WhistResult
from .rules import (
    DOUBLING,
    PENALTY_CODES,
    PENALTY_RULES,
    RULE_SET_NAMES,
    SEATS,
    RuleSet,
    get_rules,
)

_AUCTION_KEYS = frozenset({"board", "contract", "tricks", "honours", "revokes", "penalties"})
_WHIST_KEYS = frozenset({"board", "tricks_ns", "revokes"})
_CONTRACT_KEYS = frozenset({"level", "denomination", "declarer", "doubled"})
_REVOKE_KEYS = frozenset({"declaring", "defending", "first_penalty"})
_WHIST_REVOKE_KEYS = frozenset({"NS", "EW"})
_PENALTY_KEYS = frozenset({"law", "by"})
_SEAT_SET = frozenset(SEATS)
_MISSING = object()
MAX_REVOKES = 13  # a side cannot revoke more often than there are tricks

# Likely slips at the top level of a result, and what was meant.
_HINTS = {
    "honors": "honours",
    "honor": "honours",
    "trick": "tricks",
    "revoke": "revokes",
    "penalty": "penalties",
    "declarer": "contract.declarer",
    "level": "contract.level",
    "denomination": "contract.denomination",
    "doubled": "contract.doubled",
    "tricks": "tricks_ns",
    "tricks_won": "tricks_ns",
}
_NOT_WHIST = frozenset({"contract", "honours", "penalties"})


def _kind(value: object) -> str:
    """A short description of a JSON value for a message (never a huge repr)."""
    if value is None:
        return "null"
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(value, str):
        return "text" if len(value) > 20 else repr(value)
    if isinstance(value, float):
        return "a decimal number"
    if isinstance(value, int):
        return "a number"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return "a " + type(value).__name__


def _whole(value: object, field: str, name: str, lo: int, hi: int | None) -> int:
    """A JSON integer in lo..hi (booleans are not integers here)."""
    if type(value) is int and value >= lo and (hi is None or value <= hi):
        return value
    span = f"between {lo} and {hi}" if hi is not None else f"from {lo} up"
    if type(value) is int:
        raise ResultError(field, f"{name} must be {span}")
    raise ResultError(field, f"{name} must be a whole number {span}, not {_kind(value)}")


def _object(value: object, field: str, name: str, allowed: frozenset[str]) -> dict:
    if not isinstance(value, dict):
        raise ResultError(field, f"{name} must be an object, not {_kind(value)}")
    if not value.keys() <= allowed:
        _unknown_key(value, allowed, field)
    return value


_PLACES = {"": "a deal result", "contract": "the contract", "honours": "honours",
           "revokes": "revokes"}


def _unknown_key(data: dict, allowed: frozenset[str], prefix: str) -> None:
    for key in data:
        if key in allowed:
            continue
        text = str(key)
        path = f"{prefix}.{text}" if prefix else text
        shown = repr(key) if len(text) <= 30 else repr(text[:30] + "...")
        if prefix == "honours":
            raise ResultError(path, f"{shown} is not a seat: honours are given for N, E, S, W")
        place = _PLACES.get(prefix, "a penalty" if prefix.startswith("penalties") else prefix)
        message = f"{shown} is not a field of {place}"
        hint = None if prefix else _HINTS.get(text)
        if not prefix and key in _NOT_WHIST and "tricks_ns" in allowed:
            message += " (duplicate whist has no contract or honours, only tricks_ns and revokes)"
        elif hint and (hint in allowed or ("." in hint and "contract" in allowed)):
            message += f" (did you mean {hint!r}?)"
        else:
            close = difflib.get_close_matches(text[:40], sorted(allowed), n=1)
            if close:
                message += f" (did you mean {close[0]!r}?)"
        message += f"; the fields are {', '.join(sorted(allowed))}"
        raise ResultError(path, message)


def _board(data: dict, board: int | None) -> int:
    if board is not None:
        return _whole(board, "board", "the board number", 1, None)
    value = data.get("board", _MISSING)
    if type(value) is int and value >= 1:
        return value
    if value is _MISSING:
        raise ResultError("board", "the board number is missing")
    return _whole(value, "board", "the board number", 1, None)


# What to give instead of null, for each optional key (strict: the scoring command).
NULL_ADVICE = {
    "contract.doubled": 'doubled must be "" (not doubled), "X" or "XX", not null: leave '
                        "doubled out when the contract was not doubled",
    "honours": "honours must be an object of counts by seat (N, E, S, W), not null: leave "
               "honours out when there are none to count",
    "revokes": "revokes must be an object (declaring, defending, first_penalty), not null: "
               "leave revokes out when no one revoked",
    "revokes.first_penalty": 'first_penalty must be "points" or "tricks", not null: leave '
                             "first_penalty out when the declarer has no choice to make",
    "penalties": "penalties must be a list, not null: leave penalties out when there were "
                 "none",
    "whist.revokes": "revokes must be an object (NS, EW), not null: leave revokes out when "
                     "no one revoked",
}
PASSED_OUT_TRICKS = "a passed-out deal has no tricks: leave tricks out"


def optional(data: dict, key: str, strict: bool, advice: str, field: str = "") -> object:
    """``data[key]``, None when it is left out (or, not strict, given as null). Strict
    reading: given as null is refused with ``advice``, naming ``field`` (else ``key``)."""
    value = data.get(key)
    if value is None and strict and key in data:
        raise ResultError(field or key, advice)
    return value


def _one_of(value: object, field: str, name: str, choices: tuple[str, ...]) -> str:
    if isinstance(value, str) and value in choices:
        return value
    raise ResultError(field, f"{name} must be one of {', '.join(choices)}, not {_kind(value)}")


def _all_contracts(rules: RuleSet) -> dict[tuple[object, ...], Contract]:
    """Every valid contract under ``rules``, keyed by its four fields as given."""
    table: dict[tuple[object, ...], Contract] = {}
    for level in range(1, 8):
        for denomination in rules.trick_values:
            for declarer in SEATS:
                for doubled in DOUBLING:
                    table[(level, denomination, declarer, doubled)] = Contract(
                        level, denomination, declarer, doubled)
    return table


_CONTRACTS = {name: _all_contracts(get_rules(name)) for name in RULE_SET_NAMES}


def _contract(value: object, rules: RuleSet, strict: bool = False) -> Contract:
    # Fast path: a well-formed contract is one look-up in the table of all contracts.
    if type(value) is dict and value.keys() <= _CONTRACT_KEYS:
        level = value.get("level")
        try:
            contract = _CONTRACTS[rules.name][
                (level, value.get("denomination"), value.get("declarer"), value.get("doubled", ""))
            ]
        except (KeyError, TypeError):
            pass
        else:
            if type(level) is int:  # True == 1 and 1.0 == 1 would find the same key
                return contract
    return _check_contract(value, rules, strict)


def _check_contract(value: object, rules: RuleSet, strict: bool = False) -> Contract:
    """The slow path: find the first bad field of a contract and say what is wrong."""
    data = _object(value, "contract", "the contract", _CONTRACT_KEYS)
    level = data.get("level", _MISSING)
    if level is _MISSING:
        raise ResultError("contract.level", "the contract level is missing")
    level = _whole(level, "contract.level", "the contract level", 1, 7)
    denomination = data.get("denomination", _MISSING)
    if denomination is _MISSING:
        raise ResultError("contract.denomination", "the contract denomination is missing")
    if not (isinstance(denomination, str) and denomination in rules.trick_values):
        if denomination == "RS" and not rules.royal_spades:
            raise ResultError("contract.denomination",
                              "royal spades do not exist under the English rule "
                              "(spades are always royals: use S)")
        raise ResultError(
            "contract.denomination",
            f"the denomination must be one of {', '.join(rules.trick_values)}, "
            f"not {_kind(denomination)}",
        )
    declarer = data.get("declarer", _MISSING)
    if declarer is _MISSING:
        raise ResultError("contract.declarer", "the declarer is missing")
    if not (isinstance(declarer, str) and declarer in _SEAT_SET):
        raise ResultError("contract.declarer",
                          f"the declarer must be one of N, E, S, W, not {_kind(declarer)}")
    doubled = data.get("doubled", "")
    if doubled is None:
        if strict:
            raise ResultError("contract.doubled", NULL_ADVICE["contract.doubled"])
        doubled = ""
    if not (isinstance(doubled, str) and doubled in DOUBLING):
        raise ResultError("contract.doubled",
                          f'doubled must be "" (not doubled), "X" or "XX", not {_kind(doubled)}')
    return _CONTRACTS[rules.name][(level, denomination, declarer, doubled)]


def _honours(value: object, no_trump: bool) -> tuple[int, int, int, int]:
    if type(value) is dict and value.keys() <= _SEAT_SET:
        n = value.get("N", 0)
        e = value.get("E", 0)
        s = value.get("S", 0)
        w = value.get("W", 0)
        if (type(n) is int and type(e) is int and type(s) is int and type(w) is int
                and n >= 0 and e >= 0 and s >= 0 and w >= 0
                and n + e + s + w <= (4 if no_trump else 5)):
            return n, e, s, w
    return _check_honours(value, no_trump)


def _check_honours(value: object, no_trump: bool) -> tuple[int, int, int, int]:
    """The slow path: find the first bad honour count and say what is wrong."""
    data = _object(value, "honours", "honours", _SEAT_SET)
    most = 4 if no_trump else 5
    name = "aces" if no_trump else "honours"
    counts = []
    for seat in SEATS:
        counts.append(_whole(data.get(seat, 0), f"honours.{seat}", f"{name} held by {seat}", 0,
                             most))
    total = sum(counts)
    if total > most:
        if no_trump:
            raise ResultError("honours", f"honours add up to {total}; at no trump they are "
                                         "the 4 aces")
        raise ResultError("honours", f"honours add up to {total}; a suit has 5")
    return counts[0], counts[1], counts[2], counts[3]


def _dealt(deal: str, denomination: str) -> tuple[int | None, ...]:
    try:
        return known_honours(deal, denomination)
    except (ValueError, TypeError) as exc:
        raise ResultError("deal", f"the hand record is not a valid deal: {exc}") from None


def _honours_from_deal(deal: str, denomination: str) -> tuple[int, int, int, int]:
    dealt = _dealt(deal, denomination)
    if None in dealt:
        raise ResultError("honours", "the hand record does not show every hand, "
                                     "so the honours must be given")
    return dealt  # type: ignore[return-value]


def _check_against_deal(given: tuple[int, ...], deal: str, denomination: str) -> None:
    """Given honours must agree with every hand the hand record shows."""
    dealt = _dealt(deal, denomination)
    if given == dealt:
        return
    name = "aces" if denomination == "NT" else "honours"
    wrong = "; ".join(
        f"{seat} holds {d} {name}, not {g}"
        for seat, g, d in zip(SEATS, given, dealt, strict=True)
        if d is not None and g != d
    )
    if wrong:
        raise ResultError("honours", f"honours do not match the hand record: {wrong}")


_TRUMP_NAMES = {"S": "spades", "RS": "spades", "C": "clubs", "D": "diamonds", "H": "hearts"}


def _ask_honours(denomination: str) -> str:
    if denomination == "NT":
        return ("Say who held the aces: at no trump the four aces are always in some hand "
                "(0 for a player who held none)")
    return (f"Say who held the honours: the A K Q J 10 of {_TRUMP_NAMES[denomination]} are "
            "always in some hand (0 for a player who held none)")


def _check_complete(honours: tuple[int, ...], denomination: str) -> None:
    """Law 3: every honour is dealt, so the counts account for all of them (live entry)."""
    total = sum(honours)
    if denomination == "NT":
        if total != 4:  # more than 4 was refused by _honours already
            raise ResultError("honours", f"Aces add up to {total}, but at no trump the four "
                                         "aces are always in some hand: say who held "
                                         f"{_rest(4 - total, 'ace')}")
    elif total != 5:
        raise ResultError("honours", f"Honours add up to {total}, but the five honours of "
                                     "the trump suit are always in some hand: say who held "
                                     f"{_rest(5 - total, 'honour')}")


def _rest(missing: int, name: str) -> str:
    return f"the last {name}" if missing == 1 else f"the other {missing}"


def _revokes(value: object, strict: bool = False) -> Revokes:
    data = _object(value, "revokes", "revokes", _REVOKE_KEYS)
    declaring = _whole(data.get("declaring", 0), "revokes.declaring",
                       "revokes by the declaring side", 0, MAX_REVOKES)
    defending = _whole(data.get("defending", 0), "revokes.defending",
                       "revokes by the defenders", 0, MAX_REVOKES)
    first = optional(data, "first_penalty", strict, NULL_ADVICE["revokes.first_penalty"],
                     "revokes.first_penalty")
    if first is not None:
        first = _one_of(first, "revokes.first_penalty", "the declarer's choice (first_penalty)",
                        ("points", "tricks"))
    elif defending and not declaring:
        # Law 84(b): the declarer chooses 100 points or three tricks.
        raise ResultError("revokes.first_penalty",
                          'for the defenders\' revoke the declarer takes 100 points or three '
                          'tricks: first_penalty must be "points" or "tricks"')
    if not declaring and not defending and first is None:
        return NO_REVOKES
    return Revokes(declaring, defending, first)


def _penalties(value: object) -> tuple[Penalty, ...]:
    if not isinstance(value, list):
        raise ResultError("penalties", f"penalties must be a list, not {_kind(value)}")
    out = []
    for i, item in enumerate(value):
        field = f"penalties.{i}"
        data = _object(item, field, "a penalty", _PENALTY_KEYS)
        law = data.get("law", _MISSING)
        if law is _MISSING:
            raise ResultError(f"{field}.law", "the penalty's law is missing")
        if not (isinstance(law, str) and law in PENALTY_RULES):
            raise ResultError(f"{field}.law",
                              f"the penalty's law must be one of {', '.join(PENALTY_CODES)}, "
                              f"not {_kind(law)}")
        by = data.get("by", _MISSING)
        if by is _MISSING:
            raise ResultError(f"{field}.by", "the offender's seat (by) is missing")
        if not (isinstance(by, str) and by in _SEAT_SET):
            raise ResultError(f"{field}.by",
                              f"the offender (by) must be one of N, E, S, W, not {_kind(by)}")
        out.append(Penalty(law, by))
    return tuple(out)


# The fields of an AuctionResult, in order: board, contract, tricks, honours, revokes,
# penalties. The command scores these directly, without building the dataclass.
AuctionValues = tuple[int, "Contract | None", int, tuple[int, int, int, int], Revokes,
                      tuple[Penalty, ...]]


def passed_out_tricks(data: dict, strict: bool) -> None:
    """A passed-out deal has no declarer and no play (rules.md §3.8: it scores 0-0), so
    no tricks. Strict: ``tricks`` left out or 0 (what the product writes), nothing else.
    Otherwise any valid 0-13, or null, is accepted and ignored (engine.md decision 5)."""
    tricks = data.get("tricks", _MISSING)
    if strict:
        if tricks is not _MISSING and not (type(tricks) is int and tricks == 0):
            raise ResultError("tricks", PASSED_OUT_TRICKS)
    elif tricks is not _MISSING and tricks is not None:
        _whole(tricks, "tricks", "tricks", 0, 13)


def _passed_out(data: dict, rules: RuleSet, board: int, strict: bool = False
                ) -> AuctionValues:
    if not rules.dealer_may_pass:
        # Law 42: the dealer must declare at least one odd trick.
        raise ResultError("contract", "the dealer must bid under the American rule: "
                                      "a deal cannot be passed out")
    passed_out_tricks(data, strict)
    # What may be given stands for nothing having happened: honours all 0 (no trumps),
    # revokes 0, no penalties (engine.md decision 5); null only when not strict.
    honours = optional(data, "honours", strict, NULL_ADVICE["honours"])
    if honours is not None and any(_honours(honours, no_trump=False)):
        raise ResultError("honours", "a passed-out deal has no trumps, so no honours")
    revokes = optional(data, "revokes", strict, NULL_ADVICE["revokes"])
    if revokes is not None:
        r = _revokes(revokes, strict)
        if r.declaring or r.defending:
            raise ResultError("revokes", "a passed-out deal is not played, so it has no revokes")
    penalties = optional(data, "penalties", strict, NULL_ADVICE["penalties"])
    if penalties is not None and _penalties(penalties):
        raise ResultError("penalties",
                          "a passed-out deal has no declaration or play to penalise")
    return board, None, 0, (0, 0, 0, 0), NO_REVOKES, ()


def auction_values(data: dict, rules: RuleSet, deal: str | None = None,
                   board: int | None = None, complete: bool = False,
                   strict: bool = False) -> AuctionValues:
    """Check an auction result given as a dict; its fields as a tuple (see parse_result)."""
    if not data.keys() <= _AUCTION_KEYS:
        _unknown_key(data, _AUCTION_KEYS, "")
    b = _board(data, board)
    value = data.get("contract", _MISSING)
    if value is _MISSING:
        raise ResultError("contract", "the contract is missing (null for a passed-out deal)")
    if value is None:
        return _passed_out(data, rules, b, strict)
    contract = _contract(value, rules, strict)
    tricks = data.get("tricks", _MISSING)
    if tricks is _MISSING:
        raise ResultError("tricks", "the number of tricks won by the declaring side is missing")
    if type(tricks) is not int or not 0 <= tricks <= 13:
        _whole(tricks, "tricks", "tricks", 0, 13)
    no_trump = contract.denomination == "NT"
    value = optional(data, "honours", strict, NULL_ADVICE["honours"])
    if value is None:
        if deal:
            honours = _honours_from_deal(deal, contract.denomination)
        elif complete:
            raise ResultError("honours", _ask_honours(contract.denomination))
        else:
            honours = (0, 0, 0, 0)
    else:
        honours = _honours(value, no_trump)
        if deal:
            _check_against_deal(honours, deal, contract.denomination)
        if complete:
            _check_complete(honours, contract.denomination)
    value = optional(data, "revokes", strict, NULL_ADVICE["revokes"])
    revokes = NO_REVOKES if value is None else _revokes(value, strict)
    value = optional(data, "penalties", strict, NULL_ADVICE["penalties"])
    penalties = () if value is None else _penalties(value)
    return b, contract, tricks, honours, revokes, penalties


def _parse_whist(data: dict, board: int | None, strict: bool = False) -> WhistResult:
    if not data.keys() <= _WHIST_KEYS:
        _unknown_key(data, _WHIST_KEYS, "")
    b = _board(data, board)
    tricks = data.get("tricks_ns", _MISSING)
    if tricks is _MISSING:
        raise ResultError("tricks_ns", "the number of tricks won by N-S (tricks_ns) is missing")
    tricks = _whole(tricks, "tricks_ns", "tricks_ns", 0, 13)
    value = optional(data, "revokes", strict, NULL_ADVICE["whist.revokes"])
    if value is None:
        return WhistResult(b, tricks)
    revokes = _object(value, "revokes", "revokes", _WHIST_REVOKE_KEYS)
    ns = _whole(revokes.get("NS", 0), "revokes.NS", "revokes by N-S", 0, MAX_REVOKES)
    ew = _whole(revokes.get("EW", 0), "revokes.EW", "revokes by E-W", 0, MAX_REVOKES)
    return WhistResult(b, tricks, ns, ew)


def parse_result(
    data: object,
    rules: RuleSet,
    *,
    deal: str | None = None,
    board: int | None = None,
    honours_complete: bool = False,
    strict: bool = False,
) -> AuctionResult | WhistResult:
    """Check a deal result in the shape of docs/interfaces.md §1 and build it.

    ``board`` supplies (or overrides) the board number when the data has none (the
    night file and the table pages give it separately). ``deal`` is the board's hand
    record in PBN: when the data has no honours they are taken from it; when it has,
    they must agree. Raises ResultError(field, message) for the first bad field.

    ``honours_complete`` is live entry's rule (a table or the director typing a result):
    the honours are all in some hand (Law 3), so when the hand record does not give them
    they must be given, and add up to exactly 5 (no trump: the 4 aces). Off, a seat left
    out holds none (interfaces.md §1: the scoring command and the night file).

    ``strict`` is the scoring command's reading of interfaces.md §1: an optional key
    given as null is refused (left out is fine; ``contract: null`` is the passed-out
    deal), and so are tricks other than 0 on a passed-out deal. Off, null reads as left
    out and a passed-out deal's tricks (0-13) are ignored, as the product has them.
    """
    if not isinstance(data, dict):
        raise ResultError("", f"a deal result must be a JSON object, not {_kind(data)}")
    if rules.is_whist:
        return _parse_whist(data, board, strict)
    return AuctionResult(*auction_values(data, rules, deal, board, honours_complete, strict))
