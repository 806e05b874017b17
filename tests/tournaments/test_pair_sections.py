"""The pairs page's picker: each pair to its section, all the moves or none."""

import datetime

import pytest

from tournaments import services
from tournaments.models import AuditEntry, Pair
from tournaments.services import Actor, Forbidden, ServiceError

from .test_sections import Line, two_section_night


def sections_of(event) -> dict[int, str]:
    return dict(Pair.objects.filter(event=event).values_list("number", "section__name"))


def test_each_pair_to_its_section_and_only_the_changes_are_audited(db, as_director):
    event = services.event_create(name="N", date=datetime.date(2026, 11, 23), actor=as_director)
    services.pairs_set(event=event, lines=[Line(n) for n in range(1, 5)], actor=as_director)
    services.section_add(event=event, actor=as_director)
    moves = services.pair_sections_set(event=event, wanted={1: "A", 3: "B", 4: "B"},
                                       actor=as_director)
    assert moves == {"B": [3, 4]}
    assert sections_of(event) == {1: "A", 2: "A", 3: "B", 4: "B"}
    assert AuditEntry.objects.filter(event=event, action="pairs to section").count() == 1
    with pytest.raises(Forbidden):
        services.pair_sections_set(event=event, wanted={1: "B"},
                                   actor=Actor.at_table(event.sections.first(), 1))


def test_a_refused_move_leaves_every_pair_where_it_was(db, as_director):
    event = two_section_night(as_director)  # pairs 1-10 seated in A's movement, 11-20 in B's
    c = services.section_add(event=event, actor=as_director)  # C, no movement
    services.pair_set(event=event, number=21, players=["N21", "S21"], section=c,
                      actor=as_director)
    before = sections_of(event)
    # Pair 21 could go to A (made first), but pair 1 plays in A's movement: nothing moves.
    with pytest.raises(ServiceError, match="movement of another section"):
        services.pair_sections_set(event=event, wanted={21: "A", 1: "C"}, actor=as_director)
    assert sections_of(event) == before and before[21] == "C"
    with pytest.raises(ServiceError, match="no section Q"):
        services.pair_sections_set(event=event, wanted={1: "Q"}, actor=as_director)
