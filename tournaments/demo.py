"""The demo club night: what ``make run`` shows a newcomer.

Two events, made entirely through the services so they are audited like a real
night:

* a pairs night in progress: section A a 7-table Mitchell (14 pairs, 21 boards, 3 a
  round), rounds 1-3 entered, confirmed and agreed at the tables, round 4 partly entered
  (one score still waiting for the opponents' confirmation); section B a 3-table
  Mitchell (pairs 15 to 20) on the same boards 1 to 9, finished; the whole field
  compared on the same boards (Duplicate Law H); standings published as provisional;
* the club's member list (numbers, some e-mail addresses; one member inactive): section
  A's pairs are members, but for one pair of visitors;
* a finished team match, three pairs a side (Duplicate Law G), closed, its
  standings final;
* a season of three nights: two earlier 5-table Mitchells of members (closed, final)
  and tonight's, ranked by points for places, the best two nights of three counting,
  at least two nights to be placed; published (the public counts the final nights).

The deals and the play come from a seeded ``random.Random``, so the demo is the
same every time it is loaded. The play is simulated from the cards: the side with
more high-card points declares its longest fit (no trump when both hands are
balanced), bids about what the cards are worth and takes about that many tricks.
"""

from __future__ import annotations

import datetime
import random
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from boards.dealing import deal_boards
from boards.movements import Movement, generate
from scoring.engine import SIDE_OF_SEAT, SUITS, dealer_for_board, get_rules, parse_deal, partner

from .models import Event, Meeting, Player, Result, Season, Section
from .services import (
    Actor,
    boards_set,
    event_close,
    event_create,
    event_publish,
    event_set_status,
    member_save,
    members_import,
    movement_meetings_set,
    pair_set,
    result_confirm,
    result_record,
    round_agree,
    season_save,
    section_add,
    teams_set,
)

SEED = 1913  # the year of the Laws the club plays by
MITCHELL_TABLES = 7
MITCHELL_BOARDS_PER_ROUND = 3
ROUNDS_AGREED = 3  # rounds 1-3 are over; round 4 is being played
ROUND_IN_PLAY = 4
TEAM_PAIRS = 3
TEAM_BOARDS_PER_ROUND = 4

# Invented players of a New York whist club, about 1913.
MITCHELL_PLAYERS = [
    ("Cornelia Van Dusen", "Harriet Oakley"),
    ("Elbert Stoutenburgh", "Josiah Pell"),
    ("Florence Ten Eyck", "Mabel Quackenbush"),
    ("Ambrose Hoyt", "Thaddeus Brinckerhoff"),
    ("Winifred Delancey", "Ada Lispenard"),
    ("Silas Varian", "Rufus Ogden"),
    ("Gertrude Haight", "Lillian Verplanck"),
    ("Ernest Varick", "Chauncey Bleecker"),
    ("Edna Rutgers", "Bessie Kip"),
    ("Clarence Waddell", "Everett Tompkins"),
    ("Louisa Beekman", "Ida Hone"),
    ("Horace Suydam", "Wendell Morse"),
    ("Beatrice Jumel", "Nellie Crosby"),
    ("Augustus Remsen", "Percival Tuthill"),
]
# The club's member list (number, e-mail or ""): the Mitchell's players but the last
# pair, who are visitors; two members not playing tonight, one of them no longer active.
MEMBER_EMAILS = {"Cornelia Van Dusen": "cornelia@example.org",
                 "Josiah Pell": "josiah.pell@example.org",
                 "Florence Ten Eyck": "florence@example.org",
                 "Winifred Delancey": "winifred@example.org",
                 "Gertrude Haight": "g.haight@example.org",
                 "Edna Rutgers": "edna@example.org",
                 "Horace Suydam": "suydam@example.org"}
VISITOR_PAIRS = 1  # the last pair of the Mitchell plays as visitors (no number)
FIRST_NUMBER = 101
MEMBERS_NOT_PLAYING = [("Eliza Gansevoort", True), ("Matthias Onderdonk", False)]


def member_list() -> list[tuple[str, str, str, str, bool]]:
    """(number, first name, last name, e-mail, active) of the demo club's members."""
    names = [n for pair in MITCHELL_PLAYERS[:len(MITCHELL_PLAYERS) - VISITOR_PAIRS]
             for n in pair]
    rows = [(n, True) for n in names] + MEMBERS_NOT_PLAYING
    out = []
    for i, (name, active) in enumerate(rows):
        first, _, last = name.partition(" ")
        out.append((str(FIRST_NUMBER + i), first, last, MEMBER_EMAILS.get(name, ""), active))
    return out


def _members_load(director: Actor) -> dict[str, str]:
    """Import the member list as a club would (a CSV file); the number of each name."""
    rows = member_list()
    text = "number,first_name,last_name,email\n" + "".join(
        f"{n},{first},{last},{email}\n" for n, first, last, email, _ in rows)
    members_import(text=text, actor=director)
    for number, first, last, email, active in rows:
        if not active:
            member = Player.objects.get(number=number)
            member_save(player=member, number=number, first_name=first, last_name=last,
                        email=email, active=False, actor=director)
    return {f"{first} {last}": number for number, first, last, _, _ in rows}


SECTION_B_TABLES = 3
SECTION_B_PLAYERS = [
    ("Josephine Gerard", "Minnie Livingston"),
    ("Bradford Jay", "Lemuel Cutting"),
    ("Henrietta Duer", "Alma Renwick"),
    ("Nathaniel Bogert", "Ezra Ludlum"),
    ("Sophronia Mott", "Eliza Hallett"),
    ("Cornelius Ryerson", "Obadiah Provoost"),
]
TEAMS = {
    "Gramercy": [("Theodora Lorillard", "Amelia Hewitt"), ("Cyrus Vandewater", "Otis Kip"),
                 ("Maud Rhinelander", "Jasper Goelet")],
    "Murray Hill": [("Hattie Brevoort", "Walter Ludlow"), ("Clara Schermerhorn", "Amos Pell"),
                    ("Lavinia Stuyvesant", "Horace Tilden")],
}

HIGH_CARD_POINTS = {"A": 4, "K": 3, "Q": 2, "J": 1}
# The demo plays the American rule, where spades are bid as royal spades (Law 3).
AUCTION = get_rules("american-1913")


@dataclass(frozen=True)
class DemoNight:
    """What was loaded, for the command to report."""

    mitchell: Event
    match: Event
    results: int
    awaiting: int
    season: Season | None = None


# --- the simulated play --------------------------------------------------------------


def _points(hand: dict[str, str]) -> int:
    return sum(HIGH_CARD_POINTS.get(card, 0) for cards in hand.values() for card in cards)


def _bid(suit: str) -> str:
    """The denomination a suit is bid in: spades as royal spades."""
    return "RS" if suit == "S" else suit


def _balanced(hand: dict[str, str]) -> bool:
    """No void, no singleton, at most one doubleton."""
    lengths = sorted(len(cards) for cards in hand.values())
    return lengths[0] >= 2 and lengths[1] >= 3


def simulate_play(deal: str, board: int, rng: random.Random) -> dict:
    """A plausible deal result (interfaces.md §1, without board) for `deal`.

    The stronger side declares (the dealer's side when equal); its longest fit is
    trumps, spades being bid as royal spades, the suit the declaring side wants;
    no trump when both hands are balanced and no major fit of eight. Tricks run
    about six plus a trick for every three points over twenty; the level is bid a
    little under that, and the tricks taken vary by a trick or two. Honours are
    left out: the engine takes them from the deal.
    """
    hands = parse_deal(deal)
    ns = _points(hands["N"]) + _points(hands["S"])
    ew = _points(hands["E"]) + _points(hands["W"])
    dealer = dealer_for_board(board)
    first = "N" if ns > ew or (ns == ew and SIDE_OF_SEAT[dealer] == "ns") else "E"
    second = partner(first)
    strength = max(ns, ew)
    fits = {suit: len(hands[first][suit]) + len(hands[second][suit]) for suit in SUITS}
    # Longest fit; among equal fits the higher-valued suit (Law 3: H > D > C, royal spades top).
    trumps = max(SUITS, key=lambda suit: (fits[suit], AUCTION.trick_value(_bid(suit))))
    no_trump = (_balanced(hands[first]) and _balanced(hands[second])
                and not (trumps in "SH" and fits[trumps] >= 8))
    if no_trump:
        denomination = "NT"
        declarer = max((first, second), key=lambda seat: _points(hands[seat]))
        expected = 6 + (strength - 20) / 3
    else:
        denomination = _bid(trumps)
        declarer = max((first, second),
                       key=lambda seat: (len(hands[seat][trumps]), _points(hands[seat])))
        expected = 6 + (strength - 20) / 3 + max(0, fits[trumps] - 7) / 2
    expected_tricks = min(13, max(6, round(expected)))
    level = min(7, max(1, expected_tricks - 6 - rng.choice((0, 0, 1))))
    tricks = min(13, max(0, expected_tricks + rng.choice((-2, -1, -1, 0, 0, 0, 1, 1))))
    doubled = "X" if tricks <= 4 + level and rng.random() < 0.5 else ""
    return {
        "contract": {"level": level, "denomination": denomination, "declarer": declarer,
                     "doubled": doubled},
        "tricks": tricks,
    }


# --- loading ------------------------------------------------------------------------


def _play_meeting(event: Event, section: Section, meeting: Meeting, deals: dict[int, str],
                  rng: random.Random, *, boards: int | None = None,
                  confirm: int | None = None) -> int:
    """Enter the meeting's boards (all, or the first `boards`) from its table, the
    opponents confirming them all (or the first `confirm`); returns how many were entered."""
    table = Actor.at_table(section, meeting.table)
    played = list(meeting.boards)[:boards]
    confirmed = len(played) if confirm is None else confirm
    for i, board in enumerate(played):
        result, _ = result_record(event=event, board=board, ns=meeting.ns_pair.number,
                                  ew=meeting.ew_pair.number, actor=table, meeting=meeting,
                                  data=simulate_play(deals[board], board, rng))
        if i < confirmed:
            result_confirm(result=result, actor=table, by=f"pair {meeting.ew_pair.number}")
    return len(played)


def _meetings(section: Section, round_number: int) -> list[Meeting]:
    return list(Meeting.objects.filter(section=section, round=round_number)
                .select_related("ns_pair", "ew_pair").order_by("table"))


def _set_up(event: Event, movement: Movement, players: list[tuple[str, str]],
            rng: random.Random, director: Actor, teams: dict | None = None
            ) -> tuple[Section, dict[int, str]]:
    for number, names in enumerate(players, start=1):
        team = teams.get(number) if teams else None
        pair_set(event=event, number=number, players=names, team=team, actor=director)
    deals = dict(enumerate(deal_boards(movement.boards, rng), start=1))
    boards_set(event=event, count=movement.boards, deals=deals, actor=director)
    section = event.sections.get(name="A")
    movement_meetings_set(section=section, movement=movement, actor=director)
    event_set_status(event=event, status=Event.Status.RUNNING, actor=director)
    return section, deals


def _mitchell_night(director: Actor, rng: random.Random, today: datetime.date
                    ) -> tuple[Event, int, int]:
    event = event_create(name="Tuesday duplicate at the Gramercy Whist Club", date=today,
                         rules="american-1913", kind="pairs", method="plus-minus",
                         actor=director)
    movement = generate("mitchell", tables=MITCHELL_TABLES,
                        boards_per_round=MITCHELL_BOARDS_PER_ROUND)
    numbers = _members_load(director)
    # The pairs as the director enters them: a member by name and number ("Ann Lee #101").
    players = [tuple(f"{n} #{numbers[n]}" if n in numbers else n for n in pair)
               for pair in MITCHELL_PLAYERS]
    section, deals = _set_up(event, movement, players, rng, director)
    entered = 0
    for round_number in range(1, ROUNDS_AGREED + 1):
        for meeting in _meetings(section, round_number):
            entered += _play_meeting(event, section, meeting, deals, rng)
            # Duplicate Law E: the table agrees its scores once all are confirmed.
            round_agree(section=section, round_number=round_number,
                        actor=Actor.at_table(section, meeting.table))
    # Round 4 under way: three tables done, one waiting for the opponents to confirm its
    # last board, one with a board entered, two still playing.
    in_play = _meetings(section, ROUND_IN_PLAY)
    for meeting in in_play[:3]:
        entered += _play_meeting(event, section, meeting, deals, rng)
    fourth = in_play[3]
    entered += _play_meeting(event, section, fourth, deals, rng, confirm=len(fourth.boards) - 1)
    entered += _play_meeting(event, section, in_play[4], deals, rng, boards=1)
    entered += _section_b(event, deals, random.Random(rng.random()), director)
    event = event_publish(event=event, level=Event.Published.PROVISIONAL, actor=director)
    awaiting = Result.objects.filter(event=event, status=Result.Status.ENTERED).count()
    return event, entered, awaiting


def _section_b(event: Event, deals: dict[int, str], rng: random.Random,
               director: Actor) -> int:
    """Section B: pairs 15 to 20 at three more tables, playing boards 1 to 9 of the same
    deals (compared across the whole field); its three rounds over and agreed."""
    section = section_add(event=event, actor=director)
    first = len(MITCHELL_PLAYERS) + 1
    for number, names in enumerate(SECTION_B_PLAYERS, start=first):
        pair_set(event=event, number=number, players=names, section=section, actor=director)
    movement = generate("mitchell", tables=SECTION_B_TABLES,
                        boards_per_round=MITCHELL_BOARDS_PER_ROUND)
    movement_meetings_set(section=section, movement=movement, actor=director)
    entered = 0
    for rnd in movement.rounds:
        for meeting in _meetings(section, rnd.number):
            entered += _play_meeting(event, section, meeting, deals, rng)
        for meeting in _meetings(section, rnd.number):
            round_agree(section=section, round_number=rnd.number,
                        actor=Actor.at_table(section, meeting.table))
    return entered


def _team_match(director: Actor, rng: random.Random, date: datetime.date) -> tuple[Event, int]:
    event = event_create(name="Challenge match: Gramercy v Murray Hill", date=date,
                         rules="american-1913", kind="teams", actor=director)
    movement = generate("team-match", pairs_per_team=TEAM_PAIRS,
                        boards_per_round=TEAM_BOARDS_PER_ROUND)
    teams = teams_set(event=event, names=list(TEAMS), actor=director)
    # The movement seats team A as pairs 1..k and team B as pairs k+1..2k.
    team_of, players = {}, []
    for team, key in zip(teams, ("A", "B"), strict=True):
        for number, names in zip(movement.teams[key], TEAMS[team.name], strict=True):
            team_of[number] = team
            players.append((number, names))
    players = [names for _, names in sorted(players)]
    section, deals = _set_up(event, movement, players, rng, director, teams=team_of)
    entered = 0
    for rnd in movement.rounds:
        for meeting in _meetings(section, rnd.number):
            entered += _play_meeting(event, section, meeting, deals, rng)
        round_agree(section=section, round_number=rnd.number, actor=director)
    event = event_publish(event=event, level=Event.Published.FINAL, actor=director)
    event = event_close(event=event, actor=director)
    return event, entered


TUESDAY = 1  # date.weekday(): the demo is the club's "Tuesday duplicate"


def club_night(today: datetime.date) -> datetime.date:
    """The club's latest Tuesday, today included: the night the demo's name claims."""
    return today - datetime.timedelta(days=(today.weekday() - TUESDAY) % 7)


# The season: two earlier club nights of members (5-table Mitchells, 2 boards a round),
# some partnerships changed on the second, and tonight's.
SEASON_NAME = "Autumn pairs championship"
SEASON_TABLES = 5
SEASON_BOARDS_PER_ROUND = 2
SEASON_SCALE = [10, 8, 6, 5, 4, 3, 2, 1]


def _season_pairs(night: int) -> list[tuple[str, str]]:
    """Ten member pairs from tonight's list: the first night as tonight, the second with
    two partnerships swapped (an individual season still follows each member)."""
    pairs = [tuple(p) for p in MITCHELL_PLAYERS[:2 * SEASON_TABLES]]
    if night == 2:
        (a, b), (c, d) = pairs[2], pairs[3]
        pairs[2], pairs[3] = (a, d), (c, b)
        pairs.reverse()
    return pairs


def _season_night(director: Actor, rng: random.Random, date: datetime.date, night: int,
                  numbers: dict[str, str]) -> tuple[Event, int]:
    event = event_create(name=f"Club pairs, night {night} of the season", date=date,
                         rules="american-1913", kind="pairs", method="plus-minus",
                         actor=director)
    movement = generate("mitchell", tables=SEASON_TABLES,
                        boards_per_round=SEASON_BOARDS_PER_ROUND)
    players = [tuple(f"{n} #{numbers[n]}" for n in pair) for pair in _season_pairs(night)]
    section, deals = _set_up(event, movement, players, rng, director)
    entered = 0
    for rnd in movement.rounds:
        for meeting in _meetings(section, rnd.number):
            entered += _play_meeting(event, section, meeting, deals, rng)
        round_agree(section=section, round_number=rnd.number, actor=director)
    event = event_publish(event=event, level=Event.Published.FINAL, actor=director)
    event = event_close(event=event, actor=director)
    return event, entered


def _season(director: Actor, rng: random.Random, tonight: Event) -> tuple[Season, int]:
    numbers = {p.name: p.number for p in Player.objects.exclude(number=None)}
    entered = 0
    events = []
    for night, weeks in ((1, 3), (2, 2)):
        event, played = _season_night(director, random.Random(rng.random()),
                                      tonight.date - datetime.timedelta(weeks=weeks), night,
                                      numbers)
        events.append(event)
        entered += played
    season = season_save(name=SEASON_NAME, entrants="individuals", counts="points",
                         rule="best", best_of=2, points_scale=SEASON_SCALE, min_events=2,
                         published=True, event_ids=[*(e.pk for e in events), tonight.pk],
                         actor=director)
    return season, entered


@transaction.atomic
def demo_load(*, director: Actor, seed: int = SEED) -> DemoNight:
    """Load both demo events (one transaction: all or nothing). `director` must be staff."""
    rng = random.Random(seed)  # a fixed seed: the same demo every time
    night = club_night(timezone.localdate())
    mitchell, entered, awaiting = _mitchell_night(director, rng, night)
    match, played = _team_match(director, rng, night - datetime.timedelta(days=7))
    season, season_played = _season(director, random.Random(rng.random()), mitchell)
    return DemoNight(mitchell=mitchell, match=match, results=entered + played + season_played,
                     awaiting=awaiting, season=season)
