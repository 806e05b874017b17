"""The score cards' links start with SITE_URL: while it is still this computer's own
address (the default, http://127.0.0.1:8000) no player can open them, and the event page,
where the cards are e-mailed and sent again, says so (web/director.py, event.html)."""

from __future__ import annotations

import pytest
from django.test import override_settings
from django.urls import reverse

from tournaments import services
from tournaments.web.director import site_url_is_local

DONE = "the last round was played but not confirmed"
WARNING = "this computer's own address: players cannot open them"


@pytest.mark.parametrize(("url", "local"), [
    ("http://127.0.0.1:8000", True),
    ("http://localhost:8000", True),
    ("http://LOCALHOST.", True),
    ("http://club.localhost", True),
    ("http://127.0.1.1", True),
    ("http://[::1]:8000", True),
    ("http://[::ffff:127.0.0.1]", True),
    ("http://0.0.0.0:8000", True),
    ("https://club.example", False),
    ("http://192.168.1.20:8000", False),  # a club's own network may serve the players
    ("https://localhost-bridge.example", False),
])
def test_which_addresses_are_this_computers_own(url, local):
    assert site_url_is_local(url) is local


def _event_page(client, night) -> str:
    client.force_login(night.director)
    return client.get(reverse("director-event", kwargs={"event_id": night.event.pk})
                      ).content.decode()


def test_a_local_site_url_is_warned_of_where_the_cards_are_sent(night, client):
    night.event = services.event_close(event=night.event, actor=night.actor, reason=DONE,
                                       publish_final=True)
    with override_settings(SITE_URL="http://127.0.0.1:8000"):
        html = _event_page(client, night)
    assert 'data-testid="send-score-cards"' in html  # the page where the cards are sent
    assert 'data-testid="site-url-warning"' in html
    assert ("The links in these mails start with <strong>http://127.0.0.1:8000</strong>, "
            f"{WARNING}.") in html
    assert "Set <code>SITE_URL</code> to the club's web address" in html


def test_the_club_s_address_is_not_warned_of(night, client):
    night.event = services.event_close(event=night.event, actor=night.actor, reason=DONE,
                                       publish_final=True)
    with override_settings(SITE_URL="https://club.example"):
        html = _event_page(client, night)
    assert 'data-testid="send-score-cards"' in html
    assert 'data-testid="site-url-warning"' not in html and WARNING not in html


def test_the_warning_comes_before_the_cards_go_out(night, client):
    """Closed with a correction period: the cards go when it ends, so the warning is there
    already; while the night is still running the page says nothing of mail."""
    with override_settings(SITE_URL="http://localhost:8000"):
        assert WARNING not in _event_page(client, night)
        night.event = services.event_close(event=night.event, actor=night.actor, reason=DONE,
                                           correction_minutes=30)
        html = _event_page(client, night)
    assert night.event.published != "final"
    assert "start with <strong>http://localhost:8000</strong>" in html


def test_the_close_page_warns_before_closing_sends_the_cards(night, client):
    """"Close and publish final now" sends the cards at once: its page warns first."""
    client.force_login(night.director)
    url = reverse("director-close", kwargs={"event_id": night.event.pk})
    with override_settings(SITE_URL="http://127.0.0.1:8000"):
        html = client.get(url).content.decode()
    assert 'data-testid="confirm-close-final"' in html and WARNING in html
    with override_settings(SITE_URL="https://club.example"):
        assert WARNING not in client.get(url).content.decode()


CONSOLE = "django.core.mail.backends.console.EmailBackend"
NOT_SENT = "EMAIL_URL</code> is not set, so each mail is only written to the server's log"


def test_mail_written_only_to_the_log_is_said_where_the_cards_go_out(night, client):
    """EMAIL_URL left at its default (consolemail://): no player receives a card, which
    matters more than where the links would lead; both are said in one warning."""
    night.event = services.event_close(event=night.event, actor=night.actor, reason=DONE,
                                       publish_final=True)
    with override_settings(EMAIL_BACKEND=CONSOLE, SITE_URL="http://127.0.0.1:8000"):
        html = _event_page(client, night)
    assert 'data-testid="mail-console-warning"' in html and NOT_SENT in html
    assert "and <code>SITE_URL</code> to the club's web address" in html
    assert 'data-testid="site-url-warning"' not in html  # one warning, not two
    with override_settings(EMAIL_BACKEND=CONSOLE, SITE_URL="https://club.example"):
        html = _event_page(client, night)
    assert NOT_SENT in html and "<code>SITE_URL</code>" not in html
    client.force_login(night.director)
    close = reverse("director-close", kwargs={"event_id": night.event.pk})
    with override_settings(EMAIL_BACKEND=CONSOLE):
        assert NOT_SENT in client.get(close).content.decode()


def test_mail_sent_by_a_mail_server_is_not_warned_of(night, client):
    night.event = services.event_close(event=night.event, actor=night.actor, reason=DONE,
                                       publish_final=True)
    with override_settings(EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend",
                           SITE_URL="https://club.example"):
        html = _event_page(client, night)
    assert NOT_SENT not in html and 'data-testid="site-url-warning"' not in html
