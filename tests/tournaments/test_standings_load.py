"""A full recompute (PairState.load, a group at a time from its columns) holds exactly what
applying every row one by one (PairState.apply, the engine's functions) holds, for both
methods, by board or by section, with every kind of ruling; and a state built by ``load``
moves along with later changes exactly as one built row by row."""

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.standings import PairState, _row

RULINGS = ["", "", "", "assigned", "average", "fouled", "cancelled", "not-played", "adjusted"]
GRADES = ["plus", "average", "minus"]


@st.composite
def fetched_rows(draw):
    """Rows as _fetch gives them (ROW_FIELDS): some boards all played, some with rulings."""
    rows = []
    rid = 0
    for board in range(1, draw(st.integers(1, 4)) + 1):
        with_rulings = draw(st.booleans())
        for table in range(1, draw(st.integers(1, 6)) + 1):
            rid += 1
            ruling = draw(st.sampled_from(RULINGS)) if with_rulings else ""
            played = ruling in ("", "assigned")
            ns_score = draw(st.integers(-600, 600)) if played else None
            ew_score = (-ns_score if draw(st.booleans()) else draw(st.integers(-600, 600))
                        ) if played else None
            rows.append((
                rid, 1, False, board, table, table + 10, draw(st.sampled_from([1, 2])),
                ruling, draw(st.sampled_from(["ns", "ew"])) if ruling == "fouled" else "",
                ns_score, ew_score, 0, 0, 0, 0,
                draw(st.sampled_from(GRADES)) if ruling == "adjusted" else "",
                draw(st.sampled_from(GRADES)) if ruling == "adjusted" else "",
            ))
    return rows


def _state(method, by_section, scoring):
    return PairState(method=method, by_section=by_section, not_played_scoring=scoring)


def held(state: PairState) -> dict:
    """Everything the standings read from a state."""
    return {
        "scores": state.scores, "credited": state.credited, "sums": state.sums,
        "played": state.played, "expected": state.expected,
        "ns": +state.ns_seats, "ew": +state.ew_seats, "not_played": +state.not_played,
        "rows": state.rows,
    }


settings_ = settings(max_examples=300, deadline=None)


@settings_
@given(rows=fetched_rows(), method=st.sampled_from(["plus-minus", "matchpoints"]),
       by_section=st.booleans(), scoring=st.sampled_from(["neuberg", "own-average"]))
def test_load_holds_what_applying_every_row_holds(rows, method, by_section, scoring):
    loaded = _state(method, by_section, scoring)
    loaded.load(list(rows))
    applied = _state(method, by_section, scoring)
    applied.apply([_row(v, by_section) for v in rows], ())
    assert held(loaded) == held(applied)
    for v in rows:
        assert loaded.result_scores(v[0]) == applied.entry_scores(_row(v, by_section))


@settings_
@given(rows=fetched_rows(), more=fetched_rows(), method=st.sampled_from(
    ["plus-minus", "matchpoints"]), by_section=st.booleans(), data=st.data())
def test_a_loaded_state_moves_along_as_one_built_row_by_row(rows, more, method, by_section,
                                                             data):
    loaded = _state(method, by_section, "neuberg")
    loaded.load(list(rows))
    applied = _state(method, by_section, "neuberg")
    applied.apply([_row(v, by_section) for v in rows], ())
    # Some rows voided, some corrected (moved to another board too), some new.
    ids = [v[0] for v in rows]
    removed = data.draw(st.lists(st.sampled_from(ids), unique=True, max_size=3))
    corrected = [(v[0], *more[i % len(more)][1:]) for i, v in enumerate(rows)
                 if v[0] not in removed and data.draw(st.booleans())][:3]
    new = [(1000 + v[0], *v[1:]) for v in more[:3]]
    changed = [_row(v, by_section) for v in corrected + new]
    loaded.apply(changed, removed)
    applied.apply(changed, removed)
    assert held(loaded) == held(applied)
