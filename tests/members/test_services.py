"""The member services: pairs by member number, merging two records of one person."""

from types import SimpleNamespace

import pytest

from tests.factories import make_pairs_event
from tournaments import selectors, services
from tournaments.models import AuditEntry, Pair, Player, Substitute
from tournaments.services import Actor, ServiceError

pytestmark = pytest.mark.django_db


def _lines(*pairs):
    return [SimpleNamespace(number=n, players=list(p), team=None)
            for n, p in enumerate(pairs, start=1)]


def test_pairs_take_members_by_number_name_or_new(members, as_director):
    event = make_pairs_event(pairs=0, boards=1)
    services.pairs_set(event=event, actor=as_director, lines=_lines(
        ["1001", "Bob Ray #1002"], ["Vic Visitor", "Nell New #2001"]))
    one, two = Pair.objects.filter(event=event).order_by("number")
    assert one.player_1 == Player.objects.get(number="1001")
    assert one.player_2 == Player.objects.get(number="1002")
    assert two.player_1.number is None and two.player_1.name == "Vic Visitor"
    new = Player.objects.get(number="2001")
    assert (new.name, new.first_name, new.last_name) == ("Nell New", "Nell", "New")
    assert two.player_2 == new
    # The textarea writes members with their number: saving it again changes nothing.
    text = selectors.pairs_text(event)
    assert text == "Ann Lee #1001 & Bob Ray #1002\nVic Visitor & Nell New #2001"
    services.pairs_set(event=event, actor=as_director, lines=_lines(
        *[line.split(" & ") for line in text.splitlines()]))
    assert Player.objects.count() == 5


def test_names_alone_still_work_and_rename_a_visitor(as_director):
    event = make_pairs_event(pairs=0, boards=1)
    services.pairs_set(event=event, actor=as_director,
                       lines=_lines(["Ann Lee", "Bob Ray"], ["Cy Dee", "Di Ek"]))
    pair = Pair.objects.get(event=event, number=1)
    visitor = pair.player_1
    services.pairs_set(event=event, actor=as_director,
                       lines=_lines(["Anne Lee", "Bob Ray"], ["Cy Dee", "Di Ek"]))
    pair.refresh_from_db()
    assert pair.player_1 == visitor and visitor.__class__.objects.get(
        pk=visitor.pk).name == "Anne Lee"


def test_an_unknown_number_alone_says_what_to_write(as_director):
    event = make_pairs_event(pairs=0, boards=1)
    with pytest.raises(ServiceError, match='like "Ann Lee #4242"'):
        services.pairs_set(event=event, actor=as_director,
                           lines=_lines(["4242", "Bob"], ["Cy", "Di"]))
    assert not Pair.objects.filter(event=event).exists()


def test_one_member_cannot_play_twice(members, as_director):
    event = make_pairs_event(pairs=0, boards=1)
    with pytest.raises(ServiceError, match=r"Ann Lee \(member 1001\) is in pairs 1 and 2: a "
                       "member plays in one pair of a night"):
        services.pairs_set(event=event, actor=as_director,
                           lines=_lines(["1001", "Bob"], ["Cy", "1001"]))
    assert not Pair.objects.filter(event=event).exists()


@pytest.mark.parametrize("again", [
    (["1001", "1003"], ["1002", "Dan"]),  # partners swapped
    (["1002", "Dan"], ["1001", "Bob"]),  # the lines swapped
    (["1002", "Dan"],),  # the first pair did not come: the list taken up
])
def test_a_list_saved_again_may_move_a_member_to_another_line(members, as_director, again):
    """Saved again with a member on another line, the list was refused ("plays in
    another pair already"), checked line by line against the rows not yet rewritten."""
    event = make_pairs_event(pairs=0, boards=1)
    services.pairs_set(event=event, actor=as_director,
                       lines=_lines(["1001", "Bob"], ["1002", "Dan"]))
    services.pairs_set(event=event, actor=as_director, lines=_lines(*again))
    stored = [[p.player_1.name, p.player_2.name]
              for p in Pair.objects.filter(event=event).order_by("number")]
    assert len(stored) == len(again)
    assert [pair[0] for pair in stored] == [
        Player.objects.get(number=line[0]).name for line in again]


def test_merge_moves_pairs_and_substitutes_and_audits_each_event(members, as_director):
    keep = Player.objects.get(number="1001")
    drop = Player.objects.create(name="A. Lee", email="al@example.org")
    first = make_pairs_event(pairs=0, boards=1, name="Monday")
    second = make_pairs_event(pairs=0, boards=1, name="Tuesday")
    services.pairs_set(event=first, actor=as_director,
                       lines=_lines(["Cy", "Di"], ["Ed", "Flo"]))
    Pair.objects.filter(event=first, number=1).update(player_1=drop)
    services.pairs_set(event=second, actor=as_director,
                       lines=_lines(["1001", "Bob"], ["Ed", "Flo"]))
    sub = Substitute.objects.create(pair=Pair.objects.get(event=second, number=2), seat=1,
                                    player=drop, from_round=2)
    services.members_merge(keep=keep, drop=drop, actor=as_director,
                           reason="the same person, written two ways")
    assert not Player.objects.filter(pk=drop.pk).exists()
    assert Pair.objects.get(event=first, number=1).player_1 == keep
    sub.refresh_from_db()
    assert sub.player == keep
    keep.refresh_from_db()
    assert keep.email == "ann@example.org"  # keep's own e-mail wins
    for event in (first, second):
        entry = AuditEntry.objects.get(event=event, action="merge players")
        assert entry.before["drop"]["name"] == "A. Lee"
        assert entry.after["player"]["number"] == "1001"
        assert entry.reason == "the same person, written two ways"


def test_merge_refuses_two_numbers_one_pair_and_no_reason(members, as_director):
    ann, bob = Player.objects.get(number="1001"), Player.objects.get(number="1002")
    with pytest.raises(ServiceError, match="Both records have a member number"):
        services.members_merge(keep=ann, drop=bob, actor=as_director, reason="same")
    with pytest.raises(ServiceError, match="Say why"):
        services.members_merge(keep=ann, drop=bob, actor=as_director, reason=" ")
    visitor = Player.objects.create(name="Ann L")
    event = make_pairs_event(pairs=0, boards=1)
    services.pairs_set(event=event, actor=as_director,
                       lines=_lines(["1001", "Ann L"], ["Ed", "Flo"]))
    visitor = Pair.objects.get(event=event, number=1).player_2
    with pytest.raises(ServiceError, match="two people"):
        services.members_merge(keep=ann, drop=visitor, actor=as_director, reason="same")
    assert Player.objects.filter(pk=visitor.pk).exists()


def test_merge_refuses_two_pairs_of_one_night(members, as_director):
    """A visitor in pair 2 merged into the member of pair 1 of the same night would put
    one person in two pairs, and count that night twice in every season."""
    ann = Player.objects.get(number="1001")
    event = make_pairs_event(pairs=0, boards=1)
    services.pairs_set(event=event, actor=as_director,
                       lines=_lines(["1001", "Bob Ray #1002"], ["Ann L", "Flo"]))
    visitor = Pair.objects.get(event=event, number=2).player_1
    with pytest.raises(ServiceError, match=r"Ann L plays in pair 2 and Ann Lee in pair 1 of "
                                           r".*: they are two people"):
        services.members_merge(keep=ann, drop=visitor, actor=as_director, reason="same")
    with pytest.raises(ServiceError, match="they are two people"):
        services.members_merge(keep=visitor, drop=ann, actor=as_director, reason="same")
    assert Pair.objects.get(event=event, number=2).player_1 == visitor
    assert not AuditEntry.objects.filter(event=event, action="merge players").exists()


def test_merge_gives_keep_the_number_of_drop(members, as_director):
    visitor = Player.objects.create(name="Cora Day")
    member = Player.objects.get(number="1003")
    kept = services.members_merge(keep=visitor, drop=member, actor=as_director,
                                  reason="same")
    assert kept.number == "1003"


def test_only_the_director_changes_the_list(members):
    table = Actor(label="table 1", table=1, section_id=1)
    with pytest.raises(services.Forbidden):
        services.members_import(text="number,first_name,last_name,email\n", actor=table)


def test_member_save_refuses_a_taken_number(members, as_director):
    with pytest.raises(ServiceError, match="Ann Lee's already"):
        services.member_save(number="1001", first_name="X", last_name="Y", actor=as_director)
    bob = Player.objects.get(number="1002")
    services.member_save(player=bob, number="1002", first_name="Robert", last_name="Ray",
                         email="bob@example.org", active=False, actor=as_director)
    bob.refresh_from_db()
    assert (bob.name, bob.active) == ("Robert Ray", False)


def test_a_substitute_may_be_a_member_by_number(members, as_director):
    event = make_pairs_event(pairs=0, boards=1)
    services.pairs_set(event=event, actor=as_director,
                       lines=_lines(["Cy", "Di"], ["Ed", "Flo"]))
    sub = services.substitute_set(event=event, number=1, seat=2, player="1003",
                                  from_round=2, actor=as_director, reason="Di went home")
    assert sub.player == Player.objects.get(number="1003")
    entry = AuditEntry.objects.filter(event=event, action="substitute").first()
    assert entry.after["player"] == "Cora Day"
    visitor = services.substitute_set(event=event, number=2, seat=1, player="Gil Hay",
                                      from_round=2, actor=as_director, reason="late")
    assert visitor.player.number is None


@pytest.mark.parametrize("how", ["save", "merge", "import"])
def test_a_member_renamed_shows_on_the_standings_a_process_has_cached(transactional_db, how):
    """The standings keep the pairs' names until Event.roster_seq moves: renaming,
    merging or importing a member had left the old name on every night already shown."""
    from tests.reports.night import build_night, make_director
    from tournaments.standings import standings

    director = make_director()
    actor = Actor.director(director)
    night = build_night(director)
    ann = Pair.objects.get(event=night.event, number=1).player_1
    assert standings(night.event)["rankings"][0]["rows"]  # cached in this process
    if how == "save":
        services.member_save(player=ann, number="2001", first_name="Ann", last_name="Lee-Hart",
                             actor=actor)
    elif how == "merge":
        keep = services.member_save(number="2001", first_name="Ann", last_name="Lee-Hart",
                                    actor=actor)
        services.members_merge(keep=keep, drop=ann, actor=actor, reason="one person")
    else:
        services.member_save(player=ann, number="2001", first_name="Ann", last_name="Lee",
                             actor=actor)
        services.members_import(text="number,first_name,last_name,email\n"
                                     "2001,Ann,Lee-Hart,\n", actor=actor)
    rows = [r for ranking in standings(night.event)["rankings"] for r in ranking["rows"]
            if r["pair"] == 1]
    assert rows[0]["names"][0] == "Ann Lee-Hart"


@pytest.mark.parametrize(("name", "parts"), [
    ("Cornelia Van Dusen", ("Cornelia", "Van Dusen")),
    ("Ludwig van Beethoven", ("Ludwig", "van Beethoven")),
    ("Walter de la Mare", ("Walter", "de la Mare")),
    ("Mary Ann Smith", ("Mary Ann", "Smith")),
    ("Ann Lee", ("Ann", "Lee")),
    ("Cher", ("", "Cher")),
])
def test_a_name_written_whole_splits_before_its_surname(name, parts):
    """A night file's "Cornelia Van Dusen #230" had made a member Cornelia Van / Dusen,
    sorted under D."""
    from tournaments.services.members import name_parts

    assert name_parts(name) == parts


def test_a_new_member_from_a_pairs_line_keeps_a_surname_of_two_words(as_director):
    player = services.player_for("Cornelia Van Dusen #230")
    assert (player.first_name, player.last_name, player.number) == ("Cornelia", "Van Dusen",
                                                                    "230")
