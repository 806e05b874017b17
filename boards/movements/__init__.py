"""Movements: which pairs meet, at which table, on which boards, round by round.

Pure Python (no Django): the app stores ``Movement.to_dict()`` (interfaces.md §4) and
prints the guide cards from it. Every movement is generated, never typed in, and
``check`` proves the properties the director relies on.

Modules: ``model`` (the dataclasses and their JSON), ``schedule`` (what the generators
share), ``mitchell``, ``howell`` (and the three-quarter Howell), ``team`` (team match),
``check`` (the checker; ``check_from`` for a change between rounds), ``change``
(fitting a new movement to the rounds played) and ``cards`` (the guide cards); this
module makes a movement of any kind (``generate``) and is where every name is imported
from.

Terms
-----
board set
    The boards one table plays in one round: ``boards_per_round`` consecutive board
    numbers (set 1 = boards 1..b, set 2 = boards b+1..2b, ...).
round
    One sitting: every table plays one board set, then pairs and boards move.
relay / shared boards
    Two tables playing the same board set in the same round, passing the boards
    between them (relay Mitchell: tables 1 and n; the 2- and 3-table Howells). They
    play the boards in different orders, so a set shared by k tables needs at least k
    boards a round, or a table waits for a board: ``generate`` refuses fewer (2 for a
    relay or a 2-table Howell, 3 for a 3-table Howell) and ``check`` finds them.
bye stand
    A stand with no players, holding a board set that nobody plays that round.
skip
    In a skip Mitchell the E–W pairs move up two tables instead of one, once.
sit-out
    With an odd number of pairs, the highest pair number is a phantom; the pair
    due to meet it sits out that round (no score; the table is left out of the
    round's ``tables`` and the pair is listed in ``sit_out``).

The movements (decisions, after the ACBL and EBU standard forms)
----------------------------------------------------------------
Mitchell, 3 to 20 tables: N–S pair *t* stays at table *t*; E–W pair *n+t* starts at
table *t* and moves up one table a round; boards move down one table.
  * odd *n*: *n* rounds, *n* board sets, every pair plays every set, each board is
    played *n* times.
  * ``skip`` (even *n*, E. T. Baker's skip Mitchell): before round *n*/2+1 the E–W
    pairs move up two tables. *n* board sets are in play but only *n*−1 rounds are
    played: the *n*-th would be the "revenge round" against the first opponents.
    Each pair plays *n*−1 sets and each board is played *n*−1 times.
  * ``relay`` (even *n*, share-and-relay, "relay and bye stand"): *n* board sets,
    sets 1..*n*/2 on tables 1..*n*/2, set *n*/2+1 on a bye stand between tables *n*/2
    and *n*/2+1, the rest on tables *n*/2+1..*n*−1; table *n* shares table 1's set.
    Boards move down one station (the bye stand counts as one; tables 1 and *n* are
    one station, whose boards go to table *n*−1). *n* rounds; every pair plays every
    set; each board is played *n* times.

Howell, 2 to 8 tables (2*n* pairs, 2*n*−1 rounds, 2*n*−1 board sets): every pair meets
every other pair once and plays every set once, so each board is played *n* times.
For *n* ≥ 4 the schedule is a cyclic Room square of side 2*n*−1 (no board set at two
tables in a round), built from a starter and an adder found by a small deterministic
backtracking search: in round *k* the pairs at each table are the starter's pairs
plus *k*, and each table plays the next board set each round. Pair 2*n* (the
starter's point at infinity) stays at table *n*. No Room square of side 3 or 5
exists, so the 2- and 3-table Howells share boards: with 2 tables both tables play
the same set every round; with 3 tables a search shows that some round must have
all three tables on one set (the least sharing possible), and the schedule found
has exactly one such round and no other sharing.

Three-quarter Howell, 4 to 8 tables: R = ceil(3/4 × (2*n*−1)) rounds (6, 7, 9, 10, 12)
and R board sets, laid out as a Howell design H(R, 2*n*): each round uses *n*
different sets, every pair plays every set exactly once and meets R different
opponents, and so each board is played *n* times, as in a full Howell ("played the
expected number of times"); each set rests on a relay stand in the other R−*n*
rounds. Built cyclically (starter and adder) where possible; H(6, 8) has no cyclic
form and comes from a direct backtracking search.

Howell seats: pairs change direction. Each pair's N–S and E–W rounds differ by at
most one (the meetings are oriented along an Euler circuit).

Team match (Duplicate Law G), *k* ≥ 2 pairs a team: team A is pairs 1..*k*, team B
pairs *k*+1..2*k*; *k* tables, *k* board sets, *k* rounds. Tables 1..ceil(*k*/2) seat an A
pair N–S against a B pair; the other tables a B pair N–S against an A pair, so half
of each team (as near as may be) sits N–S. N–S pairs stay put; every table plays
every set once ("each deal played once at each table") and so does every pair.
E–W pairs move within their group of tables so that opponents change every round:
  * even *k*: the E–W pairs move up one table within their group each round and
    meet each opponent of their group twice; the sets are in two halves, the groups
    swapping halves every round.
  * odd *k* (≥ 5): the groups play alternately a "home" round against a fixed
    opponent and an "away" round against a different one; a cyclic rotation cannot
    work here (a pair would meet a board again).
  * *k* = 3 and a group of one table: opponents cannot change; an exhaustive search
    shows that with three pairs a side no pair can change opponents at all.

Odd number of pairs (Mitchell, Howell, three-quarter Howell): ``pairs`` = 2*n*−1 makes
pair 2*n* a phantom: in a Mitchell an E–W pair, so N–S pairs sit out in turn; in a
Howell the stationary pair, so every other pair sits out exactly once. Each board
is then played once less for each sit-out on it.
"""

from __future__ import annotations

from .cards import (
    BoardsMove,
    PairCard,
    PairCardRow,
    Seat,
    TableCard,
    TableCardRow,
    board_range,
    boards_origin,
    guide_cards_text,
    movement_instructions,
    movement_title,
    pair_cards,
    pair_numbers,
    table_cards,
    table_round,
    tables_words,
)
from .change import fit, later_rounds
from .check import (
    check,
    check_from,
    expected_plays,
    expected_rounds,
    repeat_meetings,
    shares_boards,
)
from .howell import howell, three_quarter_howell, three_quarter_rounds
from .mitchell import mitchell
from .model import (
    HOWELL_TABLES,
    KIND_NAMES,
    KINDS,
    MITCHELL_TABLES,
    MITCHELL_VARIANTS,
    TEAM_PAIRS,
    THREE_QUARTER_TABLES,
    Movement,
    MovementError,
    Round,
    TableRound,
    movement_from_dict,
)
from .schedule import require_count, sharing_too_few
from .team import team_match

__all__ = [
    "BoardsMove",
    "HOWELL_TABLES",
    "KINDS",
    "MITCHELL_TABLES",
    "MITCHELL_VARIANTS",
    "Movement",
    "MovementError",
    "PairCard",
    "PairCardRow",
    "Round",
    "Seat",
    "TEAM_PAIRS",
    "THREE_QUARTER_TABLES",
    "TableCard",
    "TableCardRow",
    "TableRound",
    "board_range",
    "boards_origin",
    "check",
    "check_from",
    "expected_plays",
    "expected_rounds",
    "fit",
    "generate",
    "guide_cards_text",
    "howell",
    "later_rounds",
    "mitchell",
    "movement_from_dict",
    "movement_instructions",
    "movement_title",
    "pair_cards",
    "pair_numbers",
    "repeat_meetings",
    "shares_boards",
    "tables_words",
    "table_cards",
    "table_round",
    "team_match",
    "three_quarter_howell",
    "three_quarter_rounds",
]


def generate(
    kind: str,
    *,
    tables: int | None = None,
    boards_per_round: int,
    variant: str | None = None,
    pairs: int | None = None,
    pairs_per_team: int | None = None,
    as_stored: bool = False,
) -> Movement:
    """Make a movement, or raise ``MovementError`` saying what is wrong with the request.

    `as_stored`: the movement of a section set up already, made again as it was stored
    (pair_changes.movement_regenerate), not refused for a rule it was set up before:
    tables sharing a set with fewer boards a round than tables (``sharing_too_few``)."""
    if kind not in KINDS:
        raise MovementError(
            f"unknown movement kind {kind!r}: use mitchell, howell, three-quarter-howell "
            "or team-match"
        )
    require_count(boards_per_round, "boards per round", minimum=1)
    if kind == "team-match":
        return team_match(pairs_per_team, boards_per_round, tables=tables, pairs=pairs,
                          variant=variant)
    if pairs_per_team is not None:
        raise MovementError("pairs per team is only for a team match")
    if kind == "mitchell":
        movement = mitchell(tables, boards_per_round, variant=variant, pairs=pairs)
    elif variant is not None:
        raise MovementError(f"a {KIND_NAMES[kind]} takes no variant (skip and relay are "
                            "for an even-table Mitchell)")
    elif kind == "howell":
        movement = howell(tables, boards_per_round, pairs=pairs)
    else:
        movement = three_quarter_howell(tables, boards_per_round, pairs=pairs)
    too_few = sharing_too_few(kind, movement.tables, variant, boards_per_round)
    if too_few and not as_stored:
        raise MovementError(too_few)
    return movement
