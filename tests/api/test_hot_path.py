"""The table's hot path (tournaments/api/hot.py): a new result from a device that has
opened its table is answered in two statements, before DRF's dispatch, with the very
answer the DRF view gives; anything else goes the full road and is answered as before."""

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tournaments.models import AuditEntry, Event, IdempotencyRecord, Result

from .helpers import THREE_HEARTS, TWO_HEARTS, key, post, url
from .test_unusual import NINE_REVOKES

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

WRITE = "SELECT tournaments_table_enter("
# Headers every answer has its own of.
OWN = {"Date", "Content-Length"}


def opened(client):
    assert client.get("/api/table/").status_code == 200
    return client


def road(queries) -> str:
    sqls = [q["sql"] for q in queries.captured_queries]
    if sqls and sqls[0] == "BEGIN":
        return "full"
    return "hot" if any(s.startswith(WRITE) for s in sqls) and len(sqls) == 2 else "?"


def send(client, night, body, idem=None):
    with CaptureQueriesContext(connection) as queries:
        response = post(client, url(night.event, "results/"), body, idem=idem or key())
    return response, road(queries)


def test_the_hot_answer_is_the_full_roads_answer(night, table_client):
    """Board A from a device that has not opened its table yet (the full road), board B
    from the same device after (the hot path): the same status, the same headers, the same
    JSON keys in the same order, the same values but for what differs between the boards."""
    client, meeting = table_client(2), night.meeting(2, 1)
    a, b = meeting.boards[:2]
    full, first = send(client, night, {"board": a, "round": 1, "result": TWO_HEARTS})
    idem = key()
    hot, second = send(client, night, {"board": b, "round": 1, "result": TWO_HEARTS}, idem)
    assert (first, second) == ("full", "hot")
    assert full.status_code == hot.status_code == 201
    assert {k: v for k, v in full.items() if k not in OWN} == {
        k: v for k, v in hot.items() if k not in OWN}
    assert list(full.json()) == list(hot.json())
    differ = {"id", "board", "seq", "updated_at", "ns_score", "ew_score", "ns_columns",
              "ew_columns"}
    assert {k: v for k, v in full.json().items() if k not in differ} == {
        k: v for k, v in hot.json().items() if k not in differ}
    # Each is what a read of its stored row gives.
    for response in (full, hot):
        stored = client.get(url(night.event, f"results/{response.json()['id']}/")).json()
        assert stored == response.json()
    # The answer kept for a resend is the one sent, in JSON's own types.
    record = IdempotencyRecord.objects.get(key=idem)
    assert (record.status_code, record.response) == (201, hot.json())


@pytest.mark.parametrize("policies", [
    {"CONTENT_SECURITY_POLICY_REPORT_ONLY": {"DIRECTIVES": {"default-src": ["'none'"]}}},
    {"CONTENT_SECURITY_POLICY": {"DIRECTIVES": {"default-src": ["'self'"]},
                                 "EXCLUDE_URL_PREFIXES": ["/api/events/"]}},
])
def test_the_hot_answer_has_the_content_security_policy_the_middleware_gives(
        night, table_client, settings, policies):
    """The hot path answers ahead of django-csp's middleware and gives its answers the
    headers that middleware would: a report-only policy too, none under an excluded
    prefix."""
    for name, value in policies.items():
        setattr(settings, name, value)
    client, meeting = table_client(2), night.meeting(2, 1)
    a, b = meeting.boards[:2]
    full, first = send(client, night, {"board": a, "round": 1, "result": TWO_HEARTS})
    hot, second = send(client, night, {"board": b, "round": 1, "result": TWO_HEARTS})
    assert (first, second) == ("full", "hot")
    csp = ("Content-Security-Policy", "Content-Security-Policy-Report-Only")
    assert {h: full.get(h) for h in csp} == {h: hot.get(h) for h in csp}
    assert ("Content-Security-Policy-Report-Only" in hot) == (
        "CONTENT_SECURITY_POLICY_REPORT_ONLY" in policies)
    assert ("Content-Security-Policy" in hot) == ("CONTENT_SECURITY_POLICY" not in policies)


def test_a_request_first_sent_on_one_road_is_replayed_on_the_other(night, table_client):
    """Both roads hash a request alike: the resend of a request first answered on the full
    road is replayed on the hot path, and the other way round, each its first answer."""
    client, meeting = table_client(2), night.meeting(2, 1)
    a, b = meeting.boards[:2]
    body_a, idem_a = {"board": a, "round": 1, "result": TWO_HEARTS}, key()
    first, first_road = send(client, night, body_a, idem_a)
    again, again_road = send(client, night, dict(reversed(list(body_a.items()))), idem_a)
    assert (first_road, again_road) == ("full", "hot")
    assert (again.status_code, again.json()) == (first.status_code, first.json())
    assert again["Idempotent-Replayed"] == "true"

    body_b, idem_b = {"board": b, "round": 1, "result": TWO_HEARTS}, key()
    first_b, road_b = send(client, night, body_b, idem_b)
    elsewhere = table_client(2)
    elsewhere.defaults["REMOTE_ADDR"] = "10.0.0.9"  # a device that has not opened it
    again_b, again_road_b = send(elsewhere, night, body_b, idem_b)
    assert (road_b, again_road_b) == ("hot", "full")
    assert (again_b.status_code, again_b.json()) == (first_b.status_code, first_b.json())
    assert again_b["Idempotent-Replayed"] == "true"
    assert Result.objects.count() == 2


def test_another_request_under_a_used_key_is_refused_as_before(night, table_client):
    client, meeting = opened(table_client(2)), night.meeting(2, 1)
    a, b = meeting.boards[:2]
    idem = key()
    assert send(client, night, {"board": a, "round": 1, "result": TWO_HEARTS}, idem)[0] \
        .status_code == 201
    other = send(client, night, {"board": b, "round": 1, "result": TWO_HEARTS}, idem)[0]
    assert other.status_code == 422 and other.json()["field"] == "Idempotency-Key"
    assert Result.objects.count() == 1


@pytest.mark.parametrize(("case", "status", "field"), [
    ("conflict", 409, None),
    ("unusual", 422, "as_entered"),
    ("later round", 403, "round"),
    ("late flag", 403, None),
    ("no such round", 400, "round"),
    ("bad contract", 400, "result.contract.level"),
    ("not json", 415, None),
    ("no key", 400, "Idempotency-Key"),
])
def test_what_is_not_the_common_case_is_answered_by_the_full_road(
        night, table_client, case, status, field):
    """A device that has opened its table, sending what the hot path does not answer:
    nothing is written on the way, and the DRF view answers as it always has."""
    client, meeting = opened(table_client(2)), night.meeting(2, 1)
    board = meeting.boards[0]
    body = {"board": board, "round": 1, "result": TWO_HEARTS}
    if case == "conflict":
        assert send(client, night, body)[0].status_code == 201
        body = {**body, "result": THREE_HEARTS}
    elif case == "unusual":
        body = {**body, "result": NINE_REVOKES}
    elif case == "later round":
        body = {"board": night.meeting(2, 2).boards[0], "round": 2, "result": TWO_HEARTS}
    elif case == "late flag":
        body = {**body, "late_play": True}
    elif case == "no such round":
        body = {**body, "round": 9}
    elif case == "bad contract":
        body = {**body, "result": {**TWO_HEARTS, "contract": {**TWO_HEARTS["contract"],
                                                               "level": 8}}}
    results, seq = Result.objects.count(), Event.objects.get(pk=night.event.pk).seq
    with CaptureQueriesContext(connection) as queries:
        if case == "not json":
            response = client.post(url(night.event, "results/"), "board=1",
                                   content_type="application/x-www-form-urlencoded",
                                   HTTP_IDEMPOTENCY_KEY=key())
        else:
            response = post(client, url(night.event, "results/"), body,
                            idem=None if case == "no key" else key())
    assert response.status_code == status, response.content
    if field is not None:
        assert response.json()["field"] == field
    assert not any(q["sql"].startswith(WRITE) and "RETURNING" in q["sql"]
                   for q in queries.captured_queries)
    assert Result.objects.count() == results
    assert Event.objects.get(pk=night.event.pk).seq == seq
    assert not IdempotencyRecord.objects.filter(status_code__isnull=True).exists()


@pytest.mark.parametrize(("accept", "expected"), [
    ("application/json", "hot"), ("*/*", "hot"), ("text/html", "full")])
def test_the_accept_header_is_the_one_drf_negotiates(night, table_client, accept, expected):
    """The hot path answers only what DRF's content negotiation would answer with JSON;
    any other Accept goes the full road, which answers as it always has."""
    client, meeting = opened(table_client(2)), night.meeting(2, 1)
    body = {"board": meeting.boards[0], "round": 1, "result": TWO_HEARTS}
    with CaptureQueriesContext(connection) as queries:
        response = client.post(url(night.event, "results/"), body, format="json",
                               HTTP_IDEMPOTENCY_KEY=key(), HTTP_ACCEPT=accept)
    assert road(queries) == expected
    assert response.status_code == 201 and Result.objects.count() == 1
    assert response["Content-Type"].startswith(
        "application/json" if expected == "hot" else "text/html")


def test_another_events_code_is_refused_as_before(night, table_client, other_night):
    client = opened(table_client(1, code=other_night.codes[1]))
    response = post(client, url(night.event, "results/"),
                    {"board": 1, "round": 1, "result": TWO_HEARTS}, idem=key())
    # The event is not published: to another event's table it does not exist.
    assert response.status_code == 404
    assert not Result.objects.filter(event=night.event).exists()



def test_a_confirm_of_another_events_result_is_refused_as_before(night, table_client,
                                                                   other_night):
    """The confirm's read finds the result by its id alone: another event's result is not
    this event's, and the full road answers as it always has, with nothing written."""
    theirs = opened(table_client(1, code=other_night.codes[1]))
    board = other_night.meeting(1, 1).boards[0]
    entered = post(theirs, url(other_night.event, "results/"),
                   {"board": board, "round": 1, "result": TWO_HEARTS}, idem=key())
    assert entered.status_code == 201
    ours = opened(table_client(1))
    with CaptureQueriesContext(connection) as queries:
        response = post(ours, url(night.event, f"results/{entered.json()['id']}/confirm/"),
                        {"by": "E-W"}, idem=key())
    assert response.status_code == 404
    assert not any(q["sql"].startswith(CONFIRM) for q in queries.captured_queries)
    assert Result.objects.get(pk=entered.json()["id"]).status == "entered"


CONFIRM = "SELECT tournaments_table_confirm("


def test_the_opponents_confirm_is_two_statements_with_the_full_roads_answer(night,
                                                                           table_client):
    """The confirm of board A on the full road (another address, not yet held), of board B
    on the hot path: the same answer but for the board; each stored as the full road
    stores it (status, who, change number, audit, idempotency record); and replays."""
    client, meeting = opened(table_client(2)), night.meeting(2, 1)
    ids = [send(client, night, {"board": b, "round": 1, "result": TWO_HEARTS})[0].json()["id"]
           for b in meeting.boards[:2]]
    elsewhere = table_client(2)
    elsewhere.defaults["REMOTE_ADDR"] = "10.0.0.9"

    def confirm(who, result_id, idem):
        with CaptureQueriesContext(connection) as queries:
            response = post(who, url(night.event, f"results/{result_id}/confirm/"),
                            {"by": "E-W"}, idem=idem)
        return response, [q["sql"] for q in queries.captured_queries]

    seq = Event.objects.get(pk=night.event.pk).seq
    full, full_sqls = confirm(elsewhere, ids[0], key())
    idem = key()
    hot, hot_sqls = confirm(client, ids[1], idem)
    assert full_sqls[0] == "BEGIN" and len(hot_sqls) == 2 and hot_sqls[1].startswith(CONFIRM)
    assert full.status_code == hot.status_code == 200
    assert {k: v for k, v in full.items() if k not in OWN} == {
        k: v for k, v in hot.items() if k not in OWN}
    differ = {"id", "board", "seq", "updated_at", "ns_score", "ew_score", "ns_columns",
              "ew_columns"}
    assert {k: v for k, v in full.json().items() if k not in differ} == {
        k: v for k, v in hot.json().items() if k not in differ}
    stored = Result.objects.get(pk=ids[1])
    assert (stored.status, stored.confirmed_by, stored.seq) == ("confirmed", "E-W", seq + 2)
    assert hot.json() == client.get(url(night.event, f"results/{ids[1]}/")).json()
    audits = list(AuditEntry.objects.filter(action="confirm").order_by("pk"))
    assert [(a.result_id, a.actor_label) for a in audits] == [(ids[0], "table 2"),
                                                              (ids[1], "table 2")]
    assert audits[1].before == {**audits[1].after, "status": "entered", "confirmed_by": ""}
    assert audits[1].after["status"] == "confirmed" and audits[1].at == stored.updated_at
    record = IdempotencyRecord.objects.get(key=idem)
    assert (record.status_code, record.response) == (200, hot.json())
    again, again_sqls = confirm(client, ids[1], idem)
    assert (again.status_code, again.json()) == (200, hot.json())
    assert again["Idempotent-Replayed"] == "true" and len(again_sqls) == 2
    assert Event.objects.get(pk=night.event.pk).seq == seq + 2


def test_a_confirm_of_a_result_changed_since_it_was_shown_is_a_conflict(night, table_client):
    """The opponents confirm only what they were shown: given the `version` they saw, a
    result the other phone changed since is refused with a 409 on the full road (the hot
    path leaves it there), and the version they now see is confirmed on the hot path."""
    client, meeting = opened(table_client(2)), night.meeting(2, 1)
    entered = send(client, night, {"board": meeting.boards[0], "round": 1,
                                   "result": TWO_HEARTS})[0].json()
    address = url(night.event, f"results/{entered['id']}/")
    assert post(client, address + "correct/", {"result": THREE_HEARTS, "version": 1}
                ).json()["version"] == 2
    with CaptureQueriesContext(connection) as queries:
        stale = post(client, address + "confirm/", {"by": "E-W", "version": 1})
    assert queries.captured_queries[1]["sql"] == "BEGIN"  # after the hot path's one read
    assert stale.status_code == 409
    assert stale.json()["error"] == (
        f"Board {meeting.boards[0]} was changed after you looked at it: it now reads 3♥ by "
        "S, 9 tricks. Nothing was confirmed; look at it again and confirm it if it is right.")
    assert stale.json()["existing"]["version"] == 2
    assert Result.objects.get(pk=entered["id"]).status == "entered"
    with CaptureQueriesContext(connection) as queries:
        seen = post(client, address + "confirm/", {"by": "E-W", "version": 2})
    assert seen.status_code == 200 and seen.json()["status"] == "confirmed"
    assert queries.captured_queries[1]["sql"].startswith(CONFIRM)


@pytest.mark.parametrize("case", ["confirmed", "agreed", "reported", "other table", "removed"])
def test_a_confirm_that_is_not_the_common_case_goes_the_full_road(night, table_client, case):
    from tournaments import services

    client, meeting = opened(table_client(2)), night.meeting(2, 1)
    result_id = send(client, night, {"board": meeting.boards[0], "round": 1,
                                     "result": TWO_HEARTS})[0].json()["id"]
    result = Result.objects.get(pk=result_id)
    if case == "confirmed":
        services.result_confirm(result=result, actor=night.actor)
    elif case == "agreed":
        services.round_agree(section=meeting.section, round_number=1, actor=night.actor)
    elif case == "reported":
        services.irregularity_report(event=night.event, board=meeting.boards[0],
                                     meeting=meeting, stage="original", actor=night.actor,
                                     short_seat="N", surplus_seat="E")
    elif case == "other table":
        client = opened(table_client(3))
    elif case == "removed":
        services.result_void(result=result, actor=night.actor, reason="entered twice")
    before = Result.objects.get(pk=result_id)
    seq = Event.objects.get(pk=night.event.pk).seq
    with CaptureQueriesContext(connection) as queries:
        response = post(client, url(night.event, f"results/{result_id}/confirm/"),
                        {"by": "E-W"}, idem=key())
    sqls = [q["sql"] for q in queries.captured_queries]
    assert any(s == "BEGIN" for s in sqls), "\n".join(sqls)  # the full road answered
    expected = {"confirmed": 200, "agreed": 403, "reported": 403, "other table": 403,
                "removed": 400}[case]
    assert response.status_code == expected, response.content
    after = Result.objects.get(pk=result_id)
    assert (after.status, after.confirmed_by) == (before.status, before.confirmed_by)
    assert not AuditEntry.objects.filter(action="confirm", actor_label="table 2").exists() \
        or case == "confirmed"
    if case != "confirmed":
        assert Event.objects.get(pk=night.event.pk).seq in (seq, seq + 1)


def test_the_middleware_matches_the_three_hot_routes_and_no_others():
    """The hot routes are found in the API's include of the URL conf, whatever its place:
    the three table writes, and a URL of another view under the API is not matched."""
    from django.urls import Resolver404, reverse

    from tournaments.api import views
    from tournaments.api.hot import hot_resolver

    resolver = hot_resolver(reverse("api:root"))
    assert {route.callback.cls for route in resolver.url_patterns} == {
        views.ResultList, views.ResultConfirm, views.TableRoundAgree}
    assert resolver.resolve("/api/events/7/results/12/confirm/").kwargs == {
        "event_id": 7, "result_id": 12}
    with pytest.raises(Resolver404):
        resolver.resolve("/api/events/7/results/12/")


def test_a_write_s_row_is_what_the_orm_would_write(night):
    """_row takes a value of its column's own type as it is: it must equal the row with
    every value through the ORM's preparing (results and audit entries as the writes make
    them: statuses as the models' choices, times, None, a late-play flag)."""
    from django.utils import timezone

    from tournaments import seam
    from tournaments.services.base import _iso, _row

    def prepared(obj) -> dict:
        return {f.column: getattr(obj, f.attname) if f.get_internal_type() == "JSONField"
                else f.get_db_prep_save(getattr(obj, f.attname), connection)
                for f in type(obj)._meta.concrete_fields if not f.primary_key}

    result = night.enter(1, 1)
    result.status = Result.Status.CONFIRMED  # a choice, not a str: prepared
    result.updated_at = timezone.now()
    result.late_play, result.tricks, result.ns_score = True, None, None
    audit = AuditEntry(event=night.event, result=result, action="confirm", actor=None,
                       actor_label="table 1", before=seam.snapshot(result),
                       after=seam.snapshot(result), at=result.updated_at)
    for obj in (result, audit, AuditEntry(event=night.event, action="x", at=timezone.now())):
        row = _row(obj)
        assert row == prepared(obj)
        # as the write function receives them
        assert json.dumps(row, default=_iso) == json.dumps(prepared(obj), default=_iso)
