"""The party night's pages: the director's console, a table's phone, the live standings."""

from types import SimpleNamespace

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import PlayerFactory
from tournaments.models import AuditEntry, Party, PartyDeal

pytestmark = pytest.mark.django_db


def nt(declarer, tricks):
    return {"level": "1", "denomination": "NT", "declarer": declarer, "doubled": "",
            "tricks": str(tricks)}


@pytest.fixture
def started(director_client):
    mae = PlayerFactory(name="Mae West", number="77")
    answer = director_client.post(reverse("director-parties"), {
        "name": "Friday party", "date": "2026-11-27", "game": "auction",
        "rules": "american-1913", "per": "deals", "deals_per_round": "1", "rounds": "2",
        "members": [str(mae.pk)], "visitors": "Bob\nCy\n\nDi\nEve\nFay\nGus\nHal\n"})
    party = Party.objects.get()
    assert answer.status_code == 302 and answer["Location"] == reverse(
        "director-party", kwargs={"party_id": party.pk})
    page = director_client.get(answer["Location"]).content.decode()
    assert "2 tables of 4." in page and "Mae West" in page
    director_client.post(reverse("director-party-start", kwargs={"party_id": party.pk}))
    party.refresh_from_db()
    assert party.status == "playing"
    return party


def test_a_bad_set_up_says_what_is_wrong_and_keeps_what_was_typed(director_client):
    answer = director_client.post(reverse("director-parties"), {
        "name": "Friday party", "date": "2026-11-27", "game": "auction",
        "rules": "american-1913", "per": "deals", "deals_per_round": "", "rounds": "2",
        "visitors": "Ann\nBob"})
    assert answer.status_code == 400
    html = answer.content.decode()
    assert "a number of deals or a number of minutes" in html and "Friday party" in html
    assert not Party.objects.exists()


def test_the_start_refuses_a_short_table(director_client):
    director_client.post(reverse("director-parties"), {
        "name": "Small", "date": "2026-11-27", "game": "auction", "rules": "english",
        "per": "minutes", "minutes_per_round": "15", "rounds": "2", "visitors": "A\nB\nC"})
    party = Party.objects.get()
    answer = director_client.post(reverse("director-party-start",
                                          kwargs={"party_id": party.pk}), follow=True)
    assert "add 1 more" in answer.content.decode()


def test_a_table_enters_on_its_phone_and_sees_where_to_go(director_client, started):
    phone = Client()
    codes = {t.number: t.code for t in started.tables.all()}
    home = phone.get(reverse("party-table", kwargs={"code": codes[1]})).content.decode()
    assert "Round 1 of 2" in home and "Mae West deals next" in home
    url = reverse("party-table-deal", kwargs={"code": codes[1]})
    bad = phone.post(url, {**nt("N", 8), "tricks": "14"})
    assert bad.status_code == 400 and "between 0 and 13" in bad.content.decode()
    preview = phone.post(reverse("party-table-preview", kwargs={"code": codes[1]}),
                         nt("N", 8)).json()
    assert preview["ok"] and "20" in preview["html"]
    assert phone.post(url, nt("N", 8)).status_code == 302
    phone.post(reverse("party-table-deal", kwargs={"code": codes[2]}), nt("E", 9))
    home = phone.get(reverse("party-table", kwargs={"code": codes[1]})).content.decode()
    assert "The round is over at this table" in home and "Where you go for round 2" in home
    # the table corrects its deal until the round moves on
    fix = phone.post(reverse("party-table-correct", kwargs={"code": codes[1], "number": 1}),
                     nt("N", 9))
    assert fix.status_code == 302 and PartyDeal.objects.get(
        table__number=1).data["tricks"] == 9
    moved = director_client.post(reverse("director-party-advance",
                                         kwargs={"party_id": started.pk}))
    assert moved["Location"] == reverse("director-party-progression", kwargs={
        "party_id": started.pk, "round_number": 1})
    card = director_client.get(moved["Location"]).content.decode()
    assert "Where each player goes" in card and "moves up" in card
    home = phone.get(reverse("party-table", kwargs={"code": codes[2]})).content.decode()
    assert "After round 1" in home and "Round 2 of 2" in home


def test_the_director_corrects_a_deal_with_a_reason(director_client, started):
    table = started.tables.get(number=1)
    Client().post(reverse("party-table-deal", kwargs={"code": table.code}), nt("N", 8))
    url = reverse("director-party-correct", kwargs={
        "party_id": started.pk, "round_number": 1, "table": 1, "number": 1})
    form = director_client.get(url).content.decode()
    assert 'id="declarer-N" data-testid="declarer-N" checked' in form.replace("\n", "")
    # What the deal scores as entered, every item with its law, before any change.
    entered = form.split('data-testid="entered-score"', 1)[1].split("</section>", 1)[0]
    assert 'data-testid="preview-items"' in entered
    assert "20 for 2 odd tricks at 10 (Law 47)" in entered
    phone = Client().get(reverse("party-table-correct", kwargs={"code": table.code,
                                                               "number": 1})).content.decode()
    box = phone.split('id="pad-preview"', 1)[1].split("</section>", 1)[0]
    assert 'data-testid="preview-items"' in box
    assert "20 for 2 odd tricks at 10 (Law 47)" in box
    refused = director_client.post(url, nt("E", 8))
    assert refused.status_code == 400 and "Say why" in refused.content.decode()
    director_client.post(url, {**nt("E", 8), "reason": "E was declarer"})
    assert AuditEntry.objects.get(action="party-correct").reason == "E was declarer"
    page = director_client.get(reverse("director-party-round", kwargs={
        "party_id": started.pk, "round_number": 1})).content.decode()
    assert "1NT by Cy (E), 8 tricks" in page


def test_the_standings_are_public_live_and_hidden_before_the_start(client, started):
    table = started.tables.get(number=1)
    Client().post(reverse("party-table-deal", kwargs={"code": table.code}), nt("N", 8))
    page = client.get(reverse("party-standings", kwargs={"party_id": started.pk}))
    html = page.content.decode()
    assert 'data-live-url="/party/' in html and "Round 1 of 2 in play" in html
    assert "1=" in html and "+20" in html and "−20" in html
    fragment = client.get(reverse("party-standings", kwargs={"party_id": started.pk})
                          + "?fragment=1").content.decode()
    assert "<html" not in fragment and "Mae West" in fragment
    live = client.get(reverse("party-live", kwargs={"party_id": started.pk})).json()
    assert live["seq"] == Party.objects.get().seq
    Party.objects.filter(pk=started.pk).update(status="setting-up")
    assert client.get(reverse("party-standings",
                              kwargs={"party_id": started.pk})).status_code == 404


def test_an_unknown_table_link_is_a_404(client, db):
    assert client.get(reverse("party-table", kwargs={"code": "nope"})).status_code == 404


def test_the_console_and_the_phone_give_their_live_parts(director_client, started):
    table = started.tables.get(number=1)
    console = director_client.get(reverse("director-party", kwargs={"party_id": started.pk})
                                  + "?fragment=1").content.decode()
    assert "<html" not in console and "deals in: 0 of 1" in console
    phone = Client().get(reverse("party-table", kwargs={"code": table.code})
                         + "?fragment=1").content.decode()
    assert "<html" not in phone and "Enter deal 1" in phone


def test_the_console_offers_the_cut_at_a_level_table(director_client, started):
    codes = {t.number: t.code for t in started.tables.all()}
    phone = Client()
    phone.post(reverse("party-table-deal", kwargs={"code": codes[1]}),
               {"level": "1", "denomination": "NT", "declarer": "N", "doubled": "",
                "tricks": "6", "revokes_declaring": "", "revokes_defending": ""})
    phone.post(reverse("party-table-deal", kwargs={"code": codes[2]}), nt("N", 6))
    # table 1: N-S one down (50 to E-W); table 2 the same: nobody level. Correct table 2.
    director_client.post(reverse("director-party-correct", kwargs={
        "party_id": started.pk, "round_number": 1, "table": 2, "number": 1}),
        {"passed_out": "", "level": "1", "denomination": "NT", "declarer": "N",
         "doubled": "", "tricks": "7", "reason": "made"})
    console = director_client.get(reverse("director-party", kwargs={"party_id": started.pk}))
    assert 'data-testid="level-' not in console.content.decode()  # 50-0 and 10-0
    url = reverse("director-party-advance", kwargs={"party_id": started.pk})
    answer = director_client.post(url, {"level_1": "NS"}, follow=True)
    assert "Table 1 is not level" in answer.content.decode()
    assert Party.objects.get().current_round == 1


def test_the_home_page_finds_a_party_night_and_its_tables(started):
    """A member finds a party night's standings from the home page, and a player's table
    by typing its code in the home page's box, as a duplicate table's."""
    from tournaments.models import PartyTable

    client = Client()
    home = client.get("/").content.decode()
    assert f'href="/party/{started.pk}/"' in home and "Friday party" in home
    standings = client.get(f"/party/{started.pk}/").content.decode()
    assert 'href="/" data-testid="all-results"' in standings
    code = PartyTable.objects.filter(party=started).first().code
    answer = client.post("/t/", {"code": code})
    assert answer.status_code == 302 and answer["Location"] == f"/party/t/{code}/"
    assert client.post("/t/", {"code": "NOPE12345678"}).status_code == 404


@pytest.mark.parametrize(("level", "said"), [
    ([2], "North–South moving up: table 2 is level,"),
    ([1, 3], "North–South moving up: tables 1, 3 are level,"),
])
def test_the_progression_names_its_level_tables_in_words(rf, level, said):
    from django.template.loader import render_to_string

    party = SimpleNamespace(pk=1, name="Friday party", game="auction")
    card = {"final": False, "after_round": 1, "round": 2, "level": level, "tables": [],
            "players": []}
    page = render_to_string("tournaments/director/party_progression.html",
                            {"party": party, "card": card}, request=rf.get("/"))
    assert said in page
