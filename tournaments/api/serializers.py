"""Input serializers check the shape of a request; output serializers render rows.

No business rules here: a deal result is passed through as JSON and checked by
the engine (through the services), which knows the laws and says what is wrong
in a player's words.

Every input is bounded here, before any service (and so any lock) is reached: text by
its column's length and without control characters, numbers by their column's range,
lists by what a club night holds (models.MAX_*), a deal result by its size.
"""

from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.utils import json

from boards.movements import KINDS as MOVEMENT_KINDS
from boards.movements import MITCHELL_VARIANTS
from scoring.engine.plausible import CODES as UNUSUAL_CODES

from .. import presenters, seam, selectors
from ..converters import NUMBER
from ..inputs import (
    column_length,
    no_control_characters,
    no_control_characters_in_lines,
    whole_number,
)
from ..models import (
    ADJUST_GRADES,
    DENOMINATIONS,
    DOUBLINGS,
    KINDS,
    MAX_CORRECTION_MINUTES,
    MAX_REASON,
    MAX_TABLES,
    MAX_TEAMS,
    METHODS,
    MOVEMENTS,
    NOT_PLAYED_SCORING,
    RULES,
    RULINGS,
    SEATS,
    SIDES,
    AuditEntry,
    Board,
    Event,
    Meeting,
    Pair,
    Player,
    Result,
    Section,
    Team,
)
from ..services import ServiceError

OFFENDERS = [("", "Nobody"), *SIDES]
CLUB_ADJUSTMENTS_HELP = ("club adjustments: allow the adjusted (average-plus/-minus) and "
                         "assigned scores of modern club practice, which the 1913 laws do "
                         "not have (default false)")
MAX_BOARDS = 200  # boards in one event


# A deal result as JSON is a few hundred characters; this leaves room for every penalty.
MAX_RESULT_CHARS = 2000


class TextField(serializers.CharField):
    """Text sent as a JSON string, held to what the schema says of it.

    DRF's CharField would take 0 or true and store "0". And it trims before it measures,
    with Python's str.strip, which counts the separators U+001C-U+001F and U+0085 as white
    space: a reason of six hundred of them and a word passed a max_length of 500, and
    trimmed away, they were never seen by the check for control characters. So the text as
    sent is measured, and refused if it holds a control character anywhere (new lines and
    tabs are trimmed as white space, and a field's own validator says where they belong)."""

    def run_validation(self, data=serializers.empty):
        if isinstance(data, str):
            if self.max_length is not None and len(data) > self.max_length:
                self.fail("max_length", max_length=self.max_length)
            try:
                no_control_characters_in_lines(data)
            except DjangoValidationError as error:
                raise serializers.ValidationError(error.messages,
                                                  code="control_characters") from None
        return super().run_validation(data)

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class WholeNumberField(serializers.IntegerField):
    """A JSON integer: DRF's IntegerField would take "7", 7.0 and true."""

    def to_internal_value(self, data):
        if type(data) is not int:
            self.fail("invalid")
        return super().to_internal_value(data)


class FlagField(serializers.BooleanField):
    """JSON true or false: DRF's BooleanField would take 0, "yes" and "on"."""

    def to_internal_value(self, data):
        if type(data) is not bool:
            self.fail("invalid")
        return data


def _text(max_length: int, **kwargs) -> TextField:
    """One line of typed text: at most max_length characters, no control characters."""
    return TextField(max_length=max_length, validators=[no_control_characters], **kwargs)


def _number(name: str, *, required: bool = True, max_value: int = NUMBER[1],
            **kwargs) -> WholeNumberField:
    """A pair, board, table or round number: 1 up to what its column holds."""
    return WholeNumberField(
        min_value=1, max_value=max_value, required=required,
        error_messages={
            "invalid": f"{name} must be a whole number",
            "min_value": f"{name} must be 1 or more",
            "max_value": f"{name} must be at most {{max_value}}",
            "required": f"say which {name}",
            "null": f"say which {name}",
        },
        **kwargs,
    )


class DealResultField(serializers.JSONField):
    """A deal result of interfaces.md §1 (without its board); the engine checks it.

    Bounded here: at most MAX_RESULT_CHARS characters of JSON, so a list of ten thousand
    penalties never reaches the engine (nor the event's lock). The parser has already
    refused a body nested too deep or holding a NUL character (parsers.py)."""

    default_error_messages = {
        "too_long": f"a deal result is at most {MAX_RESULT_CHARS} characters of JSON",
    }

    def to_internal_value(self, data):
        value = super().to_internal_value(data)
        if len(json.dumps(value, default=str)) > MAX_RESULT_CHARS:
            self.fail("too_long")
        return value


# --- input ---------------------------------------------------------------------------------


class EventIn(serializers.Serializer):
    name = _text(column_length(Event, "name"))
    date = serializers.DateField()
    rules = serializers.ChoiceField(choices=RULES, default="american-1913")
    kind = serializers.ChoiceField(choices=KINDS, default="pairs")
    method = serializers.ChoiceField(choices=METHODS, required=False, allow_null=True)
    not_played_scoring = serializers.ChoiceField(
        choices=NOT_PLAYED_SCORING, default="neuberg",
        help_text="matchpoints: a board not played at a table is scored by Neuberg (the pair "
                  "over the boards it played) or by the pair's own average on the boards it "
                  "played (its matchpoints and top then cover its whole session)")
    club_adjustments = FlagField(
        required=False, default=False,
        help_text=CLUB_ADJUSTMENTS_HELP)


class ClubAdjustmentsIn(serializers.Serializer):
    club_adjustments = FlagField(help_text=CLUB_ADJUSTMENTS_HELP)
    reason = _text(MAX_REASON, required=False, allow_blank=True, default="",
                   help_text="why (for the audit trail)")


class AdjustedIn(serializers.Serializer):
    """An adjusted score in place of play (club practice; the event's club adjustments on)."""

    board = _number("board")
    ns = _number("N-S pair")
    ew = _number("E-W pair")
    ns_grade = serializers.ChoiceField(
        choices=ADJUST_GRADES, help_text="N-S: plus (average-plus), average or minus "
                                         "(average-minus)")
    ew_grade = serializers.ChoiceField(choices=ADJUST_GRADES, help_text="E-W, the same")
    reason = _text(MAX_REASON, allow_blank=True, default="", help_text="why (required)")


class AssignedIn(serializers.Serializer):
    """An assigned score: a deal result scored as if played, or two for a split score."""

    board = _number("board")
    ns = _number("N-S pair")
    ew = _number("E-W pair")
    ns_result = DealResultField(help_text="the deal result assigned (interfaces.md §1, "
                                          "without the board); N-S's alone for a split")
    ew_result = DealResultField(required=False, allow_null=True, default=None,
                                help_text="a split score: E-W's own assigned result")
    reason = _text(MAX_REASON, allow_blank=True, default="", help_text="why (required)")


class EventStatusIn(serializers.Serializer):
    status = serializers.ChoiceField(choices=Event.Status.choices)
    reason = _text(
        MAX_REASON, required=False, allow_blank=True,
        help_text="why: needed to agree (or close) while boards are not in, and to reopen a "
                  "closed event (status agreed) in its correction period; audited")
    publish_final = FlagField(
        required=False, default=False,
        help_text="with status closed: publish final now, without a correction period")
    correction_minutes = WholeNumberField(
        required=False, min_value=0, max_value=MAX_CORRECTION_MINUTES,
        help_text="with status closed: the correction period's length (kept on the event)")


class EventPublishIn(serializers.Serializer):
    published = serializers.ChoiceField(choices=Event.Published.choices)


class PairIn(serializers.Serializer):
    players = serializers.ListField(
        child=_text(column_length(Player, "name")), min_length=2, max_length=2,
        error_messages={"min_length": "a pair is two players",
                        "max_length": "a pair is two players"},
    )
    team = _text(column_length(Team, "name"), required=False, allow_blank=True,
                 help_text="the team's name (team events)")


class LatePairIn(serializers.Serializer):
    players = serializers.ListField(
        child=_text(column_length(Player, "name")), min_length=2, max_length=2,
        error_messages={"min_length": "a pair is two players",
                        "max_length": "a pair is two players"})
    from_round = _number("round", help_text="the first round the late pair plays (one not "
                                            "yet begun)")
    section = _text(10, allow_blank=True, default="", help_text=(
        "the section it joins (its name, like B); blank: the event's first section"))
    reason = _text(MAX_REASON, allow_blank=True, default="")
    check = serializers.BooleanField(default=False, help_text=(
        "true: only say what would happen (the plan), store nothing"))


class PairLeaveIn(serializers.Serializer):
    after_round = WholeNumberField(min_value=0, max_value=NUMBER[1], help_text=(
        "the last round the pair plays (0: it plays none)"))
    reason = _text(MAX_REASON, allow_blank=True, default="")
    check = serializers.BooleanField(default=False, help_text=(
        "true: only say what would happen (the plan), store nothing"))


class SubstituteIn(serializers.Serializer):
    seat = serializers.ChoiceField(choices=[1, 2], help_text=(
        "the seat taken: 1 (the pair's first player) or 2 (the second)"))
    player = _text(column_length(Player, "name"), help_text="the substitute's name")
    from_round = _number("round", help_text="the first round the substitute plays")
    reason = _text(MAX_REASON, allow_blank=True, default="")


class TeamsIn(serializers.Serializer):
    names = serializers.ListField(
        child=_text(column_length(Team, "name")), min_length=1, max_length=MAX_TEAMS,
        error_messages={"max_length": f"at most {MAX_TEAMS} teams in one event"})


class BoardsIn(serializers.Serializer):
    count = _number("number of boards", max_value=MAX_BOARDS)
    deals = serializers.DictField(
        child=_text(column_length(Board, "deal"), allow_blank=True), required=False,
        help_text='board number -> deal in PBN notation, e.g. {"1": "N:AKQJ.T98.765.432 ..."}',
    )

    def to_internal_value(self, data):
        # Counted before each deal is checked: a board has one deal.
        deals = data.get("deals") if hasattr(data, "get") else None
        if isinstance(deals, dict) and len(deals) > MAX_BOARDS:
            raise serializers.ValidationError(
                {"deals": f"at most {MAX_BOARDS} deals, one a board"})
        return super().to_internal_value(data)

    def validate_deals(self, deals: dict) -> dict[int, str]:
        out = {}
        for key, deal in deals.items():
            try:
                number = whole_number(key, field="deals", low=1, high=MAX_BOARDS)
            except ServiceError:
                raise serializers.ValidationError(
                    f"{key[:20]!r} is not a board number (1 to {MAX_BOARDS})") from None
            out[number] = deal
        return out

    def validate(self, data: dict) -> dict:
        extra = sorted(n for n in data.get("deals", {}) if not 1 <= n <= data["count"])
        if extra:
            raise serializers.ValidationError(
                {"deals": f"board {extra[0]} is not among boards 1 to {data['count']}"})
        return data


class MovementIn(serializers.Serializer):
    section = _text(column_length(Section, "name"), default="A")
    movement = serializers.ChoiceField(choices=MOVEMENTS)
    tables = _number("number of tables", required=False, max_value=MAX_TABLES)
    boards_per_round = _number("number of boards a round", max_value=12)
    variant = serializers.ChoiceField(
        choices=[(code, presenters.variant(code)) for code in MITCHELL_VARIANTS],
        required=False, allow_null=True)
    pairs = _number("number of pairs", required=False, max_value=120)
    pairs_per_team = _number("number of pairs in a team", required=False, max_value=10)

    def validate_movement(self, value: str) -> str:
        if value == "none":
            raise serializers.ValidationError(
                f"choose a movement: {', '.join(MOVEMENT_KINDS[:-1])} or {MOVEMENT_KINDS[-1]}")
        return value


class MovementChangeIn(serializers.Serializer):
    """A new movement from a round on (the rounds before it, and their results, stay)."""

    section = _text(column_length(Section, "name"), default="A")
    from_round = _number("round", help_text="the first round of the new movement: no round "
                                            "from it on may have a result or be agreed")
    movement = serializers.ChoiceField(choices=MOVEMENTS)
    tables = _number("number of tables", required=False, max_value=MAX_TABLES)
    boards_per_round = _number("number of boards a round", max_value=12)
    variant = serializers.ChoiceField(
        choices=[(code, presenters.variant(code)) for code in MITCHELL_VARIANTS],
        required=False, allow_null=True)
    reason = _text(MAX_REASON, allow_blank=True, default="",
                   help_text="why the movement changes, for the audit trail (required)")
    preview = FlagField(required=False, default=False,
                        help_text="true to see the change and its check without making it")

    def validate_movement(self, value: str) -> str:
        return MovementIn().validate_movement(value)


class ResultIn(serializers.Serializer):
    board = _number("board")
    ns = _number("N-S pair", required=False)
    ew = _number("E-W pair", required=False)
    round = _number("round", required=False,
                    help_text="the round being played (required from a table)")
    result = DealResultField(help_text="a deal result of interfaces.md §1, without the board")
    as_entered = FlagField(
        required=False, default=False,
        help_text="true to save a result the server called unusual (a 422 listing its "
                  "`warnings`: nine revokes, a score over 500...) after the table has looked "
                  "at it again; leave it out for an ordinary result")
    late_play = FlagField(
        required=False, default=False,
        help_text="director only: true when the board was played late (out of order, at "
                  "the end of the session). A table's late result needs no flag: the "
                  "director's leave for the board (late-play/) lets it enter the board "
                  "whatever its round, and marks it. A late result takes the place of a "
                  "`not-played` ruling for the same board and pairs")


class PreviewIn(serializers.Serializer):
    board = _number("board")
    result = DealResultField(help_text="a deal result of interfaces.md §1, without the board")


class ConfirmIn(serializers.Serializer):
    by = _text(column_length(Result, "confirmed_by"), required=False, allow_blank=True,
               help_text="who confirms, e.g. the opponents' names")
    version = serializers.IntegerField(
        required=False, min_value=1, max_value=2**31 - 1,
        help_text="the result's `version` as the opponents were shown it: if the result has "
                  "been changed since, nothing is confirmed and the answer is a 409 with the "
                  "result as it now stands (`existing`); leave it out to confirm whatever "
                  "is stored")


class CorrectIn(serializers.Serializer):
    result = DealResultField(required=False, help_text="the corrected deal result")
    as_entered = FlagField(
        required=False, default=False,
        help_text="true to save a result the server called unusual (a 422 listing its "
                  "`warnings`: nine revokes, a score over 500...) after the table has looked "
                  "at it again; leave it out for an ordinary result")
    # The model's choices (with "" for "played"), so the schema has one ruling enum.
    ruling = serializers.ChoiceField(
        choices=RULINGS, required=False, default="",
        help_text="average, fouled or cancelled (Duplicate Law B), or not-played (the board "
                  "was not played at this meeting: no comparison, no credit); director only. "
                  "A corrected result in place of not-played is marked played late")
    offending = serializers.ChoiceField(choices=OFFENDERS, required=False, default="")
    reason = _text(MAX_REASON, required=False, allow_blank=True, default="",
                   help_text="why (required from the director)")
    version = serializers.IntegerField(
        required=False, min_value=1, max_value=2**31 - 1,
        help_text="the result's `version` as the caller last read it: if the result has "
                  "been changed since, nothing is saved and the answer is a 409 with the "
                  "result as it now stands (`existing`); leave it out to correct whatever "
                  "is stored")

    def validate(self, data: dict) -> dict:
        if ("result" in data) == bool(data["ruling"]):
            raise serializers.ValidationError(
                "send either the corrected result or a ruling, not both or neither")
        return data


class RulingIn(serializers.Serializer):
    """An artificial result in place of play (the service checks the ruling's details)."""

    board = _number("board")
    ns = _number("N-S pair")
    ew = _number("E-W pair")
    ruling = serializers.ChoiceField(
        choices=RULINGS,
        help_text="average, fouled or cancelled (Duplicate Law B), or not-played: the board "
                  "was not played at this meeting (slow play, time), so it has no comparison "
                  "and neither pair is credited with it (Duplicate Law H)")
    offending = serializers.ChoiceField(choices=OFFENDERS, required=False, default="")
    reason = _text(MAX_REASON, allow_blank=True, default="")


class LatePlayIn(serializers.Serializer):
    """Boards of one meeting (a table's round): leave to play them late, or not played."""

    boards = serializers.ListField(
        child=_number("board"), min_length=1, max_length=MAX_BOARDS,
        error_messages={"min_length": "name at least one board",
                        "max_length": f"at most {MAX_BOARDS} boards"},
        help_text="board numbers of this table's round")
    reason = _text(MAX_REASON, allow_blank=True, default="",
                   help_text="why (required from the director, for the audit trail)")


class ReasonIn(serializers.Serializer):
    reason = _text(MAX_REASON, allow_blank=True, default="")


class AgreeIn(serializers.Serializer):
    tables = serializers.ListField(
        child=_number("table"), required=False, max_length=MAX_TABLES,
        error_messages={"max_length": f"a section has at most {MAX_TABLES} tables"},
        help_text="only these tables (default: the whole round)")


# --- output --------------------------------------------------------------------------------


class SectionOut(serializers.ModelSerializer):
    class Meta:
        model = Section
        fields = ["name", "movement", "variant", "tables", "boards_per_round"]


class EventOut(serializers.ModelSerializer):
    sections = SectionOut(many=True, read_only=True)

    class Meta:
        model = Event
        fields = ["id", "name", "date", "rules", "kind", "method", "status", "published",
                  "compare_by_section", "seq", "sections", "correction_minutes", "final_after",
                  "not_played_scoring", "club_adjustments"]


class PairOut(serializers.ModelSerializer):
    names = serializers.ListField(child=serializers.CharField(), read_only=True)
    # Null for a pair in no team (a pairs event), or in no section yet.
    team = serializers.SlugRelatedField(slug_field="name", read_only=True, allow_null=True)
    section = serializers.SlugRelatedField(slug_field="name", read_only=True, allow_null=True)

    class Meta:
        model = Pair
        fields = ["number", "names", "team", "section"]


class SubstituteOut(serializers.Serializer):
    """{"name", "for", "from_round"}: "for" is a Python keyword, so it is declared below."""

    name = serializers.CharField(help_text="the substitute")
    from_round = serializers.IntegerField()


SubstituteOut._declared_fields["for"] = serializers.CharField(help_text="the player replaced")


class PlanMeetingOut(serializers.Serializer):
    round = serializers.IntegerField()
    table = serializers.IntegerField()
    ns = serializers.IntegerField()
    ew = serializers.IntegerField()
    boards = serializers.ListField(child=serializers.IntegerField())


class PairChangeOut(serializers.Serializer):
    """A late pair or a pair leaving: what it does (`plan`), and whether it is stored."""

    stored = serializers.BooleanField(help_text="false when only checked")
    pair = serializers.IntegerField()
    plan = serializers.DictField(help_text=(
        "late pair: {section, pair, from_round, meetings, missed_rounds, new_tables}; "
        "leaving: {pair, after_round, meetings} (the meetings taken out)"))


class PairBrief(serializers.Serializer):
    number = serializers.IntegerField()
    names = serializers.ListField(child=serializers.CharField())


class TeamOut(serializers.ModelSerializer):
    pairs = serializers.SlugRelatedField(slug_field="number", many=True, read_only=True)

    class Meta:
        model = Team
        fields = ["id", "name", "pairs"]


class BoardOut(serializers.ModelSerializer):
    """A board; its deal only where the view says it may be shown (context "deals")."""

    deal = serializers.SerializerMethodField()

    class Meta:
        model = Board
        fields = ["number", "dealer", "deal"]

    def get_deal(self, board: Board) -> str | None:
        shown = self.context.get("deals", set())
        return board.deal if board.number in shown else None


class MeetingOut(serializers.ModelSerializer):
    section = serializers.CharField(source="section.name")
    ns = serializers.IntegerField(source="ns_pair.number")
    ew = serializers.IntegerField(source="ew_pair.number")
    boards = serializers.ListField(child=serializers.IntegerField())
    agreed = serializers.SerializerMethodField()
    late_boards = serializers.ListField(
        child=serializers.IntegerField(), read_only=True,
        help_text="boards the table has the director's leave to play late (it may enter "
                  "them whatever its round, even an agreed one; a leave is used up when the "
                  "result is saved)")

    class Meta:
        model = Meeting
        fields = ["section", "round", "table", "ns", "ew", "boards", "agreed", "agreed_at",
                  "late_boards"]

    def get_agreed(self, meeting: Meeting) -> bool:
        return meeting.agreed_at is not None


class MovementRoundOut(serializers.Serializer):
    round = serializers.IntegerField()
    meetings = MeetingOut(many=True)


class MovementSectionOut(serializers.Serializer):
    """A section's movement: for each round, who meets whom at which table on which boards."""

    name = serializers.CharField()
    movement = serializers.CharField()
    variant = serializers.CharField()
    tables = serializers.IntegerField()
    boards_per_round = serializers.IntegerField()
    rounds = MovementRoundOut(many=True)


class PlannedMeetingOut(serializers.Serializer):
    round = serializers.IntegerField()
    table = serializers.IntegerField()
    ns = serializers.IntegerField()
    ew = serializers.IntegerField()
    boards = serializers.ListField(child=serializers.IntegerField())


class MovementChangeOut(serializers.Serializer):
    """A change of movement, made or previewed: the meetings from the change round before
    and after, what is wrong (a change with problems is not made) and what to know."""

    section = serializers.CharField(source="section.name")
    from_round = serializers.IntegerField()
    changed = serializers.BooleanField(help_text="false for a preview")
    sound = serializers.BooleanField(help_text="true when the change can be made")
    problems = serializers.ListField(child=serializers.CharField())
    notes = serializers.ListField(child=serializers.CharField())
    new_boards = serializers.ListField(child=serializers.IntegerField())
    closed_tables = serializers.ListField(child=serializers.IntegerField(), source="closing")
    new_tables = serializers.ListField(child=serializers.IntegerField(), source="opening")
    before = PlannedMeetingOut(many=True)
    after = PlannedMeetingOut(many=True)


class ContractOut(serializers.Serializer):
    level = serializers.IntegerField()
    denomination = serializers.ChoiceField(choices=DENOMINATIONS)
    declarer = serializers.ChoiceField(choices=SEATS)
    doubled = serializers.ChoiceField(choices=DOUBLINGS)


class SideOut(serializers.Serializer):
    trick_score = serializers.IntegerField()
    honour_score = serializers.IntegerField()
    total = serializers.IntegerField()


# What DRF's fields make of a model's value (None stays None): ResultOut.to_representation.
def _int(value: Any) -> int | None:
    return None if value is None else int(value)


def _str(value: Any) -> str | None:
    return None if value is None else str(value)


def _bool(value: Any) -> bool | None:
    return None if value is None else bool(value)


class ResultOut(serializers.ModelSerializer):
    """A stored result: where it was played, what was entered, the engine's score."""

    board = serializers.IntegerField(source="board.number")
    ns = serializers.IntegerField(source="ns_pair.number")
    ew = serializers.IntegerField(source="ew_pair.number")
    section = serializers.SerializerMethodField()
    round = serializers.SerializerMethodField()
    table = serializers.SerializerMethodField()
    result = serializers.SerializerMethodField(
        help_text="the deal result as entered (interfaces.md §1, without the board); "
                  "null for a ruling")
    contract = serializers.SerializerMethodField()
    status = serializers.CharField(
        read_only=True, help_text="entered; confirmed (by the opponents); director")
    ns_columns = serializers.SerializerMethodField()
    ew_columns = serializers.SerializerMethodField()
    assigned = serializers.SerializerMethodField(
        help_text="an assigned score (club adjustment): {ns_result, ew_result (a split "
                  "only)}; null otherwise")
    ruling = serializers.CharField(
        read_only=True,
        help_text="\"\" for a played board; average, fouled, cancelled (Duplicate Law B); "
                  "not-played (the board was not played at this meeting: no comparison, no "
                  "credit for either pair); adjusted, assigned (club adjustments)")
    late_play = serializers.BooleanField(
        read_only=True, help_text="played late: out of order, at the end of the session")

    class Meta:
        model = Result
        fields = ["id", "board", "ns", "ew", "section", "round", "table", "ruling", "offending",
                  "ns_adjust", "ew_adjust", "assigned",
                  "result", "contract", "tricks", "passed_out", "ns_columns", "ew_columns",
                  "ns_score", "ew_score", "status", "entered_by", "confirmed_by", "version",
                  "voided", "seq", "updated_at", "late_play"]

    def get_section(self, result: Result) -> str | None:
        return result.meeting.section.name if result.meeting_id else None

    def get_round(self, result: Result) -> int | None:
        return result.meeting.round if result.meeting_id else None

    def get_table(self, result: Result) -> int | None:
        return result.meeting.table if result.meeting_id else None

    def to_representation(self, result: Result) -> dict:
        """DRF's walk over the fields above, written out: every board a table enters and
        every confirm answers with one, and the walk (each field's source looked up, each
        value passed through its field) took 124 µs a result where this takes 22. Each
        value is what its field gives; tests/api/test_result_out.py holds the two equal."""
        r, updated_at = result, result.updated_at
        return {
            "id": _int(r.pk), "board": int(r.board.number), "ns": int(r.ns_pair.number),
            "ew": int(r.ew_pair.number), "section": self.get_section(r),
            "round": self.get_round(r), "table": self.get_table(r),
            "ruling": _str(r.ruling), "offending": r.offending, "ns_adjust": r.ns_adjust,
            "ew_adjust": r.ew_adjust, "assigned": self.get_assigned(r),
            "result": self.get_result(r), "contract": self.get_contract(r),
            "tricks": _int(r.tricks), "passed_out": _bool(r.passed_out),
            "ns_columns": self.get_ns_columns(r), "ew_columns": self.get_ew_columns(r),
            "ns_score": _int(r.ns_score), "ew_score": _int(r.ew_score),
            "status": _str(r.status), "entered_by": _str(r.entered_by),
            "confirmed_by": _str(r.confirmed_by), "version": _int(r.version),
            "voided": _bool(r.voided), "seq": _int(r.seq),
            "updated_at": None if updated_at is None
            else self.fields["updated_at"].to_representation(updated_at),
            "late_play": _bool(r.late_play),
        }

    @extend_schema_field({"type": "object", "additionalProperties": {}, "nullable": True})
    def get_result(self, result: Result) -> dict | None:
        return seam.engine_input(result, is_whist=result.event.is_whist)

    @extend_schema_field({"type": "object", "additionalProperties": {}, "nullable": True})
    def get_assigned(self, result: Result) -> dict | None:
        if result.ruling != "assigned":
            return None
        body = seam.ruling_dict(result, is_whist=result.event.is_whist) or {}
        return {k: v for k, v in body.items() if k != "kind"}

    @extend_schema_field(ContractOut(allow_null=True))
    def get_contract(self, result: Result) -> dict | None:
        if result.level is None:
            return None
        return {"level": _int(result.level), "denomination": result.denomination,
                "declarer": result.declarer, "doubled": result.doubled}

    def _columns(self, trick: int | None, honour: int | None) -> dict | None:
        if trick is None:
            return None
        return {"trick_score": trick, "honour_score": honour, "total": trick + honour}

    @extend_schema_field(SideOut(allow_null=True))
    def get_ns_columns(self, result: Result) -> dict | None:
        return self._columns(result.ns_trick, result.ns_honour)

    @extend_schema_field(SideOut(allow_null=True))
    def get_ew_columns(self, result: Result) -> dict | None:
        return self._columns(result.ew_trick, result.ew_honour)


_SHARED: dict[type, serializers.Serializer] = {}


def shared(serializer_class: type) -> serializers.Serializer:
    """One instance of an output serializer, its fields built once: DRF builds (deep-copies)
    them for every instance, a large part of rendering one result. Only read after it is
    built (to_representation), so threads may share it."""
    serializer = _SHARED.get(serializer_class)
    if serializer is None:
        serializer = serializer_class()
        serializer.fields  # noqa: B018 (built now, before any thread shares it)
        _SHARED[serializer_class] = serializer
    return serializer


def result_out(result: Result) -> dict:
    """ResultOut(result).data, from the shared ResultOut (the result POST's answer)."""
    return shared(ResultOut).to_representation(result)


class BoardLineOut(serializers.Serializer):
    number = serializers.IntegerField()
    dealer = serializers.CharField()
    result = ResultOut(allow_null=True)


class TableRoundOut(serializers.Serializer):
    """What a table sees for one round: who sits where, the boards, what is entered."""

    event = serializers.IntegerField()
    section = serializers.CharField()
    table = serializers.IntegerField()
    round = serializers.IntegerField()
    rounds = serializers.ListField(child=serializers.IntegerField(),
                                   help_text="every round this table plays")
    current = serializers.BooleanField(help_text="is this the round being played now?")
    ns = PairBrief()
    ew = PairBrief()
    boards = BoardLineOut(many=True)
    entered = serializers.IntegerField(help_text="boards with a result")
    confirmed = serializers.IntegerField(help_text="boards confirmed by the opponents")
    agreed = serializers.BooleanField()
    agreed_at = serializers.DateTimeField(allow_null=True)
    late_play = serializers.ListField(
        child=serializers.DictField(child=serializers.IntegerField()),
        help_text="boards of any of this table's rounds it has the director's leave to play "
                  "late now: {round, board, ns, ew}; enter each with its round")


class TableOut(serializers.Serializer):
    """The table a code opens."""

    event = EventOut()
    section = serializers.CharField()
    table = serializers.IntegerField()
    current_round = serializers.IntegerField(allow_null=True)
    rounds = serializers.ListField(child=serializers.IntegerField())


class AgreedOut(serializers.Serializer):
    agreed = serializers.IntegerField(help_text="how many meetings became agreed")


class ItemOut(serializers.Serializer):
    side = serializers.CharField()
    column = serializers.CharField()
    points = serializers.IntegerField()
    what = serializers.CharField()
    law = serializers.CharField()


class WarningOut(serializers.Serializer):
    code = serializers.ChoiceField(choices=list(UNUSUAL_CODES))
    field = serializers.CharField(help_text="the result's field to look at again ('' for the "
                                            "result as a whole)", allow_blank=True)
    message = serializers.CharField(help_text="what is unusual, in the table's words")


class ScoreOut(serializers.Serializer):
    """The engine's deal score (interfaces.md §1) for a result not stored."""

    board = serializers.IntegerField()
    ns = SideOut()
    ew = SideOut()
    net_ns = serializers.IntegerField()
    items = ItemOut(many=True)
    honours = serializers.DictField(child=serializers.IntegerField(), allow_null=True,
                                    help_text="honours held by each seat, as scored")
    honours_from_deal = serializers.BooleanField(
        help_text="were the honours taken from the board's hand record?")
    warnings = WarningOut(many=True, help_text=(
        "what is unusual about this result: saving it will need as_entered (empty when "
        "nothing is)"))


class ErrorOut(serializers.Serializer):
    error = serializers.CharField(help_text="what is wrong, in plain words")
    field = serializers.CharField(allow_null=True, help_text="the field at fault, if any")


class UnusualOut(ErrorOut):
    """A 422 of a result write: an unusual result (field as_entered, with its warnings),
    or an Idempotency-Key used for another request (field Idempotency-Key, no warnings)."""

    warnings = WarningOut(many=True, required=False, help_text=(
        "what to look at again before saving (with field as_entered)"))


class ConflictOut(ErrorOut):
    existing = ResultOut(help_text="the result already stored")


class AuditOut(serializers.ModelSerializer):
    actor = serializers.CharField(source="actor_label")
    board = serializers.SerializerMethodField()
    undoes = serializers.SerializerMethodField()

    class Meta:
        model = AuditEntry
        fields = ["id", "at", "action", "actor", "result", "board", "before", "after", "reason",
                  "undone_by", "undoes"]

    def get_board(self, entry: AuditEntry) -> int | None:
        return entry.result.board.number if entry.result_id else None

    def get_undoes(self, entry: AuditEntry) -> int | None:
        undone = getattr(entry, "undoes", None) if entry.action == "undo" else None
        return undone.pk if undone is not None else None


# --- standings, travellers, score cards (tournaments.standings renders these) ----------------


@extend_schema_field({"type": "object", "nullable": True, "properties": {
    "pair": {"type": "integer"}, "after_round": {"type": "integer"}},
    "required": ["pair", "after_round"]})
class LeftField(serializers.Field):
    """A board not played because a pair left (decision 103): which pair, after which
    round; null for any other row. The rows hold it as (pair, round)."""

    def to_representation(self, value):
        pair, after_round = value
        return {"pair": pair, "after_round": after_round}


@extend_schema_field({"type": "object", "nullable": True, "properties": {
    "ns": {"type": "string"}, "ew": {"type": "string"}}, "required": ["ns", "ew"]})
class AwardField(serializers.Field):
    """What each side scores for a ruled board (Duplicate Law B's average or fouled
    board, a team match's award), exact ("-35", "121/3"); null for none. The rows hold it
    as [ns, ew]."""

    def to_representation(self, value):
        ns, ew = value
        return {"ns": str(ns), "ew": str(ew)}


LEFT_HELP = "a board not played because a pair left: which pair, after which round"
AWARD_HELP = "a ruled board's scores for each side, exact, as its traveller gives them"


class TravellerRowOut(serializers.Serializer):
    result_id = serializers.IntegerField()
    ns = serializers.IntegerField()
    ew = serializers.IntegerField()
    ns_names = serializers.ListField(child=serializers.CharField())
    ew_names = serializers.ListField(child=serializers.CharField())
    ruling = serializers.CharField(allow_blank=True)
    offending = serializers.CharField(allow_blank=True)
    ns_adjust = serializers.CharField(
        allow_blank=True, help_text='an adjusted score\'s grade: plus, average, minus; else ""')
    ew_adjust = serializers.CharField(allow_blank=True)
    adjustment = serializers.CharField(
        allow_blank=True, help_text='a club adjustment in words: "Adjusted: N–S average-plus, '
                                    'E–W average-minus", "Assigned: 3♥ by S, made"; else ""')
    level = serializers.IntegerField(allow_null=True)
    denomination = serializers.CharField(allow_blank=True)
    declarer = serializers.CharField(allow_blank=True)
    doubled = serializers.CharField(allow_blank=True)
    tricks = serializers.IntegerField(allow_null=True)
    passed_out = serializers.BooleanField()
    ns_trick = serializers.IntegerField(allow_null=True)
    ns_honour = serializers.IntegerField(allow_null=True)
    ew_trick = serializers.IntegerField(allow_null=True)
    ew_honour = serializers.IntegerField(allow_null=True)
    net_ns = serializers.IntegerField(allow_null=True)
    ns_score = serializers.IntegerField(allow_null=True)
    ew_score = serializers.IntegerField(allow_null=True)
    ns_plus_minus = serializers.CharField(allow_null=True, help_text="exact, e.g. \"-121/3\"")
    ew_plus_minus = serializers.CharField(allow_null=True)
    ns_shown = serializers.IntegerField(allow_null=True)
    ew_shown = serializers.IntegerField(allow_null=True)
    status = serializers.CharField()
    round = serializers.IntegerField(allow_null=True)
    table = serializers.IntegerField(allow_null=True)
    late_play = serializers.BooleanField(help_text="played late, out of order")
    left = LeftField(allow_null=True, help_text=LEFT_HELP)
    award = AwardField(allow_null=True, help_text=AWARD_HELP)


class TravellerOut(serializers.Serializer):
    board = serializers.IntegerField()
    dealer = serializers.CharField()
    deal = serializers.CharField(allow_null=True, help_text="PBN; null while it is hidden")
    hands = serializers.DictField(child=serializers.DictField(child=serializers.CharField()),
                                  allow_null=True)
    method = serializers.CharField()
    average = serializers.DictField(child=serializers.CharField(), allow_null=True)
    rows = TravellerRowOut(many=True)


class ScorecardRowOut(serializers.Serializer):
    board = serializers.IntegerField()
    direction = serializers.CharField()
    opponents = serializers.IntegerField()
    level = serializers.IntegerField(allow_null=True)
    denomination = serializers.CharField(allow_blank=True)
    declarer = serializers.CharField(allow_blank=True)
    doubled = serializers.CharField(allow_blank=True)
    tricks = serializers.IntegerField(allow_null=True)
    passed_out = serializers.BooleanField()
    ruling = serializers.CharField(allow_blank=True)
    offending = serializers.CharField(allow_blank=True)
    adjustment = serializers.CharField(
        allow_blank=True, help_text='a club adjustment in words: "Adjusted: N–S average-plus, '
                                    'E–W average-minus", "Assigned: 3♥ by S, made"; else ""')
    score = serializers.IntegerField(allow_null=True)
    plus_minus = serializers.CharField(allow_null=True)
    shown = serializers.IntegerField(allow_null=True)
    running = serializers.CharField(
        allow_null=True, help_text="null from a board still being played on (not the "
                                   "director's card): it would give that board's score away")
    running_shown = serializers.IntegerField(allow_null=True)
    late_play = serializers.BooleanField(help_text="played late, out of order")
    hidden = serializers.BooleanField(
        default=False, help_text="a board still being played (not the director's card): "
                                 "its play shows once every table has played it")
    left = LeftField(allow_null=True, default=None, help_text=LEFT_HELP)
    award = AwardField(allow_null=True, default=None, help_text=AWARD_HELP)


class ScorecardOut(serializers.Serializer):
    pair = serializers.IntegerField()
    names = serializers.ListField(child=serializers.CharField())
    substitutes = SubstituteOut(many=True, help_text="players who took a seat from a round")
    names_text = serializers.CharField(help_text='"Ann Lee & Bob Ray (Carl Day for Bob Ray '
                                                 'from round 4)"')
    joined_round = serializers.IntegerField(allow_null=True)
    left_after_round = serializers.IntegerField(allow_null=True)
    method = serializers.CharField()
    rows = ScorecardRowOut(many=True)
    total = serializers.CharField()
    shown = serializers.IntegerField()


# --- the score pad (rubbers; rules.md §10, interfaces.md §5) ---------------------------------


class RubberIn(serializers.Serializer):
    """A new score pad: the game, its rule (auction games) or form (whist), the players."""

    game = serializers.ChoiceField(choices=["auction", "three-hand", "whist"])
    rules = _text(16, default="american-1913",
                  help_text="auction games: american-1913 or english")
    form = serializers.ChoiceField(choices=["plain", "dummy", "double-dummy"], default="plain",
                                   help_text="whist only: plain, Dummy or Double Dummy")
    dummy = _text(4, required=False, default="", allow_blank=True,
                  help_text="whist with a dummy: the dummy seats, \"S\" or \"NE\" (one of "
                            "each side)")
    players = serializers.ListField(child=_text(40),
                                    min_length=3, max_length=4,
                                    help_text="names by seat: N E S W (A B C at Three-Hand)")
    first_dealer = _text(1, required=False, default="", allow_blank=True)


class RubberDealIn(serializers.Serializer):
    """One deal of the rubber: the engine's rubber input (interfaces.md §5) without the
    dealer, who is the next in turn unless given."""

    deal = serializers.JSONField(help_text="auction: a deal result (interfaces.md §1) less "
                                           "its board; three-hand and whist as in §5")
    dealer = _text(1, required=False, default="", allow_blank=True)
    revokes_by = serializers.DictField(
        child=serializers.IntegerField(min_value=0, max_value=13), required=False,
        help_text="whist: revokes by seat (N E S W); a dummy's are refused")
    number = serializers.IntegerField(
        required=False, min_value=1,
        help_text="the deal this is (the sheet's next): a deal on the sheet already, or "
                  "beyond its next, is refused rather than stored as another")


class RubberCorrectIn(RubberDealIn):
    """A deal put right: any deal (the last when ``number`` is left out); the whole rubber
    is scored again."""

    number = serializers.IntegerField(required=False, min_value=1,
                                      help_text="the deal to correct (the last when left "
                                                "out)")
    version = serializers.IntegerField(
        required=False, min_value=0,
        help_text="the deal's version as read (the sheet's deals[].version): if the deal has "
                  "been corrected, or removed and entered again, since, nothing is saved and "
                  "the answer is a 409 with the deal as it now stands (`existing`); leave it "
                  "out to correct whatever is there")


class RubberConflictOut(ErrorOut):
    existing = serializers.DictField(allow_null=True,
                                     help_text="the deal as the sheet now has it (null once "
                                               "it is off the sheet)")


class RubberSheetOut(serializers.Serializer):
    """The score sheet, computed by the engine from the stored deals."""

    code = serializers.CharField(help_text="the pad's secret: its address")
    game = serializers.CharField()
    rules = serializers.CharField()
    form = serializers.CharField()
    dummy = serializers.ListField(child=serializers.CharField())
    players = serializers.ListField(child=serializers.DictField())
    columns = serializers.ListField(child=serializers.DictField(),
                                    help_text="the sheet's columns: sides, or players")
    deals = serializers.ListField(child=serializers.DictField(),
                                  help_text="each deal: what (its line: contract, tricks, "
                                            "then notes: honours, revokes, penalties), above "
                                            "(trick column), below (honour column), items "
                                            "with their laws, version (for a correction)")
    periods = serializers.ListField(child=serializers.DictField(),
                                    help_text="the games, each ruled off when won")
    below = serializers.ListField(child=serializers.DictField())
    totals = serializers.DictField(child=serializers.IntegerField())
    complete = serializers.BooleanField()
    winner = serializers.CharField(allow_null=True)
    net = serializers.DictField(child=serializers.IntegerField())
    settlement = serializers.ListField(child=serializers.DictField())
    result = serializers.CharField(help_text="the rubber's state in a sentence (unfinished: "
                                             "what it settles if it stops here)")
    stop_here = serializers.CharField(allow_blank=True,
                                      help_text="unfinished, with deals: who wins what from "
                                                "whom if the rubber stops after the last deal")
    next_dealer = serializers.CharField(allow_null=True)
    next_dealer_name = serializers.CharField(allow_null=True)


# --- the club's member list (api/members.py) ------------------------------------------------


class MemberOut(serializers.Serializer):
    id = serializers.IntegerField(read_only=True)
    number = serializers.CharField(allow_null=True, help_text="the club's member number; "
                                                              "null for a visitor")
    name = serializers.CharField()
    first_name = serializers.CharField()
    last_name = serializers.CharField()
    email = serializers.CharField(help_text="empty when not known")
    active = serializers.BooleanField()


class MemberIn(serializers.Serializer):
    number = _text(20, allow_null=True, required=False, allow_blank=True, default=None,
                   help_text="the club's member number; null or empty for a visitor")
    first_name = _text(40, allow_blank=True, default="")
    last_name = _text(40, allow_blank=True, default="")
    email = _text(254, allow_blank=True, default="")
    active = FlagField(default=True)


class MemberMergeIn(serializers.Serializer):
    drop = serializers.IntegerField(min_value=1, max_value=2**31 - 1,
                                    help_text="the id of the other record of the same person: "
                                              "its pairs and substitutes move to this one, "
                                              "and it is deleted")
    reason = _text(MAX_REASON, help_text="why the two records are one person (for the audit "
                                         "of every event touched)")


class MembersImportIn(serializers.Serializer):
    csv = TextField(
        max_length=1_000_000, trim_whitespace=False,
        help_text="the CSV text: header number,first_name,last_name,email (optionally "
                  "active: yes or no), then one member a line; an empty e-mail keeps the "
                  "address on file. Every line is checked first; a bad one is named "
                  "(\"Line 7: ...\") and nothing is stored")


class MembersImportOut(serializers.Serializer):
    created = serializers.IntegerField()
    updated = serializers.IntegerField()


# --- the party night -------------------------------------------------------------------------


class PartyPlayerIn(serializers.Serializer):
    """A player: a member of the club (``member``, the member's id) or a visitor by name."""

    member = serializers.IntegerField(required=False, min_value=1, max_value=2**63 - 1)
    name = _text(80, required=False, allow_blank=True)


class PartyIn(serializers.Serializer):
    """A new party night: its game, its rounds (a number of deals, or minutes, each) and
    its players in the order they first sit (table 1 N, S, E, W, then table 2 …; A, B, C
    at Three-Hand)."""

    name = _text(120)
    date = serializers.DateField()
    game = serializers.ChoiceField(choices=["auction", "three-hand", "whist"])
    rules = _text(16, default="american-1913",
                  help_text="the auction games' rule: american-1913 or english; whist has "
                            "none")
    deals_per_round = serializers.IntegerField(required=False, allow_null=True, default=None,
                                               min_value=1, max_value=52)
    minutes_per_round = serializers.IntegerField(required=False, allow_null=True,
                                                 default=None, min_value=1, max_value=240)
    rounds = serializers.IntegerField(min_value=1, max_value=30)
    players = PartyPlayerIn(many=True)


class PartyPlayersIn(serializers.Serializer):
    """The players in place of the list given before (only before the night starts)."""

    players = PartyPlayerIn(many=True)


class PartyStartIn(serializers.Serializer):
    draw = serializers.BooleanField(default=False,
                                    help_text="draw the first seating at random")


class PartyAdvanceIn(serializers.Serializer):
    force = serializers.BooleanField(default=False, help_text=(
        "end the round now, although some table has not finished (its deals entered "
        "so far count)"))
    level = serializers.DictField(child=_text(2), required=False, help_text=(
        "who moves up at a level table: table number → \"NS\" or \"EW\" (Three-Hand: "
        "the top player's seat, \"A\", \"B\" or \"C\"); a level table not named: N–S "
        "(the earlier seat)"))


class PartyDealIn(serializers.Serializer):
    """One deal: the engine's input (interfaces.md §5) without the dealer, who goes
    round the table (N, E, S, W; A, B, C)."""

    deal = serializers.JSONField(help_text="auction: a deal result (interfaces.md §1) less "
                                           "its board; three-hand and whist as in §5")
    revokes_by = serializers.DictField(
        child=serializers.IntegerField(min_value=0, max_value=13), required=False,
        help_text="whist: revokes by seat (N E S W)")


class PartyCorrectIn(PartyDealIn):
    reason = _text(200, help_text="why the deal is corrected")


class PartySeatOut(serializers.Serializer):
    seat = serializers.CharField()
    seat_name = serializers.CharField()
    player = serializers.IntegerField()
    name = serializers.CharField()


class PartyTableOut(serializers.Serializer):
    """One table in one round: who sits where, the deals scored by the engine, the
    round score and each column's tally, and whether its round is over."""

    table = serializers.IntegerField()
    round = serializers.IntegerField()
    done = serializers.BooleanField()
    seats = PartySeatOut(many=True)
    columns = serializers.ListField(child=serializers.DictField())
    deals = serializers.ListField(child=serializers.DictField(), help_text=(
        "each deal: its input, its points by column, its items with their laws"))
    deals_entered = serializers.IntegerField()
    deals_expected = serializers.IntegerField(allow_null=True)
    points = serializers.DictField(child=serializers.IntegerField())
    tally = serializers.DictField(child=serializers.IntegerField())
    winner = serializers.CharField(allow_null=True)


class PartyRoundOut(serializers.Serializer):
    round = serializers.IntegerField()
    over = serializers.BooleanField()
    tables = PartyTableOut(many=True)
    progression = serializers.DictField(allow_null=True, help_text=(
        "who goes where in the next round (once every table's round is over)"))


class PartyOut(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    date = serializers.DateField()
    game = serializers.CharField()
    rules = serializers.CharField()
    deals_per_round = serializers.IntegerField(allow_null=True)
    minutes_per_round = serializers.IntegerField(allow_null=True)
    rounds = serializers.IntegerField()
    status = serializers.CharField()
    current_round = serializers.IntegerField()
    players = serializers.ListField(child=serializers.DictField())
    tables = serializers.ListField(child=serializers.DictField(), help_text=(
        "each table's number and its phone's code (the table's secret)"))


class PartyStandingsRowOut(serializers.Serializer):
    place = serializers.CharField(help_text='"3=" for a shared place')
    player = serializers.IntegerField()
    name = serializers.CharField()
    member = serializers.CharField(allow_null=True)
    rounds = serializers.ListField(child=serializers.IntegerField(allow_null=True))
    total = serializers.IntegerField()


class PartyStandingsOut(serializers.Serializer):
    party = serializers.IntegerField()
    name = serializers.CharField()
    game = serializers.CharField()
    status = serializers.CharField()
    round = serializers.IntegerField()
    rounds = serializers.IntegerField()
    rows = PartyStandingsRowOut(many=True)


class PartyTableViewOut(serializers.Serializer):
    """What a table's phone shows: the round in play here and where players go."""

    party = serializers.IntegerField()
    name = serializers.CharField()
    game = serializers.CharField()
    status = serializers.CharField()
    table = serializers.IntegerField()
    round = serializers.IntegerField()
    here = PartyTableOut(allow_null=True)
    next_deal = serializers.DictField(allow_null=True)
    moved = serializers.ListField(child=serializers.DictField(), allow_null=True, help_text=(
        "after a progression: where the last round's players of this table went"))
    next = serializers.ListField(child=serializers.DictField(), allow_null=True, help_text=(
        "once the round is over everywhere: where this table's players go next"))
    ends_at = serializers.CharField(allow_null=True, help_text=(
        "a round of a time: when it is up, on the club's clock (\"21:05\")"))
# --- seasons --------------------------------------------------------------------------------


class SeasonIn(serializers.Serializer):
    name = _text(120)
    entrants = serializers.ChoiceField(choices=["pairs", "individuals"], default="pairs",
                                       help_text="rank partnerships of two members, or "
                                                 "each member")
    counts = serializers.ChoiceField(choices=["score", "points"], default="score",
                                     help_text="a night gives its score (plus/minus or "
                                               "matchpoint percentage), or points for the "
                                               "place")
    rule = serializers.ChoiceField(choices=["total", "average", "best"], default="total")
    best_of = WholeNumberField(min_value=1, max_value=100, allow_null=True, required=False,
                               default=None, help_text="N of \"best N nights\" (rule best only)")
    points_scale = serializers.ListField(
        child=WholeNumberField(min_value=0, max_value=10_000), max_length=50,
        required=False, default=list,
        help_text="points for 1st, 2nd, 3rd …; places beyond it score 0")
    min_events = WholeNumberField(min_value=1, max_value=100, default=1,
                                  help_text="nights a member must play to be placed")
    published = FlagField(default=False)
    events = serializers.ListField(child=WholeNumberField(min_value=1, max_value=2**31 - 1),
                                   max_length=100, required=False, default=list,
                                   help_text="the ids of the season's events (pairs events)")


class SeasonOut(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    entrants = serializers.CharField()
    counts = serializers.CharField()
    rule = serializers.CharField()
    best_of = serializers.IntegerField(allow_null=True)
    points_scale = serializers.ListField(child=serializers.IntegerField())
    min_events = serializers.IntegerField()
    published = serializers.BooleanField()
    events = serializers.SerializerMethodField()

    def get_events(self, season) -> list[int]:
        """The events' ids in date order (as the season's table lists them); to the public
        (context ``director`` false) not an event left unpublished, which it is not told
        of (selectors.season_events)."""
        return [e.pk for e in selectors.season_nights(
            season, director=self.context.get("director", True))]
