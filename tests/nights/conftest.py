"""Fixtures for the night file and the demo night: example files, a small valid night."""

import copy
import json
from pathlib import Path

import pytest

from tournaments.nightfile import night_import
from tournaments.services import Actor

HERE = Path(__file__).resolve().parent
# The copies beside the tests come first: the shared folder may be absent in a checkout.
EXAMPLE_DIRS = (HERE / "data", Path(__file__).resolve().parents[2].parent / "shared" / "examples")

# Four boards of a small night (deals from the shared hand record).
DEALS = [
    "N:T82.AQJ84.Q.QT97 AQ.K962.KJ76.J82 J9754.5.5432.K53 K63.T73.AT98.A64",
    "N:AT6.542.A65.JT93 KQ7532.Q76.432.5 J8.AK83.KJ987.KQ 94.JT9.QT.A87642",
    "N:Q62.AT62.A743.97 JT83.J87.5.QT432 K95.94.QJT62.J85 A74.KQ53.K98.AK6",
    "N:Q.K976.J8.AKQ987 A97.AJ853.93.653 J42.Q2.KT7652.J2 KT8653.T4.AQ4.T4",
]


def example_path(name: str) -> Path:
    for folder in EXAMPLE_DIRS:
        path = folder / name
        if path.exists():
            return path
    raise FileNotFoundError(f"{name} is in neither {EXAMPLE_DIRS[0]} nor {EXAMPLE_DIRS[1]}")


def load_example(name: str) -> dict:
    return json.loads(example_path(name).read_text(encoding="utf-8"))


def contains(expected, actual, where: str = "") -> list[str]:
    """Where `actual` differs from `expected`, ignoring keys `expected` does not name."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [f"{where or 'top'}: expected an object, got {actual!r}"]
        problems = []
        for key, value in expected.items():
            if key not in actual:
                problems.append(f"{where}.{key}: missing")
            else:
                problems += contains(value, actual[key], f"{where}.{key}")
        return problems
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return [f"{where}: expected {len(expected)} items, got {actual!r}"]
        problems = []
        for i, (a, b) in enumerate(zip(expected, actual, strict=True)):
            problems += contains(a, b, f"{where}[{i}]")
        return problems
    return [] if expected == actual else [f"{where}: expected {expected!r}, got {actual!r}"]


def small_night() -> dict:
    """A valid 4-board, 4-pair pairs night: 2 tables, boards 1-2 then 3-4."""
    played = {"contract": {"level": 1, "denomination": "NT", "declarer": "S", "doubled": ""},
              "tricks": 8}
    results = []
    for board, (ns, ew) in ((1, (1, 3)), (2, (1, 3)), (1, (2, 4)), (2, (2, 4)),
                            (3, (1, 4)), (4, (1, 4)), (3, (2, 3)), (4, (2, 3))):
        results.append({"board": board, "ns": ns, "ew": ew, "result": copy.deepcopy(played)})
    results[-1] = {"board": 4, "ns": 2, "ew": 3, "ruling": {"kind": "average"}}
    return {
        "format": "duplicate-night/1",
        "event": {"name": "Small night", "date": "2026-11-17", "rules": "american-1913",
                  "kind": "pairs", "method": "plus-minus"},
        "boards": [{"number": n, "deal": deal} for n, deal in enumerate(DEALS, start=1)],
        "pairs": [{"number": n, "players": [f"Ada Vance {n}", f"Ben Wolcott {n}"]}
                  for n in range(1, 5)],
        "results": results,
    }


@pytest.fixture
def night() -> dict:
    return small_night()


@pytest.fixture
def importer() -> Actor:
    return Actor.system("import")


@pytest.fixture
def import_dict(db, importer):
    def run(data: dict):
        return night_import(data=data, actor=importer)
    return run
