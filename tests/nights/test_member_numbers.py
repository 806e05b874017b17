"""The night file's pairs[].numbers: member numbers carried in and out (docs/night-file.md);
a file without them imports as before."""

import pytest

from tournaments.models import Pair, Player
from tournaments.nightfile import NightFileError, dumps, loads, night_check, night_export


def test_numbers_round_trip_and_an_existing_member_is_linked(night, import_dict):
    known = Player.objects.create(name="Ann Lee", number="1001", first_name="Ann",
                                  last_name="Lee")
    night["pairs"][0]["numbers"] = ["1001", None]
    night["pairs"][1]["numbers"] = ["2002", "2003"]
    event = import_dict(night)
    one = Pair.objects.get(event=event, number=1)
    assert one.player_1 == known and one.player_2.number is None
    two = Pair.objects.get(event=event, number=2)
    assert (two.player_1.number, two.player_2.number) == ("2002", "2003")
    assert two.player_1.name == night["pairs"][1]["players"][0]
    out = loads(dumps(night_export(event)))
    assert out["pairs"][0]["players"][0] == "Ann Lee"  # the member list's name
    assert out["pairs"][0]["numbers"] == ["1001", None]
    assert out["pairs"][1]["numbers"] == ["2002", "2003"]
    assert all("numbers" not in p for p in out["pairs"][2:])
    # Imported again, the same members are used: no new member records.
    before = Player.objects.exclude(number=None).count()
    again = import_dict(out)
    assert Player.objects.exclude(number=None).count() == before
    assert Pair.objects.get(event=again, number=2).player_1 == two.player_1


def test_an_old_file_without_numbers_still_imports_as_visitors(night, import_dict):
    assert all("numbers" not in p for p in night["pairs"])
    night["pairs"][0]["players"][0] = "Table #3"  # a "#" in an old name stays a name
    event = import_dict(night)
    assert not Player.objects.exclude(number=None).exists()
    assert Pair.objects.get(event=event, number=1).player_1.name == "Table #3"
    assert all("numbers" not in p for p in night_export(event)["pairs"])


@pytest.mark.parametrize("numbers, place", [
    (["1001"], "pairs[0].numbers"),
    ([1001, None], "pairs[0].numbers[0]"),
    (["10 01", None], "pairs[0].numbers[0]"),
    (["1001", "1001"], "pairs[0].numbers[1]"),
])
def test_bad_numbers_are_named(night, numbers, place):
    night["pairs"][0]["numbers"] = numbers
    with pytest.raises(NightFileError) as err:
        night_check(night)
    assert err.value.place == place


def test_a_substitutes_number_round_trips(night, import_dict):
    night["pairs"][1]["substitutes"] = [
        {"seat": 2, "name": "Carl Day", "from_round": 2, "number": "3003"},
        {"seat": 1, "name": "Vi Sitor", "from_round": 2}]
    event = import_dict(night)
    assert Player.objects.get(number="3003").name == "Carl Day"
    subs = night_export(event)["pairs"][1]["substitutes"]
    assert {"seat": 2, "name": "Carl Day", "from_round": 2, "number": "3003"} in subs
    assert {"seat": 1, "name": "Vi Sitor", "from_round": 2} in subs


def test_a_bad_substitute_number_is_named(night):
    night["pairs"][1]["substitutes"] = [{"seat": 2, "name": "Carl", "from_round": 2,
                                         "number": 7}]
    with pytest.raises(NightFileError) as err:
        night_check(night)
    assert err.value.place == "pairs[1].substitutes[0].number"
