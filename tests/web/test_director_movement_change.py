"""The console's movement change page (preview, check, confirm), the guide cards shown
again from the change, and the table pages after it (a closed table; the new moves)."""

import pytest
from django.db.models import Q

from tests.web.conftest import code_of, console_mitchell
from tournaments import services
from tournaments.models import AuditEntry, Meeting, Pair, TableCode
from tournaments.services import Actor

PLAY = {"contract": {"level": 1, "denomination": "NT", "declarer": "N"}, "tricks": 7,
        "honours": {"N": 2, "E": 1, "W": 1}}


def play_round(event, round_number: int, director) -> None:
    for m in Meeting.objects.filter(section__event=event, round=round_number).select_related(
            "ns_pair", "ew_pair"):
        for board in m.boards:
            services.result_record(event=event, board=board, ns=m.ns_pair.number,
                                   ew=m.ew_pair.number, data=PLAY,
                                   actor=Actor.director(director), meeting=m)
    services.round_agree(section=event.sections.get(), round_number=round_number,
                         actor=Actor.director(director))


@pytest.fixture
def late(director, director_client):
    """A 3-table Mitchell, round 1 played and agreed; pairs 7 and 8 have come in."""
    event = console_mitchell(director_client, tables=3, boards_per_round=2)
    play_round(event, 1, director)
    for number in (7, 8):
        services.pair_set(event=event, number=number, players=[f"Late {number}", "Partner"],
                          actor=Actor.director(director))
    return event


ADD_TABLE = {"from_round": "2", "kind": "mitchell", "tables": "4", "variant": "relay",
             "boards_per_round": "2", "reason": "two pairs came late"}
# What the preview's form carries: the change is made only as previewed.
MAKE = {"action": "change", "previewed": "2|mitchell|4|relay|2"}


def page(event) -> str:
    return f"/director/events/{event.pk}/movement/change/"


@pytest.mark.django_db
def test_the_page_suggests_the_first_round_without_scores(director_client, late):
    html = director_client.get(page(late)).content.decode()
    assert 'name="from_round" id="change-round" min="1" max="99" inputmode="numeric" value="2"' \
        in html
    assert "Round 2 is the first without scores." in html
    assert 'data-testid="make-change"' not in html  # preview first


@pytest.mark.django_db
def test_show_previews_the_change_and_changes_nothing(director_client, late):
    before = list(Meeting.objects.filter(section__event=late).values_list("pk", flat=True))
    html = director_client.post(page(late), {**ADD_TABLE, "action": "show"}).content.decode()
    assert 'data-testid="change-preview"' in html
    assert 'data-testid="change-sound"' in html
    assert "Table 4 is new: it gets a table code" in html
    assert 'data-testid="change-before"' in html and 'data-testid="change-after"' in html
    assert 'data-testid="make-change"' in html
    assert list(Meeting.objects.filter(section__event=late).values_list(
        "pk", flat=True)) == before


@pytest.mark.django_db
def test_the_change_is_made_only_as_previewed(director_client, late):
    """The form changed after its preview (a relay previewed, a skip chosen, the button
    pressed): nothing is changed, and the page previews what the form makes now."""
    html = director_client.post(page(late), {**ADD_TABLE, "action": "show"}).content.decode()
    assert 'name="previewed" value="2|mitchell|4|relay|2"' in html
    before = list(Meeting.objects.filter(section__event=late).values_list("pk", flat=True))
    html = director_client.post(page(late), {**ADD_TABLE, **MAKE,
                                             "variant": "skip"}).content.decode()
    assert "The form changed after the preview, so nothing was changed." in html
    assert 'data-testid="change-preview"' in html
    assert 'name="previewed" value="2|mitchell|4|skip|2"' in html
    assert "4 tables, 8 pairs" in html and "(skip)" not in html  # the variant in words
    assert list(Meeting.objects.filter(section__event=late).values_list(
        "pk", flat=True)) == before
    assert not AuditEntry.objects.filter(event=late, action="movement change").exists()


@pytest.mark.django_db
def test_a_round_with_scores_shows_the_problem(director_client, late):
    html = director_client.post(page(late), {**ADD_TABLE, "from_round": "1",
                                             "action": "show"}).content.decode()
    assert 'data-testid="change-problems"' in html
    assert "Round 1 has scores already: change the movement from round 2" in html
    assert 'data-testid="make-change"' not in html


@pytest.mark.django_db
def test_changing_needs_a_reason(director_client, late):
    html = director_client.post(page(late), {**ADD_TABLE, "reason": "",
                                             **MAKE}).content.decode()
    assert "Say why the movement changes" in html
    assert not AuditEntry.objects.filter(event=late, action="movement change").exists()


@pytest.mark.django_db
def test_the_change_shows_the_guide_cards_again_from_its_round(director_client, late):
    response = director_client.post(page(late), {**ADD_TABLE, **MAKE})
    assert response.status_code == 302
    assert response["Location"] == f"/director/events/{late.pk}/guide-cards/from/2/"
    html = director_client.get(response["Location"]).content.decode()
    assert "The movement changed from round 2: hand out these guide cards." in html
    assert 'data-testid="movement-changed"' in html
    # What the preview said is said again where the cards are handed out.
    panel = html.split('data-testid="movement-changed"', 1)[1].split("</div>", 1)[0]
    notes = AuditEntry.objects.get(event=late, action="movement change").after["notes"]
    assert "table 4 is new: it gets a table code" in notes
    for note in notes:
        assert f"<li>{note[0].upper()}{note[1:]}</li>" in panel
    assert 'data-testid="guide-table-4"' in html
    assert 'data-testid="guide-pair-8"' in html
    card = html.split('data-testid="guide-table-1"', 1)[1].split("</table>", 1)[0]
    assert '<td class="num">1</td>' not in card  # round 1 is not on the new cards
    assert '<td class="num">2</td>' in card


@pytest.mark.django_db
def test_a_closed_table_says_so_and_where_its_players_go(director, director_client, client):
    event = console_mitchell(director_client, tables=3, boards_per_round=2)
    play_round(event, 1, director)
    Pair.objects.filter(event=event, number__in=(3, 4)).update(left_after_round=1)
    at_table_3 = Meeting.objects.get(section__event=event, round=1, table=3)
    response = director_client.post(page(event), {
        "from_round": "2", "kind": "howell", "tables": "2", "variant": "",
        "boards_per_round": "2", "reason": "pairs 3 and 4 went home", "action": "change",
        "previewed": "2|howell|2||2"})
    assert response.status_code == 302, response.content.decode()[:3000]
    assert TableCode.objects.get(section__event=event, table=3).closed_after_round == 1
    html = director_client.get(response["Location"]).content.decode()
    assert "Closed after round 1: table 3." in html
    html = client.get(f"/t/{code_of(event, 3)}/").content.decode()
    assert 'data-testid="table-closed"' in html
    assert "This table has closed after round 1" in html
    assert f"pair {at_table_3.ns_pair.number}:</strong> Your play is over for tonight" in html
    ew = at_table_3.ew_pair.number  # pair 6 plays on: the page says where
    assert ew not in (3, 4)
    where = Meeting.objects.get(Q(ns_pair__number=ew) | Q(ew_pair__number=ew),
                                section__event=event, round=2)
    assert f"pair {ew}:</strong> Go to table {where.table}" in html


@pytest.mark.django_db
def test_an_open_table_shows_the_new_where_next(director_client, late, client):
    director_client.post(page(late), {**ADD_TABLE, **MAKE})
    html = client.get(f"/t/{code_of(late, 1)}/round/1/").content.decode()
    new = Meeting.objects.get(section__event=late, round=2, table=1)
    assert (f"Next round at this table: <span class=\"nowrap\">N–S</span> pair "
            f"{new.ns_pair.number} against <span class=\"nowrap\">E–W</span> pair "
            f"{new.ew_pair.number}") in html


@pytest.mark.django_db
def test_a_section_with_every_round_scored_says_so(director, director_client, late):
    """Section B had finished its 3 rounds and the page said "Round 4 is the first
    without scores", a round that does not exist."""
    last = max(Meeting.objects.filter(section__event=late).values_list("round", flat=True))
    for number in range(2, last + 1):
        play_round(late, number, director)
    html = director_client.get(page(late)).content.decode()
    assert (f"Every round has scores (the last is round {last}): a change from round "
            f"{last + 1} adds rounds to the night.") in html
    assert "is the first without scores" not in html


@pytest.mark.django_db
def test_a_new_table_says_when_it_opens(director, director_client, late, client):
    """A table the change adds from round 3, while round 2 is played: its page said
    "Round 2: no game at this table. The pair that stays here sits out", of a table no
    pair had sat at."""
    response = director_client.post(page(late), {
        **ADD_TABLE, "from_round": "3", "action": "change",
        "previewed": "3|mitchell|4|relay|2"})
    assert response.status_code == 302, response.content.decode()[:3000]
    html = client.get(f"/t/{code_of(late, 4)}/").content.decode()
    assert ('This table opens in round 3: there is no game here before then. Play round 3 '
            'when the director calls it.') in html
    assert 'data-testid="sits-out"' not in html
    # Once round 2 is agreed, the table is simply in play.
    play_round(late, 2, director)
    html = client.get(f"/t/{code_of(late, 4)}/").content.decode()
    assert 'data-testid="table-opens"' not in html


@pytest.mark.django_db
def test_the_audit_tells_the_change_in_words(director_client, late):
    """The audit had said "kind: mitchell, variant: relay", its boards "7 & 8 & 9" and
    its notes joined with "&"."""
    director_client.post(page(late), {**ADD_TABLE, **MAKE})
    after = AuditEntry.objects.get(event=late, action="movement change").after
    html = director_client.get(f"/director/events/{late.pk}/audit/").content.decode()
    assert ("section: A, from round: 2, movement: Mitchell, variant: relay and bye stand, "
            "tables: 4, boards per round: 2, meetings: round 2 table 1:") in html
    assert "kind:" not in html
    if after["new_boards"]:
        new = after["new_boards"]
        assert f"new boards: {new[0]}–{new[-1]}" in html
    assert "new tables: 4" in html
    assert "notes: " + "; ".join(after["notes"]) in html
    assert "players: Late 8 &amp; Partner" in html  # names still joined with "&"


# --- the even Mitchell's variant is a Mitchell's alone -------------------------------------


@pytest.fixture
def relay(director_client, late):
    """`late` changed from round 2 to a 4-table relay Mitchell (pairs 7 and 8 seated)."""
    director_client.post(page(late), {**ADD_TABLE, **MAKE})
    section = late.sections.get()
    assert (section.movement, section.variant) == ("mitchell", "relay")
    return late


HOWELL = {"from_round": "2", "kind": "howell", "tables": "4", "variant": "relay",
          "boards_per_round": "2", "reason": "a Howell instead"}


@pytest.mark.django_db
def test_a_howell_ignores_the_relay_left_from_the_mitchell(director_client, relay):
    """The relay the page showed for the Mitchell is sent with the Howell (a page without
    its script): the Howell is previewed without it, as the movement page makes it, and
    the page no longer shows the relay chosen."""
    html = director_client.post(page(relay), {**HOWELL, "action": "show"}).content.decode()
    assert "takes no variant" not in html
    assert 'data-testid="change-problems"' not in html
    assert 'data-testid="change-sound"' in html
    assert "From round 2: Howell, 4 tables, 8 pairs" in html
    assert 'name="previewed" value="2|howell|4||2"' in html
    assert 'value="relay" selected' not in html
    # ... and the change is made as previewed, the section no longer a relay.
    response = director_client.post(page(relay), {**HOWELL, "action": "change",
                                                  "previewed": "2|howell|4||2"})
    assert response.status_code == 302
    section = relay.sections.get()
    assert (section.movement, section.variant) == ("howell", "")


@pytest.mark.django_db
def test_the_variant_field_is_a_mitchells_only_and_shares_the_script(director_client, relay):
    html = director_client.get(page(relay)).content.decode()
    assert '<p data-for-kinds="mitchell" data-testid="change-variant-field">' in html
    assert "js/movement-form.js" in html
    assert 'value="relay" selected' in html  # the Mitchell's relay, shown while it is one


def test_both_movement_forms_drop_a_variant_for_another_movement():
    from tournaments.forms import MovementChangeForm, MovementForm

    change = MovementChangeForm({**HOWELL})
    assert change.is_valid(), change.errors
    assert change.cleaned_data["variant"] == ""
    setup = MovementForm({"kind": "howell", "tables": "4", "boards_per_round": "2",
                          "variant": "relay"})
    assert setup.is_valid(), setup.errors
    assert setup.cleaned_data["variant"] == ""
    mitchell = MovementChangeForm({**HOWELL, "kind": "mitchell"})
    assert mitchell.is_valid() and mitchell.cleaned_data["variant"] == "relay"
