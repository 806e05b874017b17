"""What the table's write functions read under the event's lock: a table's entry and the
opponents' confirm look at that table's own meetings, never the whole section's.

Each checks, under the lock, the round the table is at (its lowest round not agreed) from
its meetings. Given an index of the meetings' section alone, the planner took it for
that and read every meeting of the section (migration 0022); in a big room, every write
then grew with the room. The plans are the ones PostgreSQL runs, read with auto_explain
(its nested statements, with the rows each step read), on statistics as ANALYZE leaves
them on a live database.
"""

import json

import pytest
from django.db import connection
from rest_framework.test import APIClient

from .helpers import TWO_HEARTS, build_night, key, post, url

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

TABLES = 19  # a Mitchell of 19 tables: 19 rounds, 361 meetings in the section


def _nodes(plan: dict):
    yield plan
    for child in plan.get("Plans", []):
        yield from _nodes(child)


def explained(run) -> tuple[object, list[dict]]:
    """What `run()` gives, and the plans of every statement it sends, nested ones (inside
    the write functions) included, as auto_explain gives them after running each."""
    connection.ensure_connection()
    pg = connection.connection
    notices: list[str] = []

    def heard(diagnostic) -> None:
        notices.append(diagnostic.message_primary or "")

    with connection.cursor() as cursor:
        cursor.execute("LOAD 'auto_explain'")
        cursor.execute("SET auto_explain.log_min_duration = 0; "
                       "SET auto_explain.log_analyze = on; "
                       "SET auto_explain.log_timing = off; "
                       "SET auto_explain.log_nested_statements = on; "
                       "SET auto_explain.log_format = 'json'; "
                       "SET client_min_messages = log")
    pg.add_notice_handler(heard)
    try:
        answer = run()
    finally:
        pg.remove_notice_handler(heard)
        with connection.cursor() as cursor:
            cursor.execute("SET auto_explain.log_min_duration = -1; "
                           "RESET client_min_messages")
    return answer, [json.loads(n[n.index("{"):]) for n in notices if '"Query Text"' in n]


def meetings_read(plans: list[dict]) -> list[tuple[str, int]]:
    """Each step that read meetings: (its statement's first line, the rows it read)."""
    read = []
    for plan in plans:
        query = plan["Query Text"].strip().splitlines()[0]
        for node in _nodes(plan["Plan"]):
            if node.get("Relation Name") == "tournaments_meeting":
                rows = (node["Actual Rows"] + node.get("Rows Removed by Filter", 0)
                        + node.get("Rows Removed by Index Recheck", 0)) * node["Actual Loops"]
                read.append((query, rows))
    return read


def test_a_tables_entry_and_confirm_read_only_its_own_meetings(director):
    night = build_night(director, tables=TABLES)
    for name in ("Monday duplicate", "Wednesday duplicate"):  # the club's other nights
        build_night(director, name=name, tables=TABLES)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE tournaments_meeting")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Table {night.codes[5]}")
    assert client.get("/api/table/").status_code == 200  # the hot path's device
    board = night.meeting(5, 1).boards[0]
    entered, enter_plans = explained(lambda: post(
        client, url(night.event, "results/"), {"board": board, "round": 1, "result": TWO_HEARTS},
        idem=key()))
    assert entered.status_code == 201, entered.json()
    confirmed, confirm_plans = explained(lambda: post(
        client, url(night.event, f"results/{entered.json()['id']}/confirm/"), {"by": "E-W"},
        idem=key()))
    assert confirmed.status_code == 200, confirmed.json()
    for function, plans in (("tournaments_table_enter", enter_plans),
                            ("tournaments_table_confirm", confirm_plans)):
        # The hot path's own write, and its checks under the lock, were explained.
        assert any(function in p["Query Text"] for p in plans), [p["Query Text"] for p in plans]
        read = meetings_read(plans)
        assert read, f"{function}: no step read the meetings"
        assert all(rows <= TABLES for _, rows in read), read

