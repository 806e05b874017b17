"""Every director URL needs a logged-in member of staff; every form carries a CSRF token."""

import pytest
from django.test import Client
from django.urls import reverse

from tests.web.conftest import console_mitchell, contract_post
from tournaments import services
from tournaments.models import AuditEntry, Event, Meeting, Result, Season
from tournaments.services import Actor


@pytest.fixture
def world(director, director_client):
    """An event with a movement, a result and an audit entry, to name every URL."""
    event = console_mitchell(director_client, tables=3, boards_per_round=2)
    # Club adjustments on, so that their pages open too (they redirect when it is off).
    Event.objects.filter(pk=event.pk).update(club_adjustments=True)
    event.refresh_from_db()
    meeting = Meeting.objects.get(section__event=event, round=1, table=1)
    result, _ = services.result_record(
        event=event, board=meeting.boards[0], ns=meeting.ns_pair.number,
        ew=meeting.ew_pair.number, data={"contract": {"level": 1, "denomination": "NT",
                                                      "declarer": "N"}, "tricks": 7,
                                         "honours": {"N": 2, "E": 1, "W": 1}},
        actor=Actor.director(director), meeting=meeting)
    entry = AuditEntry.objects.filter(result=result).first()
    irregular = services.irregularity_report(event=event, board=meeting.boards[1],
                                             stage="original", actor=Actor.director(director),
                                             meeting=meeting)
    party = services.party_start(party=services.party_create(
        name="Party", date=event.date, game="auction", rounds=2, deals_per_round=1,
        players=["Ann", "Bob", "Cy", "Di"], actor=Actor.director(director)),
        actor=Actor.director(director))
    table = party.tables.get()
    services.party_deal_add(table=table, actor=services.table_actor(table), deal={
        "contract": {"level": 1, "denomination": "NT", "declarer": "N"}, "tricks": 7})
    season = services.season_save(name="Autumn pairs", event_ids=[event.pk],
                                  actor=Actor.director(director))
    return {"event": event, "meeting": meeting, "result": result, "entry": entry,
            "irregular": irregular, "player": meeting.ns_pair.player_1, "party": party,
            "season": season}


def director_urls(world) -> list[str]:
    e = world["event"].pk
    m = world["meeting"]
    p = world["party"].pk
    return [
        reverse("director-events"),
        reverse("director-event-new"),
        reverse("director-members"),
        reverse("director-members-csv"),
        reverse("director-members-json"),
        reverse("director-member-new"),
        reverse("director-member", kwargs={"player_id": world["player"].pk}),
        reverse("director-member-merge", kwargs={"player_id": world["player"].pk}),
        reverse("director-seasons"),
        reverse("director-season-new"),
        reverse("director-season", kwargs={"season_id": world["season"].pk}),
        reverse("director-season-delete", kwargs={"season_id": world["season"].pk}),
        reverse("director-sections", kwargs={"event_id": e}),
        reverse("director-sessions", kwargs={"event_id": e}),
        reverse("director-pair-sections", kwargs={"event_id": e}),
        reverse("director-event", kwargs={"event_id": e}),
        reverse("director-grid", kwargs={"event_id": e}),
        reverse("director-status", kwargs={"event_id": e}),
        reverse("director-close", kwargs={"event_id": e}),
        reverse("director-agree-event", kwargs={"event_id": e}),
        reverse("director-reopen", kwargs={"event_id": e}),
        reverse("director-correction-period", kwargs={"event_id": e}),
        reverse("director-not-played-scoring", kwargs={"event_id": e}),
        reverse("director-club-adjustments", kwargs={"event_id": e}),
        reverse("director-publish", kwargs={"event_id": e}),
        reverse("director-score-cards-send", kwargs={"event_id": e}),
        reverse("director-results-export", kwargs={"event_id": e, "fmt": "pbn"}),
        reverse("director-pairs", kwargs={"event_id": e}),
        reverse("director-late-pair", kwargs={"event_id": e}),
        reverse("director-pair-leaves", kwargs={"event_id": e}),
        reverse("director-substitute", kwargs={"event_id": e}),
        reverse("director-movement", kwargs={"event_id": e}),
        reverse("director-boards", kwargs={"event_id": e}),
        reverse("director-tables", kwargs={"event_id": e}),
        reverse("director-guide-cards", kwargs={"event_id": e}),
        reverse("director-movement-change", kwargs={"event_id": e}),
        reverse("director-guide-cards-from", kwargs={"event_id": e, "round_number": 2}),
        reverse("director-meeting", kwargs={"event_id": e, "meeting_id": m.pk}),
        reverse("director-enter", kwargs={"event_id": e, "meeting_id": m.pk,
                                          "board": m.boards[1]}),
        reverse("director-rule", kwargs={"event_id": e, "meeting_id": m.pk,
                                         "board": m.boards[0]}),
        reverse("director-adjusted", kwargs={"event_id": e, "meeting_id": m.pk,
                                             "board": m.boards[0]}),
        reverse("director-assigned", kwargs={"event_id": e, "meeting_id": m.pk,
                                             "board": m.boards[0]}),
        reverse("director-preview", kwargs={"event_id": e, "board": m.boards[0]}),
        reverse("director-correct", kwargs={"event_id": e, "result_id": world["result"].pk}),
        reverse("director-void", kwargs={"event_id": e, "result_id": world["result"].pk}),
        reverse("director-agree", kwargs={"event_id": e, "section_id": m.section_id,
                                          "round_number": 1}),
        reverse("director-audit", kwargs={"event_id": e}),
        reverse("director-undo", kwargs={"event_id": e, "entry_id": world["entry"].pk}),
        reverse("director-irregulars", kwargs={"event_id": e}),
        reverse("director-irregular", kwargs={"event_id": e,
                                              "irregularity_id": world["irregular"].pk}),
        reverse("director-irregular-step", kwargs={"event_id": e,
                                                   "irregularity_id": world["irregular"].pk}),
        reverse("director-not-played", kwargs={"event_id": e, "meeting_id": m.pk}),
        reverse("director-late", kwargs={"event_id": e, "meeting_id": m.pk}),
        reverse("director-parties"),
        reverse("director-party", kwargs={"party_id": p}),
        reverse("director-party-players", kwargs={"party_id": p}),
        reverse("director-party-start", kwargs={"party_id": p}),
        reverse("director-party-advance", kwargs={"party_id": p}),
        reverse("director-party-round", kwargs={"party_id": p, "round_number": 1}),
        reverse("director-party-progression", kwargs={"party_id": p, "round_number": 1}),
        reverse("director-party-correct", kwargs={"party_id": p, "round_number": 1,
                                                  "table": 1, "number": 1}),
        reverse("director-party-print", kwargs={"party_id": p}),
        reverse("director-party-print-status", kwargs={"party_id": p}),
        reverse("director-party-print-file", kwargs={"party_id": p}),
    ]


def test_every_director_url_is_routed(world):
    from tournaments.web.urls import director_urlpatterns

    assert len(director_urls(world)) == len(director_urlpatterns)


def test_login_required_on_every_director_url(world):
    anonymous = Client()
    for url in director_urls(world):
        for method in ("get", "post"):
            response = getattr(anonymous, method)(url)
            assert response.status_code == 302, (method, url)
            assert response["Location"].startswith("/accounts/login/?next="), url
    assert Result.objects.count() == 1
    assert Event.objects.count() == 1
    assert Season.objects.count() == 1


def test_staff_required_on_every_director_url(world, player_user):
    player = Client()
    player.force_login(player_user)
    for url in director_urls(world):
        for method in ("get", "post"):
            assert getattr(player, method)(url).status_code == 403, (method, url)
    world["event"].refresh_from_db()
    assert world["event"].status == Event.Status.SETTING_UP
    assert Result.objects.filter(voided=False).count() == 1


def test_director_pages_open(world, director_client):
    for url in director_urls(world):
        if url.endswith(("/status/", "/publish/", "/preview/", "/correction-period/",
                         "/not-played-scoring/", "/club-adjustments/", "/step/",
                         "/merge/", "/pairs/sections/", "/score-cards/send/", "/players/",
                         "/start/", "/advance/", "standings.pdf", "/delete/")):
            continue  # POST only (or a file, printed once asked for)
        response = director_client.get(url)
        # Reopening is for a closed event in its correction period: this one goes back.
        assert response.status_code == (302 if url.endswith("/reopen/") else 200), url


def test_forms_carry_csrf_and_posts_without_it_are_refused(world, director):
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(director)
    for url in director_urls(world):
        if url.endswith(("/status/", "/publish/", "/preview/", "grid.json",
                         "/correction-period/", "/reopen/", "/not-played-scoring/",
                         "/club-adjustments/", "/step/", "/exports/pbn/", "/merge/",
                         "/pairs/sections/", "members.csv", "find.json",
                         "/score-cards/send/", "/players/", "/start/", "/advance/",
                         "standings.pdf", "/delete/")):
            continue  # POST only, or not a page (JSON, a file to download)
        html = strict.get(url).content.decode()
        if "<form" in html.split("</header>", 1)[1]:
            assert "csrfmiddlewaretoken" in html, url
    event = world["event"]
    refused = strict.post(f"/director/events/{event.pk}/publish/", {"level": "final"})
    assert refused.status_code == 403
    refused = strict.post(reverse("director-correct", kwargs={
        "event_id": event.pk, "result_id": world["result"].pk}),
        contract_post(level=2, reason="typo"))
    assert refused.status_code == 403
    event.refresh_from_db()
    assert event.published == "none"
    assert Result.objects.get(pk=world["result"].pk).level == 1
