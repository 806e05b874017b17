"""The one-click opt-out: the link in the mail opens a page with a button (a GET changes
nothing: mail scanners follow links); the button, or a mail program's RFC 8058 POST,
opts out; the next publication skips the player; the console's members page says so."""

from __future__ import annotations

from django.core import signing
from django.test import Client
from django.urls import reverse

from tournaments import services
from tournaments.mail.optout import opt_out_token, opt_out_url
from tournaments.models import Player, ScoreCardMail

from .conftest import address_of, mails

DONE = "the last round was played but not confirmed"


def link(player: Player) -> str:
    return reverse("mail-opt-out", kwargs={"token": opt_out_token(player)})


def test_the_link_shows_a_button_and_changes_nothing(night, client):
    ann = Player.objects.get(name="Ann Lee")
    page = client.get(link(ann))
    html = page.content.decode()
    assert page.status_code == 200
    assert "Ann Lee, after each night the club e-mails you your personal score card" in html
    assert "(to a•••@club.example)" in html and "ann.lee@" not in html
    assert 'data-testid="opt-out"' in html and "Nothing changes until you press the button." in html
    ann.refresh_from_db()
    assert not ann.email_opt_out


def test_the_button_opts_out_and_says_so(night, client):
    ann = Player.objects.get(name="Ann Lee")
    page = client.post(link(ann), {"resume": "0"})
    html = page.content.decode()
    assert "Ann Lee, you will get no more score cards by e-mail." in html
    assert "Done: the club has noted it." in html
    ann.refresh_from_db()
    assert ann.email_opt_out and ann.email_opt_out_at
    # Opening the link again says so, with the date; the second button opts in again.
    assert "You asked for this on" in client.get(link(ann)).content.decode()
    page = client.post(link(ann), {"resume": "1"})
    assert "your score cards will come by e-mail again" in page.content.decode()
    ann.refresh_from_db()
    assert not ann.email_opt_out and ann.email_opt_out_at is None


def test_a_mail_programs_one_click_post(night):
    """RFC 8058: a POST of List-Unsubscribe=One-Click, no cookie, no CSRF token."""
    strict = Client(enforce_csrf_checks=True)
    ann = Player.objects.get(name="Ann Lee")
    page = strict.post(link(ann), "List-Unsubscribe=One-Click",
                       content_type="application/x-www-form-urlencoded")
    assert page.status_code == 200
    ann.refresh_from_db()
    assert ann.email_opt_out
    # Twice is the same as once (the first date is kept).
    when = ann.email_opt_out_at
    strict.post(link(ann), "List-Unsubscribe=One-Click",
                content_type="application/x-www-form-urlencoded")
    ann.refresh_from_db()
    assert ann.email_opt_out_at == when


def test_a_link_altered_or_made_up_is_refused(night, client):
    ann = Player.objects.get(name="Ann Lee")
    token = opt_out_token(ann)
    bob = Player.objects.get(name="Bob Ray")
    # Bob's id with Ann's signature.
    forged = (signing.b64_encode(f'{{"player":{bob.pk}}}'.encode()).decode()
              + ":" + token.rsplit(":", 1)[1])
    for bad in (token[:-3] + "xyz", "nonsense", forged, token + "x"):
        page = client.post(reverse("mail-opt-out", kwargs={"token": bad}))
        assert page.status_code == 404
        assert "This link is not one the club sent" in page.content.decode()
    assert not Player.objects.filter(email_opt_out=True).exists()


def test_the_link_in_the_mail_opts_out_and_the_next_publication_skips_them(
        night, smtp, client, django_capture_on_commit_callbacks, settings):
    with django_capture_on_commit_callbacks(execute=True):
        night.event = services.event_close(event=night.event, actor=night.actor, reason=DONE,
                                           publish_final=True)
    [message] = smtp.to(address_of("Ann Lee"))
    url = message["List-Unsubscribe"].strip()[1:-1]
    ann = Player.objects.get(name="Ann Lee")
    assert url == opt_out_url(ann) and url.startswith(settings.SITE_URL)
    client.post(url.removeprefix(settings.SITE_URL), "List-Unsubscribe=One-Click",
                content_type="application/x-www-form-urlencoded")
    with django_capture_on_commit_callbacks(execute=True):
        services.event_publish(event=night.event, level="none", actor=night.actor)
        night.event = services.event_publish(event=night.event, level="final",
                                             actor=night.actor)
    assert len(smtp.to(address_of("Ann Lee"))) == 1  # nothing new for Ann
    assert len(smtp.to(address_of("Bob Ray"))) == 2
    latest = max(m.publication for m in mails(night.event))
    [skipped] = mails(night.event, publication=latest,
                      status=ScoreCardMail.Status.OPTED_OUT)
    assert skipped.player == ann


def test_the_members_page_shows_who_opted_out(night, client):
    ann = Player.objects.get(name="Ann Lee")
    ann.number = "1001"
    ann.save()
    services.player_email_opt_out(player=ann)
    client.force_login(night.director)
    html = client.get(reverse("director-members")).content.decode()
    assert f'data-testid="opted-out-{ann.pk}"' in html
    assert "no score cards: opted out" in html
    html = client.get(reverse("director-member", kwargs={"player_id": ann.pk})).content.decode()
    assert "Opted out of score cards by e-mail on" in html


def test_merging_two_records_keeps_the_opt_out(night):
    ann = Player.objects.get(name="Ann Lee")
    services.player_email_opt_out(player=ann)
    other = Player.objects.create(name="Ann Lee", number="77", first_name="Ann",
                                  last_name="Lee")
    kept = services.members_merge(keep=other, drop=ann, actor=night.actor,
                                  reason="one person, entered twice")
    assert kept.email_opt_out and kept.email_opt_out_at
