"""Club adjustments: adjusted and assigned scores (services, audit, undo, standings).

Board 1 of a plus/minus night without a hand record (the importer's rule: a seat left
out holds no honours), scored by hand (Law 47 trick values, Law 3 undertricks):

    1 v 5  3♥ by S, 9 tricks: N-S 24 (3 × 8)
    2 v 6  2NT by N, 8 tricks: N-S 20 (2 × 10)
    3 v 7  4♥ by S, 9 tricks: down 1, E-W 50
    4 v 8  the club adjustment under test
"""

import io
from fractions import Fraction as F

import pytest
from pypdf import PdfReader

from tests.factories import make_pairs_event
from tournaments import presenters, services, standings
from tournaments.models import AuditEntry, Event, Result
from tournaments.reports.documents import ScorecardsRenderer, TravellersRenderer
from tournaments.reports.services import report_data
from tournaments.services import CLUB_ADJUSTMENTS_OFF, Actor, Forbidden, ServiceError

THREE_HEARTS = {"contract": {"level": 3, "denomination": "H", "declarer": "S"}, "tricks": 9}
TWO_NT = {"contract": {"level": 2, "denomination": "NT", "declarer": "N"}, "tricks": 8}
FOUR_HEARTS_DOWN = {"contract": {"level": 4, "denomination": "H", "declarer": "S"}, "tricks": 9}
THREE_HEARTS_DOWN = {"contract": {"level": 3, "denomination": "H", "declarer": "S"}, "tricks": 8}
# The director types every honour (live entry): none held by anyone worth a score here
# N-S hold three, simple honours, 2 × 8 = 16 at hearts (Law 3).
HONOURS = {"N": 2, "E": 1, "S": 1, "W": 1}


def _night(method="plus-minus", club_adjustments=True, kind="pairs"):
    event = make_pairs_event(pairs=8, boards=2, method=method, kind=kind,
                             club_adjustments=club_adjustments)
    importer = Actor.system("import")
    for ns, ew, data in ((1, 5, THREE_HEARTS), (2, 6, TWO_NT), (3, 7, FOUR_HEARTS_DOWN)):
        services.result_record(event=event, board=1, ns=ns, ew=ew, data=data, actor=importer)
    return event


def _exact(event) -> dict[int, str]:
    standings.clear_cache()
    data = standings.standings(Event.objects.get(pk=event.pk))
    return {row["pair"]: row["exact"] for ranking in data["rankings"] for row in ranking["rows"]}


@pytest.fixture
def as_director(db):
    from tests.factories import DirectorFactory

    return Actor.director(DirectorFactory())


def adjust(event, actor, ns_grade="plus", ew_grade="minus", **kw):
    return services.adjusted_award(event=event, board=1, ns=4, ew=8, ns_grade=ns_grade,
                                   ew_grade=ew_grade, actor=actor,
                                   reason=kw.pop("reason", "slow play at table 4"), **kw)


# --- adjusted scores ------------------------------------------------------------------------


def test_adjusted_plus_minus_is_a_tenth_of_the_spread(db, as_director):
    event = _night()
    result = adjust(event, as_director)
    assert (result.ruling, result.ns_adjust, result.ew_adjust) == ("adjusted", "plus", "minus")
    assert result.ns_score is None and result.status == Result.Status.DIRECTOR
    exact = _exact(event)
    # The real results alone: N-S 24, 20, -50 (average -2); E-W the negatives.
    assert exact[1] == "26" and exact[2] == "22" and exact[3] == "-48"
    assert exact[5] == "-26" and exact[7] == "48"
    # Spread 24 - (-50) = 74 each way: average-plus +7 2/5, average-minus -7 2/5.
    assert exact[4] == "37/5" and exact[8] == "-37/5"


def test_adjusted_matchpoints_sixty_forty(db, as_director):
    event = _night(method="matchpoints")
    adjust(event, as_director)
    standings.clear_cache()
    rows = {row["pair"]: row for ranking in standings.standings(event)["rankings"]
            for row in ranking["rows"]}
    # Four tables had the board (the adjusted one counts): top 6; 60 % and 40 % of it.
    assert rows[4]["matchpoints"] == "18/5" and rows[4]["score"] == 60.0
    assert rows[8]["matchpoints"] == "12/5" and rows[8]["score"] == 40.0
    # The field: three real results, Neuberg-factored from 3 to 4: 4 -> 17/3.
    assert rows[1]["matchpoints"] == "17/3"
    assert rows[4]["boards"] == 1


def test_adjusted_is_audited_as_a_club_adjustment_and_undone(db, as_director):
    event = _night()
    played, _ = services.result_record(event=event, board=1, ns=4, ew=8,
                                       data=THREE_HEARTS_DOWN, actor=Actor.system())
    result = adjust(event, as_director)
    assert result.pk == played.pk
    entry = AuditEntry.objects.filter(result=result).latest("id")
    assert entry.action == "club adjustment" and entry.reason == "slow play at table 4"
    assert presenters.result_line(entry.after) == \
        "Adjusted: N–S average-plus, E–W average-minus"
    assert entry.after["ns_adjust"] == "plus" and "late_play" in entry.after
    services.audit_undo(entry=entry, actor=as_director)
    result.refresh_from_db()
    assert (result.ruling, result.ns_adjust, result.ew_adjust, result.tricks) == ("", "", "", 8)
    assert result.ns_score == -50


def test_a_played_correction_clears_the_grades(db, as_director):
    event = _night()
    result = adjust(event, as_director)
    services.result_correct(result=result, actor=as_director, reason="they did play it",
                            data={**THREE_HEARTS, "honours": HONOURS})
    result.refresh_from_db()
    assert (result.ruling, result.ns_adjust, result.ew_adjust) == ("", "", "")
    assert result.ns_score == 40  # 24 trick + 16 honour


def test_refused_when_club_adjustments_are_off(db, as_director):
    event = _night(club_adjustments=False)
    with pytest.raises(ServiceError) as caught:
        adjust(event, as_director)
    assert caught.value.message == CLUB_ADJUSTMENTS_OFF
    assert caught.value.field == "club_adjustments"
    with pytest.raises(ServiceError, match="Club adjustments are off"):
        services.assigned_award(event=event, board=1, ns=4, ew=8, ns_result=THREE_HEARTS,
                                actor=as_director, reason="why")
    assert not Result.objects.filter(ns_pair__number=4).exists()


@pytest.mark.parametrize(("kwargs", "field", "words"), [
    ({"reason": "  "}, "reason", "Say why"),
    ({"ns_grade": "top"}, "ns_grade", "N–S gets average-plus"),
    ({"ew_grade": ""}, "ew_grade", "E–W gets average-plus"),
])
def test_adjusted_bad_input(db, as_director, kwargs, field, words):
    event = _night()
    with pytest.raises(ServiceError) as caught:
        adjust(event, as_director, **kwargs)
    assert caught.value.field == field and words in caught.value.message


def test_only_the_director_adjusts(db):
    event = _night()
    section = event.sections.get()
    with pytest.raises(Forbidden):
        adjust(event, Actor.at_table(section, 1))


def test_a_team_match_takes_no_adjusted_score(db, as_director):
    event = make_pairs_event(pairs=4, boards=1, kind="teams", method="total-points",
                             club_adjustments=True)
    with pytest.raises(ServiceError, match="pair contest"):
        services.adjusted_award(event=event, board=1, ns=1, ew=2, ns_grade="plus",
                                ew_grade="minus", actor=as_director, reason="why")


def test_rulings_do_not_give_club_adjustments(db, as_director):
    event = _night()
    with pytest.raises(ServiceError, match="club adjustment"):
        services.ruling_award(event=event, board=1, ns=4, ew=8, kind="adjusted",
                              actor=as_director, reason="why")


# --- assigned scores ------------------------------------------------------------------------


def test_assigned_is_compared_like_a_real_result(db, as_director):
    event = _night()
    result = services.assigned_award(event=event, board=1, ns=4, ew=8,
                                     ns_result={**THREE_HEARTS_DOWN, "honours": HONOURS},
                                     actor=as_director, reason="revoke ruled by the TD")
    # Down 1: E-W 50; N-S simple honours 16: N-S -34, E-W +34.
    assert result.ruling == "assigned" and (result.ns_score, result.ew_score) == (-34, 34)
    assert (result.level, result.denomination, result.tricks) == (3, "H", 8)
    assert presenters.adjustment(result) == "Assigned: 3♥ by S, down 1"
    exact = _exact(event)
    # It enters the average: N-S 24, 20, -50, -34 (average -10).
    assert exact[4] == "-24" and exact[1] == "34" and exact[3] == "-40"
    assert exact[8] == "24" and exact[5] == "-34"


def test_a_split_score_compares_each_direction_on_its_own(db, as_director):
    event = _night()
    result = services.assigned_award(
        event=event, board=1, ns=4, ew=8, ns_result={**THREE_HEARTS, "honours": HONOURS},
        ew_result={**FOUR_HEARTS_DOWN, "honours": HONOURS}, actor=as_director,
        reason="split: misinformation to E-W")
    # N-S's board score from 3♥ made (24 + 16 honours = 40), E-W's from 4♥ down 1
    # (50 - 16 = 34): not complementary.
    assert (result.ns_score, result.ew_score) == (40, 34)
    assert (result.ns_trick, result.ns_honour, result.ew_honour) == (24, 16, 50)
    assert result.details["ew_result"]["contract"]["level"] == 4
    assert presenters.adjustment(result) == \
        "Assigned: N–S 3♥ by S, made; E–W 4♥ by S, down 1"
    exact = _exact(event)
    # N-S: 24, 20, -50, 40 (average 17/2): pair 4 40 - 17/2 = 63/2, pair 1 31/2.
    assert exact[4] == "63/2" and exact[1] == "31/2"
    # E-W: -24, -20, 50, 34 (average 10): pair 8 34 - 10 = 24, pair 5 -34.
    assert exact[8] == "24" and exact[5] == "-34"


def test_assigned_bad_result_names_its_side(db, as_director):
    event = _night()
    with pytest.raises(ServiceError) as caught:
        services.assigned_award(event=event, board=1, ns=4, ew=8,
                                ns_result={**THREE_HEARTS, "honours": HONOURS},
                                ew_result={**THREE_HEARTS, "tricks": 14}, actor=as_director,
                                reason="why")
    assert caught.value.field == "ew_result.tricks"


def test_assigned_in_a_team_match_counts_its_totals(db, as_director):
    event = make_pairs_event(pairs=4, boards=1, kind="teams", method="total-points",
                             club_adjustments=True)
    team_a, team_b = services.teams_set(event=event, names=["A", "B"], actor=as_director)
    for pair, team in ((1, team_a), (2, team_b), (3, team_b), (4, team_a)):
        event.pairs.filter(number=pair).update(team=team)
    services.result_record(event=event, board=1, ns=1, ew=2, data=THREE_HEARTS,
                           actor=Actor.system())
    services.assigned_award(event=event, board=1, ns=3, ew=4,
                            ns_result={**TWO_NT, "honours": {"N": 1, "E": 1, "S": 1, "W": 1}},
                            actor=as_director, reason="why")
    match = standings.standings(event)["matches"][0]
    # Team A: 24 (pair 1 N-S) + 0 (pair 4 E-W); team B: 0 + 20 (pair 3 N-S, 2NT made).
    assert dict(zip(match["teams"], match["scores"], strict=True)) == {"A": 24, "B": 20}


# --- the setting --------------------------------------------------------------------------


def test_the_setting_is_audited_and_cannot_go_off_under_a_standing_adjustment(db, as_director):
    event = _night(club_adjustments=False)
    event = services.club_adjustments_set(event=event, on=True, actor=as_director)
    assert event.club_adjustments
    entry = AuditEntry.objects.filter(event=event).latest("id")
    assert entry.action == "club adjustments" and entry.after == {"club_adjustments": True}
    result = adjust(event, as_director)
    with pytest.raises(ServiceError, match="1 board of this event has an adjusted"):
        services.club_adjustments_set(event=event, on=False, actor=as_director)
    services.result_void(result=result, actor=as_director, reason="wrong table")
    assert not services.club_adjustments_set(event=event, on=False,
                                             actor=as_director).club_adjustments


def test_the_setting_is_the_directors(db):
    event = _night()
    with pytest.raises(Forbidden):
        services.club_adjustments_set(event=event, on=False,
                                      actor=Actor.at_table(event.sections.get(), 1))


def test_the_engine_numbers_match_the_standings_exactly(db, as_director):
    event = _night()
    adjust(event, as_director, ns_grade="average", ew_grade="plus")
    exact = _exact(event)
    assert F(exact[4]) == 0 and F(exact[8]) == F(37, 5)


# --- printed travellers and score cards ---------------------------------------------------


def test_the_pdfs_mark_club_adjustments(db, as_director):
    event = _night()
    adjust(event, as_director)
    services.assigned_award(event=event, board=2, ns=1, ew=5,
                            ns_result={**THREE_HEARTS, "honours": HONOURS},
                            ew_result={**FOUR_HEARTS_DOWN, "honours": HONOURS},
                            actor=as_director, reason="split")

    def text(renderer, kind):
        _, _, content = renderer().render(report_data(event, kind))
        return " ".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages)

    travellers = " ".join(text(TravellersRenderer, "travellers").split())
    assert "Adjusted: N–S average-plus, E–W average-minus" in travellers
    assert "Assigned: N–S 3♥ by S, made; E–W 4♥ by S, down 1" in travellers
    cards = " ".join(text(ScorecardsRenderer, "scorecards").split())
    assert "Adjusted: N–S average-plus" in cards
