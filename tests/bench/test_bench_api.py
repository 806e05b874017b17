"""The POST benchmark's clients play their rounds as real tables do, through gunicorn.

A table enters only the round it is at (decisions.md item 75): between rounds each
client has the opponents confirm the round's results and agrees the round. The
floor's clients send the same number of requests to the bare endpoint.
"""

import os
import time

import pytest

from bench import bench_api
from bench.data import build_api_event, delete_bench_events
from tournaments.models import Meeting, Result

TABLES, ROUNDS, PER_ROUND = 2, 3, 2
# Seven no trump doubled, down seven: 700 to the defenders, which the server asks about.
UNUSUAL = {"contract": {"level": 7, "denomination": "NT", "declarer": "N", "doubled": "X"},
           "tricks": 6}


@pytest.fixture
def served(database_url):
    """gunicorn on the test database, with the floor's table; its port."""
    bench_api.ensure_bare_table()
    env = {**os.environ, "DATABASE_URL": database_url}
    try:
        with bench_api.server(bench_api.ServerConfig(workers=1, threads=4), env) as port:
            yield port
    finally:
        bench_api.drop_bare_table()
        delete_bench_events()


@pytest.mark.postgres
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_clients_confirm_and_agree_each_round_before_the_next(served):
    built, plans = build_api_event(name="rounds", tables=TABLES, rounds=ROUNDS,
                                   boards_per_round=PER_ROUND)
    plans[0].bodies[PER_ROUND]["result"] = UNUSUAL  # table 1, round 2, first board
    every = TABLES * ROUNDS * PER_ROUND

    api = bench_api.load(served, bench_api.API, plans, limit=every + 1, seconds=60)

    assert api.errors == [] and api.side_errors == []
    # Every board stored (one unusual result asked about, then resent with as_entered).
    assert api.requests == every + 1 and api.unusual == 1 and api.bad == 0
    assert api.statuses == {201: every, 422: 1}
    # Between rounds: one confirm per result and one agree, for rounds 1 and 2 (the last
    # round is left as it was: nothing follows it).
    side = TABLES * (ROUNDS - 1) * (PER_ROUND + 1)
    assert api.side_statuses == {200: side} and api.side_bad == 0
    assert len(api.side_latencies) == side and len(api.latencies) == every + 1
    meetings = Meeting.objects.filter(section__event_id=built.event_id)
    assert sorted(meetings.filter(agreed_at__isnull=False).values_list("round", "table")) == [
        (r, t) for r in range(1, ROUNDS) for t in range(1, TABLES + 1)]
    results = Result.objects.filter(event_id=built.event_id, voided=False)
    assert results.count() == every
    assert set(results.filter(status=Result.Status.CONFIRMED)
               .values_list("meeting__round", flat=True)) == set(range(1, ROUNDS))
    assert not results.filter(status=Result.Status.ENTERED).exclude(
        meeting__round=ROUNDS).exists()

    # The floor's clients send as many requests between rounds, to the bare endpoint.
    floor = bench_api.load(served, bench_api.BARE, plans, limit=every, seconds=60)
    assert floor.statuses == {201: every} and floor.side_statuses == {201: side}
    # What each run wrote to the database's log: a table's result (its row, audit entry,
    # stored answer, their index entries, the confirm's and agree's) writes more than the
    # floor's bare rows.
    assert api.wal / api.requests > 3 * floor.wal / floor.requests > 0


@pytest.mark.postgres
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_spent_budget_sends_no_confirms_that_no_post_follows(served):
    _built, plans = build_api_event(name="budget", tables=1, rounds=ROUNDS,
                                    boards_per_round=PER_ROUND)
    api = bench_api.load(served, bench_api.API, plans, limit=PER_ROUND, seconds=60)
    assert api.statuses == {201: PER_ROUND} and api.side_statuses == {}


@pytest.mark.postgres
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_the_page_client_sends_each_form_without_the_messages_its_next_page_took(served):
    """A phone's browser follows each redirect to the page that shows its message ("Board
    3 saved."), which takes it: the next form goes without it. A client that kept the
    cookie sent every message of the night with each form, read and signed again each
    time, and measured a cost no phone pays."""
    built, (plan,) = build_api_event(name="page", tables=1, rounds=ROUNDS,
                                     boards_per_round=PER_ROUND)
    every = ROUNDS * PER_ROUND
    conn = bench_api._PageConnection(served, plan.code, bench_api.PAGE.post(plan, plan.bodies[0]))
    sent, kept = [], []
    request, getresponse = conn.conn.request, conn.conn.getresponse

    def recording_request(method, path, body=None, headers=None):
        sent.append((path, (headers or {}).get("Cookie", "")))
        return request(method, path, body, headers)

    def recording_getresponse():
        response = getresponse()
        kept.extend(c for c in response.msg.get_all("Set-Cookie") or []
                    if c.startswith(bench_api.MESSAGES_COOKIE + "=") and "Max-Age=0" not in c)
        return response

    conn.conn.request, conn.conn.getresponse = recording_request, recording_getresponse
    budget = bench_api._Budget(every, 60)
    budget.start()
    posts, side = bench_api._Tally(), bench_api._Tally()
    try:
        bench_api._play(conn, bench_api.PAGE, plan, budget, posts, side)
    finally:
        conn.close()

    between = (ROUNDS - 1) * (PER_ROUND + 1)  # the confirms and agrees between rounds
    assert posts.statuses == {201: every} and side.statuses == {200: between}
    # Every form and every confirm or agree was answered with a message kept for its page...
    assert len(sent) == len(kept) == every + between
    # ...and none went with the next form.
    assert [path for path, cookie in sent
            if bench_api.MESSAGES_COOKIE + "=" in cookie] == []
    assert Result.objects.filter(event_id=built.event_id, voided=False).count() == every


def test_cpu_used_counts_each_process_by_its_own_difference():
    """A process that ended between the readings drops out (the figure is a floor), it does
    not make a kind's use negative; one started in between counts whole."""
    before = {1: ("server", 5.0), 2: ("PostgreSQL", 9.0), 3: ("PostgreSQL", 1.0)}
    after = {1: ("server", 6.5), 3: ("PostgreSQL", 1.25), 4: ("PostgreSQL", 0.5)}
    assert bench_api.cpu_used(before, after) == {"server": 1.5, "PostgreSQL": 0.75}


def test_cpu_seconds_finds_this_process_as_the_clients():
    used = bench_api.cpu_seconds()
    assert used, "/proc is read on Linux"
    assert used[os.getpid()][0] == "clients"


def test_a_paced_budget_gives_its_slots_no_sooner_than_its_rate():
    budget = bench_api._Budget(limit=5, seconds=5.0, per_second=50.0)
    budget.start()
    assert all(budget.take() for _ in range(5))
    assert time.perf_counter() - budget.started >= 4 / 50
    assert not budget.take()  # the limit
