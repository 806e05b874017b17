"""The overall standings PDF of an event of two sessions: a column per session, the total
in exact fractions, and the print room offers it only when there are sessions."""

import datetime

import pytest

from tests.tournaments.test_sessions import ONE_SPADE, THREE_HEARTS, Line, play
from tournaments import presenters, services, standings
from tournaments.reports import services as reports
from tournaments.reports.documents import OverallRenderer
from tournaments.services import Actor, ServiceError

from .pdf import cells, pdf_text
from .test_renderers import render


def two_sessions(director):
    actor = Actor.director(director)
    first = services.event_create(name="Autumn pairs", date=datetime.date(2026, 11, 23),
                                  actor=actor)
    services.pairs_set(event=first, lines=[Line(n) for n in range(1, 5)], actor=actor)
    services.boards_set(event=first, count=1, actor=actor)
    play(first, actor, (1, 1, 2, THREE_HEARTS), (1, 3, 4, ONE_SPADE))
    second = services.session_add(event=first, actor=actor)
    services.boards_set(event=second, count=1, actor=actor)
    play(second, actor, (1, 1, 3, ONE_SPADE), (1, 2, 4, THREE_HEARTS))
    services.carry_over_set(event=first, percent=50, actor=actor)
    first.refresh_from_db()
    return first, second


def test_the_overall_pdf_prints_each_session_and_the_total(director):
    first, _ = two_sessions(director)
    data = standings.overall_standings(first)
    filename, content, _ = render(OverallRenderer, data)
    assert filename == "autumn-pairs-overall.pdf"
    text = pdf_text(content)
    assert "Autumn pairs · overall standings" in text
    assert "Session 1" in text and "counts 50%" in text and "Session 2" in text
    assert "each earlier session counted at 50%" in text
    row = next(r for r in data["rankings"][0]["rows"] if r["pair"] == 1)
    total = row["exact"]
    assert "/" in total  # an odd session score halved: printed as a vulgar fraction
    assert "½" in cells(content)
    # The total as the standings show it, the nearest whole, its exact value beside it.
    shown = f"{presenters.signed(row['score'])} ({presenters.signed_exact(total)})"
    assert shown in " ".join(text.split()), text


def test_the_print_room_offers_it_for_sessions_only(director, client):
    client.force_login(director)
    first, second = two_sessions(director)
    assert "Overall standings" in client.get(f"/events/{second.pk}/reports/").content.decode()
    single = services.event_create(name="One night", date=datetime.date(2026, 11, 23),
                                   actor=Actor.director(director))
    assert "Overall standings" not in client.get(f"/events/{single.pk}/reports/"
                                                 ).content.decode()
    teams = services.event_create(name="Teams", date=datetime.date(2026, 11, 23),
                                  kind="teams", actor=Actor.director(director))
    with pytest.raises(ServiceError, match="no sessions"):
        reports.report_request(event=teams, kind="overall", actor=Actor.director(director))
