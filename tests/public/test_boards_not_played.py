"""A board not played at a table: the standings page and the standings PDF show each
pair's boards ("5 of 6" when it did not play one) and say what that means."""

import datetime

import pytest

from tests.reports.night import build_night
from tests.reports.pdf import pdf_text
from tournaments import services, standings
from tournaments.models import Event, Result
from tournaments.reports.documents import StandingsRenderer
from tournaments.services import Actor

from .test_pages import cells, page


def _not_played(night) -> Result:
    """The first result of the night becomes a board not played at its table."""
    row = Result.objects.filter(event=night.event).select_related(
        "board", "ns_pair", "ew_pair").order_by("pk").first()
    services.ruling_award(event=night.event, board=row.board.number,
                          ns=row.ns_pair.number, ew=row.ew_pair.number, kind="not-played",
                          actor=Actor.director(night.director),
                          reason="no time left to play it")
    night.event.refresh_from_db()
    return row


def _pdf(data) -> str:
    content = StandingsRenderer(progress=lambda *_: None,
                                now=datetime.datetime(2026, 11, 17, 23, 5)).render(data)[2]
    return pdf_text(content)


@pytest.mark.parametrize("method", ["plus-minus", "matchpoints"])
def test_the_boards_column_shows_the_boards_not_played(client, director, method):
    night = build_night(director, method=method)
    row = _not_played(night)
    data = standings.standings(night.event)
    rows = {r["pair"]: r for ranking in data["rankings"] for r in ranking["rows"]}
    ns = rows[row.ns_pair.number]
    assert ns["not_played"] == 1
    played = ns["boards"]
    html = page(client, night, "standings/")
    assert f"{played} of {played + 1}" in cells(html)
    assert 'data-testid="not-played-note"' in html
    assert f"means the pair played {played} of its {played + 1} boards" in html
    text = _pdf(data)
    assert f"{played} of {played + 1}" in text
    assert "A board not played at a pair's table is not compared" in text


def test_own_average_is_explained(client, director):
    night = build_night(director, method="matchpoints")
    Event.objects.filter(pk=night.event.pk).update(not_played_scoring="own-average")
    night.event.refresh_from_db()
    _not_played(night)
    data = standings.standings(night.event)
    assert data["not_played_scoring"] == "own-average"
    html = page(client, night, "standings/")
    assert "credited with its own average" in html
    assert "credited with its own average" in _pdf(data)


def test_no_note_when_every_board_was_played(client, night):
    html = page(client, night, "standings/")
    assert "Boards" in cells(html)
    assert 'data-testid="not-played-note"' not in html


def test_the_standings_command_shows_them_too(director):
    import io

    from django.core.management import call_command

    night = build_night(director)
    row = _not_played(night)
    out = io.StringIO()
    call_command("standings", str(night.event.pk), "--format", "text", stdout=out)
    data = standings.standings(night.event)
    ns = next(r for r in data["rankings"][0]["rows"] if r["pair"] == row.ns_pair.number)
    text = out.getvalue()
    assert f"{ns['boards']} of {ns['boards'] + 1}" in text
    assert "A board not played at a pair's table is not compared" in text
