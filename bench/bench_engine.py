"""How fast the scoring engine is (run: ``python bench/bench_engine.py``).

(a) deal results checked and scored per second in one process (parse_result +
    score_result, the median of several runs; goal: 50,000 a second or more);
(b) the wall time of ``python -m scoring score`` on 100,000 results against a floor:
    a subprocess that reads and writes the same JSON without scoring. The floor the
    brief names is ``json.load`` + ``json.dump`` (json.dump streams through the pure-
    Python encoder); a stricter floor, ``json.loads`` + ``json.dumps`` (the C encoder),
    is reported too. Goal: at most 3 x the floor, and under 5 seconds.

``run()`` returns the figures as a dict; importing this module runs nothing.
"""

from __future__ import annotations

import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from scoring.engine import (  # noqa: E402
    DENOMINATIONS,
    RANKS,
    SEATS,
    SUITS,
    get_rules,
    honours_from_deal,
    parse_result,
    score_result,
)

PENALTIES = ("F-declaration-out-of-turn", "F-law-81", "90", "54-double-partner")
FLOOR_LOAD_DUMP = "import json, sys; json.dump(json.load(sys.stdin), sys.stdout)"
FLOOR_LOADS_DUMPS = ("import json, sys; "
                     "sys.stdout.write(json.dumps(json.loads(sys.stdin.buffer.read())))")


def _deal(rng: random.Random) -> str:
    cards = [s + r for s in SUITS for r in RANKS]
    rng.shuffle(cards)
    hands = []
    for i in range(4):
        hand = set(cards[13 * i: 13 * i + 13])
        hands.append(".".join("".join(r for r in RANKS if s + r in hand) for s in SUITS))
    return "N:" + " ".join(hands)


def make_results(n: int, seed: int = 1913) -> list[dict]:
    """``n`` plausible deal results on 32 dealt boards, honours taken from the deals;
    a few with revokes or procedural penalties, as on a real night."""
    rng = random.Random(seed)
    deals = {b: _deal(rng) for b in range(1, 33)}
    out = []
    for _ in range(n):
        board = rng.randint(1, 32)
        level = rng.choice((1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 5, 6, 7))
        denomination = rng.choice(DENOMINATIONS)
        result: dict = {
            "board": board,
            "contract": {"level": level, "denomination": denomination,
                         "declarer": rng.choice(SEATS),
                         "doubled": rng.choice(("", "", "", "", "X", "XX"))},
            "tricks": max(0, min(13, 6 + level + rng.randint(-3, 2))),
            "honours": honours_from_deal(deals[board], denomination),
        }
        if rng.random() < 0.04:
            result["revokes"] = {"declaring": rng.randint(0, 1), "defending": rng.randint(0, 2),
                                 "first_penalty": rng.choice(("points", "tricks"))}
        if rng.random() < 0.03:
            result["penalties"] = [{"law": rng.choice(PENALTIES), "by": rng.choice(SEATS)}]
        out.append(result)
    return out


def deals_per_second(results: list[dict], runs: int = 5) -> tuple[float, list[float]]:
    """Median over ``runs`` of results checked and scored per second, in this process."""
    rules = get_rules("american-1913")
    rates = []
    for _ in range(runs):
        start = time.perf_counter()
        for data in results:
            score_result(parse_result(data, rules), rules)
        rates.append(len(results) / (time.perf_counter() - start))
    return statistics.median(rates), rates


def _wall(args: list[str], path: Path) -> float:
    with path.open("rb") as stdin:
        start = time.perf_counter()
        proc = subprocess.run(args, stdin=stdin, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, cwd=ROOT, check=False)
        elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        raise RuntimeError(f"{args} failed: {proc.stderr.decode()[:300]}")
    return elapsed


def cli_times(results: list[dict], runs: int = 3) -> dict[str, float]:
    """Median wall times of the command and of the two floors on the same file."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "results.json"
        path.write_text(json.dumps(results))
        times: dict[str, list[float]] = {"cli": [], "floor": [], "floor_fast": []}
        for _ in range(runs):
            times["cli"].append(_wall([sys.executable, "-m", "scoring", "score"], path))
            times["floor"].append(_wall([sys.executable, "-c", FLOOR_LOAD_DUMP], path))
            times["floor_fast"].append(_wall([sys.executable, "-c", FLOOR_LOADS_DUMPS], path))
    return {key: statistics.median(values) for key, values in times.items()}


def run(n_cli: int = 100_000, n_rate: int = 50_000, runs: int = 5, cli_runs: int = 3) -> dict:
    """All the figures, as a dict."""
    results = make_results(max(n_cli, n_rate))
    rate, rates = deals_per_second(results[:n_rate], runs)
    times = cli_times(results[:n_cli], cli_runs)
    return {
        "deals_per_second": round(rate),
        "deals_per_second_runs": [round(r) for r in rates],
        "deals_per_second_goal_met": rate >= 50_000,
        "cli_results": n_cli,
        "cli_seconds": round(times["cli"], 3),
        "floor_seconds": round(times["floor"], 3),
        "floor_fast_seconds": round(times["floor_fast"], 3),
        "cli_over_floor": round(times["cli"] / times["floor"], 2),
        "cli_over_floor_fast": round(times["cli"] / times["floor_fast"], 2),
        "cli_goal_met": times["cli"] <= 3 * times["floor"] and times["cli"] < 5,
        "cli_goal_met_against_fast_floor": (times["cli"] <= 3 * times["floor_fast"]
                                            and times["cli"] < 5),
    }


def main() -> None:
    figures = run()
    print(f"deal results checked and scored: {figures['deals_per_second']:,}/s "
          f"(median of {figures['deals_per_second_runs']}; goal 50,000/s)")
    print(f"python -m scoring score, {figures['cli_results']:,} results: "
          f"{figures['cli_seconds']} s")
    print(f"  floor json.load + json.dump:   {figures['floor_seconds']} s "
          f"-> {figures['cli_over_floor']} x (goal <= 3 x and < 5 s)")
    print(f"  floor json.loads + json.dumps: {figures['floor_fast_seconds']} s "
          f"-> {figures['cli_over_floor_fast']} x")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
