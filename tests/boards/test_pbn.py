"""PBN hand records: reading what dealing programs write, writing PBN 2.1 back."""

import datetime
import io
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boards.dealing import deal_board
from boards.pbn import (
    DealError,
    PbnBoard,
    PbnError,
    normalize_deal,
    parse_pbn,
    read_hand_record,
    write_pbn,
)
from scoring.engine import dealer_for_board

SHARED_HANDS = Path(__file__).resolve().parents[2].parent / "shared" / "examples" / "hands.pbn"
if not SHARED_HANDS.exists():  # the shared folder is beside the repository; a copy is kept
    SHARED_HANDS = Path(__file__).resolve().parents[1] / "web" / "data" / "hands.pbn"

DEAL_1 = "N:KQT94.9862.T7.K7 3.Q73.KJ65.T9853 A752.AKT.Q4.AJ42 J86.J54.A9832.Q6"
DEAL_2 = "N:75.942.J9543.976 AK2.A63.62.KQJ83 J9863.KT8.QT.AT4 QT4.QJ75.AK87.52"
# DEAL_2 written from East, as some dealing programs do.
DEAL_2_FROM_EAST = "E:AK2.A63.62.KQJ83 J9863.KT8.QT.AT4 QT4.QJ75.AK87.52 75.942.J9543.976"

# A small hand record with what real files contain: a BOM, % lines, a header game,
# "#" copies, tags in any order, a deal from East, unknown hands, comments, an
# auction and a play section, and a multi-line comment with an empty line in it.
FIXTURE = "\ufeff" + "\r\n".join([
    "% PBN 2.1",
    "% EXPORT",
    "%Creator: SomeDealer 4.2",
    '[Event "Tuesday duplicate"]',
    '[Site "Knickerbocker Whist Club"]',
    "",
    '[Event "#"]',
    '[Board "1"]',
    '[Deal "' + DEAL_1 + '"]',
    '[Dealer "N"]',
    '[Vulnerable "None"]',
    '[Date "1913.11.17"]',
    "",
    '[Event "#"]',
    '[Vulnerable "Love"]',
    '[Dealer "E"]',
    '[Board "2"]',
    '[deal "' + DEAL_2_FROM_EAST + '"]',
    '[Auction "E"]',
    "1H Pass 2H Pass",
    "Pass Pass ; the auction as played",
    '[Play "S"]',
    "SA S2 S3 S4",
    "{ a comment that runs",
    "",
    "over two lines } * ",
    "",
    '[Event "#"]',
    '[Board "3"]',
    '[Dealer "S"]',
    '[Deal "W:- AJ62.QT3.K85.Q97 - -"]',
    '[Note "1:a \\"quoted\\" note"]',
    "",
])


def test_the_fixture_imports():
    boards = parse_pbn(FIXTURE)
    assert [b.number for b in boards] == [1, 2, 3]
    assert [b.dealer for b in boards] == ["N", "E", "S"]
    assert [b.vulnerable for b in boards] == ["None", "None", None]
    assert boards[0].deal == DEAL_1
    assert boards[1].deal == DEAL_2  # normalized to start from North
    assert boards[2].deal == "N:AJ62.QT3.K85.Q97 - - -"
    assert all(b.tags["Event"] == "Tuesday duplicate" for b in boards)  # "#" copies
    assert boards[2].tags["Note"] == '1:a "quoted" note'
    assert "Auction" in boards[1].tags and "Site" not in boards[1].tags


def test_the_shared_example_hand_record_imports():
    boards = parse_pbn(SHARED_HANDS.read_text(encoding="utf-8"))
    assert [b.number for b in boards] == list(range(1, 9))
    assert [b.dealer for b in boards] == [dealer_for_board(n) for n in range(1, 9)]
    assert boards[0].deal == DEAL_1
    for board in boards:
        assert normalize_deal(board.deal) == board.deal
        assert _cards(board.deal) == 52


def _cards(deal: str) -> int:
    return len({rank + suit for hand in deal[2:].split() if hand != "-"
                for suit, ranks in zip("SHDC", hand.split("."), strict=True) for rank in ranks})


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_line_endings_do_not_matter(newline):
    text = newline.join(['[Board "4"]', '[Deal "' + DEAL_1 + '"]', "", '[Board "5"]', ""])
    assert [(b.number, b.deal) for b in parse_pbn(text)] == [(4, DEAL_1), (5, None)]


def test_games_without_an_empty_line_between_them_are_split_at_board():
    text = "\n".join(['[Board "1"]', '[Deal "' + DEAL_1 + '"]',
                      '[Board "2"]', '[Deal "' + DEAL_2 + '"]'])
    assert [(b.number, b.deal) for b in parse_pbn(text)] == [(1, DEAL_1), (2, DEAL_2)]


def test_ten_may_be_written_10_and_cards_in_any_order_or_case():
    deal = "n:94qtk.2986.t7.7k 3.Q73.KJ65.T9853 A752.AK10.Q4.AJ42 J86.J54.A9832.Q6"
    assert parse_pbn(f'[Board "1"]\n[Deal "{deal}"]\n')[0].deal == DEAL_1


def test_all_hands_unknown_is_no_deal():
    assert parse_pbn('[Board "1"]\n[Deal "N:- - - -"]\n')[0].deal is None


def test_header_games_and_empty_files_give_no_boards():
    assert parse_pbn("") == []
    assert parse_pbn('% just a comment\n[Event "x"]\n') == []


# --------------------------------------------------------------------------- errors


def _numbered(lines: list[str]) -> str:
    return "\n".join(lines) + "\n"


def test_too_many_cards_names_the_line_the_board_and_the_hand():
    lines = ["% PBN 2.1", "", '[Board "1"]', f'[Deal "{DEAL_1}"]', "", '[Board "2"]',
             f'[Deal "{DEAL_2}"]', "", '[Event "x"]', "", '[Board "3"]',
             '[Deal "N:KQT94.9862.T7.K72 3.Q73.KJ65.T985 A752.AKT.Q4.AJ42 J86.J54.A9832.Q6"]']
    with pytest.raises(PbnError) as caught:
        parse_pbn(_numbered(lines))
    assert str(caught.value) == "line 12: the deal of board 3 has 14 cards in the north hand"


@pytest.mark.parametrize("deal, message", [
    ("N:KQT94.9862.T7.K7 3.Q73.KJ65.T985 A752.AKT.Q4.AJ42 J86.J54.A9832.Q6",
     "has 12 cards in the east hand"),
    ("N:KQT94.9862.T7.K7 3.Q73.KJ65.T9853 A752.AKT.Q4.AJ42 J86.J54.A9832.Q3",
     "gives the three of clubs to both the east and the west hand"),
    ("N:KQT94.9862.T7.K7 3.Q73.KJ65.T9853 A752.AKT.Q4.AJ42", "has 3 hands, not 4"),
    ("KQT94.9862.T7.K7 3.Q73.KJ65.T9853 A752.AKT.Q4.AJ42 J86.J54.A9832.Q6",
     "must start with the first hand's seat and a colon"),
    ("N:KQT94.9862.T7K7 3.Q73.KJ65.T9853 A752.AKT.Q4.AJ42 J86.J54.A9832.Q6",
     "has 3 suits in the north hand, not 4"),
    ("N:KQX94.9862.T7.K7 3.Q73.KJ65.T9853 A752.AKT.Q4.AJ42 J86.J54.A9832.Q6",
     "has 'X' in the north hand"),
    ("N:KKT94.9862.T7.K7 3.Q73.QJ65.T9853 A752.AKT.Q4.AJ42 J86.J54.A9832.Q6",
     "has a card twice in the north hand's spades"),
])
def test_bad_deals(deal, message):
    with pytest.raises(PbnError, match=f"^line 2: the deal of board 7 {message}"):
        parse_pbn(f'[Board "7"]\n[Deal "{deal}"]\n')


@pytest.mark.parametrize("text, message", [
    ('[Event "#"]\n[Board "1"]\n', "line 1: \\[Event \"#\"\\] copies the previous game's Event"),
    ('[Board "one"]\n', "line 1: the Board tag must be a board number, not 'one'"),
    ('[Board "1"]\n[Dealer "X"]\n', "line 2: the dealer must be N, E, S or W"),
    ('[Board "1"]\n[Vulnerable "Some"]\n', "line 2: Vulnerable must be None, NS, EW or All"),
    (f'[Deal "{DEAL_1}"]\n', "line 1: a deal without a Board tag"),
    ('[Board "1"]\n\n[Board "1"]\n', "line 3: board 1 appears twice \\(first at line 1\\)"),
    ('[Board "1"]\n[Deal N:AKQ]\n', 'line 2: a tag must look like \\[Name "value"\\]'),
])
def test_bad_files_name_the_line(text, message):
    with pytest.raises(PbnError, match=message):
        parse_pbn(text)


def test_pbn_error_is_a_value_error():
    assert issubclass(PbnError, ValueError) and issubclass(DealError, ValueError)


# --------------------------------------------------------------------------- writing


def test_write_pbn_writes_pbn_2_1():
    text = write_pbn([(1, DEAL_1), (2, None)], event="Tuesday duplicate",
                     date=datetime.date(1913, 11, 17), site="Club")
    assert text == "\n".join([
        "% PBN 2.1",
        "% EXPORT",
        '[Event "Tuesday duplicate"]',
        '[Site "Club"]',
        '[Date "1913.11.17"]',
        '[Board "1"]',
        '[Dealer "N"]',
        '[Vulnerable "None"]',
        f'[Deal "{DEAL_1}"]',
        "",
        '[Event "Tuesday duplicate"]',
        '[Site "Club"]',
        '[Date "1913.11.17"]',
        '[Board "2"]',
        '[Dealer "E"]',
        '[Vulnerable "None"]',
        '[Deal "N:- - - -"]',
        "",
    ])


def test_write_pbn_dealers_follow_the_board_number():
    boards = parse_pbn(write_pbn([(n, None) for n in range(1, 9)]))
    assert [b.dealer for b in boards] == list("NESWNESW")


def test_write_pbn_dates_and_escapes():
    text = write_pbn([PbnBoard(1, deal=DEAL_2_FROM_EAST)], event='The "Whist" Club \\ 1913',
                     date="2026-11-17")
    assert '[Date "2026.11.17"]' in text and f'[Deal "{DEAL_2}"]' in text
    board = parse_pbn(text)[0]
    assert board.tags["Event"] == 'The "Whist" Club \\ 1913'
    assert '[Date "????.??.??"]' in write_pbn([(1, None)])


def test_write_pbn_refuses_bad_boards():
    with pytest.raises(PbnError, match="board 2: the deal has 3 hands, not 4"):
        write_pbn([(2, "N:AKQ - -")])
    with pytest.raises(PbnError, match="board 1 is given twice"):
        write_pbn([(1, None), (1, DEAL_1)])


def test_the_shared_example_round_trips():
    boards = parse_pbn(FIXTURE)
    again = parse_pbn(write_pbn(boards, event="x"))
    assert [(b.number, b.deal) for b in again] == [(b.number, b.deal) for b in boards]


_hand_masks = st.lists(st.booleans(), min_size=4, max_size=4)


@settings(max_examples=60, deadline=None)
@given(numbers=st.lists(st.integers(1, 200), min_size=1, max_size=8, unique=True),
       seed=st.integers(0, 2**32), masks=st.lists(_hand_masks, min_size=8, max_size=8))
def test_round_trip(numbers, seed, masks):
    rng = random.Random(seed)
    deals = []
    for number, mask in zip(numbers, masks, strict=False):
        hands = deal_board(rng)[2:].split()
        hands = [("-" if hidden else hand) for hand, hidden in zip(hands, mask, strict=True)]
        deal = "N:" + " ".join(hands)
        deals.append((number, None if all(mask) else deal))
    boards = parse_pbn(write_pbn(deals, event="Round trip", date="1913.11.17"))
    assert [(b.number, b.deal) for b in boards] == deals
    assert all(b.dealer == dealer_for_board(b.number) and b.vulnerable == "None" for b in boards)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), first=st.sampled_from("NESW"))
def test_any_first_seat_normalizes_to_north(seed, first):
    deal = deal_board(random.Random(seed))
    hands = deal[2:].split()
    turn = "NESW".index(first)
    rotated = f"{first}:" + " ".join(hands[turn:] + hands[:turn])
    assert normalize_deal(rotated) == deal


# --------------------------------------------------------------------------- an uploaded file


def test_read_hand_record_reads_utf8_with_a_byte_order_mark_and_latin1():
    text = (f'[Event "Clubabend Großbritannien"]\n[Board "1"]\n[Deal "{DEAL_1}"]\n\n'
            f'[Board "2"]\n[Deal "{DEAL_2_FROM_EAST}"]\n\n[Board "3"]\n')
    wanted = {1: DEAL_1, 2: DEAL_2}
    assert read_hand_record(io.BytesIO(text.encode("utf-8-sig"))) == wanted
    assert read_hand_record(io.BytesIO(text.encode("latin-1"))) == wanted


def test_read_hand_record_raises_a_value_error_on_a_bad_file():
    with pytest.raises(ValueError, match="board 1 appears twice"):
        read_hand_record(io.BytesIO(b'[Board "1"]\n\n[Board "1"]\n'))
