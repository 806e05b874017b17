"""A merge that moves a party night's place says so in that night's audit.

A merge wrote an audit entry on each event the record dropped had played in, naming both
records; a party night where it had a place had its link moved in silence (and a person
who had played only at party nights left no trace of the merge at all). Each such night
now gets its own entry, as an event does (decision 122; AuditEntry belongs to an event or
a party night, decision 143).
"""

import datetime

import pytest

from tournaments import services
from tournaments.models import AuditEntry, Party, PartyPlayer, Player

pytestmark = pytest.mark.django_db
WHY = "one man, his name spelt two ways"


def party(as_director, name, players, day=1):
    return services.party_create(name=name, date=datetime.date(2026, 12, day), game="whist",
                                 rounds=2, deals_per_round=4, players=players,
                                 actor=as_director)


def test_each_party_night_of_the_record_dropped_gets_its_own_entry(as_director):
    visitor = Player.objects.create(name="Amos Pell")
    member = Player.objects.create(name="Amos Pel", number="122")
    drive = party(as_director, "Whist drive", ["Cy Dow", {"member": visitor.pk}, "Di Eck",
                                               "Ed Fox"])
    social = party(as_director, "Social", [{"member": visitor.pk}, "Cy Dow", "Di Eck",
                                           "Ed Fox"], day=8)
    other = party(as_director, "Members only", [{"member": member.pk}, "Cy Dow", "Di Eck",
                                                "Ed Fox"], day=15)
    seqs = dict(Party.objects.values_list("pk", "seq"))
    services.members_merge(keep=member, drop=visitor, actor=as_director, reason=WHY)
    for night, place in ((drive, 2), (social, 1)):
        moved = PartyPlayer.objects.get(party=night, number=place)
        assert moved.member == member and moved.name == "Amos Pell"  # the name as listed
        entry = AuditEntry.objects.get(party=night, action="merge players")
        assert entry.event is None and entry.reason == WHY
        assert entry.actor_label == as_director.label
        assert entry.before == {"keep": {"id": member.pk, "name": "Amos Pel", "number": "122"},
                                "drop": {"id": visitor.pk, "name": "Amos Pell",
                                         "number": None}}
        assert entry.after == {"player": {"id": member.pk, "name": "Amos Pel",
                                          "number": "122"}, "party_players": [place]}
        # Locked as its own writes lock it: its change number moves (the live pages).
        assert Party.objects.get(pk=night.pk).seq == seqs[night.pk] + 1
    # A night where only the record kept plays is not touched.
    assert not AuditEntry.objects.filter(party=other, action="merge players").exists()
    assert Party.objects.get(pk=other.pk).seq == seqs[other.pk]


def test_a_merge_with_no_party_place_writes_no_party_entry(as_director):
    visitor = Player.objects.create(name="Amos Pell")
    member = Player.objects.create(name="Amos Pel", number="122")
    night = party(as_director, "Whist drive", [{"member": member.pk}, "Cy Dow", "Di Eck",
                                               "Ed Fox"])
    services.members_merge(keep=member, drop=visitor, actor=as_director, reason=WHY)
    assert not AuditEntry.objects.filter(party=night, action="merge players").exists()


def test_a_refused_merge_leaves_the_party_nights_as_they_were(as_director):
    """Both records at one party night are two people: nothing moves, nothing is audited."""
    visitor = Player.objects.create(name="Amos Pell")
    member = Player.objects.create(name="Amos Pel", number="122")
    night = party(as_director, "Whist drive", [{"member": member.pk},
                                               {"member": visitor.pk}, "Di Eck", "Ed Fox"])
    with pytest.raises(services.ServiceError, match="they are two people"):
        services.members_merge(keep=member, drop=visitor, actor=as_director, reason=WHY)
    assert PartyPlayer.objects.get(party=night, number=2).member == visitor
    assert not AuditEntry.objects.filter(party=night, action="merge players").exists()
