"""Numbers and words as people read them, on every page, PDF and text of a night.

A night with fractional plus/minus (three tables: averages in thirds and sixths) is
rendered everywhere a person reads it; no text may hold an improper fraction ("949/6")
or a hyphen-minus before a number ("-7"), and no banner or error list may start with a
small letter.
"""

import datetime
import io
import re
from html import unescape

import pytest
from django.core.management import call_command
from django.utils import timezone

from tests.reports.night import build_night
from tests.reports.pdf import pdf_text
from tournaments import presenters, standings
from tournaments.models import Meeting, TableCode
from tournaments.reports.documents import (
    ScorecardsRenderer,
    StandingsRenderer,
    TravellersRenderer,
)
from tournaments.reports.services import report_data
from tournaments.services import tables_words

FRACTION = re.compile(r"\d+/\d+")
HYPHEN_MINUS = re.compile(r"(?<![\w–-])-\d")


def readable(html: str) -> str:
    """What a person reads on a page: its text and its tooltips (title attributes)."""
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    titles = " ".join(re.findall(r'title="([^"]*)"', html))
    return unescape(re.sub(r"<[^>]+>", " ", html) + " " + titles)


def assert_reads_well(text: str, where: str) -> None:
    assert not FRACTION.findall(text), (where, FRACTION.findall(text)[:5])
    assert not HYPHEN_MINUS.findall(text), (where, re.findall(r".{20}(?<![\w–-])-\d.{5}", text))


@pytest.fixture
def night(db, director):
    return build_night(director)


def test_the_night_really_has_fractions(night):
    exact = [r["exact"] for ranking in standings.standings(night.event)["rankings"]
             for r in ranking["rows"]]
    assert any("/" in e for e in exact) and any(e.startswith("-") for e in exact)


def test_no_page_shows_an_improper_fraction_or_a_hyphen_minus(client, director_client, night):
    event = night.event
    pages = [f"/events/{event.pk}/", f"/events/{event.pk}/standings/"]
    pages += [f"/events/{event.pk}/boards/{n}/" for n in range(1, 7)]
    pages += [f"/events/{event.pk}/pairs/{n}/" for n in range(1, 7)]
    for url in pages:
        response = client.get(url)
        assert response.status_code == 200, url
        assert_reads_well(readable(response.content.decode()), url)
    first = Meeting.objects.filter(section__event=event).order_by("round", "table").first()
    director_pages = [f"/director/events/{event.pk}/", f"/director/events/{event.pk}/audit/",
                      f"/director/events/{event.pk}/meetings/{first.pk}/",
                      f"/director/events/{event.pk}/movement/"]
    for url in director_pages:
        response = director_client.get(url)
        assert response.status_code == 200, url
        assert_reads_well(readable(response.content.decode()), url)
    code = TableCode.objects.filter(section__event=event).order_by("table").first().code
    for url in (f"/t/{code}/", f"/t/{code}/round/3/", f"/t/{code}/round/3/board/5/",
                f"/t/{code}/board/5/traveller/"):
        response = client.get(url, follow=True)
        assert response.status_code == 200, url
        assert_reads_well(readable(response.content.decode()), url)


def test_the_exact_value_is_on_tap_as_a_mixed_number(client, night):
    html = client.get(f"/events/{night.event.pk}/standings/").content.decode()
    rows = [r for ranking in standings.standings(night.event)["rankings"]
            for r in ranking["rows"] if "/" in r["exact"]]
    assert rows
    # Signed, as the score it is exact of: "+4⅓", "−40⅓" (decisions, 200).
    assert re.search(r'title="exactly [+−]\d*[½⅓⅔¼¾⅕⅖⅗⅘⅙⅚⅛⅜⅝⅞]"', html)
    assert not re.search(r'title="exactly \d*[½⅓⅔¼¾⅕⅖⅗⅘⅙⅚⅛⅜⅝⅞]"', html)
    assert "−" in html and "&minus;" not in html


def test_no_pdf_or_text_shows_an_improper_fraction_or_a_hyphen_minus(night):
    event = night.event
    for renderer, kind in ((StandingsRenderer, None), (TravellersRenderer, "travellers"),
                           (ScorecardsRenderer, "scorecards")):
        data = standings.standings(event) if kind is None else report_data(event, kind)
        _, _, content = renderer(progress=lambda *a: None).render(data)
        assert_reads_well(pdf_text(content), renderer.__name__)
    out = io.StringIO()
    call_command("standings", str(event.pk), "--format", "text", stdout=out)
    assert_reads_well(out.getvalue(), "standings --format text")
    assert "plus/minus against the average (Duplicate Law H)" in out.getvalue()
    # Programs keep their exact fraction strings (interfaces.md §3).
    out = io.StringIO()
    call_command("standings", str(event.pk), "--format", "json", stdout=out)
    assert FRACTION.search(out.getvalue())


def test_the_text_standings_give_a_fraction_exactly(night):
    """A pair at −⅓ showed "0" in the text standings, with no way to see the third."""
    data = standings.standings(night.event)
    fractional = [r for ranking in data["rankings"] for r in ranking["rows"]
                  if "/" in r["exact"]]
    assert fractional
    out = io.StringIO()
    call_command("standings", str(night.event.pk), "--format", "text", stdout=out)
    text = out.getvalue()
    assert "Exact" in text.splitlines()[3]
    for row in fractional:
        line = next(line for line in text.splitlines()
                    if re.match(rf"\S+\s+{row['pair']}\s", line) and row["names"][0] in line)
        assert presenters.signed_exact(row["exact"]) in line.split()


def test_the_text_standings_name_a_substitute(night):
    """The JSON and the pages gave the substitute; the text standings dropped them."""
    from tournaments import services

    services.substitute_set(event=night.event, number=2, seat=2, player="Max Nye",
                            from_round=3, actor=night.actor, reason="Di Eck left early")
    out = io.StringIO()
    call_command("standings", str(night.event.pk), "--format", "text", stdout=out)
    assert "Cy Dow & Di Eck (Max Nye for Di Eck from round 3)" in out.getvalue()


# --- messages start with a capital --------------------------------------------------------------

BANNERS = re.compile(r'<(?:li class="(?:error|success|info|warning)[^"]*"'
                     r'|p class="field-error"[^>]*'
                     r'|div class="(?:nonfield|field-error)"[^>]*)>\s*(?:<p>)?\s*([^<\s])')


def first_letters(html: str) -> list[str]:
    return BANNERS.findall(html)


def test_banners_and_error_lists_start_with_a_capital(client, director_client, director):
    from tests.web.conftest import PAIR_NAMES, console_event

    event = console_event(director_client)
    bad_pairs = director_client.post(f"/director/events/{event.pk}/pairs/",
                                     {"pairs": "Ann Lee\nBob Ray & Cy Dow"})
    empty_event = director_client.post("/director/events/new/", {"name": "", "date": "x"})
    director_client.post(f"/director/events/{event.pk}/pairs/",
                         {"pairs": "\n".join(PAIR_NAMES[:8])})
    bad_movement = director_client.post(f"/director/events/{event.pk}/movement/", {
        "kind": "mitchell", "tables": "4", "boards_per_round": "2", "variant": "",
        "action": "show"})
    closing = director_client.post(f"/director/events/{event.pk}/close/", follow=True)
    wrong_code = client.get("/t/NOPE99/")
    pages = {"pairs": bad_pairs, "event": empty_event, "movement": bad_movement,
             "close": closing, "code": wrong_code}
    seen = 0
    for name, response in pages.items():
        letters = first_letters(response.content.decode())
        seen += len(letters)
        assert all(not ch.islower() for ch in letters), (name, letters)
    assert seen >= 5


# --- movements ----------------------------------------------------------------------------------


def test_movement_errors_say_how_many_tables_the_pairs_need(director_client):
    from tests.web.conftest import PAIR_NAMES, console_event

    event = console_event(director_client)
    names = PAIR_NAMES + [f"North {n} & South {n}" for n in range(len(PAIR_NAMES) + 1, 12)]
    director_client.post(f"/director/events/{event.pk}/pairs/", {"pairs": "\n".join(names[:10])})
    url = f"/director/events/{event.pk}/movement/"
    page = director_client.get(url).content.decode()
    assert 'name="tables" id="movement-tables" min="1" max="30" value="5"' in page  # pre-filled
    assert 'id="movement-ppt"' not in page  # pairs per team: only for a team match
    refused = director_client.post(url, {"kind": "mitchell", "tables": "4",
                                         "boards_per_round": "2", "action": "show"})
    assert "10 pairs need 5 tables" in refused.content.decode()


def test_a_howell_for_nine_pairs_is_four_tables_and_a_sit_out(director_client):
    from tests.web.conftest import PAIR_NAMES, console_event

    event = console_event(director_client)
    names = PAIR_NAMES + [f"North {n} & South {n}" for n in range(len(PAIR_NAMES) + 1, 12)]
    director_client.post(f"/director/events/{event.pk}/pairs/", {"pairs": "\n".join(names[:9])})
    url = f"/director/events/{event.pk}/movement/"
    shown = director_client.post(url, {"kind": "howell", "tables": "4",
                                       "boards_per_round": "2", "action": "show"})
    text = shown.content.decode()
    assert "4 tables and one sit-out, 9 pairs" in text, readable(text)[-800:]
    assert 'id="movement-sound"' in text
    assert tables_words("howell", 9, 4) == "9 pairs need 4 tables and one pair sits out each round"
    # Saved, the console's event page says the same of the room.
    saved = director_client.post(url, {"kind": "howell", "tables": "4",
                                       "boards_per_round": "2", "action": "save"})
    assert saved.status_code == 302, readable(saved.content.decode())[-800:]
    event_page = director_client.get(f"/director/events/{event.pk}/").content.decode()
    assert "Howell, 4 tables and one sit-out, 9 pairs" in event_page, readable(event_page)


# --- dates --------------------------------------------------------------------------------------


def test_a_new_event_defaults_to_the_clubs_today(director_client):
    page = director_client.get("/director/events/new/").content.decode()
    assert f'value="{timezone.localdate().isoformat()}"' in page


def test_the_demo_night_falls_on_its_tuesday():
    from tournaments.demo import club_night

    for day in range(14):
        today = datetime.date(2026, 11, 16) + datetime.timedelta(days=day)
        night = club_night(today)
        assert night.weekday() == 1 and 0 <= (today - night).days < 7


def test_every_page_writes_a_date_one_way(client, director_client, night):
    # "17 Nov 2026" wherever a date is written, not also "Nov. 17, 2026" or "2026-11-17".
    event = night.event
    shown = f"{event.date.day} {event.date:%b %Y}"
    assert presenters.day(event.date) == presenters.day(event.date.isoformat()) == shown
    for page, url in ((client, "/"), (director_client, "/director/"),
                      (director_client, f"/director/events/{event.pk}/"),
                      (director_client, f"/director/events/{event.pk}/sessions/")):
        text = readable(page.get(url).content.decode())
        assert shown in text, url
        assert event.date.isoformat() not in text and f"{event.date:%b}." not in text, url


def test_a_boards_average_is_exact_not_two_decimals(client, director):
    # Seven tables: averages in sevenths, which have no vulgar fraction. They read
    # "69⁶⁄₇" beside the rows' "(−27¹⁄₇)", not "69.86".
    event = build_night(director, tables=7).event
    averages = []
    for number in range(1, event.boards.count() + 1):
        text = readable(client.get(f"/events/{event.pk}/boards/{number}/").content.decode())
        found = re.search(r"Average of the tables: N–S (\S+), E–W (\S+)\.", text)
        if found:
            averages += found.groups()
    assert averages and any("⁄" in a for a in averages)
    assert not [a for a in averages if re.search(r"\d\.\d", a)]
    _, _, content = TravellersRenderer(progress=lambda *a: None).render(
        report_data(event, "travellers"))
    printed = re.findall(r"Average of the tables: N–S (\S+), E–W (\S+)",
                         " ".join(pdf_text(content).split()))
    assert printed and any("⁄" in a for pair in printed for a in pair)
    assert not [a for pair in printed for a in pair if re.search(r"\d\.\d", a)]
