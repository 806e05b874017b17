"""The guide cards: table cards, pair cards, and the director's announcement.

One builder for every guide card: the ``movement`` command's text, the director's
web page, the printed PDF and the table page's "where next" all read the cards
below, made from a generated movement or from one rebuilt from the stored meetings.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .check import shares_boards
from .mitchell import board_station, station_tables
from .model import KIND_NAMES, Movement, Round


@dataclass(frozen=True)
class Seat:
    """Where a pair sits in a round: a table and a direction, or nowhere (it sits out)."""

    table: int | None
    direction: str | None = None  # "NS" or "EW"; None when the pair sits out
    # As the "next" seat of a card's round: the direction the pair sat in that round when
    # this seat is at the same table (it stays put: a Mitchell's N–S pair, a Howell's
    # stationary pair), else None.
    stays_from: str | None = None

    @property
    def sits_out(self) -> bool:
        return self.table is None

    def __str__(self) -> str:
        if self.table is None:
            return "sit out"
        side = _DIRECTION[self.direction or '']
        if self.stays_from is not None:
            # The table page's words: "Stay at table 3, N–S."
            turn = "" if self.stays_from == self.direction else "sit "
            return f"stay at table {self.table}, {turn}{side}"
        return f"table {self.table} {side}"


@dataclass(frozen=True)
class BoardsMove:
    """Where some of a table's boards go after a round (or came from before it).

    ``tables`` are the tables that play them in that round. When no table does, the
    boards wait: on the ``stand`` ("bye stand" of a relay Mitchell, "relay stand"
    of a Howell), or, in a Mitchell with a sit-out, at the table they move to
    (``waiting``: that table is not in play that round). No tables and no stand:
    the boards go back to (or come from) the director.
    """

    boards: tuple[int, ...]
    tables: tuple[int, ...] = ()
    stand: str = ""
    waiting: bool = False

    def __str__(self) -> str:
        if self.tables:
            word = "tables" if len(self.tables) > 1 else "table"
            text = f"{word} {' and '.join(map(str, self.tables))}"
            return text + " (not in play that round: they wait there)" if self.waiting else text
        if self.stand:
            return f"the {self.stand}"
        return "the director"


@dataclass(frozen=True)
class TableCardRow:
    """One round of a table's card. ``ns`` is None when the table is not in play.

    ``ns_next``/``ew_next``: where the two pairs sit in the next round (None after the
    last round); ``boards_next``/``boards_from``: where the boards go after the round
    and where they came from before it (empty after the last / before the first).
    """

    round: int
    ns: int | None
    ew: int | None
    boards: tuple[int, ...]
    shared_with: tuple[int, ...] = ()
    ns_next: Seat | None = None
    ew_next: Seat | None = None
    boards_next: tuple[BoardsMove, ...] = ()
    boards_from: tuple[BoardsMove, ...] = ()

    @property
    def in_play(self) -> bool:
        return self.ns is not None


@dataclass(frozen=True)
class TableCard:
    table: int
    rows: tuple[TableCardRow, ...]


@dataclass(frozen=True)
class PairCardRow:
    """One round of a pair's card; ``table`` is None when the pair sits out.

    ``next``: where the pair sits in the next round (None after the last round)."""

    round: int
    table: int | None
    direction: str | None  # "NS" or "EW"
    boards: tuple[int, ...]
    opponents: int | None
    next: Seat | None = None


@dataclass(frozen=True)
class PairCard:
    """``left_after``: the round after which the pair left (its rows stop there);
    ``joined_from``: the round a late pair joined in (its rows start there)."""

    pair: int
    team: str | None
    rows: tuple[PairCardRow, ...]
    left_after: int | None = None
    joined_from: int | None = None


class _Layout:
    """Each round's seats and board places, looked up by pair and by board."""

    def __init__(self, movement: Movement, left: Mapping[int, int] | None = None) -> None:
        self.movement = movement
        self.left = dict(left or {})
        self.seats: list[dict[int, Seat]] = []
        self.board_tables: list[dict[int, tuple[int, ...]]] = []
        self.playing: list[set[int]] = [{t.table for t in rnd.tables} for rnd in movement.rounds]
        for rnd in movement.rounds:
            seats: dict[int, Seat] = {p: Seat(None) for p in rnd.sit_out}
            where: dict[int, list[int]] = defaultdict(list)
            for t in rnd.tables:
                seats[t.ns] = Seat(t.table, "NS")
                seats[t.ew] = Seat(t.table, "EW")
                for board in t.boards:
                    where[board].append(t.table)
            self.seats.append(seats)
            self.board_tables.append({b: tuple(sorted(ts)) for b, ts in where.items()})

    def seat(self, index: int, pair: int) -> Seat | None:
        """The pair's seat in round index (0-based); None past the last round, and past
        the round after which the pair left (its night is over: it does not sit out)."""
        if not 0 <= index < len(self.seats):
            return None
        if pair in self.left and self.movement.rounds[index].number > self.left[pair]:
            return None
        return self.seats[index].get(pair, Seat(None))

    def next_seat(self, index: int, pair: int) -> Seat | None:
        """The pair's seat in the round after round index, marked when it stays at the
        table it sits at in round index."""
        after = self.seat(index + 1, pair)
        here = self.seats[index].get(pair)
        if after is None or after.table is None or here is None or here.table != after.table:
            return after
        return Seat(after.table, after.direction, stays_from=here.direction)

    def boards_move(self, index: int, table: int, boards: tuple[int, ...],
                    step: int) -> tuple[BoardsMove, ...]:
        """Where `boards`, at `table` in round index, are in round index + step (±1)."""
        other = index + step
        if not 0 <= other < len(self.board_tables):
            return ()
        groups: dict[tuple, list[int]] = defaultdict(list)
        for board in boards:
            tables = self.board_tables[other].get(board)
            groups[(tables, "", False) if tables else self.resting(other, board)].append(board)
        return tuple(BoardsMove(tuple(bs), *key) for key, bs in groups.items())

    def _played_later(self, board: int, index: int) -> bool:
        """Is `board` played in a round after round index (0-based)?"""
        return any(board in self.board_tables[i]
                   for i in range(index + 1, len(self.board_tables)))

    def _played_before(self, board: int, index: int) -> bool:
        return any(board in self.board_tables[i] for i in range(index))

    def resting(self, index: int, board: int) -> tuple[tuple[int, ...], str, bool]:
        """Where `board`, played by nobody in round index (0-based), waits that round.

        One answer for both cards that name the place: the card of the round before
        ("then the boards go to") and the table page of the round after ("from"). A
        movement changed between rounds (``change.fit``) seats its board sets anew, so
        the place is worked out from the boards' tables on either side and kept only
        where it can be: a table they wait at is one not in play that round, a bye
        stand stands in a relay round. A board played no more goes back to the
        director, as does (in a Mitchell) a board no earlier round played that waits
        after round 1: new boards, made for a change, come from the director.
        """
        if not self._played_later(board, index):
            # Played no more (a movement changed to fewer boards a round, say): the
            # board goes back to the director, not to a table to wait.
            return ((), "", False)
        m = self.movement
        if m.kind != "mitchell" or not m.tables:
            return ((), "relay stand", False)
        if index > 0 and not self._played_before(board, index):
            return ((), "", False)  # new boards: from the director
        relay = self._relay_tables(index)
        bye = relay or (m.tables if m.is_relay else None)
        for step, other in ((-1, index - 1), (+1, index + 1)):
            tables = self.board_tables[other].get(board) if 0 <= other < len(
                self.board_tables) else None
            if not tables:
                continue
            # A Mitchell's boards move down one station a round (see board_station).
            station = board_station(tables[0] - 1, m.tables, m.variant)
            waits = station_tables((station + step) % m.tables, m.tables, m.variant)
            if waits is None and bye:
                return self._bye_stand(bye)
            if waits and not set(waits) & self.playing[index]:
                return (waits, "", True)
        if relay:
            return self._bye_stand(relay)
        return ((), "", False)

    def _relay_tables(self, index: int) -> int | None:
        """In a relay round (table 1 shares its boards with table n, a relay Mitchell's
        last table), n; else None."""
        if not self.board_tables[index]:
            return None
        shared = [ts for ts in self.board_tables[index].values() if len(ts) > 1 and 1 in ts]
        return max(shared[0]) if shared else None

    @staticmethod
    def _bye_stand(tables: int) -> tuple[tuple[int, ...], str, bool]:
        return ((), f"bye stand between tables {tables // 2} and {tables // 2 + 1}", False)


def table_cards(movement: Movement, left: Mapping[int, int] | None = None) -> list[TableCard]:
    """Per table, round by round: the N–S and E–W pairs, the boards (None = idle), and
    where the pairs and boards go next. `left`: pair → the round after which it left
    (its night ends there: "end of play", not "sit out").

    A table that is never in play (a Howell's last table when its pair is missing)
    gets no card."""
    layout = _Layout(movement, left)
    cards = []
    for table in _table_numbers(movement):
        rows = []
        for index, rnd in enumerate(movement.rounds):
            here = next((t for t in rnd.tables if t.table == table), None)
            if here is None:
                rows.append(TableCardRow(rnd.number, None, None, ()))
                continue
            shared = tuple(t.table for t in rnd.tables
                           if t.table != table and set(t.boards) & set(here.boards))
            rows.append(TableCardRow(
                rnd.number, here.ns, here.ew, here.boards, shared,
                ns_next=layout.next_seat(index, here.ns),
                ew_next=layout.next_seat(index, here.ew),
                boards_next=layout.boards_move(index, table, here.boards, +1),
                boards_from=layout.boards_move(index, table, here.boards, -1)))
        if any(row.ns is not None for row in rows):  # a table never in play gets no card
            cards.append(TableCard(table, tuple(rows)))
    return cards


def _table_numbers(movement: Movement) -> list[int]:
    return sorted(movement.playing_tables | set(range(1, movement.tables + 1)))


def pair_numbers(movement: Movement) -> list[int]:
    """Every pair the movement seats or sits out (1..pairs for a generated one)."""
    return sorted({p for rnd in movement.rounds
                   for p in (*(x for t in rnd.tables for x in (t.ns, t.ew)), *rnd.sit_out)})


def pair_cards(movement: Movement, left: Mapping[int, int] | None = None,
               joined: Mapping[int, int] | None = None) -> list[PairCard]:
    """Per pair, round by round: table, direction, boards, opponents and the next seat.

    `left`: pair → the round after which it left (decision 103): its card stops at that
    round, whose next seat is the end of play, and says so (``left_after``). `joined`:
    a late pair → the round it joined in (decision 102): its card starts there, and says
    so (``joined_from``): before it, the pair was not there to sit out."""
    team_of = {p: name for name, members in (movement.teams or {}).items() for p in members}
    left = dict(left or {})
    layout = _Layout(movement, left)
    cards = []
    for pair in pair_numbers(movement):
        gone, since = left.get(pair), (joined or {}).get(pair)
        rows = [_pair_row(rnd, pair, layout.next_seat(index, pair))
                for index, rnd in enumerate(movement.rounds)
                if (gone is None or rnd.number <= gone) and (since is None or rnd.number >= since)]
        cards.append(PairCard(pair, team_of.get(pair), tuple(rows), gone, since))
    return cards


def _pair_row(rnd: Round, pair: int, after: Seat | None) -> PairCardRow:
    for t in rnd.tables:
        if pair == t.ns:
            return PairCardRow(rnd.number, t.table, "NS", t.boards, t.ew, after)
        if pair == t.ew:
            return PairCardRow(rnd.number, t.table, "EW", t.boards, t.ns, after)
    return PairCardRow(rnd.number, None, None, (), None, after)


def table_round(movement: Movement, table: int, round_number: int) -> TableCardRow | None:
    """This table's row of its card in a round: who is here, and where the pairs and
    boards go after it (the table page's "where next"); None if not in play."""
    for card in table_cards(movement):
        if card.table == table:
            return next((row for row in card.rows
                         if row.round == round_number and row.in_play), None)
    return None


def boards_origin(row: TableCardRow) -> str:
    """Where a round's boards come from, in the words of the table card and of the table
    page (one phrase for both): "from table 2", "from the bye stand between tables 4 and
    5", "from the director" (new boards), "4–5 from table 2; 6 from the relay stand" when
    they come from two places; then "shared with table 8" when another table plays them
    too. "" for the first round's boards played by one table."""
    moves = row.boards_from
    parts = []
    if len(moves) == 1:
        parts.append(f"from {moves[0]}")
    elif moves:
        parts.append("; ".join(f"{board_range(m.boards)} from {m}" for m in moves))
    if row.shared_with:
        word = "tables" if len(row.shared_with) > 1 else "table"
        parts.append(f"shared with {word} {' and '.join(map(str, row.shared_with))}")
    return ", ".join(parts)


def board_range(boards: Iterable[int]) -> str:
    """Boards as a director writes them: "4–6", or "1, 5, 9" when not consecutive."""
    numbers = sorted(boards)
    if not numbers:
        return "–"
    if len(numbers) > 1 and numbers == list(range(numbers[0], numbers[-1] + 1)):
        return f"{numbers[0]}–{numbers[-1]}"
    return ", ".join(map(str, numbers))


_DIRECTION = {"NS": "N–S", "EW": "E–W"}


def movement_title(movement: Movement) -> str:
    m = movement
    name = KIND_NAMES[m.kind]
    if m.variant:
        name = f"{m.variant} {name}"
    sets = m.boards // m.boards_per_round
    return (f"{name[0].upper()}{name[1:]}: {tables_words(m)}, {m.pairs} pairs, {m.boards} "
            f"boards ({sets} sets of {m.boards_per_round}), {len(m.rounds)} rounds")


def tables_words(movement: Movement) -> str:
    """The tables that play, as the director sets out the room: "4 tables and one
    sit-out" (a Howell's missing pair leaves its table out), "5 tables"."""
    n = movement.in_play
    return f"{n} table{'s' if n != 1 else ''}" + (
        " and one sit-out" if movement.has_sit_out else "")


def movement_instructions(movement: Movement) -> list[str]:
    """The director's announcement: how pairs and boards move."""
    m, n = movement, movement.tables
    lines: list[str] = []
    if m.kind == "mitchell":
        lines.append(f"N–S pairs stay at their tables. After each round E–W pairs move up one "
                     f"table (from table {n} to table 1) and boards move down one table "
                     f"(from table 1 to table {n}).")
        if m.variant == "skip":
            lines.append(f"Skip: before round {n // 2 + 1} the E–W pairs move up two tables. "
                         f"{n} board sets are in play; each pair plays {n - 1} of them.")
        if m.is_relay:
            lines.append(f"Relay: tables 1 and {n} share a board set every round. A bye stand "
                         f"between tables {n // 2} and {n // 2 + 1} holds one set: boards go "
                         f"from table {n // 2 + 1} to the bye stand, from the bye stand to "
                         f"table {n // 2}, and from tables 1 and {n} to table {n - 1}.")
    elif m.kind in ("howell", "three-quarter-howell"):
        lines.append("Pairs change tables and directions as their pair cards show; tables "
                     "play the board sets their table cards show.")
        if shares_boards(m):
            lines.append("Tables marked 'shared' play the same boards in a round: play them in "
                         "a different order and pass them on.")
        sets = m.boards // m.boards_per_round
        if _sets_advance_by_one(m):
            lines.append(f"Each table plays the next board set each round (after set {sets} "
                         "comes set 1).")
        if sets > m.in_play and not shares_boards(m):
            lines.append(f"Board sets not in play wait on a relay stand "
                         f"({sets - m.in_play} a round).")
    else:
        assert m.teams is not None
        (name_a, a), (name_b, b) = list(m.teams.items())[:2]
        half = (n + 1) // 2
        lines.append(f"Team {name_a}: pairs {a[0]}–{a[-1]}; team {name_b}: pairs "
                     f"{b[0]}–{b[-1]}. Each table seats one pair of each team; team {name_a} "
                     f"sits N–S at tables 1–{half}, team {name_b} at the others "
                     "(Duplicate Law G).")
        lines.append("N–S pairs stay at their tables; every deal is played once at each table. "
                     "E–W pairs and boards move as the cards show.")
    if m.pairs == 2 * n - 1:
        lines.append(f"Pair {2 * n} is missing: the pair due to meet it sits out that round.")
    return lines


def _sets_advance_by_one(movement: Movement) -> bool:
    """Whether every table plays set s + 1 in the round after set s (cyclic Howells)."""
    sets = movement.boards // movement.boards_per_round
    per_round = movement.boards_per_round
    for card in table_cards(movement):
        played = [(row.boards[0] - 1) // per_round for row in card.rows if row.boards]
        if len(played) != len(card.rows):
            return False
        if any((b - a) % sets != 1 for a, b in zip(played, played[1:], strict=False)):
            return False
    return True


def guide_cards_text(movement: Movement) -> str:
    """Table cards and pair cards as plain text (``manage.py movement --format text``)."""
    out = [movement_title(movement), *movement_instructions(movement), ""]
    out += ["TABLE CARDS", ""]
    for card in table_cards(movement):
        out += _table_card_lines(card, movement)
    out += ["PAIR CARDS", ""]
    for card in pair_cards(movement):
        out += _pair_card_lines(card)
    return "\n".join(out).rstrip() + "\n"


def _table_card_lines(card: TableCard, movement: Movement) -> list[str]:
    lines = [f"Table {card.table}", "  Round  N–S  E–W  Boards"]
    for row in card.rows:
        if row.ns is None:
            lines.append(f"  {row.round:5}  (not in play)")
            continue
        origin = boards_origin(row)
        note = f"  {origin}" if origin else ""
        lines.append(f"  {row.round:5}  {row.ns:3}  {row.ew:3}  {board_range(row.boards)}{note}")
    if movement.is_relay and card.table == movement.tables:
        lines.append("  (the bye stand between tables "
                     f"{movement.tables // 2} and {movement.tables // 2 + 1} holds a set "
                     "nobody plays that round)")
    return lines + [""]


def _pair_card_lines(card: PairCard) -> list[str]:
    team = f" (team {card.team})" if card.team else ""
    lines = [f"Pair {card.pair}{team}"]
    if card.joined_from is not None:
        lines.append(f"  joined late, from round {card.joined_from}")
    for row in card.rows:
        if row.table is None:
            lines.append(f"  round {row.round}: sits out")
            continue
        direction = _DIRECTION[row.direction or ""]
        lines.append(f"  round {row.round}: table {row.table} {direction}, boards "
                     f"{board_range(row.boards)}, vs pair {row.opponents}")
    if card.left_after is not None:
        lines.append(f"  left after round {card.left_after}: no further rounds")
    return lines + [""]
