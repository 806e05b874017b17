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


def engine_input(result: Result, *, is_whist: bool) -> dict | None:
    """A stored result as a deal result (interfaces.md §1) without its board; None for a ruling."""
    if result.ruling:
        return None
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


def ruling_dict(result: Result) -> dict | None:
    """A ruling as the night file writes it, or None for a played board."""
    if not result.ruling:
        return None
    body = {"kind": result.ruling}
    if result.ruling == "fouled":
        body["offending"] = result.offending
    return body


SNAPSHOT_FIELDS = (
    "ruling", "offending", "level", "denomination", "declarer", "doubled", "tricks",
    "passed_out", "details", "ns_trick", "ns_honour", "ew_trick", "ew_honour",
    "ns_score", "ew_score", "status", "voided", "late_play",
)
# Fields added to the snapshot later: an older audit entry (or night file) without them
# had their default.
SNAPSHOT_DEFAULTS = {"late_play": False}


def snapshot_fields(data: dict) -> dict | None:
    """The SNAPSHOT_FIELDS of an audit snapshot, older ones completed with their defaults;
    None if `data` is not a result's snapshot."""
    if not isinstance(data, dict):
        return None
    out = {}
    for name in SNAPSHOT_FIELDS:
        if name in data:
            out[name] = data[name]
        elif name in SNAPSHOT_DEFAULTS:
            out[name] = SNAPSHOT_DEFAULTS[name]
        else:
            return None
    return out


def snapshot(result: Result) -> dict:
    """What the audit trail records of a result, before and after a change."""
    data = {name: getattr(result, name) for name in SNAPSHOT_FIELDS}
    data.update(
        board=result.board.number,
        ns=result.ns_pair.number,
        ew=result.ew_pair.number,
    )
    return data
