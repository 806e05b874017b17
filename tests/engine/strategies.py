"""Hypothesis strategies for deal results (valid ones, and JSON of any shape)."""

from __future__ import annotations

from hypothesis import strategies as st

from scoring.engine import PENALTY_CODES, SEATS, get_rules

AUCTION_RULES = ("american-1913", "english")


@st.composite
def honours(draw, no_trump: bool) -> dict[str, int]:
    """How the 5 trump honours (4 aces) lie among the seats; some may be left out."""
    held = draw(st.lists(st.sampled_from(SEATS), max_size=4 if no_trump else 5))
    counts = {seat: held.count(seat) for seat in SEATS if held.count(seat) or draw(st.booleans())}
    return counts


@st.composite
def auction_results(draw, rules: str = "american-1913", revokes: bool = True,
                    penalties: bool = True) -> dict:
    denomination = draw(st.sampled_from(list(get_rules(rules).trick_values)))
    data: dict = {
        "board": draw(st.integers(1, 36)),
        "contract": {
            "level": draw(st.integers(1, 7)),
            "denomination": denomination,
            "declarer": draw(st.sampled_from(SEATS)),
            "doubled": draw(st.sampled_from(["", "X", "XX"])),
        },
        "tricks": draw(st.integers(0, 13)),
        "honours": draw(honours(denomination == "NT")),
    }
    if revokes and draw(st.booleans()):
        data["revokes"] = {
            "declaring": draw(st.integers(0, 3)),
            "defending": draw(st.integers(0, 3)),
            "first_penalty": draw(st.sampled_from(["points", "tricks"])),
        }
    if penalties and draw(st.booleans()):
        data["penalties"] = draw(st.lists(
            st.fixed_dictionaries({"law": st.sampled_from(PENALTY_CODES),
                                   "by": st.sampled_from(SEATS)}), max_size=3))
    return data


def whist_results() -> st.SearchStrategy[dict]:
    return st.fixed_dictionaries(
        {"board": st.integers(1, 36), "tricks_ns": st.integers(0, 13)},
        optional={"revokes": st.fixed_dictionaries({}, optional={
            "NS": st.integers(0, 4), "EW": st.integers(0, 4)})},
    )


json_scalars = (st.none() | st.booleans() | st.integers(-(10**30), 10**30)
                | st.floats(allow_nan=False) | st.text(max_size=8))
json_values = st.recursive(
    json_scalars,
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)


@st.composite
def mutated_results(draw) -> object:
    """A valid result with one value replaced, removed or added anywhere in it."""
    data = draw(auction_results())
    paths: list[tuple] = []

    def walk(node, path):
        if isinstance(node, dict):
            for key, value in node.items():
                paths.append((*path, key))
                walk(value, (*path, key))
        elif isinstance(node, list):
            for i, value in enumerate(node):
                paths.append((*path, i))
                walk(value, (*path, i))

    walk(data, ())
    path = draw(st.sampled_from(paths))
    target = data
    for key in path[:-1]:
        target = target[key]
    action = draw(st.sampled_from(["replace", "remove", "add"]))
    if action == "replace":
        target[path[-1]] = draw(json_values)
    elif action == "remove" and isinstance(target, dict):
        del target[path[-1]]
    elif isinstance(target, dict):
        target[draw(st.text(max_size=6))] = draw(json_values)
    return data
