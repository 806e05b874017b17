"""What the live pages show: standings, travellers, score cards and hand records."""

import datetime
import json
import re
from fractions import Fraction
from pathlib import Path

from django.template.loader import render_to_string
from django.test import Client

from tests.reports.night import build_night
from tournaments import presenters, selectors, services, standings
from tournaments.access import board_finished, finished_boards
from tournaments.models import Event, Result

from .helpers import sides_plain

# The shared example nights, as copied into the night-file tests.
NIGHTS = Path(__file__).resolve().parents[1] / "nights" / "data"


def page(client, night, path=""):
    response = client.get(f"/events/{night.event.pk}/{path}")
    assert response.status_code == 200
    return response.content.decode()


def cells(html: str) -> list[str]:
    """The text of each table cell, tags stripped."""
    return [re.sub(r"<[^>]+>", "", c).strip()
            for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", html, re.S)]


def test_a_mitchell_has_north_south_and_east_west_rankings(client, night):
    html = page(client, night, "standings/")
    data = standings.standings(night.event)
    assert [r["direction"] for r in data["rankings"]] == ["NS", "EW"]
    assert "<h2>North–South</h2>" in html and "<h2>East–West</h2>" in html
    text = cells(html)
    for ranking in data["rankings"]:
        for row in ranking["rows"]:
            at = text.index(" &amp; ".join(row["names"]).replace("&amp;", "&"))
            shown = f"+{row['score']}" if row["score"] > 0 else (
                f"−{-row['score']}" if row["score"] < 0 else "0")
            assert text[at - 2:at + 3] == [row["place"], str(row["pair"]),
                                           " & ".join(row["names"]), shown,
                                           str(row["boards"])]
            assert f'title="exactly {presenters.signed_exact(row["exact"])}"' in html


def test_a_howell_has_one_ranking(client, director):
    night = build_night(director, movement="howell", tables=3, boards_per_round=3)
    html = page(client, night, "standings/")
    assert "<h2>All pairs</h2>" in html
    assert "North–South" not in html


def test_matchpoints_are_shown_as_percentages(client, director):
    night = build_night(director, method="matchpoints")
    html = page(client, night, "standings/")
    for ranking in standings.standings(night.event)["rankings"]:
        for row in ranking["rows"]:
            assert f"{row['score']:.2f}%" in html


def test_a_team_match_shows_scores_and_the_winner(client, director):
    from tournaments import services
    from tournaments.nightfile import night_import
    from tournaments.services import Actor

    data = json.loads((NIGHTS / "night-teams.json").read_text())
    event = night_import(data=data, actor=Actor.system("import"))
    services.event_publish(event=event, level="final", actor=Actor.director(director))
    html = client.get(f"/events/{event.pk}/standings/").content.decode()
    match = standings.standings(event)["matches"][0]
    assert match["complete"] is True  # every board in: won, not led
    assert f"{match['winner']} won" in html
    for team, score, exact in zip(match["teams"], match["scores"], match["exact"], strict=True):
        assert team in html
        assert f'title="exactly {presenters.exact(exact)}">{score}<' in html
    # A team match is scored by total points: its traveller and score cards have no ±.
    traveller = client.get(f"/events/{event.pk}/boards/1/").content.decode()
    assert "Net N–S" in traveller and "N–S ±" not in traveller
    # Nor an average of the tables: Duplicate Law G compares the totals won, not scores
    # against the average (Law H).
    assert "Average" not in traveller
    assert standings.standings(event)["matches"] and all(
        t["average"] is None for t in selectors.travellers(event))
    card = client.get(f"/events/{event.pk}/pairs/1/").content.decode()
    assert "Kemp 61 & Lowe 61" in card
    # Each card adds what its pair won for its team (Duplicate Law G: the totals won by
    # its pairs), not the pair contest's net score: a team's cards add up to the match's
    # "Won by its pairs".
    assert "Points won" in card and "Total won for the team" in card and "±" not in card
    won: dict[str, Fraction] = {}
    team_of = dict(event.pairs.values_list("number", "team__name"))
    for pair_card in selectors.scorecards(event):
        total = Fraction(pair_card["total"])
        assert total == sum(Fraction(r["plus_minus"]) for r in pair_card["rows"])
        won[team_of[pair_card["pair"]]] = won.get(team_of[pair_card["pair"]], 0) + total
        shown = client.get(f"/events/{event.pk}/pairs/{pair_card['pair']}/").content.decode()
        assert f'data-testid="total">{presenters.exact(total)}<' in shown
    for team, exact, added in zip(match["teams"], match["exact"], match["added"], strict=True):
        assert won[team] == Fraction(exact) - Fraction(added)


def test_won_by_the_fraction_of_a_point_is_said(rf):
    event = Event(pk=1, name="Club match", published="final")
    table = {"kind": "teams", "method": "total-points", "published": "final", "matches": [
        {"teams": ["Knickerbocker", "Manhattan"], "scores": [1240, 1240],
         "exact": ["3719/3", "3721/3"], "winner": "Manhattan", "by_fraction": True}],
        "rankings": [{"direction": "ALL", "rows": []}]}
    html = render_to_string("tournaments/public/_standings.html",
                            {"event": event, "standings": table})
    assert "Manhattan won by the fraction of a point" in html
    # The fraction that decides is on the page, not only in a title a phone cannot show.
    shown = "\n".join(cells(html))
    assert "Knickerbocker\n1239⅔\n1239⅔ (shown 1240)" in shown
    assert "Manhattan\n1240⅓\n1240⅓ (shown 1240)" in shown
    assert "the exact totals decide" in html
    # With an odd pair, what each team added (Duplicate Law G, rules.md §5).
    table["matches"][0]["added"] = ["400/3", "130"]
    shown = "\n".join(cells(render_to_string("tournaments/public/_standings.html",
                                             {"event": event, "standings": table})))
    assert "Knickerbocker\n1106⅓\n133⅓\n1239⅔ (shown 1240)" in shown
    assert "Manhattan\n1110⅓\n130\n1240⅓ (shown 1240)" in shown


def test_the_traveller_shows_every_result_of_the_board(client, night):
    html = page(client, night, "boards/1/")
    traveller = selectors.traveller(night.event, 1)
    assert len(traveller["rows"]) == 3
    text = cells(html)
    for row in traveller["rows"]:
        at = text.index(str(row["ns"]))
        contract = f"{row['level']}"  # the suit symbol follows, in its colour
        assert text[at + 2].startswith(contract)
        assert text[at + 3] == row["declarer"]
        assert text[at + 4] == str(row["tricks"])
        # The pairs' scores (net, then each side's plus/minus) before each side's trick and
        # honour scores: a phone shows them without scrolling.
        assert text[at + 5:at + 8] == [presenters.signed(row["net_ns"]),
                                       presenters.signed(row["ns_shown"]),
                                       presenters.signed(row["ew_shown"])]
        assert text[at + 8:at + 12] == [str(row[k]) for k in (
            "ns_trick", "ns_honour", "ew_trick", "ew_honour")]
        assert f'title="exactly {presenters.signed_exact(row["ns_plus_minus"])}"' in html
    # Board 1 is hearts (the builder's contracts): the red heart, from the bridge tags.
    assert '<span class="red">♥</span>' in html
    assert "<p>Dealer North." in html  # the seat's name, from the presenters (rules.md §1)
    assert "<p>Dealer East." in page(client, night, "boards/2/")


def test_a_fraction_is_shown_whole_with_the_exact_value_on_hover(client, night):
    rows = [r for n in range(1, 7) for r in selectors.traveller(night.event, n)["rows"]
            if r["ns_plus_minus"] and "/" in r["ns_plus_minus"]]
    assert rows, "the night should have a fractional plus/minus"
    row = rows[0]
    board = next(n for n in range(1, 7)
                 if row in selectors.traveller(night.event, n)["rows"])
    html = page(client, night, f"boards/{board}/")
    shown = f"+{row['ns_shown']}" if row["ns_shown"] > 0 else (
        f"−{-row['ns_shown']}" if row["ns_shown"] < 0 else "0")
    assert f'title="exactly {presenters.signed_exact(row["ns_plus_minus"])}">{shown}</td>' in html


# A figure of an unsigned exact value: a title "exactly 4⅓" (not "0") under a "+4".
UNSIGNED = re.compile(r'title="exactly (?!0")[0-9½⅓⅔¼¾⅕⅖⅗⅘⅙⅚⅛⅜⅝⅞¹²³⁴⁵⁶⁷⁸⁹]')


def test_a_positive_exact_value_is_written_with_its_plus(client, night):
    """"Score +4", "exactly 4⅓" read as if the exact value had lost its sign: a plus/minus
    written exactly keeps it, "+4⅓", as "−1⅔" keeps its minus (docs/decisions.md, 200)."""
    data = standings.standings(night.event)
    row = next(r for ranking in data["rankings"] for r in ranking["rows"]
               if "/" in r["exact"] and Fraction(r["exact"]) > 0)
    written = presenters.signed_exact(row["exact"])
    assert written.startswith("+") and written[1:] == presenters.exact(row["exact"])
    html = page(client, night, "standings/")
    assert f'title="exactly {written}">{presenters.signed(row["score"])}</td>' in html
    assert not UNSIGNED.search(html)
    card = selectors.scorecard(night.event, row["pair"])
    html = page(client, night, f"pairs/{row['pair']}/")
    assert (f'title="exactly {presenters.signed_exact(card["total"])}" data-testid="total">'
            f'{presenters.signed(card["shown"])}</th>') in html
    assert not UNSIGNED.search(html)
    for number in range(1, 7):
        html = page(client, night, f"boards/{number}/")
        assert not UNSIGNED.search(html), number
        # The average of the tables is an average score, not a plus/minus: as it is.
        average = selectors.traveller(night.event, number)["average"]
        if average:
            assert f"N–S {presenters.exact(average['ns'])}," in html


def test_matchpoints_on_a_tap_take_no_sign(client, director):
    night = build_night(director, method="matchpoints")
    for number in range(1, 7):
        html = page(client, night, f"boards/{number}/")
        assert 'title="exactly +' not in html
    card = page(client, night, "pairs/1/")
    assert 'data-testid="matchpoints">+' not in card and 'data-testid="running">+' not in card


def test_a_matchpoint_traveller_writes_matchpoints_exactly_and_unsigned(client, director):
    night = build_night(director, method="matchpoints")
    traveller = selectors.traveller(night.event, 1)
    text = cells(page(client, night, "boards/1/"))
    for row in traveller["rows"]:
        at = text.index(str(row["ns"]))
        # Net N-S is signed; matchpoints are counted, as the score card writes them.
        assert text[at + 6:at + 8] == [presenters.exact(row["ns_plus_minus"]),
                                       presenters.exact(row["ew_plus_minus"])]
    # Written exactly, they need no tap to say them exactly again.
    assert 'title="exactly' not in page(client, night, "boards/1/")


def test_a_traveller_names_the_revokes_and_penalties_its_scores_count(client, night):
    from tournaments.reports.documents import TravellersRenderer

    result = Result.objects.filter(event=night.event, board__number=1, ruling="").first()
    declaring = "N–S" if result.declarer in ("N", "S") else "E–W"
    defending = "E–W" if declaring == "N–S" else "N–S"
    services.result_correct(
        result=result, actor=services.Actor.director(night.director), reason="revoke found",
        data={"contract": {"level": result.level, "denomination": result.denomination,
                           "declarer": result.declarer},
              "tricks": result.tricks, "revokes": {"declaring": 0, "defending": 1,
                                                    "first_penalty": "points"},
              "penalties": [{"law": "90", "by": "W"}]})
    standings.clear_cache()
    marks = [f"a revoke by {defending}", "penalty on W"]
    row = next(r for r in selectors.traveller(night.event, 1)["rows"]
               if r["result_id"] == result.pk)
    assert row["marks"] == marks
    others = [r for r in selectors.traveller(night.event, 1)["rows"] if r is not row]
    assert all(r["marks"] == [] for r in others if r["result_id"] != result.pk)
    html = page(client, night, "boards/1/")
    for mark in marks:
        assert f'<span class="mark" data-testid="result-mark">{mark}</span>' in html
    cell = TravellersRenderer()._result_row(row, whist=False, compared=True).cells[2]
    assert [line[0].text for line in cell.lines[1:]] == marks


def test_a_ruling_is_named_on_the_traveller(client, night):
    html = page(client, night, "boards/6/")
    assert "Average (Duplicate Law B)" in html


def test_the_score_card_runs_board_by_board(client, night):
    html = page(client, night, "pairs/1/")
    card = selectors.scorecard(night.event, 1)
    assert "Pair 1: Ann Lee & Bob Ray" in html
    assert len(card["rows"]) == 6
    for row in card["rows"]:
        assert f'href="/events/{night.event.pk}/boards/{row["board"]}/"' in html
        assert f'title="exactly {presenters.signed_exact(row["running"])}"' in html
    total = card["shown"]
    shown = f"+{total}" if total > 0 else (f"−{-total}" if total < 0 else "0")
    assert f'data-testid="total">{shown}</th>' in html


def test_a_score_card_with_rounded_scores_says_how_the_running_total_adds_up(client, night):
    """A board's plus/minus in thirds shows rounded (+18⅓ as +18); the running total adds
    the exact scores, so a member adding the rounded ones can be a point out: the card
    says so, and only where a score is rounded."""
    cards = {n: selectors.scorecard(night.event, n) for n in range(1, 7)}
    rounded = [n for n, card in cards.items() if any(
        r["plus_minus"] is not None and "/" in r["plus_minus"] for r in card["rows"])]
    assert rounded, "the night should have a pair with a fractional plus/minus"
    assert cards[rounded[0]]["rounded"]
    note = "the running total adds the exact scores"
    assert note in page(client, night, f"pairs/{rounded[0]}/")
    # Every score whole: nothing to say.
    whole = {**cards[rounded[0]], "rounded": False}
    html = render_to_string("tournaments/public/_pair.html",
                            {"card": whole, "event": night.event})
    assert 'data-testid="scorecard"' in html and note not in html


class TestHandRecord:
    def test_hidden_until_every_table_has_played_the_board(self, client, director):
        night = build_night(director, play=False)
        night.play(rounds=1)  # board 1 is played at one table of three
        assert not board_finished(night.event, 1)
        # The public sees nothing of a board still being played (access.py): no cards,
        # and no contract or tricks either.
        response = client.get(f"/events/{night.event.pk}/boards/1/")
        assert response.status_code == 403
        html = response.content.decode()
        assert 'data-testid="hand-record"' not in html and 'data-testid="traveller"' not in html
        assert "still being played" in html
        assert "AQJ84" not in html and "A Q J 8 4" not in html

    def test_hidden_from_the_director_too_while_tables_still_play_it(self, director_client,
                                                                     director):
        night = build_night(director, play=False)
        night.play(rounds=1)
        assert 'data-testid="hand-record"' not in page(director_client, night, "boards/1/")

    def test_shown_with_its_diagram_once_finished(self, client, night):
        assert board_finished(night.event, 1)
        html = page(client, night, "boards/1/")
        assert 'data-testid="hand-record"' in html
        # North holds T82 of spades and AQJ84 of hearts: suits in colour, the ten as 10.
        north = html[html.index('class="hand N"'):]
        north = north[:north.index("</div>")]
        assert '<span class="black">♠</span> 10 8 2' in north
        assert '<span class="red">♥</span> A Q J 8 4' in north
        for seat in ("North", "East", "South", "West"):
            assert f"<b>{seat}</b>" in html

    def test_a_board_without_a_deal_has_no_hand_record(self, client, night):
        html = page(client, night, "boards/6/")
        assert 'data-testid="hand-record"' not in html
        assert 'data-testid="hand-hidden"' not in html

    def test_a_board_no_meeting_plays_is_never_finished(self, director):
        # With a movement, "finished" counts the meetings that play a board: a result the
        # director entered for a board the movement does not play finishes nothing, in
        # the one-board check as in the whole-event one.
        from tournaments.models import Meeting

        night = build_night(director, play=False)
        night.play(rounds=1)
        for meeting in Meeting.objects.filter(section__event=night.event):
            meeting.boards = [b for b in meeting.boards if b != 1]
            meeting.save(update_fields=["boards"])
        assert 1 not in finished_boards(night.event)
        assert not board_finished(night.event, 1)

    def test_the_event_page_marks_finished_boards(self, client, director):
        night = build_night(director, play=False)
        night.play(rounds=2)
        finished = finished_boards(night.event)
        # Two rounds of a three-table Mitchell: no board set has been at all three tables.
        assert finished == set()
        services.round_agree(section=night.event.sections.get(), round_number=2,
                             actor=night.actor)  # the tables move on to round 3
        for meeting in night.meetings():
            if meeting.round == 3 and meeting.table != 3:
                for board in meeting.boards:
                    night.enter(meeting, board)
        finished = finished_boards(night.event)
        for number in range(1, 7):
            assert (number in finished) == board_finished(night.event, number)
        html = page(client, night)
        assert html.count("Finished: hand record available") == len(finished)


def test_a_whist_night_shows_tricks_not_contracts(client, director):
    night = build_night(director, name="Whist night", rules="duplicate-whist")
    html = page(client, night, "boards/1/")
    # The traveller's counts are after any revoke (tricks scored), the card's in play.
    assert "<th class=\"num\">N–S tricks<br>scored</th>" in html and "Contract" not in html
    assert 'data-testid="tricks-scored-note"' in html
    row = selectors.traveller(night.event, 1)["rows"][0]
    assert row["ns_trick"] + row["ew_trick"] == 13
    card = page(client, night, "pairs/1/")
    assert "Tricks won in play" in card and "N–S tricks won" not in card
    # An E–W pair's card gives its own side's tricks, and its score as a count.
    ew = row["ew"]
    text = "\n".join(cells(page(client, night, f"pairs/{ew}/")))
    assert f"1\nE–W\n{row['ns']}\n{13 - row['tricks']}\n{row['ew_score']}\n" in text


def test_a_score_card_says_a_revoke_the_score_counts(client, director):
    """A whist card gives the tricks won in play and the score after a revoke's penalty:
    it says the revoke, as the traveller does, or 7 tricks scoring 10 is unexplained."""
    from tournaments.services import Actor

    night = build_night(director, name="Whist night", rules="duplicate-whist")
    result = Result.objects.filter(event=night.event, board__number=2, ruling="").first()
    services.result_correct(result=result, actor=Actor.director(director),
                            data={"tricks_ns": 3, "revokes": {"NS": 1, "EW": 0}},
                            reason="a revoke found after the round")
    for pair in (result.ns_pair.number, result.ew_pair.number):
        text = "\n".join(cells(page(client, night, f"pairs/{pair}/")))
        assert "a revoke by N–S" in text, pair
    assert "a revoke by N–S" in page(client, night, "boards/2/")


def test_a_match_not_yet_complete_is_led_not_won(rf):
    # Five boards of twelve in: "Home won" read as the result of the match.
    event = Event(pk=1, name="Club match", published="provisional")
    table = {"kind": "teams", "method": "total-points", "published": "provisional",
             "complete": False, "matches": [
                 {"teams": ["Home", "Away"], "scores": [116, 70], "exact": ["116", "70"],
                  "winner": "Home", "by_fraction": False, "complete": False}],
             "rankings": [{"direction": "ALL", "rows": []}]}
    html = render_to_string("tournaments/public/_standings.html",
                            {"event": event, "standings": table})
    assert "Home leads by 46: not every board is in yet" in html and "Home won" not in html
    assert "so far (led)" in html
    level = {**table["matches"][0], "winner": None}
    assert presenters.match_verdict(level) == "Level: not every board is in yet"
    assert presenters.match_verdict({**level, "complete": True}) == "A tie"


def test_the_standings_know_when_a_match_is_complete(client, director):
    from tests.reports.night import build_night

    night = build_night(director, play=False)
    event = night.event
    event.kind, event.method = "teams", "total-points"
    event.save(update_fields=["kind", "method"])
    standings.clear_cache()
    assert standings.standings(event)["complete"] is False


def test_a_team_match_with_no_result_and_no_movement_is_not_complete(director):
    """An empty teams night (no movement yet, nothing played) has no winner to call: it is
    not "complete"."""
    event = services.event_create(name="Challenge match", date=datetime.date(2026, 11, 20),
                                  rules="american-1913", kind="teams",
                                  actor=services.Actor.director(director))
    data = standings.standings(event)
    assert data["matches"] == [] and data["complete"] is False


def test_sections_ranked_apart_show_their_own_averages_and_say_so(director_client, director):
    """Compared within each section (Duplicate Law H, decision 125), the traveller gives
    each section's average and each row's section, and the standings say what a pair was
    compared with."""
    from tests.tournaments.test_sections import _play, two_section_night
    from tournaments.models import Meeting

    actor = services.Actor.director(director)
    event = two_section_night(actor, by_section=True)
    _play(event, actor)
    services.event_publish(event=event, level="provisional", actor=actor)
    board = Meeting.objects.get(section__event=event, section__name="A", round=1,
                                table=1).boards[0]
    # The director sees a board's traveller before every table has played it.
    page = director_client.get(f"/events/{event.pk}/boards/{board}/").content.decode()
    assert "Average of the tables in section A: N–S " in page and "; in section B: " in page
    assert page.count('data-testid="row-section"') == 2
    # The public's standings (director_client logged the shared `client` in: a new one).
    text = Client().get(f"/events/{event.pk}/standings/").content.decode()
    assert "the average of the pairs of the same section who held the same cards" in text


def test_a_team_matchs_ruled_board_says_its_award_on_the_traveller(director_client, director):
    """Duplicate Law B(3) in a team match: an average board scores each side the average
    of the totals won at the other tables. The traveller says what it awards, as the
    pair's card adds it."""
    from tournaments.nightfile import night_import
    from tournaments.reports.base import contract_words

    data = json.loads((NIGHTS / "night-teams.json").read_text())
    event = night_import(data=data, actor=services.Actor.system("import"))
    Event.objects.filter(pk=event.pk).update(status="running")
    event.refresh_from_db()
    first = event.results.filter(board__number=1, voided=False).order_by("id").first()
    services.result_correct(result=first, actor=services.Actor.director(director),
                            ruling="average", reason="fouled in the shuffle")
    standings.clear_cache()
    row = next(r for r in selectors.traveller(event, 1)["rows"] if r["ruling"])
    others = [r for r in selectors.traveller(event, 1)["rows"] if not r["ruling"]]
    ns = Fraction(sum(r["ns_trick"] + r["ns_honour"] for r in others), len(others))
    assert Fraction(row["award"][0]) == ns
    words = presenters.award_words(row)
    assert words == f"awarded N–S {presenters.exact(ns)}, E–W {presenters.exact(row['award'][1])}"
    page = sides_plain(director_client.get(f"/events/{event.pk}/boards/1/").content.decode())
    assert f'<span data-testid="ruling">{presenters.ruling_words(row)}</span>' in page
    assert contract_words(row).endswith(f"; {words}")  # the printed traveller's words
