"""The party night's services: setting up, the tables' deals, the progression, the tallies."""

import datetime

import pytest
from django.db import IntegrityError

from tests.factories import PlayerFactory
from tournaments.models import AuditEntry, Party, PartyDeal, PartySeat, PartyTable
from tournaments.services import (
    Forbidden,
    ServiceError,
    party_create,
    party_deal_add,
    party_deal_correct,
    party_players_set,
    party_progression,
    party_round,
    party_round_advance,
    party_round_over,
    party_standings,
    party_start,
    party_table_view,
    table_actor,
)

pytestmark = pytest.mark.django_db

NAMES = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal"]
DATE = datetime.date(2026, 11, 27)


def made(level=1, denomination="NT", declarer="N", tricks=7, **extra):
    return {"contract": {"level": level, "denomination": denomination, "declarer": declarer},
            "tricks": tricks, **extra}


def new_party(as_director, *, players=NAMES, game="auction", **kw):
    kw.setdefault("deals_per_round", 2)
    return party_create(name="Friday party", date=DATE, game=game, rounds=kw.pop("rounds", 3),
                        players=players, actor=as_director, **kw)


def seat_names(party, round_number, table_number):
    return {s.seat: s.player.name for s in PartySeat.objects.filter(
        party=party, round=round_number, table__number=table_number).select_related("player")}


def table(party, number):
    return PartyTable.objects.get(party=party, number=number)


def play(party, number, *deals):
    t = table(party, number)
    for d in deals:
        party_deal_add(table=t, deal=d, actor=table_actor(t))


def test_start_seats_the_players_as_listed_and_gives_each_table_a_code(as_director):
    party = party_start(party=new_party(as_director), actor=as_director)
    assert party.status == Party.Status.PLAYING and party.current_round == 1
    assert seat_names(party, 1, 1) == {"N": "Ann", "S": "Bob", "E": "Cy", "W": "Di"}
    assert seat_names(party, 1, 2) == {"N": "Eve", "S": "Fay", "E": "Gus", "W": "Hal"}
    codes = set(party.tables.values_list("code", flat=True))
    assert len(codes) == 2 and all(len(c) >= 12 for c in codes)


def test_members_and_visitors_play_side_by_side(as_director):
    member = PlayerFactory(name="Mae West", number="101")
    party = new_party(as_director, players=[{"member": member.pk}, "Bob", {"name": "Cy"},
                                            "Di"])
    assert [(p.name, p.member_id) for p in party.players.all()] == [
        ("Mae West", member.pk), ("Bob", None), ("Cy", None), ("Di", None)]


@pytest.mark.parametrize(("kw", "words"), [
    ({"players": NAMES[:7]}, "add 1 more"),
    ({"players": ["Ann", "ann", "Cy", "Di"]}, "listed twice"),
    ({"players": ["Ann", "", "Cy", "Di"]}, "Player 2 has no name"),
    ({"players": [{"member": 999999}, "Bob", "Cy", "Di"]}, "no such member"),
    ({"players": [{"member": "9" * 30}, "Bob", "Cy", "Di"]}, "no such member"),
    ({"players": [{"member": "x"}, "Bob", "Cy", "Di"]}, "no such member"),
])
def test_bad_lists_are_refused_in_words(as_director, kw, words):
    with pytest.raises(ServiceError, match="(?i)" + words):
        party_start(party=new_party(as_director, **kw), actor=as_director)


@pytest.mark.parametrize(("kw", "words"), [
    ({"deals_per_round": None}, "either a number of deals or a number of minutes"),
    ({"minutes_per_round": 20}, "either a number of deals or a number of minutes"),
    ({"deals_per_round": 0}, "between 1 and 52"),
    ({"rounds": 0}, "between 1 and 30"),
    ({"game": "bridge"}, "choose the game"),
    ({"rules": "modern"}, "American rule"),
])
def test_bad_set_ups_are_refused(as_director, kw, words):
    with pytest.raises(ServiceError, match="(?i)" + words):
        new_party(as_director, **kw)
    assert not Party.objects.exists()


def test_only_the_director_sets_up_and_moves_the_night(as_director):
    party = party_start(party=new_party(as_director), actor=as_director)
    t = table(party, 1)
    with pytest.raises(Forbidden):
        party_round_advance(party=party, actor=table_actor(t))
    with pytest.raises(Forbidden):  # a table enters only its own deals
        party_deal_add(table=table(party, 2), deal=made(), actor=table_actor(t))


def test_the_players_can_change_until_the_start(as_director):
    party = new_party(as_director)
    party_players_set(party=party, players=NAMES[:4], actor=as_director)
    party = party_start(party=party, actor=as_director)
    assert party.tables.count() == 1
    with pytest.raises(ServiceError, match="(?i)started"):
        party_players_set(party=party, players=NAMES, actor=as_director)


def test_a_round_of_fixed_deals_is_over_when_they_are_in(as_director):
    party = party_start(party=new_party(as_director), actor=as_director)
    play(party, 1, made(tricks=8), made(declarer="E", tricks=9))
    rnd = party_round(party=party)
    assert [t["done"] for t in rnd["tables"]] == [True, False]
    assert [d["dealer"] for d in rnd["tables"][0]["deals"]] == ["N", "E"]
    with pytest.raises(ServiceError, match="(?i)round 1 is over at this table"):
        play(party, 1, made())
    with pytest.raises(ServiceError, match="(?i)round 1 is not over at table 2"):
        party_round_advance(party=party, actor=as_director)


def test_the_progression_and_the_tallies(as_director):
    party = party_start(party=new_party(as_director), actor=as_director)
    # table 1: N-S make 1NT with an overtrick twice: 2 × 20 = 40 to N-S.
    play(party, 1, made(tricks=8), made(tricks=8))
    # table 2: E-W make 2♠ and 1♥.
    play(party, 2, made(level=2, denomination="S", declarer="E", tricks=8),
         made(level=1, denomination="H", declarer="W", tricks=7))
    prog = party_progression(party=party, round_number=1)
    assert prog is not None and not prog["final"]  # all in: the card can be printed
    party = party_round_advance(party=party, actor=as_director)
    assert party.current_round == 2
    # head table: Ann & Bob stay and split; Gus & Hal (table 2's winners) arrive
    assert seat_names(party, 2, 1) == {"N": "Ann", "E": "Bob", "S": "Gus", "W": "Hal"}
    # foot table: Eve & Fay stay; Cy & Di, the head table's losers, arrive
    assert seat_names(party, 2, 2) == {"N": "Eve", "E": "Fay", "S": "Cy", "W": "Di"}
    assert party_progression(party=party, round_number=1)["final"] is True
    standings = party_standings(party=party)
    by_name = {r["name"]: r for r in standings["rows"]}
    ns1 = party_round(party=party, round_number=1)["tables"]
    ns, ew = ns1[0]["points"]["NS"], ns1[0]["points"]["EW"]
    assert by_name["Ann"]["total"] == ns - ew == -by_name["Cy"]["total"]
    assert sum(r["total"] for r in standings["rows"]) == 0
    assert [r["place"] for r in standings["rows"]][:2] == ["1=", "1="]
    # Round 2 has begun with no deal in yet: "—", not a tally of "0".
    assert all(r["rounds"][1] is None and r["rounds_text"][1] == "—"
               for r in standings["rows"])


def test_ties_share_a_place(as_director):
    party = party_start(party=new_party(as_director, players=NAMES[:4], deals_per_round=1),
                        actor=as_director)
    play(party, 1, made(tricks=8))
    rows = party_standings(party=party)["rows"]
    assert [r["place"] for r in rows] == ["1=", "1=", "3=", "3="]
    assert [r["total_text"] for r in rows] == ["+20", "+20", "−20", "−20"]


def test_a_table_corrects_its_deal_until_the_round_moves_on(as_director):
    party = party_start(party=new_party(as_director, players=NAMES[:4]), actor=as_director)
    t = table(party, 1)
    play(party, 1, made(tricks=8))
    party_deal_correct(table=t, number=1, deal=made(tricks=9), actor=table_actor(t))
    assert PartyDeal.objects.get(table=t, number=1).data["tricks"] == 9
    assert not AuditEntry.objects.filter(action="party-correct").exists()
    play(party, 1, made())
    party_round_advance(party=party, actor=as_director)
    with pytest.raises(Forbidden, match="(?i)ask the director"):
        party_deal_correct(table=t, number=1, round_number=1, deal=made(), actor=table_actor(t))


def test_the_director_corrects_an_earlier_round_with_a_reason_and_it_is_audited(as_director):
    party = party_start(party=new_party(as_director, players=NAMES[:4], deals_per_round=1),
                        actor=as_director)
    t = table(party, 1)
    play(party, 1, made(tricks=8))
    party_round_advance(party=party, actor=as_director)
    seated = seat_names(party, 2, 1)
    with pytest.raises(ServiceError, match="(?i)Say why"):
        party_deal_correct(table=t, number=1, round_number=1, deal=made(), actor=as_director)
    party_deal_correct(table=t, number=1, round_number=1, deal=made(declarer="E", tricks=9),
                       actor=as_director, reason="the wrong declarer")
    entry = AuditEntry.objects.get(action="party-correct")
    assert entry.party_id == party.pk and entry.event_id is None
    assert entry.before["data"]["contract"]["declarer"] == "N"
    rows = {r["name"]: r for r in party_standings(party=party)["rows"]}
    assert rows["Cy"]["total"] == 30  # E-W now made 1NT + 2 (10 a trick)
    assert seat_names(party, 2, 1) == seated  # the progression played stands


def test_a_bad_deal_is_refused_in_the_engines_words_and_nothing_is_stored(as_director):
    party = party_start(party=new_party(as_director, players=NAMES[:4]), actor=as_director)
    with pytest.raises(ServiceError, match="(?i)tricks"):
        play(party, 1, made(tricks=14))
    with pytest.raises(ServiceError):
        play(party, 1, {"contract": {"level": 1, "denomination": "NT"}, "tricks": 7})
    assert not PartyDeal.objects.exists()


def test_a_timed_round_is_over_when_the_table_says_so(as_director):
    party = party_start(party=new_party(as_director, players=NAMES[:4], deals_per_round=None,
                                        minutes_per_round=20), actor=as_director)
    t = table(party, 1)
    ends = party_table_view(table=t)["ends_at"]  # started + 20 minutes, on the club's clock
    assert ends is not None and len(ends) == 5 and ends[2] == ":"
    with pytest.raises(ServiceError, match="(?i)enter the deals you played first"):
        party_round_over(table=t, actor=table_actor(t))
    play(party, 1, made(), made(), made())
    party_round_over(table=t, actor=table_actor(t))
    with pytest.raises(ServiceError, match="(?i)over at this table"):
        play(party, 1, made())
    party = party_round_advance(party=party, actor=as_director)
    assert party.current_round == 2


def test_the_director_may_end_a_round_early(as_director):
    party = party_start(party=new_party(as_director), actor=as_director)
    play(party, 1, made(tricks=8))
    party = party_round_advance(party=party, actor=as_director, force=True)
    assert party.current_round == 2
    # table 2 entered nothing: level, so N-S (Eve & Fay) count as the winners
    assert seat_names(party, 2, 1)["S"] == "Eve"


def test_the_last_round_ends_the_night(as_director):
    party = party_start(party=new_party(as_director, players=NAMES[:4], deals_per_round=1,
                                        rounds=1), actor=as_director)
    play(party, 1, made())
    party = party_round_advance(party=party, actor=as_director)
    assert party.status == Party.Status.FINISHED
    t = table(party, 1)
    with pytest.raises(ServiceError, match="(?i)night is over"):
        party_deal_add(table=t, deal=made(), actor=table_actor(t))
    assert party_progression(party=party, round_number=1) is None


def test_three_hand_tallies_are_each_players_settlement(as_director):
    party = party_start(party=new_party(as_director, game="three-hand", players=NAMES[:6],
                                        deals_per_round=1), actor=as_director)
    assert seat_names(party, 1, 2) == {"A": "Di", "B": "Eve", "C": "Fay"}
    play(party, 1, {"declarer": "B", "contract": {"level": 1, "denomination": "NT"},
                    "tricks": 8})
    play(party, 2, {"declarer": "C", "contract": {"level": 1, "denomination": "NT"},
                    "tricks": 7})
    rows = {r["name"]: r["total"] for r in party_standings(party=party)["rows"]}
    assert rows == {"Ann": -20, "Bob": 40, "Cy": -20, "Di": -10, "Eve": -10, "Fay": 20}
    party = party_round_advance(party=party, actor=as_director)
    # Bob stays at the head table; Cy (bottom, later seat when level) goes to the foot;
    # Fay (top of table 2) moves up into Cy's seat.
    assert seat_names(party, 2, 1) == {"A": "Ann", "B": "Bob", "C": "Fay"}
    assert seat_names(party, 2, 2) == {"A": "Di", "B": "Eve", "C": "Cy"}


def test_whist_deals_take_revokes_by_seat(as_director):
    party = party_start(party=new_party(as_director, game="whist", players=NAMES[:4]),
                        actor=as_director)
    t = table(party, 1)
    party_deal_add(table=t, deal={"tricks_ns": 8, "revoke_penalty": "add"},
                   revokes_by={"E": 1}, actor=table_actor(t))
    here = party_round(party=party)["tables"][0]
    assert here["points"] == {"NS": 5, "EW": 0}  # 2 by tricks + 3 for the revoke


def test_the_tables_phone_says_where_its_players_go(as_director):
    party = party_start(party=new_party(as_director, deals_per_round=1), actor=as_director)
    play(party, 1, made(tricks=8))
    play(party, 2, made(declarer="E", tricks=8))
    view = party_table_view(table=table(party, 1))
    assert {c["name"]: c["table"] for c in view["next"]} == {
        "Ann": 1, "Bob": 1, "Cy": 2, "Di": 2}
    party_round_advance(party=party, actor=as_director)
    view = party_table_view(table=table(party, 2))
    assert view["round"] == 2 and view["next_deal"]["number"] == 1
    assert {c["name"]: c["move"] for c in view["moved"]} == {
        "Eve": "stays", "Fay": "stays", "Gus": "moves up", "Hal": "moves up"}


def test_the_database_holds_one_player_to_a_seat(as_director):
    party = party_start(party=new_party(as_director, players=NAMES[:4]), actor=as_director)
    seat = PartySeat.objects.filter(party=party).first()
    with pytest.raises(IntegrityError):
        PartySeat.objects.create(party=party, round=1, table=seat.table, seat="N",
                                 player=party.players.last())


def test_the_director_cuts_for_who_moves_up_at_a_level_table(as_director):
    party = party_start(party=new_party(as_director), actor=as_director)
    play(party, 1, made(), made(declarer="E"))  # 1NT made by each side: 10 all
    play(party, 2, made(declarer="E", tricks=8), made(declarer="W"))
    head = party_round(party=party)["tables"][0]
    assert head["points"] == {"NS": 10, "EW": 10}
    assert [c["key"] for c in head["level"]] == ["NS", "EW"]
    assert party_progression(party=party, round_number=1)["level"] == [1]
    with pytest.raises(ServiceError, match="(?i)table 2 is not level"):
        party_round_advance(party=party, actor=as_director, level={"2": "NS"})
    with pytest.raises(ServiceError, match="(?i)at table 1 choose Ann & Bob or Cy & Di"):
        party_round_advance(party=party, actor=as_director, level={1: "A"})
    party = party_round_advance(party=party, actor=as_director, level={1: "EW"})
    # Cy & Di won the cut: they stay at the head table; Ann & Bob go to the foot
    assert seat_names(party, 2, 1) == {"N": "Cy", "E": "Di", "S": "Gus", "W": "Hal"}
    assert seat_names(party, 2, 2) == {"N": "Eve", "E": "Fay", "S": "Ann", "W": "Bob"}
    entry = AuditEntry.objects.get(action="party-advance", before={"round": 1})
    assert entry.after["level_chosen"] == {"1": "EW"}
