"""The seam between the database and the scoring engine.

Rows become engine inputs here, and engine outputs become row fields here;
nothing else crosses (like Tabbycat's DrawManager). The engine itself knows no
Django.
"""

from typing import Any

from scoring.engine import (
    AuctionResult,
    DealScore,
    RuleSet,
    Unusual,
    WhistResult,
    board_scores,
    get_rules,
    parse_result,
    score_result,
    unusual,
)

from .models import Result

# Keys of a deal result (interfaces.md §1) kept as entered, beside the contract columns.
DETAIL_KEYS = ("honours", "revokes", "penalties")


def result_fields(*, rules_name: str, board_number: int, deal: str, data: Any) -> dict:
    """Validate a deal result and score it: the Result fields to store.

    interfaces.md §1's rule for honours (a seat left out holds none): the night file.
    Raises scoring.engine.ResultError (with .field and a player's message) on bad input.
    """
    fields, _ = _checked(rules_name=rules_name, board_number=board_number, deal=deal,
                         data=data, live=False)
    return fields


def live_result(*, rules_name: str, board_number: int, deal: str, data: Any
                ) -> tuple[dict, tuple[Unusual, ...]]:
    """A result typed at the table or by the director: the Result fields, and what is
    unusual about it (to look at again before saving).

    Live entry's rule for honours (Law 3): without a hand record they must all be given.
    Raises scoring.engine.ResultError on bad input.
    """
    return _checked(rules_name=rules_name, board_number=board_number, deal=deal, data=data,
                    live=True)


def scored(*, rules_name: str, board_number: int, deal: str, data: Any, live: bool
           ) -> tuple[AuctionResult | WhistResult, DealScore, tuple[Unusual, ...]]:
    """The checked result, its score, and (live entry only) its warnings: the preview."""
    rules = get_rules(rules_name)
    parsed = _parse(rules, board_number, deal, data, live=live)
    score = score_result(parsed, rules)
    return parsed, score, unusual(parsed, score) if live else ()


def _parse(rules: RuleSet, board_number: int, deal: str, data: Any, *, live: bool
           ) -> AuctionResult | WhistResult:
    if isinstance(data, dict):
        # The board is given outside the result; keep it out of the caller's dict.
        data = {k: v for k, v in data.items() if k != "board"}
    return parse_result(data, rules, board=board_number, deal=deal or None,
                        honours_complete=live)


def _checked(*, rules_name: str, board_number: int, deal: str, data: Any, live: bool
             ) -> tuple[dict, tuple[Unusual, ...]]:
    rules = get_rules(rules_name)
    parsed, score, warnings = scored(rules_name=rules_name, board_number=board_number,
                                     deal=deal, data=data, live=live)
    ns_score, ew_score = board_scores(score, rules)
    fields: dict[str, Any] = {
        "ruling": "",
        "offending": "",
        "ns_adjust": "",
        "ew_adjust": "",
        "ns_trick": score.ns.trick_score,
        "ns_honour": score.ns.honour_score,
        "ew_trick": score.ew.trick_score,
        "ew_honour": score.ew.honour_score,
        "ns_score": ns_score,
        "ew_score": ew_score,
        "level": None,
        "denomination": "",
        "declarer": "",
        "doubled": "",
        "tricks": None,
        "passed_out": False,
    }
    if rules.is_whist:
        fields["tricks"] = parsed.tricks_ns
        revokes = data.get("revokes") if isinstance(data, dict) else None
        fields["details"] = {"revokes": revokes} if revokes else {}
        return fields, warnings
    if parsed.contract is None:
        fields["passed_out"] = True
    else:
        contract = parsed.contract
        fields.update(
            level=contract.level,
            denomination=contract.denomination,
            declarer=contract.declarer,
            doubled=contract.doubled,
            tricks=parsed.tricks,
        )
    fields["details"] = {k: data[k] for k in DETAIL_KEYS if data.get(k) not in (None, [], {})}
    return fields, warnings


def ruling_fields(*, kind: str, offending: str = "") -> dict:
    """The Result fields of an artificial result (Duplicate Law B): no play, no score."""
    return {
        "ruling": kind,
        "offending": offending if kind == "fouled" else "",
        "ns_adjust": "",
        "ew_adjust": "",
        "level": None,
        "denomination": "",
        "declarer": "",
        "doubled": "",
        "tricks": None,
        "passed_out": False,
        "details": {},
        "ns_trick": None,
        "ns_honour": None,
        "ew_trick": None,
        "ew_honour": None,
        "ns_score": None,
        "ew_score": None,
    }


def adjusted_fields(*, ns_grade: str, ew_grade: str) -> dict:
    """The Result fields of an adjusted score (club practice): no play, each side graded
    "plus", "average" or "minus"."""
    return {**ruling_fields(kind="adjusted"), "ns_adjust": ns_grade, "ew_adjust": ew_grade}


def assigned_fields(*, ns_fields: dict, ew_fields: dict | None = None,
                    ew_data: Any = None) -> dict:
    """The Result fields of an assigned score (club practice), from the scored fields of
    the result assigned (result_fields / live_result), or of two for a split score.

    A split keeps N-S's result in the contract columns and E-W's own in
    details["ew_result"] (`ew_data`, as given): N-S's columns and board score come from
    the first, E-W's from the second.
    """
    fields = {**ns_fields, "ruling": "assigned", "offending": "", "ns_adjust": "",
              "ew_adjust": ""}
    if ew_fields is not None:
        if isinstance(ew_data, dict):
            ew_data = {k: v for k, v in ew_data.items() if k != "board"}
        fields.update(ew_trick=ew_fields["ew_trick"], ew_honour=ew_fields["ew_honour"],
                      ew_score=ew_fields["ew_score"],
                      details={**ns_fields.get("details", {}), "ew_result": ew_data})
    return fields


def engine_input(result: Result, *, is_whist: bool) -> dict | None:
    """A stored result as a deal result (interfaces.md §1) without its board; None for a ruling."""
    if result.ruling:
        return None
    return played_input(result, is_whist=is_whist)


def played_input(result: Result, *, is_whist: bool) -> dict:
    """The deal result in a result's contract columns (a played or an assigned result)."""
    details = result.details or {}
    if is_whist:
        data: dict[str, Any] = {"tricks_ns": result.tricks}
        if details.get("revokes"):
            data["revokes"] = details["revokes"]
        return data
    if result.passed_out:
        return {"contract": None, "tricks": 0}
    contract = {
        "level": result.level,
        "denomination": result.denomination,
        "declarer": result.declarer,
        "doubled": result.doubled,
    }
    data = {"contract": contract, "tricks": result.tricks}
    data.update({k: details[k] for k in DETAIL_KEYS if k in details})
    return data


def ruling_dict(result: Result, *, is_whist: bool = False) -> dict | None:
    """A ruling as the night file writes it, or None for a played board."""
    if not result.ruling:
        return None
    body: dict[str, Any] = {"kind": result.ruling}
    if result.ruling == "fouled":
        body["offending"] = result.offending
    elif result.ruling == "adjusted":
        body.update(ns=result.ns_adjust, ew=result.ew_adjust)
    elif result.ruling == "assigned":
        body["ns_result"] = played_input(result, is_whist=is_whist)
        ew_result = (result.details or {}).get("ew_result")
        if ew_result is not None:
            body["ew_result"] = ew_result
    return body


SNAPSHOT_FIELDS = (
    "ruling", "offending", "level", "denomination", "declarer", "doubled", "tricks",
    "passed_out", "details", "ns_trick", "ns_honour", "ew_trick", "ew_honour",
    "ns_score", "ew_score", "status", "voided", "ns_adjust", "ew_adjust", "late_play",
    # Who confirmed it goes with its status: an undo that gives "confirmed" back gives the
    # confirmation's "by" back too.
    "confirmed_by",
)
# What a snapshot written before a field was recorded means by leaving it out.
SNAPSHOT_DEFAULTS = {"ns_adjust": "", "ew_adjust": "", "late_play": False, "confirmed_by": ""}


def snapshot_fields(snapshot: dict) -> dict:
    """A snapshot's Result fields, every one of SNAPSHOT_FIELDS (undo puts them back);
    KeyError if a field without a default is missing."""
    return {name: snapshot[name] if name in snapshot or name not in SNAPSHOT_DEFAULTS
            else SNAPSHOT_DEFAULTS[name] for name in SNAPSHOT_FIELDS}


def snapshot(result: Result) -> dict:
    """What the audit trail records of a result, before and after a change."""
    data = {name: getattr(result, name) for name in SNAPSHOT_FIELDS}
    data.update(
        board=result.board.number,
        ns=result.ns_pair.number,
        ew=result.ew_pair.number,
    )
    return data
