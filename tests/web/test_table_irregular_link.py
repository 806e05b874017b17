"""The round page asks "A hand with the wrong number of cards?" only while there is a
board still to play here to report (Duplicate Law B), and lists those boards, each once."""

import re

import pytest

from tests.irregular_nights import THREE_HEARTS
from tournaments import services
from tournaments.models import Meeting
from tournaments.services import Actor

pytestmark = pytest.mark.django_db

QUESTION = "A hand with the wrong number of cards?"


def irregular_line(page: str) -> str:
    match = re.search(r'<p class="note irregular-link"[^>]*>(.*?)</p>', page, re.S)
    return re.sub(r"<[^>]+>", "", match.group(1)).strip() if match else ""


def enter(event, board: int) -> None:
    m = Meeting.objects.select_related("section").get(section__event=event, table=1, round=1)
    services.result_record(event=event, board=board, ns=1, ew=3, data=THREE_HEARTS,
                           actor=Actor.at_table(m.section, 1), meeting=m, as_entered=True)


def test_the_question_lists_the_boards_still_to_play(client, event, table1):
    assert irregular_line(client.get(f"/t/{table1}/").content.decode()) == \
        f"{QUESTION} Board 1 · Board 2"
    enter(event, 2)  # the last board entered first: no separator left hanging
    assert irregular_line(client.get(f"/t/{table1}/").content.decode()) == \
        f"{QUESTION} Board 1"


@pytest.mark.parametrize("path", ["", "round/1/"])
def test_no_question_once_every_board_of_the_round_is_entered(client, event, table1, path):
    enter(event, 1)
    enter(event, 2)
    page = client.get(f"/t/{table1}/{path}").content.decode()
    assert QUESTION not in page and "report-irregular" not in page
