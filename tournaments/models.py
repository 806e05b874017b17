"""The club night as data.

Terms: an *event* is one night's contest (pairs or teams); a *section* is a group
of tables playing one movement; a *meeting* is one table in one round: two pairs
and the boards they play there; a *result* is what happened on one board at one
meeting, or the director's *ruling* in its place (Duplicate Law B); every change
to a result leaves an *audit entry*.

The database enforces what must hold: one result per board per meeting of two
pairs, valid trick and level ranges. That a pair meets a board only once is the
movement's business (boards.movements checks it): a night file names pairs
directly and may come from any movement, even an even-table Mitchell without a
skip, where an E-W pair meets some boards twice.
"""

from django.conf import settings
from django.db import models
from django.db.models import F, Q

from boards.movements import KINDS as MOVEMENT_KINDS
from scoring import engine

from . import presenters

_RULES_LABELS = {
    "american-1913": "Auction, American rule (1913)",
    "english": "Auction, English rule",
    "duplicate-whist": "Duplicate Whist",
}
RULES = [(name, _RULES_LABELS[name]) for name in engine.RULE_SET_NAMES]
KINDS = [("pairs", "Pairs"), ("teams", "Teams")]
METHODS = [
    ("plus-minus", "Plus/minus against the average (Duplicate Law H)"),
    ("matchpoints", "Matchpoints"),
    ("total-points", "Total points (team match, Duplicate Law G)"),
]
# The kinds of movement are boards.movements'; "none" is the app's own: results that
# name their pairs (an imported night). Only the labels the admin shows are written here.
_MOVEMENT_LABELS = {"mitchell": "Mitchell", "howell": "Howell",
                    "three-quarter-howell": "3/4 Howell", "team-match": "Team match"}
MOVEMENTS = [*((kind, _MOVEMENT_LABELS[kind]) for kind in MOVEMENT_KINDS),
             ("none", "No movement (results name the pairs)")]
# The codes of rule sets, sides, seats, denominations, doublings and rulings are the
# engine's (scoring.engine.rules); only the labels the admin shows are written here.
_SIDE_LABELS = {"ns": "North-South", "ew": "East-West"}
_DOUBLING_LABELS = {"": "Undoubled", "X": "Doubled", "XX": "Redoubled"}
_RULING_LABELS = {
    "average": "Average (Duplicate Law B(3): adversary had the surplus)",
    "fouled": "Fouled (Duplicate Law B(3): partner had the surplus)",
    "cancelled": "Cancelled (two-table new deal)",
    "not-played": "Not played at this table (no comparison)",
    "adjusted": "Adjusted score: average-plus, average or average-minus (club adjustment)",
    "assigned": "Assigned contract, or a split score (club adjustment)",
}
# Rulings the 1913 laws give (Duplicate Law B, and a board not played), and the adjusted
# scores of modern club practice, allowed only when the event turns "club adjustments" on.
LAW_RULINGS = ("average", "fouled", "cancelled", "not-played")
CLUB_ADJUSTMENTS = ("adjusted", "assigned")
RULING_KINDS = (*LAW_RULINGS, *CLUB_ADJUSTMENTS)
# An adjusted score grades each side: average-plus (60 % in matchpoints), average (50 %),
# average-minus (40 %).
ADJUST_GRADES = [("plus", "Average-plus"), ("average", "Average"), ("minus", "Average-minus")]
NOT_PLAYED_SCORING = [
    ("neuberg", "Neuberg: the board is factored, the pair is scored on the boards it played"),
    ("own-average", "The pair's own average on the boards it played"),
]
SIDES = [(code, _SIDE_LABELS[code]) for code in engine.SIDES]
SEATS = [(code, presenters.SEATS[code]) for code in engine.SEATS]
DENOMINATIONS = [(code, presenters.DENOMINATION_NAMES[code].capitalize())
                 for code in engine.DENOMINATIONS]
DOUBLINGS = [(code, _DOUBLING_LABELS[code]) for code in engine.DOUBLING]
MAX_CORRECTION_MINUTES = 24 * 60
# Bounds on what one request may carry, checked where it is typed (forms, serializers)
# before any lock is taken: a club night has no more.
MAX_PAIRS = 200  # pairs in one event
MAX_TEAMS = MAX_PAIRS // 2  # a team is at least two pairs
MAX_TABLES = 60  # tables in one section
MAX_REASON = 500  # characters of a reason given for the audit trail
RULINGS = [("", "Played"), *((code, _RULING_LABELS[code]) for code in RULING_KINDS)]


class Event(models.Model):
    class Status(models.TextChoices):
        SETTING_UP = "setting-up", "Setting up"
        RUNNING = "running", "Running"
        AGREED = "agreed", "Agreed"
        CLOSED = "closed", "Closed"

    class Published(models.TextChoices):
        NONE = "none", "Not published"
        PROVISIONAL = "provisional", "Provisional"
        FINAL = "final", "Final"

    name = models.CharField(max_length=120)
    date = models.DateField()
    rules = models.CharField(max_length=20, choices=RULES, default="american-1913")
    kind = models.CharField(max_length=10, choices=KINDS, default="pairs")
    method = models.CharField(max_length=20, choices=METHODS, default="plus-minus")
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.SETTING_UP)
    published = models.CharField(max_length=12, choices=Published.choices, default=Published.NONE)
    # Duplicate Law H compares a pair with all who held the same cards: the whole
    # event by default; a director may limit the comparison to each section.
    compare_by_section = models.BooleanField(default=False)
    # Bumped (with F()) in the same transaction as every change to a result, while the
    # event row is locked: readers use it to catch up on exactly what changed.
    seq = models.BigIntegerField(default=0)
    # The seq of the last change to the pairs' names, so readers can keep names cached.
    roster_seq = models.BigIntegerField(default=0)
    # Duplicate Law E and club practice: closing starts a correction period in which
    # players may still point out an error (the director reopens the event to fix it);
    # the standings become final when it ends (`final_after`, set by closing).
    # Adjusted scores of modern club practice (average-plus and -minus, 60/40, split and
    # assigned scores): the 1913 laws do not have them, so they are off unless turned on.
    club_adjustments = models.BooleanField(default=False)
    # Matchpoints: how a pair is scored on a board it did not play (rules.md §4).
    not_played_scoring = models.CharField(max_length=12, choices=NOT_PLAYED_SCORING,
                                          default="neuberg")
    correction_minutes = models.PositiveSmallIntegerField(
        "correction period (minutes)", default=30)
    final_after = models.DateTimeField(null=True, blank=True)
    # An event of several sessions (an afternoon and an evening, or two weeks): each later
    # session is an event of its own, with its own boards, movement and standings, linked
    # to the first (`session_of`, null on the first). The pairs carry over with their
    # numbers; the overall standings combine the sessions, each earlier one counted at the
    # first session's `carry_over` percent (100: every session counts in full).
    session_of = models.ForeignKey("self", on_delete=models.CASCADE, null=True, blank=True,
                                   related_name="later_sessions")
    session_number = models.PositiveSmallIntegerField(default=1)
    carry_over = models.PositiveSmallIntegerField("carry-over (percent)", default=100)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-date", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(kind="pairs", method__in=["plus-minus", "matchpoints"])
                | Q(kind="teams", method="total-points"),
                name="event_method_fits_kind",
            ),
            models.CheckConstraint(condition=Q(correction_minutes__lte=MAX_CORRECTION_MINUTES),
                                   name="event_correction_period_at_most_a_day"),
            models.CheckConstraint(condition=Q(carry_over__lte=100),
                                   name="event_carry_over_a_percentage"),
            models.CheckConstraint(
                condition=Q(session_of__isnull=True, session_number=1)
                | Q(session_of__isnull=False, session_number__gte=2),
                name="event_first_session_is_number_one"),
            models.UniqueConstraint(fields=["session_of", "session_number"],
                                    name="event_session_number_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.date})"

    @property
    def is_whist(self) -> bool:
        return self.rules == "duplicate-whist"

    @property
    def first_session_id(self) -> int:
        """The first session's id (this event's own, when it is the first or the only one)."""
        return self.session_of_id or self.pk

    def has_sessions(self) -> bool:
        """Is this event one session of several (a later one, or a first one followed)?
        One session has its own standings and no overall (decision 129)."""
        return self.session_of_id is not None or self.later_sessions.exists()

    def session_events(self) -> models.QuerySet["Event"]:
        """Every session of this event's series, the first first (one event: itself)."""
        first = self.first_session_id
        return Event.objects.filter(Q(pk=first) | Q(session_of_id=first)).order_by(
            "session_number")

    @property
    def in_correction_period(self) -> bool:
        """Closed, and the standings not yet final: the director may still reopen it."""
        return (self.status == self.Status.CLOSED and self.final_after is not None
                and self.published != self.Published.FINAL)


class Board(models.Model):
    """One deal, played at several tables and compared across them.

    The table was `boards_board` until the boards package became a library of deals and
    movements (docs/decisions.md, item 61): migration 0005 renamed it.
    """

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="boards")
    number = models.PositiveSmallIntegerField()
    # PBN Deal notation, always from North ("N:spades.hearts.diamonds.clubs ..."); blank
    # when the hand record is not known, and then tables enter honours themselves.
    deal = models.CharField(max_length=80, blank=True)

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["event", "number"], name="board_number_unique_in_event"
            ),
            models.CheckConstraint(condition=Q(number__gte=1), name="board_number_positive"),
        ]

    def __str__(self) -> str:
        return f"Board {self.number}"

    @property
    def dealer(self) -> str:
        return engine.dealer_for_board(self.number)


class Section(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="sections")
    name = models.CharField(max_length=10, default="A")
    movement = models.CharField(max_length=24, choices=MOVEMENTS, default="none")
    variant = models.CharField(max_length=10, blank=True)  # skip | relay for even Mitchells
    tables = models.PositiveSmallIntegerField(default=0)
    boards_per_round = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["event", "name"]
        constraints = [
            models.UniqueConstraint(fields=["event", "name"], name="section_name_unique_in_event"),
        ]

    def __str__(self) -> str:
        return f"Section {self.name}"


class Player(models.Model):
    """A person who plays: a club member (with the club's own member number) or a
    visitor (no number). ``name`` is how every page writes them; a member's first and
    last names are kept apart too, as the club's member list has them."""

    name = models.CharField(max_length=80)
    # The club's own member number; null for a visitor (so any number of visitors).
    number = models.CharField(max_length=20, null=True, blank=True, unique=True)
    first_name = models.CharField(max_length=40, blank=True)
    last_name = models.CharField(max_length=40, blank=True)
    email = models.EmailField(blank=True)
    active = models.BooleanField(default=True)
    # The player asked for no more score cards by e-mail (the link in every card's mail).
    email_opt_out = models.BooleanField(default=False)
    email_opt_out_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(condition=~Q(number=""), name="player_number_not_blank"),
        ]

    def __str__(self) -> str:
        return self.name


class Team(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="teams")
    name = models.CharField(max_length=80)

    class Meta:
        ordering = ["event", "id"]
        constraints = [
            models.UniqueConstraint(fields=["event", "name"], name="team_name_unique_in_event"),
        ]

    def __str__(self) -> str:
        return self.name


class Pair(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="pairs")
    section = models.ForeignKey(
        Section, on_delete=models.SET_NULL, null=True, blank=True, related_name="pairs"
    )
    number = models.PositiveSmallIntegerField()
    player_1 = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    player_2 = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    team = models.ForeignKey(
        Team, on_delete=models.SET_NULL, null=True, blank=True, related_name="pairs"
    )
    # A late pair plays from `joined_round` (null: from the start); a pair that leaves
    # plays no round after `left_after_round` (null: it stays to the end).
    joined_round = models.PositiveSmallIntegerField(null=True, blank=True)
    left_after_round = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="pair_number_unique_in_event"),
            models.CheckConstraint(condition=Q(number__gte=1), name="pair_number_positive"),
        ]

    def __str__(self) -> str:
        return f"Pair {self.number}"

    @property
    def names(self) -> list[str]:
        return [self.player_1.name, self.player_2.name]


class Meeting(models.Model):
    """One table in one round of a section's movement: who sits where, which boards."""

    # No index of its own: both indexes below begin with it. Given one, the planner took it
    # for "this table's rounds" and read the whole section's meetings (bench: 1,024 read
    # for 32) in every table's entry and confirm.
    section = models.ForeignKey(Section, on_delete=models.CASCADE, related_name="meetings",
                                db_index=False)
    round = models.PositiveSmallIntegerField()
    table = models.PositiveSmallIntegerField()
    ns_pair = models.ForeignKey(Pair, on_delete=models.CASCADE, related_name="+")
    ew_pair = models.ForeignKey(Pair, on_delete=models.CASCADE, related_name="+")
    boards = models.JSONField(default=list)  # board numbers, e.g. [4, 5, 6]
    # Duplicate Law E: once both pairs (or the director) agree the round's scores,
    # the table can no longer change them; later corrections are the director's.
    agreed_at = models.DateTimeField(null=True, blank=True)
    # Boards of this meeting the director has given the table leave to play late (out of
    # order, at the end of the session) and enter itself, whatever its current round.
    late_boards = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["section", "round", "table"]
        # A table's rounds in order: the round it is at (its lowest not agreed), which every
        # table's entry and confirm checks under the event's lock. By the unique index
        # below (round before table) that read went through the whole section's meetings.
        indexes = [models.Index(fields=["section", "table", "round"], name="meeting_table_rounds")]
        constraints = [
            models.UniqueConstraint(
                fields=["section", "round", "table"], name="meeting_one_per_table_round"
            ),
            models.CheckConstraint(
                condition=~Q(ns_pair=F("ew_pair")), name="meeting_two_different_pairs"
            ),
        ]

    def __str__(self) -> str:
        return f"Round {self.round}, table {self.table}"


class TableCode(models.Model):
    """The short code a table types (or scans) to open its own page."""

    section = models.ForeignKey(Section, on_delete=models.CASCADE, related_name="table_codes")
    table = models.PositiveSmallIntegerField()
    code = models.CharField(max_length=12, unique=True)
    # A table the director took out of the movement between rounds keeps its code; its
    # page says it has closed after this round and where its players go (null: open).
    closed_after_round = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["section", "table"]
        constraints = [
            models.UniqueConstraint(fields=["section", "table"], name="table_code_one_per_table"),
        ]

    def __str__(self) -> str:
        return f"Table {self.table}"


class Result(models.Model):
    """One board at one meeting: the play as entered, or a ruling in its place.

    The scores are stored as the engine computed them when the result was
    written, so standings never need to rescore a deal.
    """

    class Status(models.TextChoices):
        ENTERED = "entered", "Entered"
        CONFIRMED = "confirmed", "Confirmed by the opponents"
        DIRECTOR = "director", "Entered or corrected by the director"

    # (Found by the index on (event, seq), which begins with it.)
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="results",
                              db_index=False)
    board = models.ForeignKey(Board, on_delete=models.CASCADE, related_name="results")
    ns_pair = models.ForeignKey(Pair, on_delete=models.PROTECT, related_name="ns_results")
    ew_pair = models.ForeignKey(Pair, on_delete=models.PROTECT, related_name="ew_results")
    meeting = models.ForeignKey(
        Meeting, on_delete=models.SET_NULL, null=True, blank=True, related_name="results"
    )
    ruling = models.CharField(max_length=10, choices=RULINGS, blank=True)
    offending = models.CharField(max_length=2, choices=SIDES, blank=True)
    # An adjusted score's grade for each side (ruling "adjusted"), blank otherwise.
    ns_adjust = models.CharField(max_length=8, choices=ADJUST_GRADES, blank=True)
    ew_adjust = models.CharField(max_length=8, choices=ADJUST_GRADES, blank=True)
    # Played out of order at the end of the session (late play), with the director's leave.
    late_play = models.BooleanField(default=False)
    # The contract and play; all null/blank for a ruling, and for a passed-out deal
    # (English rule) only `tricks` is null too. For whist, `tricks` is N-S's tricks.
    level = models.PositiveSmallIntegerField(null=True, blank=True)
    denomination = models.CharField(max_length=2, choices=DENOMINATIONS, blank=True)
    declarer = models.CharField(max_length=1, choices=SEATS, blank=True)
    doubled = models.CharField(max_length=2, choices=DOUBLINGS, blank=True)
    tricks = models.PositiveSmallIntegerField(null=True, blank=True)
    passed_out = models.BooleanField(default=False)
    # As entered: {"honours": {...}} (absent when derived from the deal), "revokes", "penalties".
    # An assigned split score keeps E-W's own assigned result here as "ew_result" (a deal
    # result as in interfaces.md §1): N-S's score comes from the columns, E-W's from it.
    details = models.JSONField(default=dict, blank=True)
    # The engine's score (rules.md §1): each side's trick and honour columns, and the
    # board scores compared across tables (auction: net; whist: tricks).
    ns_trick = models.IntegerField(null=True, blank=True)
    ns_honour = models.IntegerField(null=True, blank=True)
    ew_trick = models.IntegerField(null=True, blank=True)
    ew_honour = models.IntegerField(null=True, blank=True)
    ns_score = models.IntegerField(null=True, blank=True)
    ew_score = models.IntegerField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ENTERED)
    entered_by = models.CharField(max_length=80, blank=True)  # "table 3", "director alice"
    confirmed_by = models.CharField(max_length=80, blank=True)
    version = models.PositiveIntegerField(default=1)
    seq = models.BigIntegerField(default=0)  # Event.seq at the last change
    voided = models.BooleanField(default=False)  # removed by the director (audited, undoable)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["board__number", "ns_pair__number"]
        # The event's results, and those changed since a change number: one index serves
        # both (the event's own index, and one of seq alone, only cost every table's entry
        # and confirm an index entry more each).
        indexes = [models.Index(fields=["event", "seq"], name="result_event_seq")]
        constraints = [
            models.UniqueConstraint(
                fields=["board", "ns_pair", "ew_pair"],
                condition=Q(voided=False),
                name="result_one_per_board_per_meeting",
            ),
            models.CheckConstraint(
                condition=~Q(ns_pair=F("ew_pair")), name="result_two_different_pairs"
            ),
            models.CheckConstraint(
                condition=Q(tricks__isnull=True) | Q(tricks__lte=13), name="result_tricks_0_13"
            ),
            models.CheckConstraint(
                condition=Q(level__isnull=True) | Q(level__gte=1, level__lte=7),
                name="result_level_1_7",
            ),
            models.CheckConstraint(
                condition=Q(ruling="fouled", offending__in=["ns", "ew"])
                | (~Q(ruling="fouled") & Q(offending="")),
                name="result_fouled_names_offenders",
            ),
            models.CheckConstraint(
                condition=Q(ruling__in=["", *RULING_KINDS]),
                name="result_ruling_known",
            ),
            models.CheckConstraint(
                condition=Q(ruling="adjusted", ns_adjust__in=["plus", "average", "minus"],
                            ew_adjust__in=["plus", "average", "minus"])
                | (~Q(ruling="adjusted") & Q(ns_adjust="", ew_adjust="")),
                name="result_adjusted_grades_both_sides",
            ),
        ]

    def __str__(self) -> str:
        return f"Board {self.board_id}: {self.ns_pair_id} v {self.ew_pair_id}"

    @property
    def is_ruling(self) -> bool:
        return bool(self.ruling)

    @property
    def ns_total(self) -> int | None:
        return None if self.ns_trick is None else self.ns_trick + self.ns_honour

    @property
    def ew_total(self) -> int | None:
        return None if self.ew_trick is None else self.ew_trick + self.ew_honour


class Substitute(models.Model):
    """A player who takes one seat of a pair from a given round to the end (or until
    another substitute follows). The score card and the standings show both names."""

    pair = models.ForeignKey(Pair, on_delete=models.CASCADE, related_name="substitutes")
    seat = models.PositiveSmallIntegerField(choices=[(1, "First player"), (2, "Second player")])
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    from_round = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["pair", "from_round", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["pair", "seat", "from_round"],
                                    name="substitute_one_per_seat_and_round"),
            models.CheckConstraint(condition=Q(from_round__gte=1),
                                   name="substitute_round_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.player} for pair {self.pair_id} from round {self.from_round}"


class Irregularity(models.Model):
    """A wrong number of cards found in a board (Duplicate Law B), and what became of it.

    The stage is when it was found: ``original`` (before or during the original play,
    B(1): a new deal), ``before-overplay`` (when the hands are taken up for overplay,
    B(2): the board goes back to the table it came from), ``overplay`` (after the
    overplay began, B(3): a new deal at two tables; else rectified and passed on, and an
    average or fouled result at the table that found it).
    """

    class Stage(models.TextChoices):
        ORIGINAL = "original", "Before or during the original play (Duplicate Law B(1))"
        BEFORE_OVERPLAY = "before-overplay", "When taken up for overplay (Duplicate Law B(2))"
        OVERPLAY = "overplay", "After the overplay began (Duplicate Law B(3))"

    class Status(models.TextChoices):
        REPORTED = "reported", "Reported, waiting for the director"
        SENT_BACK = "sent-back", "Sent back to be rectified"
        RESOLVED = "resolved", "Resolved"
        WITHDRAWN = "withdrawn", "Withdrawn (the cards were right)"

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="irregularities")
    board = models.ForeignKey(Board, on_delete=models.CASCADE, related_name="irregularities")
    # Where it was found: the table and round (null when the director reports it alone).
    meeting = models.ForeignKey(Meeting, on_delete=models.SET_NULL, null=True, blank=True,
                                related_name="irregularities")
    stage = models.CharField(max_length=16, choices=Stage.choices)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.REPORTED)
    # What the table found: the short hand and the hand with the surplus (seats), or the
    # card found out of place and the hand it was in, from which a hand record tells both.
    short_seat = models.CharField(max_length=1, choices=SEATS, blank=True)
    surplus_seat = models.CharField(max_length=1, choices=SEATS, blank=True)
    misplaced_card = models.CharField(max_length=2, blank=True)  # "S5", "HT"
    # B(2): the table the board goes back to, and the round it was played there.
    sent_to_table = models.PositiveSmallIntegerField(null=True, blank=True)
    sent_to_round = models.PositiveSmallIntegerField(null=True, blank=True)
    # What the director decided: "new-deal", "rectified", "average", "fouled", "cancelled".
    outcome = models.CharField(max_length=12, blank=True)
    reported_by = models.CharField(max_length=80)
    reported_at = models.DateTimeField(auto_now_add=True)
    resolved_at = models.DateTimeField(null=True, blank=True)
    note = models.CharField(max_length=500, blank=True)

    class Meta:
        ordering = ["event", "reported_at", "id"]
        verbose_name_plural = "irregularities"

    def __str__(self) -> str:
        return f"Board {self.board_id}: {self.get_stage_display()}"


class AuditEntry(models.Model):
    """Who changed what, when, from what to what, and why."""

    # An entry belongs to one event, or to one party night (a director's correction there).
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="audit",
                              null=True, blank=True)
    party = models.ForeignKey("Party", on_delete=models.CASCADE, related_name="audit",
                              null=True, blank=True, db_index=False)  # (audit_party)
    result = models.ForeignKey(
        Result, on_delete=models.SET_NULL, null=True, blank=True, related_name="audit"
    )
    action = models.CharField(max_length=24)  # enter, confirm, correct, rule, void, undo, agree...
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        db_index=False,  # (audit_actor)
    )
    actor_label = models.CharField(max_length=80)
    at = models.DateTimeField(auto_now_add=True, db_index=True)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    reason = models.TextField(blank=True)
    undone_by = models.OneToOneField(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="undoes"
    )

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name_plural = "audit entries"
        # A party night's entries and a director's: indexed where there is one, so that a
        # table's every entry (neither) adds nothing to these indexes.
        indexes = [
            models.Index(fields=["party"], condition=Q(party__isnull=False), name="audit_party"),
            models.Index(fields=["actor"], condition=Q(actor__isnull=False), name="audit_actor"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(event__isnull=False, party__isnull=True)
                | Q(event__isnull=True, party__isnull=False),
                name="audit_event_or_party"),
        ]

    def __str__(self) -> str:
        return f"{self.at:%H:%M:%S} {self.actor_label} {self.action}"


class IdempotencyRecord(models.Model):
    """One row per submission key: a retried POST gets the first answer back."""

    scope = models.CharField(max_length=80)  # the caller: "table:<id>" or "user:<id>"
    key = models.CharField(max_length=64)
    request_hash = models.CharField(max_length=64)
    # Null only inside the transaction that claims the key: the answer is stored before
    # it commits (api/idempotency.py), so no other request ever sees a key "running".
    status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    response = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["scope", "key"], name="idempotency_key_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.scope} {self.key}"


class ReportJob(models.Model):
    """A PDF produced by a Celery job: travellers, standings, score cards, guide cards, hand
    records, the overall standings of an event of several sessions."""

    class Status(models.TextChoices):
        QUEUED = "queued", "Waiting for the printer"
        RUNNING = "running", "Printing"
        DONE = "done", "Ready"
        FAILED = "failed", "Failed"

    KINDS = [
        ("travellers", "Travellers"),
        ("standings", "Standings"),
        ("scorecards", "Personal score cards"),
        ("guidecards", "Guide cards"),
        ("handrecords", "Hand records"),
        ("overall", "Overall standings (all sessions)"),
        ("rubber", "Rubber score sheet"),
        ("party", "Party night standings"),
        ("season", "Season table"),
    ]

    # A job prints one event's document, one rubber's score sheet (the pad), one party
    # night's standings or one season's table.
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="report_jobs",
                              null=True, blank=True)
    rubber = models.ForeignKey("Rubber", on_delete=models.CASCADE, related_name="report_jobs",
                               null=True, blank=True)
    party = models.ForeignKey("Party", on_delete=models.CASCADE, related_name="report_jobs",
                              null=True, blank=True)
    season = models.ForeignKey("Season", on_delete=models.CASCADE, related_name="report_jobs",
                               null=True, blank=True)
    kind = models.CharField(max_length=12, choices=KINDS)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    file = models.FileField(upload_to="reports/", blank=True)
    task_id = models.CharField(max_length=64, blank=True)
    error = models.TextField(blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    # An event's document: the event's change number its data was gathered at (Event.seq;
    # for the guide cards, Event.roster_seq: only the movement and the pairs are on them;
    # for the hand records, a fingerprint of the boards' deals, compared for equality; for
    # the overall standings, the sum of the sessions' change numbers), so
    # the print room can say when the night has changed since.
    seq = models.BigIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            # Re-running a job overwrites its file: one job row per event and kind.
            models.UniqueConstraint(fields=["event", "kind"], name="report_job_one_per_kind"),
            models.UniqueConstraint(fields=["rubber"], condition=Q(rubber__isnull=False),
                                    name="report_job_one_per_rubber"),
            models.UniqueConstraint(fields=["party"], condition=Q(party__isnull=False),
                                    name="report_job_one_per_party"),
            models.UniqueConstraint(fields=["season"], condition=Q(season__isnull=False),
                                    name="report_job_one_per_season"),
            # Exactly one of an event, a rubber, a party night or a season, each with its
            # own kinds.
            models.CheckConstraint(
                condition=(Q(event__isnull=False, rubber__isnull=True, party__isnull=True,
                             season__isnull=True)
                           & ~Q(kind__in=["rubber", "party", "season"]))
                | (Q(event__isnull=True, rubber__isnull=False, party__isnull=True,
                     season__isnull=True) & Q(kind="rubber"))
                | (Q(event__isnull=True, rubber__isnull=True, party__isnull=False,
                     season__isnull=True) & Q(kind="party"))
                | (Q(event__isnull=True, rubber__isnull=True, party__isnull=True,
                     season__isnull=False) & Q(kind="season")),
                name="report_job_one_owner"),
        ]

    def __str__(self) -> str:
        owner = self.event or self.rubber or self.party or self.season
        return f"{self.get_kind_display()} for {owner}"


class ScoreCardMail(models.Model):
    """One player's personal score card, e-mailed once per publication of the final standings.

    A *publication* is the event's change number (``Event.seq``) when its standings were
    published final: publishing final again later (after taking the standings down, or
    closing an event already published final) is a new publication, and the cards go out
    again with the scores of that moment. The row is created (claimed) in its own
    transaction before the mail is sent, and the unique constraint makes a second claim
    for the same player and publication fail: a retry, a re-delivered task or a second
    worker finds the row and sends nothing.
    """

    class Status(models.TextChoices):
        PENDING = "pending", "Waiting to be sent"
        SENDING = "sending", "Being sent"
        SENT = "sent", "Sent"
        FAILED = "failed", "Failed"
        NO_ADDRESS = "no-address", "Skipped: no e-mail address"
        OPTED_OUT = "opted-out", "Skipped: opted out"

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="score_card_mails")
    publication = models.BigIntegerField()
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="score_card_mails")
    pair_number = models.PositiveSmallIntegerField()
    address = models.EmailField(blank=True)  # where it went (the player's address then)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["event", "publication", "pair_number", "player"]
        constraints = [
            models.UniqueConstraint(fields=["event", "publication", "player"],
                                    name="score_card_mail_once_per_publication"),
        ]

    def __str__(self) -> str:
        return f"Score card of pair {self.pair_number} to {self.player} ({self.status})"


class ServiceState(models.Model):
    """The last known state of a service the site leans on: the cache or the job queue.

    Written by the checks (``manage.py check_services``, the detailed /health/) and by
    the first request that finds a service gone or back (tournaments/outages.py); read
    by the anonymous /health/, which answers from here at once whatever is down. It
    lives in the database because Redis is what it reports on.
    """

    class State(models.TextChoices):
        OK = "ok", "answers"
        UNREACHABLE = "unreachable", "does not answer"
        EAGER = "eager", "jobs run in-process (no broker)"
        LOCAL = "local", "each process's own memory (no Redis)"

    name = models.CharField(max_length=20, unique=True)  # "cache" or "jobs"
    state = models.CharField(max_length=20, choices=State.choices)
    since = models.DateTimeField()  # when it came to this state
    checked_at = models.DateTimeField()  # when it was last seen in it

    def __str__(self) -> str:
        return f"{self.name}: {self.state} since {self.since:%H:%M}"


class Rubber(models.Model):
    """A rubber kept on one phone: the score pad (rules.md §10).

    Only what the table entered is stored: each deal as the engine's rubber input
    (interfaces.md §5). The score sheet is always computed by ``scoring.engine`` from
    it, so there is one truth. ``code`` is the pad's secret: whoever holds its link
    (the phone that made it, or a player it was shared with) may add and correct deals.
    """

    GAMES = [("auction", "Auction Bridge"), ("three-hand", "Three-Hand Auction"),
             ("whist", "Whist")]
    RUBBER_RULES = [("american-1913", "American rule (1913)"), ("english", "English rule")]
    FORMS = [("plain", "Whist"), ("dummy", "Dummy Whist"),
             ("double-dummy", "Double Dummy Whist")]

    game = models.CharField(max_length=12, choices=GAMES)
    rules = models.CharField(max_length=16, choices=RUBBER_RULES, default="american-1913")
    form = models.CharField(max_length=14, choices=FORMS, default="plain")
    # Whist with a dummy: the seats of the dummy hands ("" for four players; one seat for
    # Dummy Whist; two, one of each side, for Double Dummy), never liable for a revoke.
    dummy = models.CharField(max_length=2, blank=True, default="")
    # The players by seat: N, E, S, W (four-hand games) or A, B, C (Three-Hand); a
    # dummy's seat holds the name of the player who plays it.
    players = models.JSONField(default=list)
    first_dealer = models.CharField(max_length=1, default="N")
    code = models.CharField(max_length=32, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    finished = models.BooleanField(default=False)
    # The rubber's change number: one more at every deal entered, corrected or removed
    # (under the rubber's row lock). A deal's ``version`` is the number of its last write,
    # and a printed sheet remembers the number it was made at (ReportJob.seq), so a form
    # opened on a deal, or a PDF, can tell that the sheet has moved on since.
    seq = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(condition=Q(game__in=["auction", "three-hand", "whist"]),
                                   name="rubber_game_known"),
        ]

    def __str__(self) -> str:
        return f"{self.get_game_display()} rubber of {self.created_at:%Y-%m-%d %H:%M}"


class RubberDeal(models.Model):
    """One deal of a rubber, in play order: the engine's input for it and who dealt."""

    rubber = models.ForeignKey(Rubber, on_delete=models.CASCADE, related_name="deals")
    number = models.PositiveSmallIntegerField()  # 1, 2, 3… in play order
    dealer = models.CharField(max_length=1)
    data = models.JSONField()
    # The rubber's change number (Rubber.seq) when this deal was entered or last
    # corrected. A correction or removal carries the version it was begun on: a deal
    # corrected since, or removed and entered again, never has that version any more
    # (the number only grows), so the write is refused rather than made to a deal the
    # phone never saw (decisions.md 197, for a duplicate result).
    version = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    changed_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["rubber", "number"]
        constraints = [
            models.UniqueConstraint(fields=["rubber", "number"], name="rubber_deal_once"),
        ]

    def __str__(self) -> str:
        return f"deal {self.number} of {self.rubber}"


class Party(models.Model):
    """A party night: progressive Auction, Three-Hand Auction or Whist for the club's
    social night (scoring/engine/party.py has its terms).

    Tables of four (three at Three-Hand) play a fixed number of deals, or for a fixed
    time, each round; then the winners move up by the progression and partners change.
    Each player's tally (points won or lost per round) adds up to a ranking of
    individuals. Only what the tables entered is stored (each deal as the engine's
    input) and who sat where in each round; every score comes from ``scoring.engine``.
    ``seq`` counts the writes, for the live standings.
    """

    class Status(models.TextChoices):
        SETTING_UP = "setting-up", "Setting up"
        PLAYING = "playing", "Playing"
        FINISHED = "finished", "Finished"

    name = models.CharField(max_length=120)
    date = models.DateField()
    game = models.CharField(max_length=12, choices=Rubber.GAMES)
    # The auction games' rule; "" at whist.
    rules = models.CharField(max_length=16, choices=Rubber.RUBBER_RULES, blank=True,
                             default="american-1913")
    # A round is a fixed number of deals, or a time (the tables say when it is over).
    deals_per_round = models.PositiveSmallIntegerField(null=True, blank=True)
    minutes_per_round = models.PositiveSmallIntegerField(null=True, blank=True)
    rounds = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=12, choices=Status.choices,
                              default=Status.SETTING_UP)
    current_round = models.PositiveSmallIntegerField(default=0)  # 0 before the start
    # When the round in play was called: a round of a time ends minutes_per_round later.
    round_started_at = models.DateTimeField(null=True, blank=True)
    seq = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-date", "-id"]
        constraints = [
            models.CheckConstraint(condition=Q(game__in=["auction", "three-hand", "whist"]),
                                   name="party_game_known"),
            models.CheckConstraint(
                condition=Q(deals_per_round__isnull=False, minutes_per_round__isnull=True,
                            deals_per_round__gte=1, deals_per_round__lte=52)
                | Q(deals_per_round__isnull=True, minutes_per_round__isnull=False,
                    minutes_per_round__gte=1, minutes_per_round__lte=240),
                name="party_deals_or_minutes"),
            models.CheckConstraint(condition=Q(rounds__gte=1, rounds__lte=30),
                                   name="party_rounds_range"),
            models.CheckConstraint(condition=Q(current_round__lte=F("rounds")),
                                   name="party_round_within"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.date})"


class PartyPlayer(models.Model):
    """One player of a party night: a club member (``member``) or a visitor by name."""

    party = models.ForeignKey(Party, on_delete=models.CASCADE, related_name="players")
    number = models.PositiveSmallIntegerField()  # 1, 2, 3… as the director listed them
    name = models.CharField(max_length=80)
    member = models.ForeignKey(Player, on_delete=models.SET_NULL, null=True, blank=True,
                               related_name="party_places")

    class Meta:
        ordering = ["party", "number"]
        constraints = [
            models.UniqueConstraint(fields=["party", "number"], name="party_player_number"),
            models.UniqueConstraint(fields=["party", "name"], name="party_player_name"),
        ]

    def __str__(self) -> str:
        return self.name


class PartyTable(models.Model):
    """A table of the night; ``code`` is the secret in its phone's link (the phone stays
    at the table while the players move)."""

    party = models.ForeignKey(Party, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()  # 1 is the head table
    code = models.CharField(max_length=32, unique=True)

    class Meta:
        ordering = ["party", "number"]
        constraints = [
            models.UniqueConstraint(fields=["party", "number"], name="party_table_number"),
        ]

    def __str__(self) -> str:
        return f"table {self.number} of {self.party}"


class PartySeat(models.Model):
    """Who sat where in one round: the progression's output, kept as played."""

    party = models.ForeignKey(Party, on_delete=models.CASCADE, related_name="seats")
    round = models.PositiveSmallIntegerField()
    table = models.ForeignKey(PartyTable, on_delete=models.CASCADE, related_name="seats")
    seat = models.CharField(max_length=1)  # N E S W, or A B C at Three-Hand
    player = models.ForeignKey(PartyPlayer, on_delete=models.CASCADE, related_name="seats")

    class Meta:
        ordering = ["party", "round", "table", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["table", "round", "seat"], name="party_seat_once"),
            models.UniqueConstraint(fields=["party", "round", "player"],
                                    name="party_player_once_a_round"),
            models.CheckConstraint(condition=Q(seat__in=["N", "E", "S", "W", "A", "B", "C"]),
                                   name="party_seat_known"),
        ]

    def __str__(self) -> str:
        return f"{self.player} at {self.seat}, round {self.round}"


class PartyTableRound(models.Model):
    """One table in one round: whether its round is over (all its deals entered, or
    the table said time is up)."""

    table = models.ForeignKey(PartyTable, on_delete=models.CASCADE, related_name="rounds")
    round = models.PositiveSmallIntegerField()
    done = models.BooleanField(default=False)

    class Meta:
        ordering = ["table", "round"]
        constraints = [
            models.UniqueConstraint(fields=["table", "round"], name="party_table_round_once"),
        ]

    def __str__(self) -> str:
        return f"round {self.round} at {self.table}"


class PartyDeal(models.Model):
    """One deal at one table in one round: the engine's input for it and who dealt."""

    table = models.ForeignKey(PartyTable, on_delete=models.CASCADE, related_name="deals")
    round = models.PositiveSmallIntegerField()
    number = models.PositiveSmallIntegerField()  # 1, 2, 3… in play order within the round
    dealer = models.CharField(max_length=1)
    data = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)
    changed_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["table", "round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "round", "number"], name="party_deal_once"),
            models.CheckConstraint(condition=Q(number__gte=1), name="party_deal_number"),
        ]

    def __str__(self) -> str:
        return f"deal {self.number} of round {self.round} at {self.table}"


class Season(models.Model):
    """A season (or championship): events grouped, and a table that ranks the club's
    players, or their partnerships, across them by the rule the director picks.

    Terms: an *entrant* is one player (``entrants="individuals"``) or one partnership of
    two players (``"pairs"``); a *night's score* is the entrant's score in one event
    (plus/minus or a matchpoint percentage, as the events are scored), or the points
    the club's scale gives for the place they took (``counts="points"``). The rule adds
    the nights' scores (``total``), averages them (``average``) or adds the best
    ``best_of`` of them (``best``); an entrant who played fewer than ``min_events`` of
    the season's events is listed but not placed (docs/decisions.md).
    """

    ENTRANTS = [("pairs", "Pairs (partnerships)"), ("individuals", "Individuals")]
    COUNTS = [("score", "Each night's score"), ("points", "Points for places")]
    RULES = [("total", "Total"), ("average", "Average"), ("best", "Best N nights")]
    MAX_EVENTS = 100
    MAX_SCALE = 50  # places a points scale may name

    name = models.CharField(max_length=120)
    entrants = models.CharField(max_length=12, choices=ENTRANTS, default="pairs")
    counts = models.CharField(max_length=8, choices=COUNTS, default="score")
    rule = models.CharField(max_length=8, choices=RULES, default="total")
    # "best N of M": N; M is the number of the season's events.
    best_of = models.PositiveSmallIntegerField(null=True, blank=True)
    # The club's scale: points for 1st, 2nd, ... (places beyond it score 0).
    points_scale = models.JSONField(default=list, blank=True)
    min_events = models.PositiveSmallIntegerField("minimum attendance", default=1)
    # The public sees the season's page only once the director publishes it.
    published = models.BooleanField(default=False)
    events = models.ManyToManyField(Event, through="SeasonEvent", related_name="seasons")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=Q(entrants__in=["pairs", "individuals"]),
                                   name="season_entrants_known"),
            models.CheckConstraint(condition=Q(counts__in=["score", "points"]),
                                   name="season_counts_known"),
            models.CheckConstraint(
                condition=(Q(rule__in=["total", "average"]) & Q(best_of__isnull=True))
                # (best_of >= 1 alone would pass a NULL: a CHECK passes what is unknown)
                | (Q(rule="best") & Q(best_of__isnull=False) & Q(best_of__gte=1)),
                name="season_best_of_only_for_best"),
            models.CheckConstraint(condition=Q(min_events__gte=1),
                                   name="season_min_events_positive"),
        ]

    def __str__(self) -> str:
        return self.name


class SeasonEvent(models.Model):
    """One event counted in a season."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="season_events")
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="season_events")

    class Meta:
        ordering = ["season", "event__date", "event_id"]
        constraints = [
            models.UniqueConstraint(fields=["season", "event"], name="season_event_once"),
        ]

    def __str__(self) -> str:
        return f"{self.event} in {self.season}"
