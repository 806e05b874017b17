"""A table's reads (tournaments/selectors.py: table_code_entry and its kin) make their model
instances without Model.__init__ (selectors._loaded): each must be what the ORM's own read
of the row gives, and a receiver of the init signals must still hear of each."""

import pytest
from django.db.models.signals import post_init

from tournaments import selectors
from tournaments.models import Event, Meeting, Pair, Section, TableCode

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def columns(instance) -> dict:
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


def test_a_table_s_read_gives_the_instances_the_orm_gives(night):
    meeting = night.meeting(1, 1)
    table, entry = selectors.table_code_entry(night.codes[1], 1, meeting.boards[0])
    read = [table, table.section, table.section.event, entry.meeting, entry.meeting.ns_pair,
            entry.meeting.ew_pair]
    orm = [TableCode.objects.get(pk=table.pk), Section.objects.get(pk=table.section_id),
           Event.objects.get(pk=table.section.event_id), Meeting.objects.get(pk=meeting.pk),
           Pair.objects.get(pk=meeting.ns_pair_id), Pair.objects.get(pk=meeting.ew_pair_id)]
    for mine, theirs in zip(read, orm, strict=True):
        assert type(mine) is type(theirs)
        assert columns(mine) == columns(theirs)
        assert (mine._state.adding, mine._state.db) == (False, theirs._state.db)
        assert mine.get_deferred_fields() == set()
        assert mine == theirs
    # Saved back as read, an instance writes the row it came from.
    table.section.event.save()
    assert columns(Event.objects.get(pk=table.section.event_id)) == columns(orm[2]) | {
        "updated_at": table.section.event.updated_at}


def test_a_receiver_of_the_init_signals_still_hears_each_instance(night):
    heard = []

    def hear(sender, instance, **kwargs):
        heard.append((sender, instance.pk))

    meeting = night.meeting(1, 1)
    post_init.connect(hear)
    try:
        table, entry = selectors.table_code_entry(night.codes[1], 1, meeting.boards[0])
    finally:
        post_init.disconnect(hear)
    for instance in (table, table.section, table.section.event, entry.meeting):
        assert (type(instance), instance.pk) in heard
