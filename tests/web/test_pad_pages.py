"""The score pad's pages: start a rubber, enter deals with the live score, correct the
last, see the period score sheet, its result and settlement."""

import html
import json
import subprocess
import sys

import pytest
from django.test import Client
from django.urls import reverse

from tournaments import services
from tournaments.models import Rubber

pytestmark = pytest.mark.django_db

FOUR = {"player_N": "Ann", "player_E": "Bob", "player_S": "Cy", "player_W": "Di"}


def start(client, **fields):
    data = {"game": "auction", "rules": "american-1913", "form": "plain", **FOUR, **fields}
    response = client.post(reverse("pad-create"), data)
    assert response.status_code == 302, response.content.decode()[:500]
    return Rubber.objects.get(code=response["Location"].rstrip("/").rsplit("/", 1)[-1])


def tap(level, denom, declarer, tricks, **more):
    return {"level": level, "denomination": denom, "declarer": declarer, "tricks": tricks,
            "doubled": "", **more}


def test_the_home_page_links_to_the_pad():
    page = Client().get("/").content.decode()
    assert "Keep a rubber score" in page and reverse("pad-home") in page


def test_the_new_pad_page_offers_the_three_games():
    page = Client().get(reverse("pad-home")).content.decode()
    for game in ("game-auction", "game-three-hand", "game-whist", "dummy-N", "player-A"):
        assert f'id="{game}"' in page
    assert "<script" not in page and "style=" not in page  # strict CSP: nothing inline


def test_a_pad_is_started_and_kept_deal_by_deal():
    client = Client()
    pad = start(client)
    sheet = client.get(reverse("pad-sheet", args=[pad.code])).content.decode()
    assert "Ann deals first" in sheet and "Enter deal 1" in sheet
    deal_url = reverse("pad-deal", args=[pad.code])
    form = client.get(deal_url).content.decode()
    assert "Deal 1" in form and "Ann deals" in form and "js/pad.js" in form
    assert client.post(deal_url, tap(1, "H", "S", 9, honours_N=2, honours_S=1)).status_code == 302
    assert client.post(deal_url, tap(2, "NT", "W", 9)).status_code == 302
    sheet = client.get(reverse("pad-sheet", args=[pad.code])).content.decode()
    assert "Game 1 to Bob &amp; Di" in sheet
    assert "Cy deals next" in sheet  # N, E dealt: S next
    assert 'data-testid="sheet-deal-2"' in sheet
    # As a pad is kept: honours and bonuses above the line, trick scores below it.
    assert "Above the line: honours, penalties and bonuses" in sheet
    assert "Below the line: trick scores toward game" in sheet
    assert (sheet.index('data-testid="sheet-honours"') < sheet.index('data-testid="sheet-line"')
            < sheet.index('data-testid="sheet-tricks"') < sheet.index('data-testid="sheet-totals"'))
    # the new pad is remembered on this phone
    assert "Auction Bridge" in client.get(reverse("pad-home")).content.decode()


def test_the_live_score_previews_with_its_laws_and_stores_nothing():
    client = Client()
    pad = start(client)
    answer = client.post(reverse("pad-preview", args=[pad.code]),
                         tap(4, "RS", "N", 10, doubled="X")).json()
    assert answer["ok"]
    assert "Law" in answer["html"] and "Game to Ann &amp; Cy" in answer["html"]
    bad = client.post(reverse("pad-preview", args=[pad.code]), {"level": "2"}).json()
    assert not bad["ok"] and bad["message"]
    assert pad.deals.count() == 0


def test_a_bad_deal_is_shown_again_with_the_engines_words():
    client = Client()
    pad = start(client)
    response = client.post(reverse("pad-deal", args=[pad.code]), {"level": "2"})
    assert response.status_code == 400
    assert 'data-testid="form-errors"' in response.content.decode()
    assert pad.deals.count() == 0


def test_correct_the_last_deal():
    client = Client()
    pad = start(client)
    deal_url = reverse("pad-deal", args=[pad.code])
    client.post(deal_url, tap(1, "H", "S", 9))
    client.post(deal_url, tap(2, "C", "E", 8))
    page = client.get(reverse("pad-correct", args=[pad.code])).content.decode()
    assert "Correct deal 2" in page and 'id="level-2" data-testid="level-2" checked' in page
    assert "Bob dealt · Auction Bridge" in page  # the deal is over: not "Bob deals"
    assert client.post(reverse("pad-correct", args=[pad.code]),
                       tap(2, "C", "E", 9)).status_code == 302
    last = pad.deals.order_by("number").last()
    assert last.number == 2 and last.data["tricks"] == 9 and last.dealer == "E"


def test_a_won_rubber_shows_its_result_and_takes_no_more_deals():
    client = Client()
    pad = start(client)
    for d in (tap(4, "RS", "N", 10), tap(4, "RS", "N", 10)):
        client.post(reverse("pad-deal", args=[pad.code]), d)
    sheet = client.get(reverse("pad-sheet", args=[pad.code])).content.decode()
    assert 'data-testid="pad-result"' in sheet and "Rubber to Ann &amp; Cy" in sheet
    assert "Enter deal" not in sheet
    assert client.get(reverse("pad-deal", args=[pad.code])).status_code == 302


def test_three_hand_names_three_players_and_shows_each_net():
    client = Client()
    response = client.post(reverse("pad-create"), {
        "game": "three-hand", "rules": "american-1913", "player_A": "Ann",
        "player_B": "Bob", "player_C": "Cy"})
    pad = Rubber.objects.get()
    assert response.status_code == 302 and pad.players == ["Ann", "Bob", "Cy"]
    for _ in range(2):
        services.rubber_deal_add(rubber=pad, deal={
            "declarer": "B", "contract": {"level": 4, "denomination": "RS", "doubled": ""},
            "tricks": 10})
    sheet = client.get(reverse("pad-sheet", args=[pad.code])).content.decode()
    assert "Rubber to Bob" in sheet and "Each player's net" in sheet
    # Who wins what from whom is said once, in the list (it had been in the sentence too).
    result = sheet.split('data-testid="pad-result"', 1)[1].split("</section>", 1)[0]
    settlement = services.rubber_sheet(rubber=pad)["settlement"]
    for line in settlement:
        assert result.count(html.escape(line["words"], quote=False)) == 1


def test_correcting_a_three_hand_deal_keeps_its_penalties():
    """The correction form opens with the stored deal's rule 5, 9 and 10 penalties
    ticked (and its panel open), so saving a change of tricks keeps them; a form sent
    back for a missing tap keeps them ticked too."""
    client = Client()
    client.post(reverse("pad-create"), {"game": "three-hand", "rules": "american-1913",
                                        "player_A": "Ann", "player_B": "Bob",
                                        "player_C": "Cy"})
    pad = Rubber.objects.get()
    deal = {"level": 2, "denomination": "H", "declarer": "B", "tricks": 8, "doubled": "",
            "penalty_10": "C", "penalty_5": "A"}
    assert client.post(reverse("pad-deal", args=[pad.code]), deal).status_code == 302
    stored = pad.deals.get().data["penalties"]
    assert sorted((p["rule"], p["by"]) for p in stored) == [("10", "C"), ("5", "A")]
    page = client.get(reverse("pad-correct", args=[pad.code])).content.decode()
    assert 'id="penalty-10-C" checked' in page and 'id="penalty-5-A" checked' in page
    assert 'id="penalty-10-A">' in page and 'id="penalty-9-C">' in page  # not ticked
    assert "<details open>\n    <summary>Revokes (Law 84) and penalties" in page
    sent_back = client.post(reverse("pad-correct", args=[pad.code]),
                            {**deal, "tricks": ""}).content.decode()
    assert 'id="penalty-10-C" checked' in sent_back
    assert client.post(reverse("pad-correct", args=[pad.code]),
                       {**deal, "tricks": 9}).status_code == 302
    corrected = pad.deals.get().data
    assert corrected["tricks"] == 9
    assert sorted((p["rule"], p["by"]) for p in corrected["penalties"]) == [
        ("10", "C"), ("5", "A")]


def test_whist_with_a_dummy_refuses_a_revoke_by_the_dummy():
    client = Client()
    pad = start(client, game="whist", form="dummy", dummy="S")
    assert pad.dummy == "S" and pad.first_dealer == "S"
    response = client.post(reverse("pad-deal", args=[pad.code]),
                           {"tricks_ns": "7", "revokes_S": "1"})
    assert response.status_code == 400
    assert "never liable for a revoke" in response.content.decode()
    assert client.post(reverse("pad-deal", args=[pad.code]),
                       {"tricks_ns": "8", "honours_ns": "3"}).status_code == 302


def test_a_new_pad_with_a_missing_name_is_refused_in_words():
    response = Client().post(reverse("pad-create"), {"game": "auction", **FOUR,
                                                     "player_S": ""})
    assert response.status_code == 400
    assert "Give a name for South" in response.content.decode()


def test_an_unknown_pad_is_not_found():
    assert Client().get(reverse("pad-sheet", args=["nope"])).status_code == 404


def test_the_first_dealer_is_chosen_on_the_new_pad_page():
    page = Client().get(reverse("pad-home")).content.decode()
    assert "Who deals first?" in page
    for seat in ("N", "E", "S", "W", "A", "B", "C"):
        assert f'id="first-dealer-{seat}"' in page
    assert 'id="first-dealer-N" data-testid="first-dealer-N" checked' in page  # as before
    assert "Dummy deals at the commencement of each rubber" in page  # the rule, explained
    client = Client()
    pad = start(client, first_dealer_four="E")
    assert pad.first_dealer == "E"
    sheet = client.get(reverse("pad-sheet", args=[pad.code])).content.decode()
    assert "Bob deals first" in sheet
    three = start(Client(), game="three-hand", player_A="Ann", player_B="Bob", player_C="Cy",
                  first_dealer_four="E", first_dealer_three="C")
    assert three.first_dealer == "C"


def test_at_dummy_whist_the_dummy_deals_first_whatever_was_tapped():
    pad = start(Client(), game="whist", form="dummy", dummy="W", first_dealer_four="E")
    assert pad.first_dealer == "W"
    plain = start(Client(), game="whist", form="plain", first_dealer_four="S")
    assert plain.first_dealer == "S"


def test_a_refused_new_pad_keeps_the_first_dealer_tapped():
    response = Client().post(reverse("pad-create"), {"game": "auction", **FOUR, "player_S": "",
                                                     "first_dealer_four": "W"})
    assert response.status_code == 400
    assert 'id="first-dealer-W" data-testid="first-dealer-W" checked' in response.content.decode()


@pytest.mark.parametrize(("game", "sent", "said"), [
    ("auction", {}, "Still to choose: the contract's level, the denomination, the declarer "
                    "and the tricks the declaring side won."),
    ("auction", {"level": "2", "denomination": "H"},
     "Still to choose: the declarer and the tricks the declaring side won."),
    ("three-hand", {"level": "2", "denomination": "H", "declarer": "A"},
     "Still to choose: the tricks the declaring side won."),
    ("whist", {"honours_ns": "2"}, "Still to choose: the tricks North–South won."),
])
def test_a_deal_sent_with_taps_missing_names_every_one(game, sent, said):
    """As the table's form does: one message naming every choice still to make, not the
    first the engine meets."""
    client = Client()
    players = ({"player_A": "Ann", "player_B": "Bob", "player_C": "Cy"}
               if game == "three-hand" else FOUR)
    data = {"game": game, "rules": "american-1913", "form": "plain", **players}
    created = client.post(reverse("pad-create"), data)
    pad = Rubber.objects.get(code=created["Location"].rstrip("/").rsplit("/", 1)[-1])
    response = client.post(reverse("pad-deal", args=[pad.code]), sent)
    assert response.status_code == 400
    assert said in html.unescape(response.content.decode())
    assert pad.deals.count() == 0


def test_a_passed_out_deal_needs_no_contract():
    client = Client()
    pad = start(client, rules="english")  # a deal passed out is scored (English rule)
    response = client.post(reverse("pad-deal", args=[pad.code]), {"passed_out": "on"})
    assert response.status_code == 302 and pad.deals.count() == 1


def test_a_whist_sheet_keeps_its_points_game_by_game_first():
    client = Client()
    pad = start(client, game="whist", form="plain", first_dealer_four="S")
    sheet = client.get(reverse("pad-sheet", args=[pad.code])).content.decode()
    assert "Points, game by game" in sheet and "Game values and the rubber" in sheet
    assert "Above the line" not in sheet
    assert (sheet.index('data-testid="sheet-tricks"') < sheet.index('data-testid="sheet-line"')
            < sheet.index('data-testid="sheet-honours"'))


def test_a_deal_form_sent_again_is_not_stored_as_a_copy():
    """The browser's Back, then Save: the form was for deal 1, which is on the sheet."""
    client = Client()
    pad = start(client)
    deal_url = reverse("pad-deal", args=[pad.code])
    assert 'name="number" value="1"' in client.get(deal_url).content.decode()
    assert client.post(deal_url, {**tap(1, "H", "N", 8), "number": "1"}).status_code == 302
    again = client.post(deal_url, {**tap(1, "H", "N", 8), "number": "1"}, follow=True)
    assert ("Deal 1 is on the sheet already (this form was sent before, or another phone "
            "entered it): this one was not saved.") in html.unescape(
        again.content.decode())
    assert pad.deals.count() == 1
    assert client.post(deal_url, {**tap(2, "C", "E", 8), "number": "2"}).status_code == 302
    assert pad.deals.count() == 2


def test_the_last_deal_is_removed_after_a_question_and_a_won_rubber_opens_again():
    client = Client()
    pad = start(client)
    for d in (tap(4, "RS", "N", 10), tap(4, "RS", "N", 10)):
        client.post(reverse("pad-deal", args=[pad.code]), d)
    pad.refresh_from_db()
    assert pad.finished
    correct = client.get(reverse("pad-correct", args=[pad.code])).content.decode()
    assert 'data-testid="remove-last"' in correct
    # The correction form shows what the deal scores now, before any tap.
    assert 'data-testid="preview-items"' in correct and "Deal 2" in correct
    url = reverse("pad-remove", args=[pad.code])
    question = client.get(url).content.decode()
    assert "Remove deal 2?" in question and "the rubber it won is open again" in question
    assert pad.deals.count() == 2  # asking removes nothing
    done = client.post(url, {"number": "2"}, follow=True).content.decode()
    assert "Deal 2 is removed from the sheet." in done
    pad.refresh_from_db()
    assert pad.deals.count() == 1 and not pad.finished
    # A second tap names a deal off the sheet already: refused, deal 1 stays.
    again = html.unescape(client.post(url, {"number": "2"}, follow=True).content.decode())
    assert ("Deal 2 is off the sheet already (removed on another phone, or this was sent "
            "twice): the sheet now ends at deal 1. Nothing else was removed.") in again
    assert pad.deals.count() == 1


def test_a_four_hand_deal_takes_law_90_and_law_54_penalties_and_keeps_them():
    """rules.md §10.1: a rubber deal is scored as §3, penalties included: E looked at a
    quitted trick (25 to N–S), N doubled partner's declaration (50 to E–W)."""
    client = Client()
    pad = start(client)
    deal_url = reverse("pad-deal", args=[pad.code])
    form = client.get(deal_url).content.decode()
    assert 'id="penalty-90-E"' in form and 'id="penalty-54r-W"' in form
    assert client.post(deal_url, {**tap(2, "C", "S", 8), "penalty_90": "E",
                                  "penalty_54d": "N"}).status_code == 302
    stored = pad.deals.get().data["penalties"]
    assert sorted((p["law"], p["by"]) for p in stored) == [("54-double-partner", "N"),
                                                          ("90", "E")]
    sheet = services.rubber_sheet(rubber=pad)
    deal = sheet["deals"][0]
    assert deal["above"] == {"NS": 12, "EW": 0}  # the trick score: 2 odd tricks at 6
    assert deal["below"] == {"NS": 25, "EW": 50}  # the honour score: the penalties
    page = client.get(reverse("pad-correct", args=[pad.code])).content.decode()
    assert 'id="penalty-90-E" checked' in page and 'id="penalty-54d-N" checked' in page
    assert 'id="penalty-90-N">' in page
    assert client.post(reverse("pad-correct", args=[pad.code]),
                       {**tap(2, "C", "S", 9), "penalty_90": "E",
                        "penalty_54d": "N"}).status_code == 302
    assert len(pad.deals.get().data["penalties"]) == 2


# --- two phones on one pad; counts typed; the game so far -----------------------------------


def test_a_correction_opened_before_another_deal_still_corrects_its_own_deal():
    """Phone A opened "Correct deal 2"; phone B then entered deal 3, which won a game. A's
    correction had replaced deal 3 and its game; now it corrects deal 2, the deal it was
    opened on, and deal 3 stands (the rubber scored again)."""
    a, b = Client(), Client()
    pad = start(a)
    deal_url, correct_url = reverse("pad-deal", args=[pad.code]), reverse("pad-correct",
                                                                         args=[pad.code])
    a.post(deal_url, {**tap(1, "H", "S", 7), "number": "1"})
    a.post(deal_url, {**tap(1, "C", "E", 7), "number": "2"})
    form = a.get(correct_url).content.decode()
    row = pad.deals.get(number=2)
    assert 'name="number" value="2"' in form  # the deal it was opened for
    assert f'name="deal_id" value="{row.pk}"' in form
    assert f'name="version" value="{row.version}"' in form
    assert b.post(deal_url, {**tap(4, "H", "S", 10), "number": "3"}).status_code == 302
    sent = a.post(correct_url, {**tap(1, "D", "E", 8), "number": "2", "deal_id": row.pk,
                                "version": row.version})
    assert sent.status_code == 302
    data = [d.data for d in pad.deals.order_by("number")]
    assert [d["contract"]["denomination"] for d in data] == ["H", "D", "H"]
    assert data[2]["tricks"] == 10


def test_a_deal_sent_after_the_rubber_was_won_elsewhere_says_it_was_not_saved():
    a, b = Client(), Client()
    pad = start(a)
    deal_url = reverse("pad-deal", args=[pad.code])
    b.post(deal_url, {**tap(4, "RS", "N", 10), "number": "1"})
    b.post(deal_url, {**tap(4, "RS", "N", 10), "number": "2"})  # the rubber is won
    sent = a.post(deal_url, {**tap(1, "C", "E", 7), "number": "3"}, follow=True)
    assert ("The rubber was won at deal 2 by Ann & Cy: this deal comes after the end of the "
            "rubber and was not saved." in html.unescape(sent.content.decode()))
    assert pad.deals.count() == 2


@pytest.mark.parametrize(("game", "sent", "said"), [
    ("auction", {**tap(2, "H", "N", 8), "revokes_defending": "1.5", "first_penalty": "points"},
     "The revokes by the adversaries: a whole number, 0 or more (not “1.5”)."),
    ("auction", {**tap(2, "H", "N", 8), "revokes_declaring": "-1"},
     "The revokes by the declarer's side: a whole number, 0 or more (not “-1”)."),
    ("whist", {"tricks_ns": "7", "revokes_E": "1.0", "revoke_penalty": "add"},
     "East's revokes: a whole number, 0 or more (not “1.0”)."),
    ("whist", {"tricks_ns": "7", "revokes_E": "-1", "revoke_penalty": "add"},
     "East's revokes: a whole number, 0 or more (not “-1”)."),
])
def test_a_revoke_count_that_is_not_one_is_refused_not_read_as_none(game, sent, said):
    """"1.5" revokes had been saved as no revoke at all, the declarer's 100 gone."""
    client = Client()
    pad = start(client, game=game)
    response = client.post(reverse("pad-deal", args=[pad.code]), sent)
    assert response.status_code == 400
    assert said in html.unescape(response.content.decode())
    assert pad.deals.count() == 0
    preview = client.post(reverse("pad-preview", args=[pad.code]), sent).json()
    assert not preview["ok"] and preview["message"] == said


# A revoke's penalty left unchosen: (game, what is sent, what the pad asks), on Save and
# in the live score alike.
PENALTY_STILL_TO_CHOOSE = [
    ("auction", {**tap(2, "H", "N", 8), "revokes_defending": "1"},
     "Still to choose: what the declarer takes for the adversaries' revoke (points or "
     "tricks)."),
    ("whist", {"tricks_ns": "7", "revokes_E": "1"},
     "Still to choose: what the other side takes for the revoke (take 3 tricks, deduct 3 "
     "from theirs, or add 3 to own score)."),
]


@pytest.mark.parametrize(("game", "sent", "said"), PENALTY_STILL_TO_CHOOSE)
def test_a_revoke_penalty_not_chosen_is_asked_in_the_forms_words(game, sent, said):
    """The pad had said 'first_penalty must be "points" or "tricks"', its input's key."""
    client = Client()
    pad = start(client, game=game)
    response = client.post(reverse("pad-deal", args=[pad.code]), sent)
    assert response.status_code == 400
    text = html.unescape(response.content.decode())
    assert said in text and "_penalty" not in text.split("<form", 1)[1].split(
        'name="csrfmiddlewaretoken"', 1)[0]


def test_at_double_dummy_a_dummy_deals_first():
    """Double Dummy's laws are Dummy Whist's: "Dummy deals at the commencement of each
    rubber". North, no dummy, had dealt first."""
    pad = start(Client(), game="whist", form="double-dummy", dummy=["S", "W"],
                first_dealer_four="N")
    assert (pad.dummy, pad.first_dealer) == ("SW", "S")
    with pytest.raises(services.ServiceError, match="a dummy deals first"):
        services.rubber_create(game="whist", players=list("ABCD"), form="double-dummy",
                               dummy="SW", first_dealer="N")
    chosen = services.rubber_create(game="whist", players=list("ABCD"), form="double-dummy",
                                    dummy="SW", first_dealer="W")
    assert chosen.first_dealer == "W"


def test_a_refused_new_pad_keeps_the_dummy_hands_ticked():
    response = Client().post(reverse("pad-create"), {
        "game": "whist", "form": "double-dummy", "dummy": ["N", "W"], **FOUR, "player_W": ""})
    assert response.status_code == 400
    page = response.content.decode()
    assert 'data-testid="dummy-N" checked' in page and 'data-testid="dummy-W" checked' in page
    assert 'data-testid="dummy-E" checked' not in page


def test_the_sheet_shows_the_game_being_played_as_it_stands():
    """Whist at 4–4: nothing said so (Law 49 turns on the score of four); the Total row
    gives game values only."""
    client = Client()
    pad = start(client, game="whist", form="plain")
    deal_url = reverse("pad-deal", args=[pad.code])
    for sent in ({"tricks_ns": "9"}, {"tricks_ns": "5", "honours_ns": "1"},
                 {"tricks_ns": "7"}):  # N–S 3 + 1, E–W 2 + 2 for three honours
        assert client.post(deal_url, sent).status_code == 302
    sheet = client.get(reverse("pad-sheet", args=[pad.code])).content.decode()
    row = sheet.split('data-testid="game-so-far"', 1)[1].split("</tr>", 1)[0]
    assert "Game 1 so far" in row and row.count('<td class="n">4</td>') == 2
    # Auction: the trick scores toward game of the game being played.
    auction = start(client)
    client.post(reverse("pad-deal", args=[auction.code]), tap(2, "H", "S", 8))
    sheet = client.get(reverse("pad-sheet", args=[auction.code])).content.decode()
    row = sheet.split('data-testid="game-so-far"', 1)[1].split("</tr>", 1)[0]
    assert '<td class="n">16</td><td class="n">0</td>' in row
    # Once the game is won, there is no game being played until the next deal.
    client.post(reverse("pad-deal", args=[auction.code]), tap(4, "RS", "N", 10))
    sheet = client.get(reverse("pad-sheet", args=[auction.code])).content.decode()
    assert 'data-testid="game-so-far"' not in sheet


def test_the_score_items_write_the_sides_with_the_en_dash():
    """The preview read "0 for 1 revoke by N-S and 2 revokes by E-W cancel each other"."""
    client = Client()
    pad = start(client, game="whist", form="plain")
    answer = client.post(reverse("pad-preview", args=[pad.code]), {
        "tricks_ns": "7", "revokes_N": "1", "revokes_E": "2"}).json()
    assert answer["ok"]
    text = html.unescape(answer["html"])
    assert "by N–S and 2 revokes by E–W" in text and "N-S" not in text and "E-W" not in text


def test_the_next_rubber_starts_with_the_same_players_filled_in():
    """A social night plays rubber after rubber: every name had to be typed again."""
    client = Client()
    pad = start(client, game="whist", form="double-dummy", dummy=["S", "W"])
    for _ in range(2):  # N–S win two games: the rubber
        client.post(reverse("pad-deal", args=[pad.code]), {"tricks_ns": "13"})
    assert services.rubber_sheet(rubber=pad)["complete"]
    sheet = client.get(reverse("pad-sheet", args=[pad.code])).content.decode()
    assert f'href="/pad/?again={pad.code}" data-testid="next-rubber"' in sheet
    page = client.get(reverse("pad-home"), {"again": pad.code}).content.decode()
    assert 'data-testid="game-whist" checked' in page
    assert 'data-testid="form-double-dummy" checked' in page
    for seat, name in zip("NESW", ("Ann", "Bob", "Cy", "Di"), strict=True):
        assert f'value="{name}" data-testid="player-{seat}"' in page
    assert 'data-testid="dummy-S" checked' in page and 'data-testid="dummy-W" checked' in page
    # An unknown code is the plain new form.
    assert 'data-testid="game-auction" checked' in client.get(
        reverse("pad-home"), {"again": "nope"}).content.decode()


# --- the form's deal against the sheet; any deal corrected; what a line and a stop say ------


def text_of(response) -> str:
    return html.unescape(response.content.decode())


def test_a_form_with_a_tap_missing_after_another_phone_saved_its_deal_keeps_its_deal():
    """Phone B saved deal 2 while A was tapping it; A's Save, the tricks still to tap, came
    back as "Deal 3" with A's taps, and saving that stored deal 2 twice. Now the sheet is
    checked first: A is told deal 2 is on the sheet and what it reads, and A's taps come
    back as a correction of deal 2, never as deal 3."""
    a, b = Client(), Client()
    pad = start(a)
    deal_url = reverse("pad-deal", args=[pad.code])
    a.post(deal_url, {**tap(1, "H", "S", 7), "number": "1"})
    assert b.post(deal_url, {**tap(2, "C", "E", 8), "number": "2"}).status_code == 302
    sent = a.post(deal_url, {**tap(2, "C", "E", ""), "number": "2"})
    page = text_of(sent)
    assert sent.status_code == 400 and pad.deals.count() == 2
    assert ("Deal 2 is on the sheet already (this form was sent before, or another phone "
            "entered it): this one was not saved. The sheet has it as 2♣ by Bob (E), 8 "
            "tricks. Yours is below, as a correction of deal 2") in page
    assert "Still to choose" not in page
    assert "Correct deal 2" in page and "Deal 3" not in page
    assert 'name="number" value="2"' in page
    assert 'id="level-2" data-testid="level-2" checked' in page  # A's taps, kept
    stored = pad.deals.get(number=2)
    assert f'name="version" value="{stored.version}"' in page
    assert f'action="{reverse("pad-correct", args=[pad.code])}?deal=2"' in page


def test_a_form_sent_twice_is_saved_once_and_the_winning_deal_is_not_after_the_rubber():
    client = Client()
    pad = start(client)
    deal_url = reverse("pad-deal", args=[pad.code])
    client.post(deal_url, {**tap(4, "RS", "N", 10), "number": "1"})
    assert client.post(deal_url, {**tap(4, "RS", "N", 10), "number": "2"}).status_code == 302
    again = client.post(deal_url, {**tap(4, "RS", "N", 10), "number": "2"}, follow=True)
    said = text_of(again)
    assert ("Deal 2 is on the sheet already (this form was sent before, or another phone "
            "entered it): this one was not saved. The sheet has it as 4R♠ by Ann (N), 10 "
            "tricks.") in said
    assert "The rubber was won" not in said and pad.deals.count() == 2


def test_a_form_for_a_deal_beyond_the_sheet_says_the_sheet_ends_earlier():
    """Another phone removed deal 2 while this one had deal 3's form open: it had said
    "Deal 3 is on the sheet already" of a sheet holding deal 1 only."""
    a, b = Client(), Client()
    pad = start(a)
    deal_url = reverse("pad-deal", args=[pad.code])
    for n, d in ((1, tap(1, "H", "S", 7)), (2, tap(1, "C", "E", 7))):
        a.post(deal_url, {**d, "number": str(n)})
    last = pad.deals.get(number=2)
    b.post(reverse("pad-remove", args=[pad.code]),
           {"number": "2", "deal_id": last.pk, "version": last.version})
    for sent in ({**tap(2, "D", "S", 8), "number": "3"}, {"level": "2", "number": "3"}):
        said = text_of(a.post(deal_url, sent, follow=True))
        assert ("This form was for deal 3, but the sheet now ends at deal 1 (a deal was "
                "removed on another phone since the form was opened): it was not saved. "
                "Check the sheet, then enter the next deal played as deal 2.") in said
        assert "on the sheet already" not in said and pad.deals.count() == 1


def test_a_correction_begun_before_the_deal_was_removed_and_entered_again_is_refused():
    """The correction (and the removal) of the deal the phone saw, not of the new deal 2
    entered on another phone since."""
    a, b = Client(), Client()
    pad = start(a)
    deal_url = reverse("pad-deal", args=[pad.code])
    for n, d in ((1, tap(1, "H", "S", 7)), (2, tap(1, "C", "E", 7))):
        a.post(deal_url, {**d, "number": str(n)})
    seen = pad.deals.get(number=2)
    opened = {"number": "2", "deal_id": seen.pk, "version": seen.version}
    b.post(reverse("pad-remove", args=[pad.code]), opened)
    b.post(deal_url, {**tap(3, "NT", "W", 9), "number": "2"})
    correct_url = reverse("pad-correct", args=[pad.code]) + "?deal=2"
    sent = a.post(correct_url, {**tap(1, "C", "E", 8), **opened})
    page = text_of(sent)
    assert sent.status_code == 400
    assert ("Deal 2 was removed on another phone, and entered again, since this correction "
            "was begun: it now reads 3NT by Di (W), 9 tricks. Nothing was saved; your taps "
            "are below: save them again to put them in its place, or go back to the sheet."
            ) in page
    assert 'id="tricks-8" data-testid="tricks-8" checked' in page  # the taps are kept
    now = pad.deals.get(number=2)
    assert now.data["contract"]["denomination"] == "NT"  # nothing written
    assert f'name="deal_id" value="{now.pk}"' in page  # opened on the deal as it now is
    assert a.post(correct_url, {**tap(1, "C", "E", 8), "number": "2", "deal_id": now.pk,
                                "version": now.version}).status_code == 302
    assert pad.deals.get(number=2).data["contract"]["denomination"] == "C"
    # The removal asked on the deal as it was is refused too.
    removed = text_of(a.post(reverse("pad-remove", args=[pad.code]), opened, follow=True))
    assert "Nothing was removed; if it should still go, remove it again." in removed
    assert pad.deals.count() == 2


def test_two_phones_correcting_one_deal_the_second_is_told_not_silently_winning():
    a, b = Client(), Client()
    pad = start(a)
    a.post(reverse("pad-deal", args=[pad.code]), {**tap(1, "H", "S", 7), "number": "1"})
    seen = pad.deals.get()
    opened = {"number": "1", "deal_id": seen.pk, "version": seen.version}
    url = reverse("pad-correct", args=[pad.code])
    assert b.post(url, {**tap(4, "H", "S", 10), **opened}).status_code == 302
    sent = a.post(url, {**tap(2, "H", "S", 8), **opened})
    assert sent.status_code == 400
    assert ("Deal 1 was changed on another phone since this correction was begun: it now "
            "reads 4♥ by Cy (S), 10 tricks. Nothing was saved") in text_of(sent)
    assert pad.deals.get().data["tricks"] == 10


def test_every_deal_of_the_sheet_can_be_corrected_and_the_rubber_is_scored_again():
    """Decision 107 had allowed only the last deal ("settled by those that followed");
    the laws let an erroneous score be corrected (Auction Law 60(e), Whist Laws 56-57)."""
    client = Client()
    pad = start(client)
    deal_url = reverse("pad-deal", args=[pad.code])
    for d in (tap(1, "H", "S", 7), tap(1, "C", "E", 7), tap(2, "NT", "N", 8)):
        client.post(deal_url, d)
    sheet = client.get(reverse("pad-sheet", args=[pad.code])).content.decode()
    for n in (1, 2, 3):
        assert (f'href="{reverse("pad-correct", args=[pad.code])}?deal={n}" '
                f'data-testid="correct-deal-{n}"') in sheet
    url = reverse("pad-correct", args=[pad.code])
    page = text_of(client.get(url, {"deal": 1}))
    assert "Correct deal 1" in page and "Ann dealt" in page
    assert "settled by those that followed" not in page
    assert "Auction Law 60(e)" in page and 'data-testid="remove-last"' not in page
    assert f'data-preview-url="{reverse("pad-preview", args=[pad.code])}?deal=1"' in page
    first = pad.deals.get(number=1)
    # 1♥ made with 4 over (11 tricks): 5 odd tricks at 8 = 40, N–S's game at deal 1.
    assert client.post(url + "?deal=1", {**tap(1, "H", "S", 11), "number": "1",
                                         "deal_id": first.pk,
                                         "version": first.version}).status_code == 302
    sheet = services.rubber_sheet(rubber=pad)
    assert sheet["periods"][0]["winner"] == "NS" and sheet["periods"][0]["deals"][0][
        "number"] == 1
    assert [d["data"]["tricks"] for d in sheet["deals"]] == [11, 7, 8]
    # The live score of a correction is the whole rubber scored again.
    answer = client.post(reverse("pad-preview", args=[pad.code]) + "?deal=2",
                         tap(4, "C", "E", 11)).json()
    assert answer["ok"] and "Deal 2" in answer["html"]


def test_a_correction_that_ends_the_rubber_before_the_last_deal_says_what_to_do():
    client = Client()
    pad = start(client)
    deal_url = reverse("pad-deal", args=[pad.code])
    for d in (tap(1, "H", "S", 7), tap(4, "RS", "N", 10), tap(4, "RS", "N", 10)):
        client.post(deal_url, d)
    first = pad.deals.get(number=1)
    sent = client.post(reverse("pad-correct", args=[pad.code]) + "?deal=1",
                       {**tap(4, "H", "S", 10), "number": "1", "deal_id": first.pk,
                        "version": first.version})
    assert sent.status_code == 400
    assert ("With this correction the rubber would be won at deal 2 by Ann & Cy, but deal 3 "
            "follows it on the sheet: nothing was saved. Remove the deals after deal 2 first "
            "(the last first: they are a new rubber's), then correct deal 1 again"
            ) in text_of(sent)
    assert 'id="level-4" data-testid="level-4" checked' in sent.content.decode()  # kept
    assert pad.deals.get(number=1).data["tricks"] == 7


def test_the_sheet_says_what_an_unfinished_rubber_settles_if_it_stops_here():
    """The PDF printed each player's net; the page said only who deals next."""
    client = Client()
    pad = start(client)
    client.post(reverse("pad-deal", args=[pad.code]), tap(2, "H", "S", 8, honours_N=2,
                                                          honours_S=1))
    sheet = text_of(client.get(reverse("pad-sheet", args=[pad.code])))
    box = sheet.split('data-testid="pad-stop-here"', 1)[1].split("</section>", 1)[0]
    # 2♥ made: 16 for tricks, simple honours 16: the N–S total less the E–W total.
    assert "If the rubber stops here: Ann & Cy win 32 from Bob & Di." in box
    response = Client().post(reverse("pad-create"), {
        "game": "three-hand", "rules": "american-1913", "player_A": "Ann",
        "player_B": "Bob", "player_C": "Cy"})
    three = Rubber.objects.get(code=response["Location"].rstrip("/").rsplit("/", 1)[-1])
    services.rubber_deal_add(rubber=three, deal={
        "declarer": "B", "contract": {"level": 2, "denomination": "H", "doubled": ""},
        "tricks": 9, "honours": {"A": 1, "B": 2, "C": 0, "dummy": 2},
        "penalties": [{"rule": "5", "by": "C"}]})
    sheet = text_of(client.get(reverse("pad-sheet", args=[three.code])))
    box = sheet.split('data-testid="pad-stop-here"', 1)[1].split("</section>", 1)[0]
    assert "If the rubber stops here</b>, each player's net: Ann +10 · Bob +154 · Cy −164" in box
    for words in ("Bob wins 48 from Ann", "Ann wins 58 from Cy", "Bob wins 106 from Cy"):
        assert words in box
    # Before the first deal, and once won, there is nothing to stop.
    assert 'data-testid="pad-stop-here"' not in client.get(
        reverse("pad-sheet", args=[start(client).code])).content.decode()


@pytest.mark.parametrize(("game", "sent", "said"), [
    *PENALTY_STILL_TO_CHOOSE,
    ("whist", {"honours_ns": "3"}, "Still to choose: the tricks North–South won."),
    ("auction", {"level": "2", "denomination": "H"},
     "Still to choose: the declarer and the tricks the declaring side won."),
])
def test_the_live_score_says_what_is_still_to_tap_in_the_forms_words(game, sent, said):
    """The preview had shown the engine's words: 'first_penalty must be "points" or
    "tricks"', 'The number of tricks won by N-S (tricks_ns) is missing'."""
    client = Client()
    pad = start(client, game=game)
    answer = client.post(reverse("pad-preview", args=[pad.code]), sent).json()
    assert not answer["ok"] and answer["message"] == said
    text = html.unescape(answer["html"])
    assert said in text and 'data-testid="preview-pending"' in text
    for key in ("first_penalty", "revoke_penalty", "tricks_ns", "N-S"):
        assert key not in text


def test_a_passed_out_deal_keeps_the_penalties_ticked():
    """Three-Hand, English rule: rule 9 gives each other player 50 on a deal passed out;
    the form had dropped the ticks. Scored as `python -m scoring rubber` scores it."""
    client = Client()
    response = client.post(reverse("pad-create"), {
        "game": "three-hand", "rules": "english", "player_A": "Ann", "player_B": "Bob",
        "player_C": "Cy"})
    pad = Rubber.objects.get(code=response["Location"].rstrip("/").rsplit("/", 1)[-1])
    sent = client.post(reverse("pad-deal", args=[pad.code]),
                       {"passed_out": "on", "penalty_9": "A", "number": "1"})
    assert sent.status_code == 302
    stored = pad.deals.get().data
    assert stored["contract"] is None and stored["penalties"] == [{"rule": "9", "by": "A"}]
    sheet = services.rubber_sheet(rubber=pad)
    assert sheet["deals"][0]["below"] == {"A": 0, "B": 50, "C": 50}
    assert sheet["deals"][0]["what"] == "Passed out; rule 9 by A"
    command = subprocess.run(
        [sys.executable, "-m", "scoring", "rubber", "--game", "three-hand", "--rules",
         "english"], input=json.dumps([stored]), capture_output=True, text=True, check=True)
    assert json.loads(command.stdout)["totals"] == sheet["totals"] == {"A": 0, "B": 50, "C": 50}
    # The correction form opens with it ticked.
    page = client.get(reverse("pad-correct", args=[pad.code])).content.decode()
    assert 'id="penalty-9-A" checked' in page and 'id="passed-out" value="on" ' \
        'data-testid="passed-out" checked' in page
    # Four hands: a passed-out deal has no declaration or play to penalise (Laws 54, 90):
    # refused in words, nothing saved, the tick kept; it had vanished without a word.
    four = start(client, rules="english")
    sent = client.post(reverse("pad-deal", args=[four.code]),
                       {"passed_out": "on", "penalty_90": "E"})
    assert sent.status_code == 400 and four.deals.count() == 0
    assert "A passed-out deal has no declaration or play to penalise" in text_of(sent)
    assert 'id="penalty-90-E" checked' in sent.content.decode()


def test_the_deal_form_says_the_tricks_are_those_won_in_play():
    """The engine adds the tricks taken for a revoke: a player who moved them first had
    them counted twice."""
    client = Client()
    for game in ("auction", "whist"):
        pad = start(client, game=game)
        page = client.get(reverse("pad-deal", args=[pad.code])).content.decode()
        assert "in play</legend>" in page
        assert "before any revoke penalty" in page


def test_the_sheets_lines_say_the_revokes_and_honours_that_its_numbers_count():
    client = Client()
    pad = start(client, game="whist", form="plain")
    client.post(reverse("pad-deal", args=[pad.code]),
                {"tricks_ns": "8", "revokes_N": "1", "revoke_penalty": "add"})
    sheet = text_of(client.get(reverse("pad-sheet", args=[pad.code])))
    row = sheet.split('data-testid="sheet-deal-1"', 1)[1].split("</tr>", 1)[0]
    assert "1. N–S 8 tricks, E–W 5; revoke by N–S: 3 added to E–W" in row


def test_the_next_deal_is_offered_before_the_sheet():
    """With eight deals the button under the sheet was far below a phone's screen."""
    client = Client()
    pad = start(client, game="whist", form="plain")
    for _ in range(8):
        client.post(reverse("pad-deal", args=[pad.code]), {"tricks_ns": "7"})
    sheet = client.get(reverse("pad-sheet", args=[pad.code])).content.decode()
    top = sheet.index('data-testid="enter-deal"')
    assert top < sheet.index('data-testid="pad-sheet"') and "Enter deal 9" in sheet
    assert sheet.index('data-testid="next-dealer"') < top
