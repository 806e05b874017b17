"""The hand records PDF: every board's four hands, eight to a page and each whole, the
boards without hands named in a line; printed from the director's print room as a job,
and refused in words when no board has its hands."""

import datetime
import io
import random
import re

import pytest
from celery.contrib.testing.worker import start_worker
from pypdf import PdfReader
from reportlab.lib.pagesizes import A4, LETTER

from boards.dealing import deal_boards
from config.celery import app
from scoring.engine import parse_deal
from tournaments import services as game
from tournaments.models import ReportJob
from tournaments.presenters import SEATS, SUITS
from tournaments.reports import services
from tournaments.reports.base import cards_text
from tournaments.reports.documents import HandRecordsRenderer
from tournaments.reports.services import report_data
from tournaments.services import Actor

from .conftest import wait_for
from .night import DEALS, build_night
from .pdf import cells_of, pdf_pages, pdf_text

NOW = datetime.datetime(2026, 11, 17, 18, 30)
JSON = {"HTTP_ACCEPT": "application/json"}
# The diagram's top-left corner: the board's number, then its dealer (the compass's own
# "Board 3" line is followed by its "E", never by "Dealer South").
CORNER = re.compile(r"^Board (\d+)\nDealer (North|East|South|West)$", re.M)


def render(data, **kw):
    calls = []
    filename, mimetype, content = HandRecordsRenderer(
        progress=lambda done, total: calls.append((done, total)), now=NOW, **kw).render(data)
    assert mimetype == "application/pdf" and content.startswith(b"%PDF")
    return filename, content, calls


def hand_lines(cards: dict[str, str]) -> str:
    """A hand as printed: a line a suit, "♠ A K 10 2", a void as a dash."""
    return "\n".join(f"{SUITS[s]} {cards_text(cards.get(s, ''))}" for s in "SHDC")


def boards_printed(text: str) -> dict[int, str]:
    """Each board's printed diagram, by number: its text from its corner to the next's."""
    text = cells_of(text)
    found = list(CORNER.finditer(text))
    ends = [m.start() for m in found[1:]] + [len(text)]
    return {int(m[1]): text[m.start():end] for m, end in zip(found, ends, strict=True)}


def assert_board(printed: str, number: int, deal: str) -> None:
    """The board's corner names it and its dealer; its four hands read N, W, E, S (the
    diagram's rows, left to right); the compass names the seats and the dealer."""
    hands = parse_deal(deal)
    dealer = "NESW"[(number - 1) % 4]  # rules.md §1
    assert printed.startswith(f"Board {number}\nDealer {SEATS[dealer]}\n"), printed[:40]
    north, west, east, south = (printed.index(hand_lines(hands[seat])) for seat in "NWES")
    assert north < west < printed.index(f"N\nW\nBoard {number}\nE\nDealer {dealer}\nS") < east
    assert east < south


def dealt_event(director, *, count: int, rules: str = "american-1913", dealt=None):
    """An event of `count` boards, those in `dealt` (all by default) dealt here, seeded."""
    actor = Actor.director(director)
    event = game.event_create(name="Hand record night", date=datetime.date(2026, 11, 24),
                              rules=rules, actor=actor)
    deals = deal_boards(count, random.Random(1913))
    wanted = range(1, count + 1) if dealt is None else dealt
    game.boards_set(event=event, count=count,
                    deals={n: deals[n - 1] for n in wanted}, actor=actor)
    return event, {n: deals[n - 1] for n in wanted}


# --- the document -------------------------------------------------------------------------


def test_every_board_with_hands_is_printed_whole_and_the_rest_named(night):
    data = report_data(night.event, "handrecords")
    assert [b["board"] for b in data["boards"]] == [1, 2, 3, 4, 5]
    assert data["missing"] == [6]
    filename, content, calls = render(data)
    assert filename == "tuesday-duplicate-handrecords.pdf"
    text = pdf_text(content)
    printed = boards_printed(text)
    assert sorted(printed) == [1, 2, 3, 4, 5]
    for number, deal in DEALS.items():
        assert_board(printed[number], number, deal)
    # Board 6 has no hands: named in one line at the start, never drawn as a diagram.
    assert cells_of(text).startswith("Board 6 has no hands recorded.\n")
    assert text.count("Board 6") == 1
    # The night is still in play: the file says whose it is.
    assert "show it to no player until every table has played" in " ".join(text.split())
    # Progress: a step a board, ending at the total.
    assert calls[0] == (0, 5) and calls[-1] == (5, 5)
    assert [done for done, _ in calls] == sorted(done for done, _ in calls)


@pytest.mark.parametrize("size", ["letter", "a4"])
def test_eight_boards_to_a_page_each_whole_on_its_page(director, settings, size):
    settings.REPORTS_PAGE_SIZE = size
    event, deals = dealt_event(director, count=24)
    renderer_data = report_data(event, "handrecords")
    assert renderer_data["missing"] == [] and renderer_data["in_play"]
    _name, content, _ = render(renderer_data)
    pages = pdf_pages(content)
    assert len(pages) == 3
    for index, page in enumerate(pages):
        printed = boards_printed(page)  # a board named on a page has its diagram there
        assert sorted(printed) == list(range(8 * index + 1, 8 * index + 9)), (index, page)
        for number, board in printed.items():
            assert_board(board, number, deals[number])
    assert "no hands recorded" not in pdf_text(content)


def test_a_page_is_letter_or_a4_as_the_club_prints(director, settings):
    event, _ = dealt_event(director, count=2)
    for size, page in (("letter", LETTER), ("a4", A4)):
        settings.REPORTS_PAGE_SIZE = size
        reader = PdfReader(io.BytesIO(render(report_data(event, "handrecords"))[1]))
        box = reader.pages[0].mediabox
        assert (round(float(box.width)), round(float(box.height))) == tuple(map(round, page))


def test_the_boards_without_hands_are_named_in_one_line(director):
    event, deals = dealt_event(director, count=24, dealt=[1, 2, 4, 5, 6, 8, 9, 10, 21])
    data = report_data(event, "handrecords")
    assert data["missing"] == [3, 7, *range(11, 21), 22, 23, 24]
    text = pdf_text(render(data)[1])
    assert cells_of(text).startswith(
        "Boards 3, 7, 11 to 20 and 22 to 24 have no hands recorded.\n")
    printed = boards_printed(text)
    assert sorted(printed) == sorted(deals)
    for number, deal in deals.items():
        assert_board(printed[number], number, deal)


def test_a_long_suit_is_set_smaller_on_its_line_never_broken():
    # West holds nine clubs with the ten, East eight hearts with the ten: too wide for a
    # hand's column at 10 points, each is printed on one line all the same.
    hands = {"N": {"S": "AKQJT98", "H": "2", "D": "K2", "C": "543"},
             "E": {"S": "", "H": "KJT98765", "D": "QJ3", "C": "AK"},
             "S": {"S": "2", "H": "AQ43", "D": "AT987654", "C": ""},
             "W": {"S": "76543", "H": "", "D": "", "C": "QJT987632"}}
    data = {"event": "Long suits", "rules": "american-1913", "in_play": False, "missing": [],
            "boards": [{"board": 1, "dealer": "N", "hands": hands}]}
    text = cells_of(pdf_text(render(data)[1]))
    assert "\n♣ Q J 10 9 8 7 6 3 2\n" in text
    assert "\n♥ K J 10 9 8 7 6 5\n" in text
    assert "show it to no player" not in text  # printed after play: a handout


def test_a_whist_board_prints_its_hands_and_nothing_of_trumps(director):
    # A whist board holds no trump card (the trump is turned at the table): nothing of it
    # is printed, nor any contract.
    event, deals = dealt_event(director, count=4, rules="duplicate-whist")
    data = report_data(event, "handrecords")
    assert data["rules"] == "duplicate-whist"
    text = pdf_text(render(data)[1])
    printed = boards_printed(text)
    for number, deal in deals.items():
        assert_board(printed[number], number, deal)
    assert "trump" not in text.lower() and "contract" not in text.lower()


# --- the print room ------------------------------------------------------------------------


def url(event, what=""):
    return f"/events/{event.pk}/reports/handrecords/{what}"


def test_the_print_room_offers_them_and_prints_them_as_a_job(
        director_client, night, django_capture_on_commit_callbacks):
    page = director_client.get(f"/events/{night.event.pk}/reports/").content.decode()
    assert "<h2>Hand records</h2>" in page and 'data-testid="report-handrecords"' in page
    assert "Boards with their hands: 5 of 6 (the file names the others)." in page
    with django_capture_on_commit_callbacks(execute=True):
        response = director_client.post(url(night.event), **JSON)
    assert response.status_code == 202
    assert response["Location"].endswith(url(night.event, "status/"))
    status = director_client.get(url(night.event, "status/")).json()
    assert status["status"] == "done" and status["title"] == "Hand records"
    job = ReportJob.objects.get(event=night.event, kind="handrecords")
    assert job.done == job.total == 10  # five boards gathered, five laid out
    pdf = director_client.get(status["file_url"])
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    assert 'filename="tuesday-duplicate-handrecords.pdf"' in pdf["Content-Disposition"]
    text = pdf_text(b"".join(pdf.streaming_content))
    assert sorted(boards_printed(text)) == [1, 2, 3, 4, 5]
    # A browser's print goes on to the job's page, which offers the file.
    with django_capture_on_commit_callbacks(execute=True):
        response = director_client.post(url(night.event))
    assert response.status_code == 303 and response["Location"] == url(night.event)
    html = director_client.get(url(night.event)).content.decode()
    assert "Open the hand records (PDF)" in html


def test_an_event_without_hands_is_refused_in_words(director, director_client):
    event, _ = dealt_event(director, count=6, dealt=[])
    page = director_client.get(f"/events/{event.pk}/reports/").content.decode()
    assert "No board has its hands yet: deal new hands or upload a hand record" in page
    assert f'href="/director/events/{event.pk}/boards/"' in page
    response = director_client.post(url(event), **JSON)
    assert response.status_code == 400
    assert response.json() == {
        "error": "No board has its hands yet: deal new hands or upload a hand record (PBN) "
                 "on the boards page first", "field": "kind"}
    page = director_client.post(url(event))
    assert page.status_code == 400
    assert "No board has its hands yet" in page.content.decode()
    bare = game.event_create(name="Empty night", date="2026-11-25",
                             actor=Actor.director(director))
    response = director_client.post(url(bare), **JSON)
    assert response.status_code == 400
    assert response.json()["error"].startswith("The event has no boards yet: deal new hands")
    assert not ReportJob.objects.exists()


def test_whist_without_hands_is_refused_too(director, director_client):
    night = build_night(director, rules="duplicate-whist", play=False, published="none")
    assert not night.event.boards.exclude(deal="").exists()
    response = director_client.post(url(night.event), **JSON)
    assert response.status_code == 400 and "No board has its hands yet" in response.json()[
        "error"]


def test_only_the_director_prints_them_and_no_public_page_links_them(
        client, night, django_user_model, django_capture_on_commit_callbacks):
    assert client.post(url(night.event)).status_code == 302  # a browser: log in first
    assert client.post(url(night.event), **JSON).status_code == 403
    player = django_user_model.objects.create_user("player", password="pass-word-123")
    client.force_login(player)
    assert client.post(url(night.event)).status_code == 403
    assert client.get(url(night.event, "file/")).status_code == 403
    assert not ReportJob.objects.exists()
    with pytest.raises(game.Forbidden):
        services.report_request(event=night.event, kind="handrecords",
                                actor=Actor.at_table(night.event.sections.get(), 1))
    # Printed by the director, the file is still the director's alone.
    director = Actor.director(night.director)
    with django_capture_on_commit_callbacks(execute=True):
        services.report_request(event=night.event, kind="handrecords", actor=director)
    assert ReportJob.objects.get().status == "done"
    assert client.get(url(night.event, "file/")).status_code == 403
    client.logout()
    assert client.get(url(night.event, "file/")).status_code == 302
    public = client.get(f"/events/{night.event.pk}/").content.decode()
    assert "handrecords" not in public and "Hand records" not in public


@pytest.mark.redis
@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_a_worker_prints_them(director, redis_queue):
    assert not app.conf.task_always_eager  # a real broker, not in-process
    night = build_night(director, play=False, published="none")
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=30):
        services.report_request(event=night.event, kind="handrecords",
                                actor=Actor.director(director))

        def finished():
            job = ReportJob.objects.filter(kind="handrecords").first()
            return job if job is not None and job.status in ("done", "failed") else None

        job = wait_for(finished, what="the hand records")
    assert job.status == "done", job.error
    assert job.task_id and job.attempts == 1 and job.done == job.total == 10
    with job.file.open("rb") as handle:
        text = pdf_text(handle.read())
    assert sorted(boards_printed(text)) == [1, 2, 3, 4, 5]
    assert "Board 6 has no hands recorded." in text


def test_they_go_out_of_date_when_a_deal_changes_not_with_every_score(
        director, director_client, django_capture_on_commit_callbacks):
    night = build_night(director, play=False, published="none")
    with django_capture_on_commit_callbacks(execute=True):
        services.report_request(event=night.event, kind="handrecords", actor=night.actor)
    status = director_client.get(url(night.event, "status/")).json()
    assert status["status"] == "done" and not status["stale"]
    first = night.meetings()[0]
    night.enter(first, first.boards[0])  # a score: the hands are as printed
    assert not director_client.get(url(night.event, "status/")).json()["stale"]
    # Board 6's hands come in (a hand record uploaded): the file is out of date.
    deal = deal_boards(1, random.Random(6))[0]
    game.boards_set(event=night.event, count=6, deals={6: deal}, actor=night.actor)
    status = director_client.get(url(night.event, "status/")).json()
    assert status["stale"] and status["message"].startswith("Ready, but the night has changed")
    with django_capture_on_commit_callbacks(execute=True):
        services.report_request(event=night.event, kind="handrecords", actor=night.actor)
    assert not director_client.get(url(night.event, "status/")).json()["stale"]
    with ReportJob.objects.get().file.open("rb") as handle:
        printed = boards_printed(pdf_text(handle.read()))
    assert_board(printed[6], 6, deal)
