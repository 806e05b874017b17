"""The result form follows the event's rules: English, American, Duplicate Whist."""

import pytest

from tests.web.conftest import code_of, contract_post, make_event
from tests.web.test_table_flow import board_url
from tournaments.models import Result

# Board 1 of tests/web/data/hands.pbn (a copy of the shared example hand record).
DEAL_1 = "N:KQT94.9862.T7.K7 3.Q73.KJ65.T9853 A752.AKT.Q4.AJ42 J86.J54.A9832.Q6"


@pytest.fixture
def english(director):
    return make_event(director, rules="english")


@pytest.fixture
def whist(director):
    return make_event(director, rules="duplicate-whist")


def test_english_rule_has_no_royal_spades_and_allows_passed_out(client, english):
    code = code_of(english, 1)
    html = client.get(board_url(code, 1, 1)).content.decode()
    assert 'id="denomination-RS"' not in html and "R♠" not in html
    assert 'id="denomination-S"' in html
    assert "spades are always royal spades" in html
    assert 'id="passed-out"' in html
    response = client.post(board_url(code, 1, 1), {"passed_out": "on", "token": "p",
                                                  "action": "save"})
    assert response.status_code == 302
    result = Result.objects.get(event=english, board__number=1)
    assert result.passed_out and (result.ns_score, result.ew_score) == (0, 0)
    page = client.get(board_url(code, 1, 1)).content.decode()
    assert "Passed out" in page


def test_english_spades_score_nine_a_trick(client, english):
    code = code_of(english, 1)
    client.post(board_url(code, 1, 1), contract_post(level=2, denomination="S", tricks=8,
                                                    token="s"))
    result = Result.objects.get(event=english, board__number=1)
    assert result.ns_trick == 18  # 2 odd tricks x 9 (royal spades)


def test_american_rule_offers_royal_spades_and_no_passing(client, event):
    html = client.get(board_url(code_of(event, 1), 1, 1)).content.decode()
    assert 'id="denomination-RS"' in html and "R♠" in html
    assert 'id="passed-out"' not in html
    refused = client.post(board_url(code_of(event, 1), 1, 1),
                          {"passed_out": "on", "token": "q", "action": "save"})
    assert refused.status_code != 302
    assert not Result.objects.exists()


def test_whist_form_is_tricks_and_revokes(client, whist):
    code = code_of(whist, 1)
    html = client.get(board_url(code, 1, 1)).content.decode()
    assert 'id="tricks-ns-8"' in html and 'id="revokes-ns"' in html and 'id="revokes-ew"' in html
    for absent in ('id="level-1"', 'id="declarer-N"', 'id="honours-N"', "Honour score"):
        assert absent not in html
    response = client.post(board_url(code, 1, 1), {"tricks_ns": "8", "revokes_ns": "0",
                                                  "revokes_ew": "1", "token": "w",
                                                  "action": "save"})
    assert response.status_code == 302
    result = Result.objects.get(event=whist, board__number=1)
    # Whist Law 75: one E-W revoke (N-S did not revoke) moves three tricks to N-S.
    assert result.tricks == 8 and result.ns_score == 11 and result.ew_score == 2
    page = client.get(board_url(code, 1, 1)).content.decode()
    assert "North–South won 8 tricks" in page
    assert 'id="preview-ns-total">11<' in page


def test_whist_needs_the_tricks(client, whist):
    code = code_of(whist, 1)
    response = client.post(board_url(code, 1, 1), {"token": "w", "action": "save"})
    assert "How many tricks did North–South win?" in response.content.decode()
    assert not Result.objects.exists()


def test_honours_come_from_the_hand_record(client, director):
    event = make_event(director, deals={1: DEAL_1})
    code = code_of(event, 1)
    html = client.get(board_url(code, 1, 1)).content.decode()
    assert "Honours from the hand record" in html
    assert 'id="honours-N"' not in html
    # 4S by N: N holds K Q T of spades, S the ace, W the jack -> N-S 4 honours divided.
    client.post(board_url(code, 1, 1), contract_post(level=4, denomination="RS", declarer="N",
                                                    tricks=10, token="h"))
    result = Result.objects.get(event=event, board__number=1)
    assert result.details.get("honours") is None
    assert result.ns_honour == 4 * 9 + 125
    page = client.get(board_url(code, 1, 1)).content.decode()
    assert "Honours from the hand record: N 3 · E 0 · S 1 · W 1" in page


def test_the_whist_rounds_agreement_shows_the_tricks_scored_and_the_revoke(client, whist):
    """Duplicate whist compares the tricks each side scores (rules.md §8): the agreement
    lists those counts, unsigned, and says why they differ from the tricks won in play."""
    code = code_of(whist, 1)
    client.post(board_url(code, 1, 1), {"tricks_ns": "2", "revokes_ns": "1", "revokes_ew": "0",
                                        "token": "w1", "action": "save"})
    client.post(board_url(code, 1, 2), {"tricks_ns": "7", "revokes_ns": "0", "revokes_ew": "0",
                                        "token": "w2", "action": "save"})
    for board in (1, 2):
        client.post(board_url(code, 1, board, "confirm/"))
    asked = client.get(f"/t/{code}/round/1/agree/").content.decode()
    assert "(the tricks each side scores)" in asked
    # Whist Law 75: the revoking side's two tricks go to its opponents, 0 to 13.
    ns = '<span class="nowrap">N–S</span>'  # never split after its dash
    assert (f"<strong>1</strong> · {ns} won 2 tricks; a revoke by {ns}</td><td>0</td>"
            "<td>13</td>") in asked
    assert f"<strong>2</strong> · {ns} won 7 tricks</td><td>7</td><td>6</td>" in asked
