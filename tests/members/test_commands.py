"""manage.py import_members and export_members."""

import pytest
from django.core.management import CommandError, call_command

from tournaments.models import Player

from .conftest import GOOD

pytestmark = pytest.mark.django_db


def _file(tmp_path, text, name="members.csv"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_a_good_file_adds_every_member(tmp_path, capsys):
    call_command("import_members", _file(tmp_path, GOOD))
    assert capsys.readouterr().out.strip() == "3 members added, 0 updated"
    ann = Player.objects.get(number="1001")
    assert (ann.name, ann.first_name, ann.last_name, ann.email, ann.active) == (
        "Ann Lee", "Ann", "Lee", "ann@example.org", True)
    assert Player.objects.get(number="1002").email == ""


def test_a_bad_row_is_named_by_its_line_and_nothing_is_written(tmp_path):
    bad = GOOD + "1004,Dan,Fox,not-an-address\n1005,Eve,Hill,\n"
    with pytest.raises(CommandError) as err:
        call_command("import_members", _file(tmp_path, bad))
    assert str(err.value).startswith("Line 5:")
    assert "not-an-address" in str(err.value)
    assert not Player.objects.exists()


@pytest.mark.parametrize("row, words", [
    ("1001,Dup,Licate,\n", "Line 5: member number 1001 is on line 2 already"),
    ("10 01,Sp,Ace,\n", "Line 5: a member number"),
    (",No,Number,\n", "Line 5: a member number"),
    ("1009,,,\n", "Line 5: member 1009 needs a name"),
    ("1009,Too,Many,a@b.org,x\n", "Line 5: a row has 4 columns"),
    ("1009,Too,Few\n", "Line 5: a row has 4 columns"),
])
def test_each_kind_of_bad_row(tmp_path, row, words):
    with pytest.raises(CommandError, match=words):
        call_command("import_members", _file(tmp_path, GOOD + row))
    assert not Player.objects.exists()


def test_a_wrong_header_is_line_one(tmp_path):
    with pytest.raises(CommandError, match="Line 1: the header"):
        call_command("import_members", _file(tmp_path, "num,name\n1,Ann\n"))


def test_reimport_updates_by_number_and_sets_active(tmp_path, capsys):
    call_command("import_members", _file(tmp_path, GOOD))
    Player.objects.filter(number="1002").update(active=False)
    again = ("number,first_name,last_name,email\n"
             "1001,Ann,Lee-Ross,ann.ross@example.org\n"
             "1002,Bob,Ray,\n"
             "1004,Dan,Fox,\n")
    capsys.readouterr()
    call_command("import_members", _file(tmp_path, again, "again.csv"))
    assert capsys.readouterr().out.strip() == "1 member added, 2 updated"
    ann = Player.objects.get(number="1001")
    assert (ann.name, ann.email) == ("Ann Lee-Ross", "ann.ross@example.org")
    assert Player.objects.get(number="1002").active
    assert Player.objects.filter(number__isnull=False).count() == 4


def test_export_writes_the_same_columns_plus_active(tmp_path, capsys):
    call_command("import_members", _file(tmp_path, GOOD))
    Player.objects.filter(number="1002").update(active=False)
    Player.objects.create(name="A Visitor")
    capsys.readouterr()
    call_command("export_members")
    out = capsys.readouterr().out
    assert out.splitlines() == [
        "number,first_name,last_name,email,active",
        "1003,Cora,Day,cora@example.org,yes",
        "1001,Ann,Lee,ann@example.org,yes",
        "1002,Bob,Ray,,no",
    ]
    # The export reads back in.
    call_command("import_members", _file(tmp_path, "\n".join(
        line.rsplit(",", 1)[0] for line in out.splitlines()) + "\n", "back.csv"))
