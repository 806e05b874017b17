"""The printed reports gather every traveller and every score card in one query each
(selectors.travellers / selectors.scorecards); what they gather is exactly what the
board-by-board and pair-by-pair reads gave (kept below as they were), on a two-section
night with every irregular case: boards not played, rulings (average, fouled, cancelled),
adjusted and assigned scores (a split one too), a substitute, a Law B note, both ways of
comparing sections and both methods."""

from collections import Counter
from fractions import Fraction

import pytest
from django.db.models import Q

from scoring.engine import dealer_for_board, fraction_str, parse_deal, shown
from tests.tournaments.test_sections import ONE_SPADE, THREE_HEARTS, two_section_night
from tournaments import presenters, selectors, services, standings
from tournaments.models import Event, Meeting, Pair, Result
from tournaments.services import Actor
from tournaments.standings import ROSTER_FIELDS, pair_names, pair_state, roster_from_rows

pytestmark = pytest.mark.django_db

# Every honour named, as the director types them without a hand record (Law 3).
TWO_NT = {"contract": {"level": 2, "denomination": "NT", "declarer": "N"}, "tricks": 8,
          "honours": {"N": 1, "E": 1, "S": 1, "W": 1}}
FOUR_HEARTS_DOWN = {"contract": {"level": 4, "denomination": "H", "declarer": "S"},
                    "tricks": 9, "honours": {"N": 2, "E": 1, "S": 1, "W": 1}}
PLAYS = [THREE_HEARTS, ONE_SPADE, TWO_NT, FOUR_HEARTS_DOWN]


# --- the reads as they were, one board or one pair at a time ----------------------------------


def _value(state, row):
    if state is None or row is None:
        return None
    return state.entry_scores(row)


def _split(result):
    return result.ruling == "assigned" and "ew_result" in (result.details or {})


def old_traveller(event, board_number):
    board = event.boards.get(number=board_number)
    state = pair_state(event) if event.kind == "pairs" else None
    names = state.names_for(event) if state else pair_names(event)
    where = selectors._meetings_by_pairs(event)
    results = (Result.objects.filter(board=board, voided=False)
               .select_related("ns_pair", "ew_pair").order_by("ns_pair__number"))
    rows = []
    for r in results:
        ns, ew = r.ns_pair.number, r.ew_pair.number
        values = _value(state, state.rows.get(r.id) if state else None)
        rnd, table = where.get((ns, ew), (None, None))
        rows.append({
            "result_id": r.id, "ns": ns, "ew": ew,
            "ns_names": names.get(ns, []), "ew_names": names.get(ew, []),
            "ruling": r.ruling, "offending": r.offending,
            "ns_adjust": r.ns_adjust, "ew_adjust": r.ew_adjust,
            "adjustment": presenters.adjustment(r),
            "level": r.level, "denomination": r.denomination, "declarer": r.declarer,
            "doubled": r.doubled, "tricks": r.tricks, "passed_out": r.passed_out,
            "ns_trick": r.ns_trick, "ns_honour": r.ns_honour,
            "ew_trick": r.ew_trick, "ew_honour": r.ew_honour,
            "net_ns": None if r.ns_trick is None or _split(r) else r.ns_total - r.ew_total,
            "ns_score": r.ns_score, "ew_score": r.ew_score,
            "ns_plus_minus": None if values is None else fraction_str(values[0]),
            "ew_plus_minus": None if values is None else fraction_str(values[1]),
            "ns_shown": None if values is None else shown(values[0]),
            "ew_shown": None if values is None else shown(values[1]),
            "status": r.status, "round": rnd, "table": table,
            "late_play": r.late_play,
            "marks": [] if r.ruling else presenters.result_marks(r, is_whist=event.is_whist),
            # Compared within each section: the N-S pair's section (the standings' group).
            "section": (r.ns_pair.section.name if state and event.compare_by_section
                        and r.ns_pair.section else ""),
            "award": None,  # a pairs night: no team match's award (a ruling's: below)
            "left": None,  # no pair left this night
        })
    by_section = bool(state) and event.compare_by_section and event.sections.count() > 1
    if not by_section:
        for row in rows:
            row["section"] = ""
    rows.sort(key=lambda row: row["section"])
    real = [r for r in rows if r["ruling"] in ("", "assigned") and r["ns_score"] is not None]
    if state:  # an average or fouled board's score given (Duplicate Law B(3))
        selectors._artificial_awards(rows, real, event.method)
    average, section_averages = None, []
    if real and event.method == "plus-minus":  # Law H's average: not at matchpoints
        for name in sorted({r["section"] for r in real}):
            group = [r for r in real if r["section"] == name]
            section_averages.append({
                "section": name,
                "ns": fraction_str(Fraction(sum(r["ns_score"] for r in group), len(group))),
                "ew": fraction_str(Fraction(sum(r["ew_score"] for r in group), len(group))),
            })
        if not by_section:
            average = {key: section_averages[0][key] for key in ("ns", "ew")}
            section_averages = []
    return {
        "board": board.number, "dealer": dealer_for_board(board.number), "deal": board.deal,
        "hands": parse_deal(board.deal) if board.deal else None, "method": event.method,
        "average": average, "by_section": by_section, "section_averages": section_averages,
        "rows": rows,
        "notes": selectors.irregular_notes(event, board.number),
        "teams": [],  # a pairs night: no team match's points on the board
        # Matchpoints factored up (Neuberg) where a section's board has fewer real results
        # than the most played board (the standings' expected count).
        "factored": [{"section": name, "played": n, "top": 2 * (n - 1),
                      "scaled_top": 2 * (state.expected - 1)}
                     for name, n in sorted(Counter(r["section"] for r in real).items())
                     if state.expected and n != state.expected]
        if state and event.method == "matchpoints" else [],
    }


def old_scorecard(event, pair_number):
    found = list(Pair.objects.filter(event=event, number=pair_number)
                 .order_by("substitutes__from_round", "substitutes__seat")
                 .values_list("pk", "joined_round", "left_after_round", *ROSTER_FIELDS))
    pair_pk, joined_round, left_after_round = found[0][:3]
    names, subs = roster_from_rows(row[3:] for row in found)
    state = pair_state(event) if event.kind == "pairs" else None
    results = (Result.objects.filter(event=event, voided=False)
               .filter(Q(ns_pair_id=pair_pk) | Q(ew_pair_id=pair_pk))
               .select_related("board", "ns_pair", "ew_pair").order_by("board__number"))
    running = Fraction(0)
    rows = []
    notes = selectors.ruling_notes(event)
    for r in results:
        is_ns = r.ns_pair_id == pair_pk
        values = _value(state, state.rows.get(r.id) if state else None)
        mine = None if values is None else values[0 if is_ns else 1]
        if mine is not None:
            running += mine
        rows.append({
            "board": r.board.number, "direction": "NS" if is_ns else "EW",
            "opponents": (r.ew_pair if is_ns else r.ns_pair).number,
            "level": r.level, "denomination": r.denomination, "declarer": r.declarer,
            "doubled": r.doubled, "tricks": r.tricks, "passed_out": r.passed_out,
            "ruling": r.ruling, "offending": r.offending,
            "adjustment": presenters.adjustment(r),
            "note": (notes.get((r.board.number, r.meeting_id))
                     or notes.get((r.board.number, None), "")) if r.ruling else "",
            # A ruled board's award as its traveller gives it; no pair left this night.
            "award": (next(row["award"] for row in old_traveller(event, r.board.number)["rows"]
                           if row["result_id"] == r.id) if r.ruling else None),
            "left": None,
            "score": r.ns_score if is_ns else r.ew_score,
            "plus_minus": None if mine is None else fraction_str(mine),
            "shown": None if mine is None else shown(mine),
            "running": fraction_str(running), "running_shown": shown(running),
            "late_play": r.late_play,
            "marks": [] if r.ruling else presenters.result_marks(r, is_whist=event.is_whist),
        })
    substitutes = subs.get(pair_number, [])
    card = {
        "pair": pair_number, "names": names[pair_number], "substitutes": substitutes,
        "names_text": presenters.pair_names(names[pair_number], substitutes),
        "joined_round": joined_round, "left_after_round": left_after_round,
        "method": event.method, "rows": rows, "total": fraction_str(running),
        "shown": shown(running),
        "rounded": any(row["plus_minus"] is not None and "/" in row["plus_minus"]
                       for row in rows),
    }
    if event.method == "matchpoints":  # shown exactly; the total as the standings give it
        row = {r["pair"]: r for ranking in standings.standings(event)["rankings"]
               for r in ranking["rows"]}[pair_number]
        card.update(rounded=False, total_note="",  # boards not played: Neuberg here
                    total_text=presenters.matchpoint_total(row["matchpoints"], row["top"],
                                                           row["score"]))
    return card


# --- the night ------------------------------------------------------------------------------


def irregular_night(actor, *, by_section: bool, method: str) -> Event:
    """Two sections of five tables; rounds 1 and 2 played everywhere, with in section A a
    board not played, an average, a fouled board, an adjusted and a split assigned score,
    a cancelled board in B, a substitute for pair 2, and a Law B note on one board."""
    event = two_section_night(actor, by_section=by_section)
    Event.objects.filter(pk=event.pk).update(method=method, club_adjustments=True)
    event.refresh_from_db()
    services.substitute_set(event=event, number=2, seat=1, player="Carl Day", from_round=2,
                            actor=actor, reason="ill")
    meetings = list(Meeting.objects.filter(section__event=event, round__in=(1, 2))
                    .select_related("section", "ns_pair", "ew_pair")
                    .order_by("section__name", "round", "table"))
    special = {}
    a = [m for m in meetings if m.section.name == "A"]
    b = [m for m in meetings if m.section.name == "B"]
    special[(a[0].pk, a[0].boards[0])] = "not-played"
    special[(a[1].pk, a[1].boards[0])] = "average"
    special[(a[2].pk, a[2].boards[1])] = "fouled"
    special[(a[3].pk, a[3].boards[0])] = "adjusted"
    special[(a[4].pk, a[4].boards[2])] = "split"
    special[(a[5].pk, a[5].boards[1])] = "assigned"
    special[(b[0].pk, b[0].boards[0])] = "cancelled"
    for i, m in enumerate(meetings):
        ns, ew = m.ns_pair.number, m.ew_pair.number
        for k, board in enumerate(m.boards):
            what = special.get((m.pk, board))
            common = {"event": event, "board": board, "ns": ns, "ew": ew, "actor": actor}
            if what == "not-played":
                services.boards_not_played(meeting=m, boards=[board], actor=actor,
                                           reason="slow play")
            elif what in ("average", "cancelled"):
                services.ruling_award(kind=what, reason="irregular hands", meeting=m, **common)
            elif what == "fouled":
                services.ruling_award(kind="fouled", offending="ew", reason="fouled",
                                      meeting=m, **common)
            elif what == "adjusted":
                services.adjusted_award(ns_grade="plus", ew_grade="minus", reason="slow",
                                        meeting=m, **common)
            elif what in ("assigned", "split"):
                services.assigned_award(
                    ns_result=TWO_NT, reason="misinformation", meeting=m,
                    ew_result=FOUR_HEARTS_DOWN if what == "split" else None, **common)
            else:
                services.result_record(data=PLAYS[(i + k) % len(PLAYS)], meeting=m, **common)
    irr = services.irregularity_report(event=event, board=a[6].boards[0], stage="overplay",
                                       actor=actor, meeting=a[6], short_seat="N",
                                       surplus_seat="E")
    services.irregularity_rule(irregularity=irr, actor=actor, reason="East had 14")
    standings.clear_cache()
    return Event.objects.get(pk=event.pk)


@pytest.mark.parametrize(("by_section", "method"), [
    (False, "plus-minus"), (True, "plus-minus"), (False, "matchpoints"), (True, "matchpoints"),
])
def test_one_query_gathers_what_board_by_board_gathered(director, by_section, method):
    actor = Actor.director(director)
    event = irregular_night(actor, by_section=by_section, method=method)
    numbers = selectors.board_numbers(event)
    pairs = sorted(event.pairs.values_list("number", flat=True))
    gathered = selectors.travellers(event)
    cards = selectors.scorecards(event)
    standings.clear_cache()  # the old reads from a state built result by result
    assert gathered == [old_traveller(event, n) for n in numbers]
    assert cards == [old_scorecard(event, n) for n in pairs]
    standings.clear_cache()
    assert [selectors.traveller(event, n) for n in numbers] == gathered
    assert [selectors.scorecard(event, n) for n in pairs] == cards
    # The night has what it says it has.
    rows = [r for board in gathered for r in board["rows"]]
    assert {r["ruling"] for r in rows} == {"", "not-played", "average", "fouled", "adjusted",
                                           "assigned", "cancelled"}
    assert any(r["adjustment"].startswith("Assigned: N–S") for r in rows)  # the split one
    assert any(board["notes"] for board in gathered)
    assert any(r["note"] for card in cards for r in card["rows"])
    assert cards[1]["substitutes"]
