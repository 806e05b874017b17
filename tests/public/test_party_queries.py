"""A party night's pages cost a fixed handful of queries, however many tables play."""

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import DirectorFactory
from tournaments.services import (
    Actor,
    party_create,
    party_deal_add,
    party_round_advance,
    party_start,
    table_actor,
)

pytestmark = pytest.mark.django_db

# Measured: the party, its tables, the seats with their players, the deals, the tables'
# rounds (and the players for the ranking); the table's phone reads the round and the
# progression (each the night's four reads) and the table by its code.
LIMITS = {"standings": 6, "fragment": 6, "live": 1, "phone": 9}


def night(tables: int):
    actor = Actor.director(DirectorFactory())
    party = party_create(name=f"{tables} tables", date=datetime.date(2026, 12, 1),
                         game="auction", rounds=3, deals_per_round=2, actor=actor,
                         players=[f"Player {i}" for i in range(1, 4 * tables + 1)])
    party = party_start(party=party, actor=actor)
    for table in party.tables.all():
        for tricks in (8, 6):
            party_deal_add(table=table, actor=table_actor(table), deal={
                "contract": {"level": 1, "denomination": "NT", "declarer": "N"},
                "tricks": tricks})
    party = party_round_advance(party=party, actor=actor)
    table = party.tables.get(number=1)
    party_deal_add(table=table, actor=table_actor(table), deal={
        "contract": {"level": 1, "denomination": "S", "declarer": "E"}, "tricks": 7})
    return {"standings": f"/party/{party.pk}/", "fragment": f"/party/{party.pk}/?fragment=1",
            "live": f"/party/{party.pk}/live/", "phone": f"/party/t/{table.code}/"}


def counts(client, paths) -> dict[str, int]:
    found = {}
    for name, path in paths.items():
        with CaptureQueriesContext(connection) as queries:
            assert client.get(path).status_code == 200
        found[name] = len(queries)
    return found


def test_the_pages_stay_under_their_budgets_and_do_not_grow_with_the_tables(client):
    small = counts(client, night(2))
    big = counts(client, night(6))
    assert small == big, (small, big)
    assert all(small[name] <= limit for name, limit in LIMITS.items()), small
