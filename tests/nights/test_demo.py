"""The demo night: loads once, is reproducible, and looks like a real night in progress."""

import io
import random
from collections import Counter

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from boards.dealing import deal_board
from scoring.engine import get_rules, parse_deal, score
from tournaments.demo import simulate_play
from tournaments.models import AuditEntry, Board, Event, Meeting, Result, Season
from tournaments.selectors import season_table
from tournaments.services import Actor
from tournaments.standings import standings


def _load(*args: str) -> str:
    out = io.StringIO()
    call_command("load_demo", *args, stdout=out)
    return out.getvalue()


@pytest.fixture
def demo(db, settings):
    settings.DEBUG = True
    output = _load("--if-empty")
    mitchell = Event.objects.get(kind="pairs", status=Event.Status.RUNNING)
    match = Event.objects.get(kind="teams")
    return output, mitchell, match


def test_if_empty_loads_once(demo):
    counts = (Event.objects.count(), Result.objects.count(), Board.objects.count())
    assert counts[0] == 4  # tonight, the team match, and two earlier nights of the season
    again = _load("--if-empty")
    assert "not loaded" in again
    assert (Event.objects.count(), Result.objects.count(), Board.objects.count()) == counts


def test_mitchell_is_seven_tables_twenty_one_boards_with_deals(demo):
    _, mitchell, _ = demo
    section = mitchell.sections.get(name="A")
    assert (section.movement, section.tables, section.boards_per_round) == ("mitchell", 7, 3)
    boards = Board.objects.filter(event=mitchell).order_by("number")
    assert [b.number for b in boards] == list(range(1, 22))
    for board in boards:
        hands = parse_deal(board.deal)  # a full, valid deal: 13 cards each, 52 different
        assert sum(len(cards) for hand in hands.values() for cards in hand.values()) == 52
    meetings = Meeting.objects.filter(section=section)
    assert sorted(meetings.values_list("round", "table")) == [
        (r, t) for r in range(1, 8) for t in range(1, 8)]
    assert section.pairs.count() == 14
    assert section.table_codes.count() == 7


def test_mitchell_is_in_round_four(demo):
    _, mitchell, _ = demo
    assert mitchell.status == Event.Status.RUNNING
    assert mitchell.published == Event.Published.PROVISIONAL
    results = Result.objects.filter(event=mitchell, meeting__section__name="A").select_related(
        "meeting")
    assert {r.meeting.round for r in results} == {1, 2, 3, 4}
    by_round = Counter(r.meeting.round for r in results)
    assert by_round[1] == by_round[2] == by_round[3] == 21
    assert 0 < by_round[4] < 21  # part of round 4
    # Rounds 1-3 confirmed by the opponents and agreed at every table; round 4 not agreed.
    assert all(r.status == Result.Status.CONFIRMED for r in results if r.meeting.round < 4)
    agreed = Meeting.objects.filter(section__event=mitchell, section__name="A",
                                    agreed_at__isnull=False)
    assert sorted(set(agreed.values_list("round", flat=True))) == [1, 2, 3]
    assert agreed.count() == 21
    waiting = [r for r in results if r.status == Result.Status.ENTERED]
    assert len(waiting) == 1 and waiting[0].meeting.round == 4
    # Entered at the tables, so audited like real entries.
    assert all(r.entered_by == f"table {r.meeting.table}" for r in results)
    everywhere = Result.objects.filter(event=mitchell).count()  # section B's too
    actions = Counter(AuditEntry.objects.filter(event=mitchell).values_list("action", flat=True))
    assert actions["enter"] == everywhere
    assert actions["confirm"] == everywhere - 1
    assert actions["agree round"] == 21 + 9
    rankings = standings(mitchell)["rankings"]
    assert [r["direction"] for r in rankings] == ["NS", "EW"]
    assert all(len(r["rows"]) == 7 + 3 for r in rankings)  # the field: both sections


def test_team_match_is_closed_with_final_standings(demo):
    _, _, match = demo
    assert match.status == Event.Status.CLOSED
    assert match.published == Event.Published.FINAL
    assert sorted(match.teams.values_list("name", flat=True)) == ["Gramercy", "Murray Hill"]
    assert all(team.pairs.count() == 3 for team in match.teams.all())
    boards = match.boards.count()
    # Every board played once at each of the three tables.
    assert Result.objects.filter(event=match).count() == 3 * boards
    table = standings(match)
    assert table["matches"][0]["teams"] == ["Gramercy", "Murray Hill"]
    assert table["matches"][0]["winner"] in ("Gramercy", "Murray Hill")
    assert {row["team"] for row in table["rankings"][0]["rows"]} == {"Gramercy", "Murray Hill"}


def test_director_log_in_only_with_debug(demo):
    output, _, _ = demo
    assert 'created the director log-in "director"' in output
    user = get_user_model().objects.get(username="director")
    assert user.is_staff and user.is_superuser and user.check_password("director")
    # By a person's name, not "reported by director director" on an irregular board.
    assert Actor.director(user).label == "director Grace Holt"


def test_no_log_in_without_debug(db, settings):
    settings.DEBUG = False
    output = _load()
    assert "director" not in output.split("Loaded")[0]
    assert not get_user_model().objects.exists()
    assert Event.objects.count() == 4


def test_demo_is_the_same_every_time(demo):
    _, first, _ = demo
    _load()  # without --if-empty: a second copy
    second = Event.objects.filter(kind="pairs", status=Event.Status.RUNNING).exclude(
        pk=first.pk).get()

    def night(event):
        deals = list(event.boards.order_by("number").values_list("deal", flat=True))
        rows = sorted(Result.objects.filter(event=event).values_list(
            "board__number", "ns_pair__number", "ew_pair__number", "level", "denomination",
            "declarer", "doubled", "tricks", "ns_score", "status"))
        return deals, rows

    assert night(second) == night(first)


def test_simulated_play_is_a_valid_plausible_result():
    rng = random.Random(7)
    rules = get_rules("american-1913")
    for board in range(1, 201):
        deal = deal_board(rng)
        data = simulate_play(deal, board, rng)
        score(data, rules, board=board, deal=deal)  # the engine accepts it
        hands = parse_deal(deal)
        points = {seat: sum({"A": 4, "K": 3, "Q": 2, "J": 1}.get(c, 0)
                            for cards in hands[seat].values() for c in cards)
                  for seat in "NESW"}
        declarer = data["contract"]["declarer"]
        side = "NS" if declarer in "NS" else "EW"
        other = "EW" if side == "NS" else "NS"
        # The stronger side declares; it takes within a few tricks of its contract.
        assert sum(points[s] for s in side) >= sum(points[s] for s in other)
        target = 6 + data["contract"]["level"]
        assert target - 4 <= data["tricks"] <= 13


def test_the_demo_night_has_a_second_section(demo):
    """Section B: pairs 15 to 20 at three tables on boards 1 to 9, finished; the field is
    compared across both sections, and the standings place each section's pairs too."""
    _, mitchell, _ = demo
    b = mitchell.sections.get(name="B")
    assert (b.movement, b.tables) == ("mitchell", 3)
    assert sorted(b.pairs.values_list("number", flat=True)) == list(range(15, 21))
    results = Result.objects.filter(event=mitchell, meeting__section=b)
    assert results.count() == 27
    assert {r.board.number for r in results.select_related("board")} == set(range(1, 10))
    assert not mitchell.compare_by_section
    out = standings(mitchell)
    assert [(r["section"], r["direction"]) for r in out["section_rankings"]] == [
        ("A", "NS"), ("A", "EW"), ("B", "NS"), ("B", "EW")]
    codes = set(b.table_codes.values_list("code", flat=True))
    assert len(codes) == 3 and not codes & set(
        mitchell.sections.get(name="A").table_codes.values_list("code", flat=True))


def test_the_demo_has_a_season_of_three_nights(demo):
    _, mitchell, _ = demo
    season = Season.objects.get()
    events = list(season.events.order_by("date"))
    assert len(events) == 3 and events[-1] == mitchell
    assert [e.published for e in events] == ["final", "final", "provisional"]
    assert (season.entrants, season.counts, season.rule, season.best_of,
            season.min_events, season.published) == ("individuals", "points", "best", 2, 2,
                                                     True)
    public = season_table(season, director=False)
    assert [e["counts"] for e in public["events"]] == [True, True, False]
    placed = [r for r in public["rows"] if r["place"] is not None]
    assert placed and placed[0]["place"].startswith("1")
    assert all(r["member"] for r in public["rows"])  # members only
