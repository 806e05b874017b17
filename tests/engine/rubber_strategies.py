"""Hypothesis strategies for the deals of a rubber (interfaces.md §5)."""

from __future__ import annotations

from hypothesis import strategies as st

from scoring.engine import PLAYERS, SEATS, get_rules

from .strategies import auction_results


@st.composite
def auction_deals(draw, rules: str = "american-1913") -> dict:
    data = draw(auction_results(rules))
    del data["board"]
    return {"dealer": draw(st.sampled_from(SEATS)), **data}


@st.composite
def three_hand_deals(draw, rules: str = "american-1913") -> dict:
    denomination = draw(st.sampled_from(list(get_rules(rules).trick_values)))
    held = draw(st.lists(st.sampled_from([*PLAYERS, "dummy"]),
                         max_size=4 if denomination == "NT" else 5))
    data: dict = {
        "dealer": draw(st.sampled_from(PLAYERS)),
        "declarer": draw(st.sampled_from(PLAYERS)),
        "contract": {"level": draw(st.integers(1, 7)), "denomination": denomination,
                     "doubled": draw(st.sampled_from(["", "X", "XX"]))},
        "tricks": draw(st.integers(0, 13)),
        "honours": {key: held.count(key) for key in set(held)},
    }
    if draw(st.booleans()):
        data["revokes"] = {"declaring": draw(st.integers(0, 2)),
                           "defending": draw(st.integers(0, 2)),
                           "first_penalty": draw(st.sampled_from(["points", "tricks"]))}
    if draw(st.booleans()):
        data["penalties"] = draw(st.lists(st.fixed_dictionaries(
            {"rule": st.sampled_from(["5", "9", "10"]), "by": st.sampled_from(PLAYERS)}),
            max_size=2))
    return data


@st.composite
def whist_deals(draw) -> dict:
    data: dict = {"tricks_ns": draw(st.integers(0, 13))}
    if draw(st.booleans()):
        data["honours"] = {"NS": draw(st.integers(0, 4))}
    if draw(st.integers(0, 3)) == 0:
        data["revokes"] = {"NS": draw(st.integers(0, 2)), "EW": draw(st.integers(0, 2))}
        data["revoke_penalty"] = draw(st.sampled_from(["tricks", "deduct", "add"]))
    return data
