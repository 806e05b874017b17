"""The guide cards shown after a change of movement ("from round N") and what the guide
cards say about where boards come from and about a pair that left."""

import pytest
from django.urls import reverse

from tests.tournaments.test_sections import two_section_night
from tournaments import services
from tournaments.services import Actor

pytestmark = pytest.mark.django_db


def test_the_cards_from_a_change_list_only_the_section_that_changed(director_client, director):
    """Section A's movement changes from round 4; section B's does not. The cards "from
    round 4" listed section B's tables and pairs too, as if they had to be handed out
    again."""
    actor = Actor.director(director)
    event = two_section_night(actor)
    a = event.sections.get(name="A")
    services.movement_change(section=a, from_round=4, kind="mitchell", tables=5,
                             boards_per_round=2, actor=actor, reason="short of time")
    html = director_client.get(reverse("director-guide-cards-from", kwargs={
        "event_id": event.pk, "round_number": 4})).content.decode()
    assert "The movement of section A changed from round 4." in html
    assert "Section A, Table 1" in html and "Section A, Pair 1" in html
    assert "Section B, Table" not in html and "Section B, Pair" not in html
    notice = html.split('data-testid="unchanged-sections"', 1)[1].split("</p>", 1)[0]
    assert "Section B: the movement did not change; keep the cards handed out at the start" \
        in notice
    # Every round's cards still hold both sections.
    every = director_client.get(reverse("director-guide-cards", kwargs={
        "event_id": event.pk})).content.decode()
    assert "Section B, Table 1" in every


def test_the_web_table_card_says_where_the_boards_come_from(director_client, director):
    actor = Actor.director(director)
    event = two_section_night(actor)
    html = director_client.get(reverse("director-guide-cards", kwargs={
        "event_id": event.pk})).content.decode()
    card = html.split('data-testid="guide-table-2"', 1)[1].split("</table>", 1)[0]
    # A 5-table Mitchell: table 2's boards come from table 3 from round 2 on.
    assert '<span class="muted" data-testid="boards-from">from table 3</span>' in card


def test_the_web_pair_card_of_a_pair_that_left_ends_there(director_client, director):
    actor = Actor.director(director)
    event = two_section_night(actor)
    services.pair_leave(event=event, number=7, after_round=2, actor=actor, reason="train")
    html = director_client.get(reverse("director-guide-cards", kwargs={
        "event_id": event.pk})).content.decode()
    card = html.split('data-testid="guide-pair-7"', 1)[1].split("</table>", 1)[0]
    assert "Left after round 2: no further rounds" in card
    assert "Sit out this round" not in card and "sit out" not in card
    assert "end of play" in card
