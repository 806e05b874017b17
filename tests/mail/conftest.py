"""Fixtures for the score cards by e-mail: a real SMTP server (aiosmtpd) on a free port,
the site's mail sent to it over SMTP, a small night whose players have addresses, and
the mail tasks run in-process unless a test brings a real worker."""

from __future__ import annotations

import email
import email.policy
import socket
import threading
from email.message import EmailMessage

import pytest
from aiosmtpd.controller import Controller

from config.celery import app
from tournaments import standings
from tournaments.mail import services as mail
from tournaments.models import Event, Player, ScoreCardMail

from ..reports.night import build_night, make_director

# Two players have no address (a visitor, and a member who gave none); the rest do.
NO_ADDRESS = {"Kit Lamb", "Lou Moss"}


def address_of(name: str) -> str:
    return name.lower().replace(" ", ".") + "@club.example"


class Mailbox:
    """The SMTP server's handler: keeps what arrived; refuses or defers when told to.

    ``refuse``: addresses answered "550 no such mailbox" at RCPT (a permanent failure);
    ``defer``: replies given to the next DATA commands instead of accepting the message
    (``"451 ..."``: try later), one per message, in order.
    """

    def __init__(self) -> None:
        self.arrived: list[EmailMessage] = []
        self.refuse: set[str] = set()
        self.defer: list[str] = []
        self.lock = threading.Lock()

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address in self.refuse:
            return "550 5.1.1 No such mailbox here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        with self.lock:
            if self.defer:
                return self.defer.pop(0)
            message = email.message_from_bytes(envelope.original_content,
                                               policy=email.policy.default)
            self.arrived.append(message)
        return "250 Message accepted for delivery"

    def to(self, address: str) -> list[EmailMessage]:
        return [m for m in self.arrived if m["To"] == address]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def smtp(settings):
    """A real SMTP server on 127.0.0.1, and the site's mail settings pointed at it."""
    mailbox = Mailbox()
    controller = Controller(mailbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", controller.port
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
    settings.EMAIL_TIMEOUT = 5
    settings.DEFAULT_FROM_EMAIL = "scores@club.example"
    settings.SITE_URL = "https://club.example"
    mailbox.controller = controller
    yield mailbox
    controller.stop()


@pytest.fixture(autouse=True)
def _fresh_standings():
    standings.clear_cache()
    yield
    standings.clear_cache()


class InlineMail:
    """Sends in-process cards in the caller's thread at once: a test inside a transaction
    needs them on its own connection (the product uses a thread: ``InProcessMail``)."""

    def start(self, mail_ids: list[int]) -> None:
        for mail_id in mail_ids:
            mail.send_score_card.apply(args=[mail_id])

    def wait(self, timeout: float | None = 60) -> bool:
        return True


@pytest.fixture(autouse=True)
def _in_process(request):
    """The mail tasks run in-process (as without REDIS_URL), unless the test runs a worker."""
    if request.node.get_closest_marker("celery_worker"):
        yield
        return
    before, mail.in_process = mail.in_process, InlineMail()
    eager = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = eager
    mail.in_process = before


@pytest.fixture
def director(db):
    return make_director()


def give_addresses() -> None:
    """Every player an address but the two of NO_ADDRESS."""
    for player in Player.objects.all():
        if player.name not in NO_ADDRESS:
            player.email = address_of(player.name)
            player.save(update_fields=["email"])


@pytest.fixture
def night(director):
    """The reports' 3-table night, played and provisional; ten players with an address."""
    built = build_night(director)
    give_addresses()
    return built


def mails(event: Event, **filters) -> list[ScoreCardMail]:
    return list(ScoreCardMail.objects.filter(event=event, **filters)
                .select_related("player").order_by("pair_number", "player__name"))
