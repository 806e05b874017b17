"""A round agreed at every table: the grid says "Agreed" instead of offering "Agree round",
and an agreement that still arrives for it (an old page, a second tab) is answered with
a plain message and writes nothing: no audit entry, no change number for the live pages."""

import pytest

from tests.web.test_director_results import meeting_at
from tournaments import services
from tournaments.models import AuditEntry, Event
from tournaments.services import Actor


@pytest.fixture
def round_one_agreed(mitchell, director):
    """A 7-table Mitchell running, round 1 agreed at every table, round 2 not."""
    actor = Actor.director(director)
    services.event_set_status(event=mitchell, status="running", actor=actor)
    services.round_agree(section=meeting_at(mitchell).section, round_number=1, actor=actor)
    mitchell.refresh_from_db()
    return mitchell


def agree_url(event, rnd=1) -> str:
    return (f"/director/events/{event.pk}/sections/{meeting_at(event).section_id}"
            f"/rounds/{rnd}/agree/")


def test_the_grid_says_agreed_for_a_round_agreed_at_every_table(director_client,
                                                                 round_one_agreed):
    page = director_client.get(f"/director/events/{round_one_agreed.pk}/").content.decode()
    assert 'data-testid="agree-round-1"' not in page
    assert '<span class="muted" data-testid="round-agreed-1">Agreed</span>' in page
    assert 'data-testid="agree-round-2"' in page and 'data-testid="round-agreed-2"' not in page


def test_a_round_agreed_at_some_tables_is_still_offered(director_client, mitchell, director):
    actor = Actor.director(director)
    services.event_set_status(event=mitchell, status="running", actor=actor)
    services.round_agree(section=meeting_at(mitchell).section, round_number=1, actor=actor,
                         tables=[1, 2])
    page = director_client.get(f"/director/events/{mitchell.pk}/").content.decode()
    assert 'data-testid="agree-round-1"' in page and 'data-testid="round-agreed-1"' not in page


def test_agreeing_a_round_agreed_already_says_so_and_writes_nothing(director_client,
                                                                    round_one_agreed):
    audit = AuditEntry.objects.filter(event=round_one_agreed).count()
    seq = round_one_agreed.seq
    done = director_client.post(agree_url(round_one_agreed), follow=True)
    html = done.content.decode()
    assert done.redirect_chain[-1][0] == f"/director/events/{round_one_agreed.pk}/"
    assert "Round 1 is agreed already at every table." in html
    assert "newly agreed" not in html
    assert AuditEntry.objects.filter(event=round_one_agreed).count() == audit
    assert Event.objects.get(pk=round_one_agreed.pk).seq == seq


def test_one_table_agreed_already_says_so(director_client, round_one_agreed):
    audit = AuditEntry.objects.filter(event=round_one_agreed).count()
    done = director_client.post(agree_url(round_one_agreed), {"table": "3"}, follow=True)
    assert "Round 1 is agreed already at table 3." in done.content.decode()
    assert AuditEntry.objects.filter(event=round_one_agreed).count() == audit


def test_the_old_link_does_not_ask_again(director_client, round_one_agreed):
    """GET of the confirmation page for a round agreed already: no question, the message."""
    done = director_client.get(agree_url(round_one_agreed), follow=True)
    html = done.content.decode()
    assert "Agree round 1 at every table?" not in html
    assert "Round 1 is agreed already at every table." in html


def test_a_table_not_in_the_round_is_not_found(director_client, round_one_agreed):
    response = director_client.post(agree_url(round_one_agreed), {"table": "9"})
    assert response.status_code == 404
