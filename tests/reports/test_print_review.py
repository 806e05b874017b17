"""From a review of the printed documents and the print room (decision 207): the overall
standings follow every session, are not made for one session and head a carried-over
session "counts 50%"; the print room says what each document is for and when its file was
made; a ranking keeps together on its page; guide cards say nothing of scores; a team
match's margin is printed."""

from __future__ import annotations

import datetime
import re

import pytest
from django.utils import timezone
from django.utils.html import escape

from tournaments import presenters, services, standings
from tournaments.models import Event, ReportJob
from tournaments.reports import services as reports
from tournaments.reports.documents import (
    GuidecardsRenderer,
    HandRecordsRenderer,
    OverallRenderer,
    StandingsRenderer,
)
from tournaments.services import Actor, ServiceError

from .pdf import cells, pdf_pages, pdf_text
from .test_overall_pdf import two_sessions
from .test_renderers import render

STALE = reports.STALE_EVENT


def _print(client, event, held_jobs, capture, kind="overall") -> dict:
    with capture(execute=True):
        client.post(f"/events/{event.pk}/reports/{kind}/")
    assert held_jobs.run() == 1
    return client.get(f"/events/{event.pk}/reports/{kind}/status/").json()


def _message(client, event, kind="overall") -> str:
    return client.get(f"/events/{event.pk}/reports/{kind}/status/").json()["message"]


# --- the overall standings follow every session (defect 2) ---------------------------------


def test_every_sessions_overall_copy_goes_out_of_date_with_any_session(
        director, director_client, held_jobs, django_capture_on_commit_callbacks):
    capture = django_capture_on_commit_callbacks
    actor = Actor.director(director)
    first, second = two_sessions(director)
    for session in (first, second):
        assert _print(director_client, session, held_jobs, capture)["message"] == "Ready."
    # The carry-over, set from session 2's console, is kept on session 1: both copies show
    # it (session 2's had stayed "Ready.").
    services.carry_over_set(event=second, percent=100, actor=actor)
    assert _message(director_client, first) == STALE
    assert _message(director_client, second) == STALE
    for session in (first, second):
        assert _print(director_client, session, held_jobs, capture)["message"] == "Ready."
    # A result corrected in session 2: session 1's copy is out of date too.
    services.result_void(result=second.results.filter(voided=False).first(), actor=actor,
                         reason="entered at the wrong table")
    assert _message(director_client, first) == STALE
    assert _message(director_client, second) == STALE
    for session in (first, second):
        assert _print(director_client, session, held_jobs, capture)["message"] == "Ready."
    # And the other way: a result corrected in session 1 dates session 2's copy.
    services.result_void(result=first.results.filter(voided=False).first(), actor=actor,
                         reason="entered at the wrong table")
    assert _message(director_client, second) == STALE
    assert _message(director_client, first) == STALE
    # A session's own standings still follow that session alone.
    assert _print(director_client, second, held_jobs, capture, "standings")["message"] == \
        "Ready."
    services.result_void(result=first.results.filter(voided=False).first(), actor=actor,
                         reason="entered at the wrong table")
    assert _message(director_client, second, "standings") == "Ready."


def test_the_overall_job_keeps_the_sum_of_the_sessions_change_numbers(
        director, django_capture_on_commit_callbacks):
    first, second = two_sessions(director)
    with django_capture_on_commit_callbacks(execute=True):
        job = reports.report_request(event=second, kind="overall",
                                     actor=Actor.director(director))
    job.refresh_from_db()
    seqs = Event.objects.filter(pk__in=[first.pk, second.pk]).values_list("seq", flat=True)
    assert job.status == ReportJob.Status.DONE and job.seq == sum(seqs)
    # Adding a session takes session 1's next change number: the copy is out of date.
    services.session_add(event=first, actor=Actor.director(director))
    job.refresh_from_db()
    assert reports.report_stale(job)


# --- not for one session (defect 3) -----------------------------------------------------------


def test_the_overall_standings_of_one_session_are_refused_in_words(director, director_client):
    actor = Actor.director(director)
    single = services.event_create(name="One night", date=datetime.date(2026, 11, 23),
                                   actor=actor)
    with pytest.raises(ServiceError, match="for an event of several sessions: print its "
                                           "standings"):
        reports.report_request(event=single, kind="overall", actor=actor)
    page = director_client.post(f"/events/{single.pk}/reports/overall/")
    assert page.status_code == 400
    assert "The overall standings are for an event of several sessions" in \
        page.content.decode()
    assert not ReportJob.objects.filter(event=single).exists()
    # The web page is the site's 404, as a team match's: its standings are the ranking.
    assert director_client.get(f"/events/{single.pk}/overall/").status_code == 404
    first, second = two_sessions(director)
    for session in (first, second):
        assert director_client.get(f"/events/{session.pk}/overall/").status_code == 200
        reports.report_request(event=session, kind="overall", actor=actor)  # not refused


# --- the print room's words (defect 4) --------------------------------------------------------


def test_the_print_room_says_what_each_document_is_for(director, director_client, night):
    page = director_client.get(f"/events/{night.event.pk}/reports/").content.decode()
    for kind, words in (("travellers", "Each board's results"),
                        ("standings", "The places and scores"),
                        ("scorecards", "A card per pair"),
                        ("guidecards", "A card per table and per pair, to put out before "
                                       "play: where to sit and where to go each round")):
        assert re.search(rf'data-testid="about-{kind}">{re.escape(escape(words))}', page), kind
    assert 'data-testid="hand-records-note"' in page
    assert "about-overall" not in page  # one session: no overall standings offered
    first, second = two_sessions(director)
    page = director_client.get(f"/events/{second.pk}/reports/").content.decode()
    assert "each earlier session counted at 50%" in page


def test_a_file_made_on_another_day_says_the_day(director_client, night, held_jobs,
                                                 django_capture_on_commit_callbacks,
                                                 monkeypatch):
    _print(director_client, night.event, held_jobs, django_capture_on_commit_callbacks,
           "standings")
    job = ReportJob.objects.get(event=night.event, kind="standings")
    made = timezone.localtime(job.updated_at)
    page = director_client.get(f"/events/{night.event.pk}/reports/").content.decode()
    assert f'data-testid="made">made {made:%H:%M}<' in page  # today: the time is enough
    # Made three days ago: the page names the day (in the server's time zone).
    ReportJob.objects.filter(pk=job.pk).update(
        updated_at=job.updated_at - datetime.timedelta(days=3))
    job.refresh_from_db()
    words = reports.made_words(job.updated_at)
    assert re.fullmatch(r"made \d{1,2} [A-Z][a-z]{2}( \d{4})?, \d\d:\d\d", words), words
    page = director_client.get(f"/events/{night.event.pk}/reports/").content.decode()
    assert f'data-testid="made">{words}<' in page
    assert reports.report_status(job)["made"] == words


def test_made_words_name_the_day_and_the_year_when_they_differ(settings, monkeypatch):
    settings.TIME_ZONE = "America/New_York"
    monkeypatch.setattr(reports.timezone, "localdate",
                        lambda *a, **k: datetime.date(2026, 11, 27))
    tz = timezone.get_default_timezone()
    at = datetime.datetime(2026, 11, 27, 4, 28, tzinfo=tz)
    assert reports.made_words(at) == "made 04:28"
    assert reports.made_words(at - datetime.timedelta(days=2, hours=7, minutes=23)) == \
        "made 24 Nov, 21:05"
    assert reports.made_words(datetime.datetime(2025, 12, 31, 23, 59, tzinfo=tz)) == \
        "made 31 Dec 2025, 23:59"
    # The server's day, not UTC's: 02:00 UTC on the 27th is the 26th in New York.
    assert reports.made_words(datetime.datetime(2026, 11, 27, 2, 0, tzinfo=datetime.UTC)) == \
        "made 26 Nov, 21:00"


# --- the overall PDF's heading and exact values (defect 5) ------------------------------------


def test_a_carried_over_sessions_heading_says_what_it_counts(director):
    first, _ = two_sessions(director)
    data = standings.overall_standings(first)
    text = cells(render(OverallRenderer, data)[1])
    assert "Session 1\ncounts 50%" in text  # as the web page says it
    assert "\nat 50%" not in text  # "at 50%" over the full score read as already halved
    # Every rounded value has its exact value on a line of its own beneath it: none beside.
    rounded = [(c["score"], c["exact"]) for r in data["rankings"][0]["rows"]
               for c in (r, *r["sessions"]) if c and presenters.is_rounded(c["score"],
                                                                            c["exact"])]
    assert rounded
    for shown, exact in rounded:
        assert f"{presenters.signed(shown)}\n({presenters.signed_exact(exact)})" in text
    assert not re.search(r"^[+−]?\d+ \(", text, re.M), text


def _overall_row(pair: int, score: int, exact: str, sessions: list) -> dict:
    return {"place": str(pair), "pair": pair, "names": [f"N{pair}", f"S{pair}"],
            "score": score, "exact": exact,
            "sessions": [None if s is None else {"score": s[0], "exact": s[1]}
                         for s in sessions]}


def test_short_and_long_exact_values_take_the_same_lines():
    """The review's page: "+58 (+57¹¹⁄₂₀)" on one line beside "+574 / (+574⁷⁄₄₀)" on two."""
    data = {"event": "Autumn pairs", "kind": "pairs", "method": "plus-minus",
            "carry_over": 50, "published": "none",
            "sessions": [{"session": 1, "counted": "50"}, {"session": 2, "counted": "100"}],
            "rankings": [{"direction": "ALL", "rows": [
                _overall_row(1, 574, "22967/40", [(639, "12779/20"), (255, "1019/4")]),
                _overall_row(2, 58, "1151/20", [(465, "9293/20"), (-175, "-697/4")]),
                _overall_row(3, -1455, "-29091/20", [(-1455, "-29091/20"), None])]}]}
    text = cells(render(OverallRenderer, data)[1])
    for shown, exact in (("+574", "+574⁷⁄₄₀"), ("+58", "+57¹¹⁄₂₀"), ("−1455", "−1454¹¹⁄₂₀"),
                         ("+255", "+254¾"), ("−175", "−174¼"), ("+639", "+638¹⁹⁄₂₀")):
        assert f"\n{shown}\n({exact})\n" in text, (shown, text)


# --- a ranking kept with its heading (defect 8) -----------------------------------------------


def _ranking(direction: str, section: str | None, first: int, count: int) -> dict:
    rows = [{"place": str(i + 1), "pair": first + i,
             "names": [f"Player {first + i}a", f"Player {first + i}b"],
             "score": 10 - i, "exact": str(10 - i), "boards": 12} for i in range(count)]
    return {"direction": direction, "section": section, "rows": rows}


def _heading_page(pages: list[str], heading: str) -> int:
    (found,) = [i for i, page in enumerate(pages) if re.search(rf"^{heading}$", page, re.M)]
    return found


def test_a_sections_ranking_stays_with_its_heading(settings):
    settings.REPORTS_PAGE_SIZE = "letter"
    # The review's night: the field's two rankings of ten, then each section's: A's
    # N–S had printed six rows on page 1 and its seventh alone on page 2.
    data = {"event": "Tuesday duplicate", "kind": "pairs", "method": "plus-minus",
            "published": "final",
            "rankings": [_ranking("NS", None, 1, 13), _ranking("EW", None, 101, 13)],
            "section_rankings": [_ranking("NS", "A", 1, 7), _ranking("EW", "A", 101, 7),
                                 _ranking("NS", "B", 10, 3), _ranking("EW", "B", 110, 3)]}
    pages = pdf_pages(render(StandingsRenderer, data)[1])
    assert len(pages) > 1
    for ranking in data["section_rankings"]:
        heading = StandingsRenderer.ranking_heading(ranking)
        page = pages[_heading_page(pages, heading)]
        under = page[re.search(rf"^{heading}$", page, re.M).start():]  # not the field's rows
        for row in ranking["rows"]:
            assert f"Player {row['pair']}a" in under, (heading, row["pair"])
    # "Each section's places" is never the last line of a page: it opens A's N–S.
    assert _heading_page(pages, "Each section's places") == \
        _heading_page(pages, "Section A, North–South")
    assert "(continued)" not in "".join(pages)


def test_a_ranking_longer_than_a_page_runs_on_under_continued(settings):
    settings.REPORTS_PAGE_SIZE = "letter"
    data = {"event": "Big night", "kind": "pairs", "method": "plus-minus",
            "published": "final", "rankings": [_ranking("NS", None, 1, 90)]}
    pages = pdf_pages(render(StandingsRenderer, data)[1])
    assert len(pages) >= 2
    # It begins under the title (the title is never left alone on a page).
    assert "Big night · standings" in pages[0] and "Player 1a" in pages[0]
    for page in pages[1:]:
        assert "North–South (continued)" in page and "Place" in page  # header row again
    text = "\n".join(pages)
    assert all(f"Player {n}a" in text for n in range(1, 91))


# --- guide cards hold no score; a team match's margin (defect 9) ------------------------------


def test_guide_cards_and_hand_records_do_not_say_scores_may_change(night):
    assert night.event.published == "provisional"
    standings_pdf = pdf_text(render(StandingsRenderer,
                                    reports.report_data(night.event, "standings"))[1])
    assert "provisional: scores may still change" in standings_pdf
    for kind, renderer in (("guidecards", GuidecardsRenderer),
                           ("handrecords", HandRecordsRenderer)):
        data = reports.report_data(night.event, kind)
        assert "published" not in data
        text = pdf_text(render(renderer, data)[1])
        assert "scores may still change" not in text, kind
        assert "not published" not in text, kind


def _match(exact: list[str], scores: list[int], winner: str | None, **kw) -> dict:
    return {"teams": ["Gramercy", "Murray Hill"], "exact": exact, "scores": scores,
            "winner": winner, **kw}


def test_a_team_match_says_its_margin_as_law_g_counts_it():
    """On the page and in the PDF alike (presenters.match_verdict). Law G disregards the
    fractions of the averages unless one is needed to avoid a tie: the margin is the shown
    totals' (a review read "1875 – 2384, Murray Hill won by 509⅓")."""
    match_verdict = presenters.match_verdict
    won = _match(["5624/3", "2384"], [1875, 2384], "Murray Hill", by_fraction=False)
    assert match_verdict(won) == "Murray Hill won by 509"
    half = _match(["13/2", "0"], [7, 0], "Gramercy", by_fraction=False)
    assert match_verdict(half) == "Gramercy won by 7"  # 6½ to the nearest whole, half up
    assert match_verdict(_match(["3719/3", "3721/3"], [1240, 1240], "Murray Hill",
                                by_fraction=True)) == \
        "Murray Hill won by the fraction of a point"
    assert match_verdict(_match(["10", "10"], [10, 10], None)) == "A tie"
    assert match_verdict({**won, "complete": False}) == \
        "Murray Hill leads by 509: not every board is in yet"
    data = {"event": "Challenge match", "kind": "teams", "method": "total-points",
            "published": "final", "matches": [{**won, "added": ["1589/3", "535"]}],
            "rankings": [{"direction": "ALL", "rows": [
                {"place": "1", "team": "Murray Hill", "matches_won": "1", "points": 2384},
                {"place": "2", "team": "Gramercy", "matches_won": "0", "points": 1875}]}]}
    text = " ".join(pdf_text(render(StandingsRenderer, data)[1]).split())
    assert "Murray Hill won by 509." in text
