"""Publishing final e-mails each player their personal score card, over real SMTP
(aiosmtpd), once: the text in the body, the PDF attached, the opt-out headers."""

from __future__ import annotations

from tournaments import nightfile, presenters, selectors, services
from tournaments.mail import services as mail
from tournaments.mail.cards import card_text, pair_card
from tournaments.mail.optout import opt_out_url
from tournaments.models import AuditEntry, Event, Player, ScoreCardMail
from tournaments.services import Actor

from ..reports.night import build_night
from ..reports.pdf import pdf_text
from .conftest import NO_ADDRESS, address_of, give_addresses, mails

Status = ScoreCardMail.Status
DONE = "the last round was played but not confirmed"


def publish_final(night, capture) -> int:
    """Close the night and publish final at once; the publication's number."""
    with capture(execute=True):
        night.event = services.event_close(event=night.event, actor=night.actor, reason=DONE,
                                           publish_final=True)
    entry = AuditEntry.objects.filter(event=night.event, action="publish").first()
    return entry.after["publication"]


def test_each_player_with_an_address_gets_their_pairs_card(night, smtp,
                                                            django_capture_on_commit_callbacks):
    publication = publish_final(night, django_capture_on_commit_callbacks)
    assert night.event.published == Event.Published.FINAL
    assert len(smtp.arrived) == 10  # twelve players, two without an address
    card = selectors.scorecard(night.event, 1)
    for name in ("Ann Lee", "Bob Ray"):  # both players of pair 1 get pair 1's card
        [message] = smtp.to(address_of(name))
        assert message["From"] == "scores@club.example"
        assert message["Subject"] == "Your score card: Tuesday duplicate, pair 1"
        text = message.get_body(("plain",)).get_content()
        assert text.startswith(f"Dear {name},")
        assert "pair 1, Ann Lee & Bob Ray" in text
        head = next(line for line in text.splitlines() if line.startswith("Board"))
        assert head.split() == ["Board", "Sat", "Against", "Contract", "By", "Tricks", "Score",
                                "±", "Running", "total"]
        # Each board's line, in the pages' words and numbers (a true minus sign, "3♥ ×").
        for row in card["rows"]:
            line = next(line for line in text.splitlines()
                        if line.split()[:1] == [str(row["board"])])
            assert presenters.side(row["direction"]) in line
            assert presenters.number(row["score"]) in line
        assert f"Total: {presenters.signed(card['shown'])}" in text
        assert "https://club.example/events/" in text  # the card on the site
        [attachment] = list(message.iter_attachments())
        assert attachment.get_content_type() == "application/pdf"
        assert attachment.get_filename() == "tuesday-duplicate-pair-1-score-card.pdf"
        printed = pdf_text(attachment.get_content())
        assert "Pair 1: Ann Lee & Bob Ray" in printed and "Total:" in printed
        assert "Pair 2" not in printed  # their card only
        # RFC 8058: the one-click opt-out, the same link as in the text.
        player = Player.objects.get(name=name)
        assert message["List-Unsubscribe"].strip() == f"<{opt_out_url(player)}>"
        assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        assert opt_out_url(player) in text
    rows = mails(night.event)
    assert {r.publication for r in rows} == {publication}
    assert sorted(r.player.name for r in rows if r.status == Status.NO_ADDRESS) == sorted(
        NO_ADDRESS)
    assert sum(r.status == Status.SENT for r in rows) == 10
    assert all(r.attempts == 1 and r.sent_at for r in rows if r.status == Status.SENT)


def test_a_fraction_is_written_as_the_pages_write_it(night, smtp):
    """"6½", never "13/2": the text says what the score card page says."""
    card = {"method": "plus-minus", "rows": [{
        "board": 3, "direction": "EW", "opponents": 2, "level": 3, "denomination": "H",
        "declarer": "S", "doubled": "X", "tricks": 8, "passed_out": False, "ruling": "",
        "offending": "", "adjustment": "", "note": "", "score": -100,
        "plus_minus": "13/2", "shown": 6, "running": "13/2", "running_shown": 6,
        "late_play": True}], "total": "13/2", "shown": 6}
    text = card_text(night.event, card)
    line = text.splitlines()[1].split()
    assert line == ["3", "E–W", "2", "3♥", "×", "(played", "late)", "S", "8", "−100",
                    "+6", "(+6½)", "+6", "(+6½)"]
    assert text.endswith("Total: +6 (+6½)")


def test_never_twice_for_one_publication(night, smtp, django_capture_on_commit_callbacks):
    publication = publish_final(night, django_capture_on_commit_callbacks)
    assert len(smtp.arrived) == 10
    # The fan-out again (a re-delivered task, the console's button, a second worker)...
    mail.mail_score_cards.apply(args=[night.event.pk, publication])
    assert mail.score_cards_send(event=night.event) == 0
    # ...and each card's task again, as a re-delivered message would run it.
    for row in mails(night.event):
        assert mail.send_score_card.apply(args=[row.pk]).get() == "nothing to send"
    assert len(smtp.arrived) == 10
    assert ScoreCardMail.objects.filter(event=night.event).count() == 12
    # Publishing final again while final changes nothing, and sends nothing.
    with django_capture_on_commit_callbacks(execute=True):
        services.event_publish(event=night.event, level="final", actor=night.actor)
    assert len(smtp.arrived) == 10


def test_a_card_claimed_by_another_worker_is_not_sent_again(night, smtp,
                                                            django_capture_on_commit_callbacks):
    """The claim commits before the mail server is asked: a second attempt that finds
    the row being sent (a worker killed in the middle, or still at it) sends nothing."""
    night.event = services.event_close(event=night.event, actor=night.actor, reason=DONE,
                                       publish_final=True)
    publication = AuditEntry.objects.filter(action="publish").first().after["publication"]
    waiting = mail.score_cards_prepare(event_id=night.event.pk, publication=publication)
    assert len(waiting) == 10
    ScoreCardMail.objects.filter(pk=waiting[0]).update(status=Status.SENDING, attempts=1)
    assert mail.score_card_send(mail_id=waiting[0]) == "nothing to send"
    assert mail.score_card_send(mail_id=waiting[1]) == Status.SENT
    assert len(smtp.arrived) == 1


def test_publishing_final_again_after_taking_down_is_a_new_publication(
        night, smtp, django_capture_on_commit_callbacks):
    first = publish_final(night, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        services.event_publish(event=night.event, level="none", actor=night.actor)
        night.event = services.event_publish(event=night.event, level="final",
                                             actor=night.actor)
    second = AuditEntry.objects.filter(action="publish").first().after["publication"]
    assert second > first
    assert len(smtp.to(address_of("Ann Lee"))) == 2
    assert len(smtp.arrived) == 20
    assert selectors.score_card_mails(night.event)["publication"] == second


def test_taken_down_before_the_worker_came_sends_nothing(night, smtp):
    night.event = services.event_close(event=night.event, actor=night.actor, reason=DONE,
                                       publish_final=True)
    publication = AuditEntry.objects.filter(action="publish").first().after["publication"]
    services.event_publish(event=night.event, level="none", actor=night.actor)
    assert mail.mail_score_cards.apply(args=[night.event.pk, publication]).get() == 0
    assert not smtp.arrived and not ScoreCardMail.objects.exists()


def test_the_end_of_the_correction_period_sends_them(night, smtp,
                                                     django_capture_on_commit_callbacks):
    night.event = services.event_close(event=night.event, actor=night.actor, reason=DONE,
                                       correction_minutes=30)
    assert night.event.published == Event.Published.PROVISIONAL and not smtp.arrived
    Event.objects.filter(pk=night.event.pk).update(final_after=night.event.final_after
                                                   .replace(year=2000))
    with django_capture_on_commit_callbacks(execute=True):
        event = services.event_final_if_due(event=Event.objects.get(pk=night.event.pk))
    assert event.published == Event.Published.FINAL
    assert len(smtp.arrived) == 10
    entry = AuditEntry.objects.filter(action="publish").first()
    assert entry.actor_label and entry.after["publication"] == event.seq


def test_a_substitute_gets_the_card_of_the_pair_they_played_for(night, smtp,
                                                                django_capture_on_commit_callbacks):
    services.substitute_set(event=night.event, number=2, seat=2, player="Max Nye",
                            from_round=3, actor=night.actor, reason="Bob Ray left early")
    sub = Player.objects.get(name="Max Nye")
    sub.email = address_of("Max Nye")
    sub.save()
    publish_final(night, django_capture_on_commit_callbacks)
    [message] = smtp.to(address_of("Max Nye"))
    assert message["Subject"].endswith("pair 2")


def test_importing_a_final_night_file_mails_nobody(night, smtp,
                                                   django_capture_on_commit_callbacks):
    """A night file records a night already played: its import sends no card; the
    console's button sends them if the club wants."""
    publish_final(night, django_capture_on_commit_callbacks)
    assert len(smtp.arrived) == 10
    data = nightfile.night_export(night.event)
    data["event"]["name"] = "Tuesday duplicate, again"
    with django_capture_on_commit_callbacks(execute=True):
        copy = nightfile.night_import(data=data, actor=Actor.system("import"))
    assert copy.published == Event.Published.FINAL
    assert len(smtp.arrived) == 10
    assert not ScoreCardMail.objects.filter(event=copy).exists()
    give_addresses()  # the file's players are visitors here: new records, no address yet
    assert mail.score_cards_send(event=copy) == 10
    assert len(smtp.arrived) == 20


def test_a_whist_card_has_the_tricks_and_no_contract(director):
    whist = build_night(director, name="Whist night", rules="duplicate-whist")
    card = pair_card(whist.event, 4)
    lines = card.text.splitlines()
    assert lines[0].split() == ["Board", "Sat", "Against", "Tricks", "won", "in", "play",
                                "Score", "±", "Running", "total"]
    # Pair 4 sat E–W: its side's tricks, not N–S's, and its score a count, unsigned.
    [row] = [r for r in selectors.traveller(whist.event, 1)["rows"] if r["ew"] == 4]
    assert lines[1].split()[:5] == ["1", "E–W", "1", str(13 - row["tricks"]),
                                    str(row["ew_score"])]
    assert "Contract" not in card.text and card.text.splitlines()[-1].startswith("Total: ")
    assert "Pair 4: Gus Hay & Hal Ing" in pdf_text(card.pdf)


def test_a_publication_replaced_before_the_worker_came_sends_nothing(night, smtp):
    night.event = services.event_close(event=night.event, actor=night.actor, reason=DONE,
                                       publish_final=True)
    first = AuditEntry.objects.filter(action="publish").first().after["publication"]
    services.event_publish(event=night.event, level="none", actor=night.actor)
    night.event = services.event_publish(event=night.event, level="final", actor=night.actor)
    assert mail.mail_score_cards.apply(args=[night.event.pk, first]).get() == 0
    assert not smtp.arrived and not ScoreCardMail.objects.exists()
    assert mail.score_cards_send(event=night.event) == 10  # the latest one's cards
    assert len(smtp.arrived) == 10


def test_a_pair_with_nothing_on_its_card_gets_no_mail(night, smtp,
                                                      django_capture_on_commit_callbacks):
    """A pair listed that never played (a night called off: every pair) had been mailed
    an empty card, "No boards played"."""
    services.pair_set(event=night.event, number=7, players=["Pat Quill", "Rex Stone"],
                      actor=night.actor)
    for name in ("Pat Quill", "Rex Stone"):
        Player.objects.filter(name=name).update(email=address_of(name))
    publish_final(night, django_capture_on_commit_callbacks)
    assert len(smtp.arrived) == 10  # the twelve who played, two without an address
    assert not smtp.to(address_of("Pat Quill")) and not smtp.to(address_of("Rex Stone"))
    assert not ScoreCardMail.objects.filter(event=night.event, pair_number=7).exists()


def test_a_team_matchs_card_says_what_the_pair_won_for_its_team(db):
    import json
    from pathlib import Path

    from tournaments import presenters, selectors
    from tournaments.nightfile import night_import
    from tournaments.services import Actor

    data = json.loads((Path(__file__).resolve().parents[1] / "nights" / "data"
                       / "night-teams.json").read_text())
    event = night_import(data=data, actor=Actor.system("import"))
    card = selectors.scorecard(event, 1)
    text = card_text(event, card)
    head = text.splitlines()[0].split()
    assert head[-4:] == ["Points", "won", "Running", "total"] and "Score" not in head
    assert text.endswith(f"Total won for the team: {presenters.exact(card['total'])}")
