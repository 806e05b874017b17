"""A merge moves everything that hangs off the record dropped to the one kept.

The reviewer's night: the cards of a closed night sent, then the director spells member
"Amos Pel" right and merges the visitor record "Amos Pell" (who played that night) into
him. Deleting the visitor deleted his score card's mail row with it (the foreign key
cascades): the console counted 27 players of 28 and offered no button, though the
command would still send him his card. Every relation of the record is checked here:
pairs and substitutes (test_services.py), the score cards' mail, party places.
"""

import datetime

import pytest
from django.apps import apps
from django.core import mail as outbox
from django.test import Client
from django.urls import reverse

from config.celery import app
from tests.reports.night import build_night
from tournaments import selectors, services, standings
from tournaments.mail import services as mail
from tournaments.models import (
    AuditEntry,
    Pair,
    PartyPlayer,
    Player,
    ScoreCardMail,
    Substitute,
)
from tournaments.services import ServiceError

pytestmark = pytest.mark.django_db
Status = ScoreCardMail.Status
DONE = "the last round was played"


class InlineMail:
    """The cards sent at once in the test's own thread (tests/mail/conftest.py's)."""

    def start(self, mail_ids):
        for mail_id in mail_ids:
            mail.send_score_card.apply(args=[mail_id])

    def wait(self, timeout=None):
        return True


@pytest.fixture(autouse=True)
def _cards_sent_here(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.SITE_URL = "https://club.example"
    before, mail.in_process = mail.in_process, InlineMail()
    eager, app.conf.task_always_eager = app.conf.task_always_eager, True
    standings.clear_cache()
    yield
    app.conf.task_always_eager, mail.in_process = eager, before
    standings.clear_cache()


@pytest.fixture
def night(director):
    """The reports' 3-table night; everyone has an address but the visitor Amos Pell,
    who plays in pair 6 for Kit Lamb."""
    built = build_night(director)
    for player in Player.objects.all():
        player.email = player.name.lower().replace(" ", ".") + "@club.example"
        player.save(update_fields=["email"])
    amos = Player.objects.get(name="Kit Lamb")
    amos.name, amos.email = "Amos Pell", ""
    amos.save(update_fields=["name", "email"])
    return built


def close_and_send(night, capture):
    with capture(execute=True):
        night.event = services.event_close(event=night.event, actor=night.actor, reason=DONE,
                                           publish_final=True)


def counted(event) -> dict:
    summary = selectors.score_card_mails(event)
    return {k: summary[k] for k in ("sent", "failed", "waiting", "sending", "no_address",
                                    "opted_out")}


def test_the_reviewers_night_counts_and_sends_the_merged_members_card(
        night, director, django_capture_on_commit_callbacks):
    close_and_send(night, django_capture_on_commit_callbacks)
    assert counted(night.event) == {"sent": 11, "failed": 0, "waiting": 0, "sending": 0,
                                    "no_address": 1, "opted_out": 0}
    assert len(outbox.outbox) == 11
    member = Player.objects.create(name="Amos Pel", number="122", first_name="Amos",
                                   last_name="Pel", email="amos@club.example")
    services.member_save(player=member, number="122", first_name="Amos", last_name="Pell",
                         email="amos@club.example", actor=night.actor)
    visitor = Player.objects.get(name="Amos Pell", number=None)
    client = Client()
    client.force_login(director)
    page = client.post(reverse("director-member-merge", kwargs={"player_id": member.pk}),
                       {"drop": visitor.pk, "reason": "one man, his name spelt two ways"},
                       follow=True).content.decode()
    assert "Amos Pell&#x27;s score card of Tuesday duplicate waits to be sent" in page
    # Counted: twelve players, his card waiting now that the record kept has an address.
    assert counted(night.event) == {"sent": 11, "failed": 0, "waiting": 1, "sending": 0,
                                    "no_address": 0, "opted_out": 0}
    card = ScoreCardMail.objects.get(event=night.event, player=member)
    assert (card.pair_number, card.address) == (6, "amos@club.example")
    entry = AuditEntry.objects.get(event=night.event, action="merge players")
    assert entry.after["score_cards"] == 1
    # Sendable from the console: the button is there, and sends his card, once.
    console = reverse("director-event", kwargs={"event_id": night.event.pk})
    html = client.get(console).content.decode()
    assert "1 waiting to be sent" in html and 'data-testid="send-score-cards"' in html
    send = reverse("director-score-cards-send", kwargs={"event_id": night.event.pk})
    assert "Sending 1 score card." in client.post(send, follow=True).content.decode()
    assert [m.to for m in outbox.outbox[11:]] == [["amos@club.example"]]
    assert "nothing is waiting" in client.post(send, follow=True).content.decode()
    assert len(outbox.outbox) == 12
    assert counted(night.event)["sent"] == 12


def test_a_card_sent_to_the_record_dropped_stays_sent(night,
                                                      django_capture_on_commit_callbacks):
    """Bob Ray's card went to his address; merged into a member record of his, it is the
    member's card, sent: never sent again."""
    close_and_send(night, django_capture_on_commit_callbacks)
    bob = Player.objects.get(name="Bob Ray")
    member = Player.objects.create(name="Bob Ray", number="7", email="bob@home.example")
    services.members_merge(keep=member, drop=bob, actor=night.actor, reason="the same")
    card = ScoreCardMail.objects.get(event=night.event, player=member)
    assert card.status == Status.SENT and card.address == "bob.ray@club.example"
    assert mail.score_cards_send(event=night.event) == 0
    assert len(outbox.outbox) == 11


def test_a_skipped_card_stays_skipped_when_the_person_has_no_address_or_said_no(
        night, django_capture_on_commit_callbacks):
    close_and_send(night, django_capture_on_commit_callbacks)
    visitor = Player.objects.get(name="Amos Pell")
    member = Player.objects.create(name="Amos Pell", number="122")  # no address either
    services.members_merge(keep=member, drop=visitor, actor=night.actor, reason="the same")
    assert ScoreCardMail.objects.get(player=member).status == Status.NO_ADDRESS
    assert counted(night.event)["no_address"] == 1
    # An address comes with a record whose owner said no: the card is skipped for that.
    other = Player.objects.create(name="A. Pell", email="amos@club.example")
    services.player_email_opt_out(player=other)
    services.members_merge(keep=other, drop=member, actor=night.actor, reason="the same")
    assert ScoreCardMail.objects.get(player=other).status == Status.OPTED_OUT
    assert counted(night.event) == {"sent": 11, "failed": 0, "waiting": 0, "sending": 0,
                                    "no_address": 0, "opted_out": 1}
    assert mail.score_cards_send(event=night.event) == 0


def test_two_cards_of_one_publication_become_the_one_that_went(
        night, django_capture_on_commit_callbacks):
    """A substitute in one pair and a player in another, as two records of one person:
    each had a card of the same publication. The one sent stays; the row not sent goes
    (one card a player a publication), and the merge does not fail on the constraint."""
    sub = Player.objects.create(name="A. Pell", email="")
    Substitute.objects.create(pair=Pair.objects.get(event=night.event, number=1), seat=2,
                              player=sub, from_round=3)
    close_and_send(night, django_capture_on_commit_callbacks)
    flo = Player.objects.get(name="Flo Gay")
    assert ScoreCardMail.objects.get(player=sub).status == Status.NO_ADDRESS
    services.members_merge(keep=sub, drop=flo, actor=night.actor, reason="the same")
    cards = list(ScoreCardMail.objects.filter(event=night.event, player=sub))
    assert [(c.status, c.pair_number) for c in cards] == [(Status.SENT, 3)]
    assert mail.score_cards_send(event=night.event) == 0


def test_a_party_place_moves_and_two_places_at_one_party_are_two_people(night):
    visitor = Player.objects.get(name="Amos Pell")
    member = Player.objects.create(name="Amos Pell", number="122")
    party = services.party_create(
        name="Whist drive", date=datetime.date(2026, 12, 1), game="whist", rounds=2,
        deals_per_round=4, actor=night.actor,
        players=[{"member": visitor.pk}, "Cy Dow", "Di Eck", "Ed Fox"])
    services.members_merge(keep=member, drop=visitor, actor=night.actor, reason="the same")
    place = PartyPlayer.objects.get(party=party, number=1)
    assert place.member == member and place.name == "Amos Pell"
    twin = Player.objects.create(name="Amos Pell (2)")
    PartyPlayer.objects.filter(party=party, number=2).update(member=twin)
    with pytest.raises(ServiceError, match="Both records play at the party night Whist "
                                           "drive .*: they are two people"):
        services.members_merge(keep=member, drop=twin, actor=night.actor, reason="the same")


def test_every_relation_of_a_player_is_one_the_merge_knows():
    """A new model pointing at Player fails here until members_merge moves its rows: a
    cascade would lose them with the record dropped, a SET_NULL cut their link, and a
    PROTECT refuse the merge."""
    known = {("Pair", "player_1"), ("Pair", "player_2"), ("Substitute", "player"),
             ("ScoreCardMail", "player"), ("PartyPlayer", "member")}
    found = {(model.__name__, field.name) for model in apps.get_models()
             for field in model._meta.get_fields()
             if field.concrete and getattr(field, "related_model", None) is Player}
    assert found == known
