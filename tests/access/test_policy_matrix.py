"""One table of caller × event state × object, run against every edge that serves it.

The expected answer comes from the policy written out below (``expected``), not from
tournaments.access: a rule changed in one edge only, or in the access module without
this table, fails here. Each test builds one event in one state and asks, for one
caller, every object on every edge (web page, API, the print room and its PDF download); it lists
every disagreement at once.

The night: a three-table Mitchell, two boards a round (pairs 1-3 N-S, 4-6 E-W). F is
the first board table 1 plays in round 1, U the second. Once the event runs, F is
played at all three tables (so it is finished) and U only at table 1 (so it is still
being played). No round is agreed, so every table sits at round 1.
"""

from __future__ import annotations

import datetime

import pytest
from django.core.files.base import ContentFile
from django.test import Client
from rest_framework.test import APIClient

from tests.api.helpers import DEAL_1, TWO_HEARTS
from tests.factories import DirectorFactory
from tournaments import services
from tournaments.models import Board, Event, Meeting, ReportJob, TableCode
from tournaments.services import Actor

pytestmark = pytest.mark.django_db

STATES = ["setting-up", "running-unpublished", "provisional", "closed-final"]
CALLERS = ["director", "played", "other-table", "foreign-table", "anonymous"]
OBJECTS = ["event", "standings", "overall", "traveller-F", "traveller-U", "hand-F", "hand-U",
           "scorecard", "pdf", "preview-current", "preview-future"]


# --- the policy, written out ---------------------------------------------------------------


def expected(caller: str, state: str, obj: str, edge: str) -> bool:
    """May `caller` see `obj` when the event is in `state`? (docs/decisions.md, Access)"""
    director = caller == "director"
    own_table = caller in ("played", "other-table")
    published = state in ("provisional", "closed-final")
    played = state != "setting-up"  # results exist once the event runs
    finished = {"F": played, "U": False}
    if obj == "event":
        return director or own_table or published
    if obj == "overall":
        # An event of one session has its own standings and no overall, for anyone
        # (decision 129; the overall's access with several sessions: tests/*/test_sessions.py).
        return False
    if obj in ("standings", "scorecard"):
        return director or published
    if obj.startswith("traveller-"):
        board = obj[-1]
        # The screen at a table: a pair seated there played it, and none still has to.
        # Board F is played by every pair once the event runs; U only by table 1's pairs.
        at_table = own_table and played and (board == "F" or caller == "played")
        return director or at_table or (published and finished[board])
    if obj.startswith("hand-"):
        board = obj[-1]
        if director and edge == "web":
            # The live pages are projected in the room: the diagram waits for the board
            # to finish even on the director's screen (the console has the deal).
            return finished[board]
        return director or (published and finished[board])
    if obj == "pdf":
        return director
    if obj.startswith("preview-"):
        # Only boards of the table's seated round (round 1): the preview reads honours
        # from the hand record.
        return director or (own_table and obj == "preview-current")
    raise AssertionError(obj)


# --- the scenario --------------------------------------------------------------------------


def build(director, state: str, name: str = "Tuesday duplicate") -> dict:
    from boards.movements import generate

    actor = Actor.director(director)
    event = services.event_create(name=name, date=datetime.date(2026, 11, 17), actor=actor)
    movement = generate("mitchell", tables=3, boards_per_round=2)
    for number in range(1, movement.pairs + 1):
        services.pair_set(event=event, number=number,
                          players=[f"North {number}", f"South {number}"], actor=actor)
    services.boards_set(event=event, count=movement.boards, actor=actor)
    services.movement_meetings_set(section=event.sections.get(), movement=movement, actor=actor)
    meetings = list(Meeting.objects.filter(section__event=event)
                    .select_related("ns_pair", "ew_pair").order_by("round", "table"))
    first = next(m for m in meetings if m.table == 1 and m.round == 1)
    f, u = first.boards
    Board.objects.filter(event=event, number__in=[f, u]).update(deal=DEAL_1)
    if state != "setting-up":
        event = services.event_set_status(event=event, status=Event.Status.RUNNING,
                                          actor=actor)
        for m in meetings:
            for board in m.boards:
                if board == f or (board == u and m is first):
                    services.result_record(event=event, board=board, ns=m.ns_pair.number,
                                           ew=m.ew_pair.number, data=TWO_HEARTS, actor=actor,
                                           meeting=m)
    if state == "provisional":
        event = services.event_publish(event=event, level="provisional", actor=actor)
    if state == "closed-final":
        event = services.event_close(event=event, actor=actor, publish_final=True,
                                     reason="Play ended with boards not in")
    codes = dict(TableCode.objects.filter(section__event=event).values_list("table", "code"))
    rounds = {(m.table, m.round): m.boards for m in meetings}
    return {"event": event, "F": f, "U": u, "codes": codes, "rounds": rounds}


def clients(caller: str, director, night: dict, foreign: dict) -> tuple[Client, APIClient,
                                                                          str | None]:
    """A browser and an API client for the caller, and the table code it holds."""
    web, api = Client(), APIClient()
    code = {"played": night["codes"][1], "other-table": night["codes"][2],
            "foreign-table": foreign["codes"][1]}.get(caller)
    if caller == "director":
        web.force_login(director)
        api.force_login(director)
    if code:
        assert web.get(f"/t/{code}/").status_code == 200  # the phone opens its table
        api.credentials(HTTP_AUTHORIZATION=f"Table {code}")
    return web, api, code


# --- the edges -----------------------------------------------------------------------------


def allowed(response, *, marker: str | None = None) -> bool:
    if response.status_code == 200:
        return marker is None or marker in response.content.decode()
    assert response.status_code in (302, 401, 403, 404), (response.status_code,
                                                          response.content[:300])
    return False


def edges(obj: str, caller: str, night: dict, web: Client, api: APIClient,
          code: str | None) -> dict[str, bool]:
    """Ask every edge that serves `obj`; edge name -> did it answer with the object?"""
    event = night["event"]
    pk = event.pk
    table = {"played": 1, "other-table": 2}.get(caller)
    answers: dict[str, bool] = {}
    if obj == "event":
        answers["web"] = allowed(web.get(f"/events/{pk}/"))
        answers["api"] = allowed(api.get(f"/api/events/{pk}/"))
    elif obj == "standings":
        answers["web"] = allowed(web.get(f"/events/{pk}/standings/"))
        answers["api"] = allowed(api.get(f"/api/events/{pk}/standings/"))
    elif obj == "overall":
        answers["web"] = allowed(web.get(f"/events/{pk}/overall/"),
                                 marker='data-testid="overall"')
        answers["api"] = allowed(api.get(f"/api/events/{pk}/overall/"))
    elif obj == "scorecard":
        answers["web"] = allowed(web.get(f"/events/{pk}/pairs/1/"))
        answers["api"] = allowed(api.get(f"/api/events/{pk}/pairs/1/scorecard/"))
    elif obj.startswith("traveller-"):
        number = night[obj[-1]]
        answers["web"] = allowed(web.get(f"/events/{pk}/boards/{number}/"),
                                 marker='data-testid="traveller"')
        answers["api"] = allowed(api.get(f"/api/events/{pk}/boards/{number}/traveller/"))
        if code and table:
            answers["web (table page)"] = allowed(
                web.get(f"/t/{code}/board/{number}/traveller/"), marker='data-testid="traveller"')
    elif obj.startswith("hand-"):
        number = night[obj[-1]]
        answers["web"] = allowed(web.get(f"/events/{pk}/boards/{number}/"),
                                 marker='data-testid="hand-record"')
        response = api.get(f"/api/events/{pk}/boards/{number}/")
        answers["api"] = allowed(response) and response.json()["deal"] is not None
    elif obj == "pdf":
        answers["web"] = allowed(web.get(f"/events/{pk}/reports/"))
        answers["api"] = allowed(web.get(f"/events/{pk}/reports/standings/status/",
                                         HTTP_ACCEPT="application/json"))
        # The download itself: the standings PDF printed for this event (see ``printed``).
        response = web.get(f"/events/{pk}/reports/standings/file/")
        answers["download"] = allowed(response) and b"".join(
            response.streaming_content).startswith(b"%PDF")
    elif obj.startswith("preview-"):
        rnd = 1 if obj == "preview-current" else 2
        number = night["rounds"][(table or 1, rnd)][0]
        body = {"board": number, "result": TWO_HEARTS}
        answers["api"] = allowed(api.post(f"/api/events/{pk}/score-preview/", body,
                                          format="json"))
        if code and table:
            answers["web (table page)"] = allowed(web.post(f"/t/{code}/preview/", {
                "round": rnd, "board": number, "level": "2", "denomination": "H",
                "declarer": "S", "doubled": "", "tricks": "8", "honours_N": "3",
                "honours_E": "0", "honours_S": "2", "honours_W": "0"}))
    return answers


def printed(event: Event) -> None:
    """A standings PDF already printed for the event, as the print room keeps it."""
    job = ReportJob(event=event, kind="standings", status=ReportJob.Status.DONE, done=1,
                    total=1)
    job.file.save(f"standings-{event.pk}.pdf", ContentFile(b"%PDF-1.4\n%%EOF\n"), save=False)
    job.save()


@pytest.mark.parametrize("caller", CALLERS)
@pytest.mark.parametrize("state", STATES)
def test_every_edge_follows_the_policy(state, caller, settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path / "media")
    director = DirectorFactory(username="alice")
    night = build(director, state)
    printed(night["event"])
    foreign = build(director, "running-unpublished", name="Thursday duplicate")
    web, api, code = clients(caller, director, night, foreign)
    wrong = []
    for obj in OBJECTS:
        for edge, got in edges(obj, caller, night, web, api, code).items():
            want = expected(caller, state, obj, edge.split(" ")[0])
            if got != want:
                wrong.append(f"{obj} on {edge}: {'shown' if got else 'refused'}, "
                             f"the policy says {'shown' if want else 'refused'}")
    assert not wrong, f"{caller} / {state}:\n" + "\n".join(wrong)
