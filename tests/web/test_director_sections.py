"""The console's sections page and the movement page per section."""

import datetime

from tournaments import services
from tournaments.models import AuditEntry, Meeting, Section
from tournaments.services import Actor


class Line:
    def __init__(self, number):
        self.number, self.players, self.team = number, [f"N{number}", f"S{number}"], None


def night(director, pairs=20):
    actor = Actor.director(director)
    event = services.event_create(name="Big night", date=datetime.date(2026, 11, 23),
                                  actor=actor)
    services.pairs_set(event=event, lines=[Line(n) for n in range(1, pairs + 1)], actor=actor)
    return event


def test_add_a_section_and_put_pairs_in_it(director, director_client):
    event = night(director)
    url = f"/director/events/{event.pk}/sections/"
    page = director_client.get(url).content.decode()
    assert 'data-testid="add-section"' in page and "Section A" in page
    assert 'data-testid="compare"' not in page  # one section: nothing to choose
    director_client.post(url, {"action": "add"})
    b = Section.objects.get(event=event, name="B")
    response = director_client.post(url, {"action": "pairs", "section_id": b.pk,
                                          "pairs": "11-20"}, follow=True)
    page = response.content.decode()
    assert "10 pairs now in section B" in page
    assert "Pairs 11, 12, 13, 14, 15, 16, 17, 18, 19, 20" in page
    assert 'data-testid="compare"' in page
    assert sorted(b.pairs.values_list("number", flat=True)) == list(range(11, 21))


def test_bad_pair_numbers_say_what_to_type(director, director_client):
    event = night(director)
    url = f"/director/events/{event.pk}/sections/"
    director_client.post(url, {"action": "add"})
    b = Section.objects.get(event=event, name="B")
    page = director_client.post(url, {"action": "pairs", "section_id": b.pk, "pairs": "x"},
                                follow=True).content.decode()
    assert "is not a pair number or a range like 11-20" in page
    page = director_client.post(url, {"action": "pairs", "section_id": b.pk, "pairs": "40"},
                                follow=True).content.decode()
    assert "there is no pair 40" in page.lower()


def test_pairs_refused_come_back_as_typed_beside_their_section(director, director_client):
    """The reviewer typed "4-9" into section B of a night of 6 pairs: the page said "There
    is no pair 7, 8, 9…" but wiped the box and did not say which section it was about."""
    import re

    event = night(director, pairs=6)
    url = f"/director/events/{event.pk}/sections/"
    director_client.post(url, {"action": "add"}, follow=True)
    b = Section.objects.get(event=event, name="B")
    response = director_client.post(url, {"action": "pairs", "section_id": b.pk,
                                          "pairs": "4-9"})
    assert response.status_code == 400
    page = response.content.decode()
    row_b = page.split('data-testid="section-row-B"')[1]
    row_a = page.split('data-testid="section-row-A"')[1].split('data-testid="section-row-B"')[0]
    assert re.search(r'data-testid="pairs-B"[^>]*aria-invalid="true"', page)
    assert 'value="4-9"' in row_b and 'value="4-9"' not in row_a
    assert ('<p class="field-error" id="pairs-error-B" role="alert" data-testid="pairs-error-B">'
            "Section B: there is no pair 7, 8, 9: enter it on the pairs page first.</p>"
            in row_b)
    assert "field-error" not in row_a and 'class="messages"' not in page
    assert not b.pairs.exists()  # nothing moved
    # Words that are not pair numbers: kept too, the section named.
    page = director_client.post(url, {"action": "pairs", "section_id": b.pk,
                                      "pairs": "4-6, seven"}).content.decode()
    row_b = page.split('data-testid="section-row-B"')[1]
    assert 'value="4-6, seven"' in row_b
    assert ("Section B: “seven” is not a pair number or a range like 11-20." in row_b)
    # Corrected, it is saved and the page is fresh again.
    page = director_client.post(url, {"action": "pairs", "section_id": b.pk,
                                      "pairs": "4-6"}, follow=True).content.decode()
    assert "3 pairs now in section B" in page and 'value="4-6"' not in page
    assert sorted(b.pairs.values_list("number", flat=True)) == [4, 5, 6]


def test_compare_choice_is_stored_and_audited(director, director_client):
    event = night(director)
    url = f"/director/events/{event.pk}/sections/"
    director_client.post(url, {"action": "add"})
    director_client.post(url, {"action": "compare", "compare": "section"})
    event.refresh_from_db()
    assert event.compare_by_section
    assert AuditEntry.objects.filter(event=event, action="compare by section").exists()


def test_remove_a_section(director, director_client):
    event = night(director)
    url = f"/director/events/{event.pk}/sections/"
    director_client.post(url, {"action": "add"})
    b = Section.objects.get(event=event, name="B")
    page = director_client.post(url, {"action": "remove", "section_id": b.pk},
                                follow=True).content.decode()
    assert "Section B removed; its pairs are now in section A." in page
    assert list(event.sections.values_list("name", flat=True)) == ["A"]


def test_movement_page_per_section(director, director_client):
    event = night(director)
    url = f"/director/events/{event.pk}/sections/"
    director_client.post(url, {"action": "add"})
    b = Section.objects.get(event=event, name="B")
    director_client.post(url, {"action": "pairs", "section_id": b.pk, "pairs": "11-20"})
    movement = f"/director/events/{event.pk}/movement/"
    page = director_client.get(movement + "?section=B").content.decode()
    assert 'data-testid="section-switch"' in page and "10 pairs in section B" in page
    assert 'name="section" value="B"' in page
    for name in ("A", "B"):
        director_client.post(movement, {"section": name, "kind": "mitchell", "tables": 5,
                                        "boards_per_round": 3, "variant": "",
                                        "action": "save"})
    assert Meeting.objects.filter(section__event=event, section__name="A").count() == 25
    pairs_b = {m.ns_pair.number for m in Meeting.objects.filter(section=b)}
    assert pairs_b == set(range(11, 16))


def test_pages_name_the_section_when_there_are_several(director, director_client):
    from tests.tournaments.test_sections import _play, two_section_night
    from tournaments.models import TableCode

    actor = Actor.director(director)
    event = two_section_night(actor)
    _play(event, actor)
    code = TableCode.objects.get(section__event=event, section__name="B", table=3).code
    page = director_client.get(f"/t/{code}/").content.decode()
    assert "Section B, table 3" in page
    meeting = Meeting.objects.get(section__event=event, section__name="B", round=1, table=1)
    page = director_client.get(
        f"/director/events/{event.pk}/meetings/{meeting.pk}/").content.decode()
    assert "Round 1, section B, table 1" in page
    page = director_client.get(f"/events/{event.pk}/").content.decode()
    assert 'data-testid="pair-section"' in page
    page = director_client.get(f"/events/{event.pk}/standings/").content.decode()
    assert 'data-testid="section-rankings"' in page and "Section B, North" in page
    assert 'data-testid="ranking-B-NS"' in page and 'data-testid="ranking-NS"' in page
    # The field's rankings name each pair's section (pairs 1 and 11 and their opponents);
    # each section's own places do not repeat it.
    assert page.count('data-testid="row-section"') == 4
    assert '<td data-testid="row-section">B</td>' in page


def test_one_section_pages_say_table_alone(director, director_client):
    from tournaments.models import TableCode

    event = night(director, pairs=10)
    movement = f"/director/events/{event.pk}/movement/"
    director_client.post(movement, {"kind": "mitchell", "tables": 5, "boards_per_round": 3,
                                    "variant": "", "action": "save"})
    code = TableCode.objects.get(section__event=event, table=3).code
    page = director_client.get(f"/t/{code}/").content.decode()
    assert "Table 3" in page and "Section A" not in page


def test_table_links_and_overview_per_section(director, director_client):
    from tests.tournaments.test_sections import two_section_night
    from tournaments.models import TableCode

    event = two_section_night(Actor.director(director))
    page = director_client.get(f"/director/events/{event.pk}/tables/").content.decode()
    assert "Section A, table 1" in page and "Section B, table 5" in page
    assert 'id="table-card-1"' in page and 'id="table-card-B-1"' in page
    for code in TableCode.objects.filter(section__event=event):
        assert page.count(code.code) >= 1
    page = director_client.get(f"/director/events/{event.pk}/").content.decode()
    assert 'data-testid="setup-section-B"' in page and "Section B: Mitchell" in page
    page = director_client.get(f"/director/events/{event.pk}/pairs/").content.decode()
    assert 'data-testid="sections-link"' in page
    cards = director_client.get(f"/director/events/{event.pk}/guide-cards/").content.decode()
    assert "Section B, Table 1" in cards


def test_boards_not_in_name_their_section(director):
    from tests.tournaments.test_sections import two_section_night
    from tournaments import selectors

    event = two_section_night(Actor.director(director))
    lines = [str(o) for o in selectors.boards_outstanding(event)]
    assert lines[0] == "Round 1, section A, table 1: board 1 not entered"
    assert "Round 1, section B, table 1: board 1 not entered" in lines


def test_movement_change_page_works_on_the_section_asked(director, director_client):
    from tests.tournaments.test_sections import two_section_night

    event = two_section_night(Actor.director(director))
    page = director_client.get(
        f"/director/events/{event.pk}/movement/change/?section=B").content.decode()
    assert "change the movement of section B" in page
    assert 'name="section" value="B"' in page
    page = director_client.get(f"/director/events/{event.pk}/movement/?section=B")
    assert "/movement/change/?section=B" in page.content.decode()


def test_guide_cards_of_one_section(director, director_client):
    from tests.tournaments.test_sections import two_section_night

    event = two_section_night(Actor.director(director))
    url = f"/director/events/{event.pk}/guide-cards/"
    every = director_client.get(url).content.decode()
    assert 'data-testid="cards-section-B"' in every and "Section A, Table 1" in every
    only = director_client.get(url + "?section=B").content.decode()
    assert "Section B, Table 1" in only and "Section A, Table 1" not in only
    assert "Section B, Pair 11" in only and "Section A, Pair 1<" not in only


def test_sections_on_different_boards_are_compared_within_each_section(director,
                                                                        director_client):
    """Duplicate Law H compares pairs who held the same cards: sections whose movements
    play different boards cannot be compared across the whole field. The choice is
    refused in words, and the page says why where the choice is made."""
    event = night(director)
    url = f"/director/events/{event.pk}/sections/"
    director_client.post(url, {"action": "add"})
    b = Section.objects.get(event=event, name="B")
    director_client.post(url, {"action": "pairs", "section_id": b.pk, "pairs": "11-20"})
    director_client.post(url, {"action": "compare", "compare": "section"})
    movement = f"/director/events/{event.pk}/movement/"
    director_client.post(movement, {"section": "A", "kind": "mitchell", "tables": 5,
                                    "boards_per_round": 3, "variant": "", "action": "save"})
    director_client.post(movement, {"section": "B", "kind": "mitchell", "tables": 5,
                                    "boards_per_round": 2, "variant": "", "action": "save"})
    page = director_client.get(url).content.decode()
    assert ("The sections play different boards (section A plays boards 1–15, section B "
            "boards 1–10): they can only be compared within each section.") in page
    refused = director_client.post(url, {"action": "compare", "compare": "field"},
                                   follow=True).content.decode()
    assert ("The whole field is compared on the same boards, and section A plays boards "
            "1–15, section B boards 1–10: compare within each section") in refused
    event.refresh_from_db()
    assert event.compare_by_section
