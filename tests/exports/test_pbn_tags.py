"""PBN's mandatory tag set: every game carries the 15 tags of PBN 2.1 in the export order,
Scoring naming the rule set the scores follow."""

import re
from io import StringIO

import pytest
from django.core.management import call_command

pytestmark = pytest.mark.django_db

# PBN 2.1, the mandatory tag set in its export order.
MANDATORY = ["Event", "Site", "Date", "Board", "West", "North", "East", "South", "Dealer",
             "Vulnerable", "Deal", "Scoring", "Declarer", "Contract", "Result"]


def games(text: str) -> list[list[tuple[str, str]]]:
    """Each game's (tag, value) pairs in the order written."""
    blocks = [re.findall(r'^\[(\w+) "(.*)"\]$', block, re.MULTILINE)
              for block in text.split("\n\n")]
    return [block for block in blocks if block]


def test_every_game_has_the_mandatory_tags_in_order(night):
    out = StringIO()
    call_command("export_results", str(night.event.pk), "--format", "pbn", stdout=out)
    written = games(out.getvalue())
    assert len(written) == 18
    for game in written:
        names = [name for name, _ in game]
        assert [name for name in names if name in MANDATORY] == MANDATORY
        # Nothing else between Deal and Result: the order is PBN's.
        assert names[names.index("Deal"):names.index("Result") + 1] == MANDATORY[10:]
        assert dict(game)["Scoring"] == "american-1913"
