"""Sessions over the API: add the next session, set the carry-over, read the overall
standings (the public once every session is published); and removing a section."""

import pytest

from tournaments import services
from tournaments.models import AuditEntry, Event, Pair

from .helpers import THREE_HEARTS, TWO_HEARTS, post

pytestmark = pytest.mark.django_db


def test_the_next_session_carries_the_pairs_and_the_overall_adds_up(director_client, night,
                                                                   public):
    base = f"/api/events/{night.event.pk}/"
    night.play_round(1, 1)
    response = post(director_client, base + "sessions/", {"date": "2026-11-24"})
    assert response.status_code == 201, response.json()
    second = response.json()
    assert (second["session"], second["date"]) == (2, "2026-11-24")
    assert sorted(Pair.objects.filter(event_id=second["id"]).values_list("number", flat=True)
                  ) == list(range(1, 7))
    listed = director_client.get(base + "sessions/").json()
    assert listed["carry_over"] == 100
    assert [s["session"] for s in listed["sessions"]] == [1, 2]
    # The second session is set up and played like any event, at its own address.
    two = f"/api/events/{second['id']}/"
    assert director_client.put(two + "boards/", {"count": 2}, format="json").status_code == 200
    for board, ns, ew, data in ((1, 1, 2, THREE_HEARTS), (1, 3, 4, TWO_HEARTS)):
        assert post(director_client, two + "results/", {
            "board": board, "ns": ns, "ew": ew, "result": data}).status_code == 201
    response = post(director_client, base + "carry-over/", {"carry_over": 50})
    assert response.status_code == 200 and response.json()["carry_over"] == 50
    overall = director_client.get(two + "overall/").json()  # either session's address
    assert overall["carry_over"] == 50
    assert [s["counted"] for s in overall["sessions"]] == ["50", "100"]
    row = next(r for r in overall["rankings"][0]["rows"] if r["pair"] == 1)
    assert len(row["sessions"]) == 2 and row["sessions"][1] is not None
    assert AuditEntry.objects.filter(event=night.event, action="carry over").exists()
    # The public: only once every session's standings are published.
    assert public.get(base + "overall/").status_code in (403, 404)
    services.event_publish(event=night.event, level="provisional", actor=night.actor)
    assert public.get(base + "overall/").status_code == 403
    assert [s["session"] for s in public.get(base + "sessions/").json()["sessions"]] == [1]
    services.event_publish(event=Event.objects.get(pk=second["id"]), level="provisional",
                           actor=night.actor)
    shown = public.get(base + "overall/")
    assert shown.status_code == 200 and shown.json()["published"] == "provisional"


def test_what_the_api_refuses(director_client, night, public):
    base = f"/api/events/{night.event.pk}/"
    services.event_publish(event=night.event, level="provisional", actor=night.actor)
    assert post(public, base + "sessions/", {}).status_code in (401, 403)
    assert post(public, base + "carry-over/", {"carry_over": 50}).status_code in (401, 403)
    for wrong in (-1, 101, "50", 50.5, True, None):
        response = post(director_client, base + "carry-over/", {"carry_over": wrong})
        assert response.status_code == 400 and response.json()["field"] == "carry_over"
    early = post(director_client, base + "sessions/", {"date": "2020-01-01"})
    assert early.status_code == 400 and early.json()["field"] == "date"
    teams = post(director_client, "/api/events/", {"name": "Teams", "date": "2026-11-20",
                                                   "kind": "teams"}).json()
    refused = post(director_client, f"/api/events/{teams['id']}/sessions/", {})
    assert refused.status_code == 400 and "pairs events" in refused.json()["error"]
    overall = director_client.get(f"/api/events/{teams['id']}/overall/")
    assert overall.status_code == 400 and overall.json()["field"] == "kind"


def test_remove_a_section(director_client):
    event = post(director_client, "/api/events/", {"name": "Big", "date": "2026-11-20"}).json()
    base = f"/api/events/{event['id']}/"
    for number in range(1, 5):
        director_client.put(base + f"pairs/{number}/", {"players": [f"N{number}", f"S{number}"]},
                            format="json")
    post(director_client, base + "sections/", {"pairs": [3, 4]})
    response = post(director_client, base + "sections/B/remove/", {})
    assert response.status_code == 200, response.json()
    assert [(s["name"], s["pairs"]) for s in response.json()] == [("A", [1, 2, 3, 4])]
    assert post(director_client, base + "sections/B/remove/", {}).status_code == 404
    last = post(director_client, base + "sections/A/remove/", {})
    assert last.status_code == 400 and "at least one section" in last.json()["error"]
    assert AuditEntry.objects.filter(event_id=event["id"], action="remove section").exists()
