"""Setting up a night from the console: event, pairs, movement, boards, table links, cards."""

from pathlib import Path

from django.contrib.staticfiles import finders
from django.core.files.uploadedfile import SimpleUploadedFile

from tests.web.conftest import DATA, PAIR_NAMES, console_event, console_mitchell
from tournaments import services
from tournaments.models import AuditEntry, Event, Meeting, Pair, TableCode

HANDS = Path(DATA) / "hands.pbn"


def upload(client, event, content: bytes, name="hands.pbn"):
    return client.post(f"/director/events/{event.pk}/boards/", {
        "action": "upload", "pbn": SimpleUploadedFile(name, content, "text/plain")})


def test_create_event(director_client):
    page = director_client.get("/director/events/new/").content.decode()
    for control in ('id="event-name"', 'id="event-date"', 'id="event-rules"',
                    'id="event-kind"', 'id="event-method"', 'id="create-event"'):
        assert control in page
    event = console_event(director_client, rules="english")
    assert (event.rules, event.kind, event.method, event.status) == (
        "english", "pairs", "plus-minus", "setting-up")
    assert event.sections.count() == 1
    assert "Tuesday duplicate" in director_client.get("/director/").content.decode()


def test_create_event_explains_bad_input(director_client):
    response = director_client.post("/director/events/new/", {
        "name": "", "date": "17/11", "rules": "american-1913", "kind": "teams",
        "method": "plus-minus"})
    text = response.content.decode()
    assert "Give the event a name" in text and "A date like 2026-11-17" in text
    response = director_client.post("/director/events/new/", {
        "name": "Pairs night", "date": "2026-11-17", "rules": "american-1913",
        "kind": "pairs", "method": "total-points"})
    assert "A pair contest is scored by plus/minus or matchpoints" in \
        response.content.decode()
    assert not Event.objects.exists()


def test_a_team_match_is_scored_by_total_points_whatever_the_picker_said(director_client):
    """Duplicate Law G has one way of scoring a team match: the Scoring picker's default
    (plus/minus), left as it was when Teams was chosen, is not sent back as a mistake."""
    response = director_client.post("/director/events/new/", {
        "name": "Teams night", "date": "2026-11-17", "rules": "american-1913",
        "kind": "teams", "method": "plus-minus"})
    assert response.status_code == 302
    assert Event.objects.get().method == "total-points"
    page = director_client.get("/director/events/new/").content.decode()
    assert "js/event-form.js" in page  # the picker follows the contest on the page too


def test_pairs_textarea_numbers_in_order(director_client):
    event = console_event(director_client)
    response = director_client.post(f"/director/events/{event.pk}/pairs/", {
        "pairs": "Ann Lee & Bob Ray\n\n  Cy Dow and Di Eck \nEd Fox / Flo Gay\n"})
    assert response.status_code == 302
    pairs = {p.number: p.names for p in Pair.objects.filter(event=event)}
    assert pairs == {1: ["Ann Lee", "Bob Ray"], 2: ["Cy Dow", "Di Eck"], 3: ["Ed Fox", "Flo Gay"]}
    page = director_client.get(f"/director/events/{event.pk}/pairs/").content.decode()
    assert "Ann Lee &amp; Bob Ray\nCy Dow &amp; Di Eck" in page


def test_pairs_textarea_refuses_a_bad_line_and_stores_nothing(director_client):
    event = console_event(director_client)
    response = director_client.post(f"/director/events/{event.pk}/pairs/", {
        "pairs": "Ann Lee & Bob Ray\nCy Dow\nEd Fox & Flo Gay"})
    assert response.status_code == 200
    assert "Line 2: a pair is two players" in response.content.decode().replace("&quot;", '"')
    assert not Pair.objects.filter(event=event).exists()


def test_teams_pairs_name_their_team(director_client):
    event = console_event(director_client, name="Teams", kind="teams", method="total-points")
    response = director_client.post(f"/director/events/{event.pk}/pairs/", {"pairs": "\n".join([
        "Knickerbocker: Ann Lee & Bob Ray", "Knickerbocker: Cy Dow & Di Eck",
        "Manhattan: Ed Fox & Flo Gay", "Manhattan: Gus Hay & Hal Ing"])})
    assert response.status_code == 302
    teams = {p.number: p.team.name for p in Pair.objects.filter(event=event)}
    assert teams == {1: "Knickerbocker", 2: "Knickerbocker", 3: "Manhattan", 4: "Manhattan"}
    missing = director_client.post(f"/director/events/{event.pk}/pairs/",
                                   {"pairs": "Ann Lee & Bob Ray\nB: Cy Dow & Di Eck"})
    assert "Line 1: write the team first" in missing.content.decode()
    response = director_client.post(f"/director/events/{event.pk}/movement/", {
        "kind": "team-match", "tables": "", "boards_per_round": "4", "pairs_per_team": "2",
        "variant": "", "action": "save"})
    assert response.status_code == 302
    assert Meeting.objects.filter(section__event=event).count() == 4
    assert event.boards.count() == 8


def test_mitchell_for_seven_tables(director_client):
    event = console_mitchell(director_client, tables=7, boards_per_round=3)
    section = event.sections.get()
    assert (section.movement, section.tables, section.boards_per_round) == ("mitchell", 7, 3)
    assert Meeting.objects.filter(section=section).count() == 49
    assert event.boards.count() == 21
    assert TableCode.objects.filter(section=section).count() == 7
    first = Meeting.objects.get(section=section, round=1, table=1)
    assert (first.ns_pair.number, first.ew_pair.number, first.boards) == (1, 8, [1, 2, 3])
    page = director_client.get(f"/director/events/{event.pk}/movement/").content.decode()
    assert "Stored: Mitchell" in page


def test_movement_preview_shows_rounds_and_problems(director_client):
    event = console_event(director_client)
    director_client.post(f"/director/events/{event.pk}/pairs/",
                         {"pairs": "\n".join(PAIR_NAMES[:8])})
    shown = director_client.post(f"/director/events/{event.pk}/movement/", {
        "kind": "mitchell", "tables": "4", "boards_per_round": "2", "variant": "relay",
        "action": "show"})
    text = shown.content.decode()
    assert shown.status_code == 200 and 'id="movement-preview"' in text
    assert "4 tables, 8 pairs, 8 boards, 4 rounds" in text and 'id="movement-sound"' in text
    assert not Meeting.objects.exists()  # showing stores nothing

    # Too few pairs for five tables: the form says how many tables the pairs need.
    refused = director_client.post(f"/director/events/{event.pk}/movement/", {
        "kind": "mitchell", "tables": "5", "boards_per_round": "2", "action": "save"})
    assert "8 pairs need 4 tables" in refused.content.decode()
    # A request the generator cannot make is explained too.
    bad = director_client.post(f"/director/events/{event.pk}/movement/", {
        "kind": "mitchell", "tables": "4", "boards_per_round": "2", "variant": "",
        "action": "show"})
    assert "An even-table Mitchell needs a variant: skip or relay" in bad.content.decode()
    assert not Meeting.objects.exists()
    assert not event.boards.exists()


def test_upload_the_pbn_hand_record(director_client, mitchell):
    response = upload(director_client, mitchell, HANDS.read_bytes())
    assert response.status_code == 302
    deals = dict(mitchell.boards.values_list("number", "deal"))
    assert len(deals) == 21
    assert deals[1] == "N:KQT94.9862.T7.K7 3.Q73.KJ65.T9853 A752.AKT.Q4.AJ42 J86.J54.A9832.Q6"
    assert sum(1 for d in deals.values() if d) == 8
    page = director_client.get(f"/director/events/{mitchell.pk}/boards/").content.decode()
    assert "KQT94.9862.T7.K7" in page and "not known: the tables enter honours" in page


def test_a_hand_record_longer_than_the_night_keeps_only_the_nights_boards(director_client):
    # Three tables, two boards a round: boards 1-6. The file deals 8; boards 7 and 8 would
    # show as never played on the travellers and the hand records.
    event = console_mitchell(director_client, tables=3, boards_per_round=2)
    response = upload(director_client, event, HANDS.read_bytes())
    assert response.status_code == 302
    assert sorted(event.boards.values_list("number", flat=True)) == [1, 2, 3, 4, 5, 6]
    assert not event.boards.filter(deal="").exists()
    page = director_client.get(response["Location"]).content.decode()
    assert "Hand record stored: 6 deals. Boards 7–8 are not in this night" in page
    # A file of only boards the night does not play is refused, and says why.
    only_late = HANDS.read_text().split('[Board "7"]')[1]
    refused = upload(director_client, event, ('[Board "7"]' + only_late).encode())
    assert refused.status_code == 200
    assert "The night plays boards 1–6: this file has none of them" in refused.content.decode()


def test_download_the_hand_record_as_pbn(director_client, mitchell):
    from boards.pbn import parse_pbn

    upload(director_client, mitchell, HANDS.read_bytes())
    page = director_client.get(f"/director/events/{mitchell.pk}/boards/").content.decode()
    assert 'data-testid="download-pbn"' in page
    response = director_client.get(f"/director/events/{mitchell.pk}/boards/?download=pbn")
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith("attachment;")
    boards = parse_pbn(response.content.decode())
    stored = dict(mitchell.boards.values_list("number", "deal"))
    assert {b.number: b.deal or "" for b in boards} == stored
    assert boards[0].tags["Event"] == mitchell.name and boards[1].dealer == "E"


def test_no_hand_record_to_download_before_there_are_boards(director_client):
    event = console_event(director_client)
    page = director_client.get(f"/director/events/{event.pk}/boards/").content.decode()
    assert 'data-testid="download-pbn"' not in page
    assert director_client.get(f"/director/events/{event.pk}/boards/?download=pbn"
                               ).status_code == 404


def test_a_bad_hand_record_is_explained(director_client, mitchell):
    bad = b'[Board "1"]\n[Deal "N:AKQ.AKQ.AKQ.AKQ - - -"]\n'
    response = upload(director_client, mitchell, bad)
    assert response.status_code == 200
    assert 'data-testid="pbn-error"' in response.content.decode()
    assert not mitchell.boards.exclude(deal="").exists()
    empty = upload(director_client, mitchell, b"% nothing here\n")
    assert "This file has no deals in it" in empty.content.decode()


def test_deal_new_hands(director_client, mitchell):
    response = director_client.post(f"/director/events/{mitchell.pk}/boards/",
                                    {"action": "deal", "count": "21"})
    assert response.status_code == 302
    deals = list(mitchell.boards.values_list("deal", flat=True))
    assert len(deals) == 21 and all(d.startswith("N:") for d in deals)
    assert len(set(deals)) == 21


def test_table_links_with_qr_codes(director_client, mitchell):
    page = director_client.get(f"/director/events/{mitchell.pk}/tables/").content.decode()
    for code in TableCode.objects.filter(section__event=mitchell):
        assert f"http://testserver/t/{code.code}/" in page
        assert f'data-testid="table-code-{code.table}">{code.code}<' in page
    assert page.count("<svg") == 7


def test_guide_cards(director_client, mitchell):
    page = director_client.get(f"/director/events/{mitchell.pk}/guide-cards/").content.decode()
    assert page.count('data-testid="guide-table-') == 7
    assert page.count('data-testid="guide-pair-') == 14
    # Printable: the page's style sheet sets the paper's margins and keeps each card whole.
    assert "/static/css/guide-cards.css" in page
    style = Path(finders.find("css/guide-cards.css")).read_text()
    assert "@page" in style and "break-inside:avoid" in style
    # Pair 8 (E-W) starts at table 1 against pair 1 on boards 1-3, then moves up a table.
    page = page.replace('<span class="nowrap">', "").replace("</span>", "")
    card = page.split('data-testid="guide-pair-8"')[1].split("</table>")[0]
    assert '<td class="num">1</td><td class="num">1</td><td class="nowrap">E–W</td>' \
        '<td class="num">1</td><td class="nowrap">1–3</td><td>table 2 E–W</td>' in card
    assert '<td class="num">2</td><td class="num">2</td><td class="nowrap">E–W</td>' \
        '<td class="num">2</td>' in card
    # The table cards say where the pairs and the boards go next, as the printed ones do.
    table = page.split('data-testid="guide-table-1"')[1].split("</table>")[0]
    # (Round 1's boards come from no table; N–S pair 1 stays, in the phone's words.)
    assert '<td class="num">1</td><td class="num pair">1</td><td class="num pair">8</td>' \
        '<td>1–3</td><td>stay at table 1, N–S</td><td>table 2 E–W</td>' \
        '<td>table 7</td>' in table


def test_guide_cards_show_sit_outs(director_client):
    event = console_event(director_client)
    director_client.post(f"/director/events/{event.pk}/pairs/",
                         {"pairs": "\n".join(PAIR_NAMES[:7])})
    response = director_client.post(f"/director/events/{event.pk}/movement/", {
        "kind": "mitchell", "tables": "4", "boards_per_round": "2", "variant": "relay",
        "action": "save"})
    assert response.status_code == 302
    page = director_client.get(f"/director/events/{event.pk}/guide-cards/").content.decode()
    assert "sit out" in page


def test_event_states_and_publishing(director_client, mitchell):
    url = f"/director/events/{mitchell.pk}/"
    director_client.post(url + "status/", {"status": "running"})
    mitchell.refresh_from_db()
    assert mitchell.status == "running"
    page = director_client.get(url).content.decode()
    assert 'data-status="running"' in page and 'data-testid="close-event"' in page

    response = director_client.post(url + "publish/", {"level": "provisional"}, follow=True)
    assert "Standings: provisional." in response.content.decode()
    bad = director_client.post(url + "publish/", {"level": "loud"}, follow=True)
    assert "Publish as none, provisional or final" in bad.content.decode()

    confirm = director_client.get(url + "close/")
    assert "Closing ends the night" in confirm.content.decode()
    mitchell.refresh_from_db()
    assert mitchell.status == "running"  # asking is not closing
    # No board is in: closing (which agrees the event) asks why.
    refused = director_client.post(url + "close/")
    assert "say why the scores are agreed without them" in refused.content.decode()
    done = director_client.post(url + "close/", {"reason": "Rained off", "publish": "later"},
                                follow=True)
    assert "The standings become final at" in done.content.decode()
    mitchell.refresh_from_db()
    assert mitchell.status == "closed" and mitchell.published == "provisional"
    director_client.post(url + "publish/", {"level": "final"})
    mitchell.refresh_from_db()
    assert mitchell.published == "final"
    actions = list(AuditEntry.objects.filter(event=mitchell).values_list("action", flat=True))
    assert actions.count("publish") == 2 and "status" in actions


def test_status_refuses_an_impossible_step(director_client, mitchell):
    response = director_client.post(f"/director/events/{mitchell.pk}/status/",
                                    {"status": "agreed"}, follow=True)
    assert "cannot become agreed" in response.content.decode()
    response = director_client.post(f"/director/events/{mitchell.pk}/close/", follow=True)
    assert "An event that has not started cannot be closed" in response.content.decode()
    mitchell.refresh_from_db()
    assert mitchell.status == "setting-up"


def test_a_whist_nights_boards_page_speaks_of_no_honours(director_client):
    # Duplicate Whist counts no honours, and its tables enter none.
    event = console_event(director_client, name="Whist night", rules="duplicate-whist",
                          method="plus-minus")
    services.boards_set(event=event, count=2, actor=services.Actor.system("test"))
    page = director_client.get(f"/director/events/{event.pk}/boards/").content.decode()
    assert "the tables enter honours" not in page and "honours are taken" not in page
    assert "Duplicate Whist counts no honours" in page


def test_a_team_matchs_club_adjustments_speak_of_what_it_can_have(director_client):
    teams = console_event(director_client, name="Teams", kind="teams", method="total-points")
    note = director_client.get(f"/director/events/{teams.pk}/").content.decode().split(
        'data-testid="club-adjustments-note">')[1].split("</p>")[0]
    assert "assigned and split scores" in note and "60 %" not in note
    pairs = console_event(director_client, name="Pairs")
    note = director_client.get(f"/director/events/{pairs.pk}/").content.decode().split(
        'data-testid="club-adjustments-note">')[1].split("</p>")[0]
    assert "60 % and 40 % in matchpoints" in note
