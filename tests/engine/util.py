"""Helpers for the engine tests: write a deal the way a scorer says it."""

from __future__ import annotations

from scoring.engine import DealScore, get_rules, score


def result(contract: str | None, tricks: int | None = None, honours: dict | None = None, *,
           board: int = 1, revokes: dict | None = None, penalties: list | None = None) -> dict:
    """A deal result dict from "3HX S" (level, denomination, doubling, declarer)."""
    data: dict = {"board": board}
    if contract is None:
        data["contract"] = None
    else:
        call, declarer = contract.split()
        level = int(call[0])
        rest = call[1:]
        doubled = "XX" if rest.endswith("XX") else "X" if rest.endswith("X") else ""
        denomination = rest[: len(rest) - len(doubled)]
        data["contract"] = {"level": level, "denomination": denomination,
                            "declarer": declarer, "doubled": doubled}
    if tricks is not None:
        data["tricks"] = tricks
    if honours is not None:
        data["honours"] = honours
    if revokes is not None:
        data["revokes"] = revokes
    if penalties is not None:
        data["penalties"] = penalties
    return data


def deal(contract: str | None, tricks: int | None = None, honours: dict | None = None, *,
         rules: str = "american-1913", **kw) -> DealScore:
    """Score one deal written as in result()."""
    return score(result(contract, tricks, honours, **kw), get_rules(rules))


def cols(ds: DealScore) -> tuple[int, int, int, int]:
    """(NS trick, NS honour, EW trick, EW honour)."""
    return ds.ns.trick_score, ds.ns.honour_score, ds.ew.trick_score, ds.ew.honour_score


def laws(ds: DealScore) -> dict[str, int]:
    """Points per law, over both sides."""
    out: dict[str, int] = {}
    for item in ds.items:
        out[item.law] = out.get(item.law, 0) + item.points
    return out


def items_of(ds: DealScore, side: str) -> list[tuple[str, int, str]]:
    return [(i.column, i.points, i.law) for i in ds.items if i.side == side]
