"""The API of irregular boards (Duplicate Law B): report a hand with the wrong number of
cards, list the reports, and take the law's steps on one.

A table (``Authorization: Table <code>``) reports a board of the round it is playing,
sees its own reports, withdraws one before the director decides, and marks a board sent
back to it (or from it) rectified; the director does everything, for any board.
"""

from django.db.models import Q
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.response import Response

from .. import presenters, selectors, services
from ..irregular_forms import DEALT, DEALT_UNKNOWN, new_deal_how
from ..models import MAX_REASON, Irregularity
from ..services.irregular import LAW
from . import lookups
from .auth import actor_for, table_of
from .idempotency import idempotent
from .permissions import CanSeeEvent, IsDirectorOrTable, table_in_event
from .serializers import _number, _text
from .views import ERRORS, IDEMPOTENCY, WRITE_ERRORS, ApiView, validated

SEATS = [("", "not known"), ("N", "North"), ("E", "East"), ("S", "South"), ("W", "West")]


@extend_schema_field({"type": "string", "pattern": "^[NESW]?$", "maxLength": 1})
class SeatField(serializers.ChoiceField):
    """A seat (N, E, S or W), or "" when not known."""

    def __init__(self, **kwargs):
        super().__init__(choices=SEATS, required=False, default="", **kwargs)
STEPS = ("new-deal", "send-back", "rectified", "rule", "cancel", "withdraw", "undo")
TABLE_STEPS = ("rectified", "withdraw")  # what a table may do itself


class IrregularityIn(serializers.Serializer):
    """A report: the board, when it was found, and what is known."""

    board = _number("board")
    stage = serializers.ChoiceField(
        choices=Irregularity.Stage.choices,
        help_text="original: before or during the original play (B(1)); before-overplay: "
                  "when the cards were taken up for overplay (B(2)); overplay: after the "
                  "overplay began (B(3))")
    round = _number("round", required=False,
                    help_text="the round it was found in (a table: required, its own round)")
    table = _number("table", required=False,
                    help_text="the director: the table that found it (with round)")
    section = _text(10, required=False,
                    help_text="the director: the section (default: the first)")
    short_seat = SeatField(help_text="the short hand")
    surplus_seat = SeatField(
        help_text="the hand with the surplus (or the hand the misplaced card was found in)")
    misplaced_card = _text(
        3, required=False, default="", allow_blank=True,
        help_text="the card found out of place, suit then rank (S5, HT); with a hand "
                  "record it tells the short hand")
    note = _text(MAX_REASON, allow_blank=True, default="")


class StepIn(serializers.Serializer):
    dealt = serializers.ChoiceField(
        choices=list(DEALT.items()), required=False, default="", allow_blank=True,
        error_messages={"invalid_choice": DEALT_UNKNOWN},
        help_text="new-deal: how the new deal is dealt. hand: re-dealt at the table by hand "
                  "(nobody knows the hands: none are recorded or published, the tables give "
                  "the honours); here: dealt on the server, shuffled securely (make the "
                  "board up from it: GET the board for its hands); pbn: the deal given in "
                  "deal. Left out or blank: pbn when a deal is given, else here for a board "
                  "with a hand record and hand for one without. pbn with no deal is "
                  "refused, and a deal given with hand or here")
    deal = _text(100, required=False, default="", allow_blank=True,
                 help_text="new-deal: the new deal as PBN from North (with dealt pbn, or "
                           "dealt left out)")
    short_seat = SeatField(help_text="rule: the short hand, when not known")
    surplus_seat = SeatField(help_text="rule: the hand with the surplus")
    reason = _text(MAX_REASON, allow_blank=True, default="")


class IrregularityOut(serializers.Serializer):
    id = serializers.IntegerField()
    board = serializers.IntegerField(source="board.number")
    stage = serializers.CharField()
    law = serializers.SerializerMethodField()
    status = serializers.CharField()
    outcome = serializers.CharField()
    section = serializers.SerializerMethodField()
    round = serializers.SerializerMethodField()
    table = serializers.SerializerMethodField()
    short_seat = serializers.CharField()
    surplus_seat = serializers.CharField()
    misplaced_card = serializers.CharField()
    sent_to_table = serializers.IntegerField(allow_null=True)
    sent_to_round = serializers.IntegerField(allow_null=True)
    reported_by = serializers.CharField()
    reported_at = serializers.DateTimeField()
    resolved_at = serializers.DateTimeField(allow_null=True)
    note = serializers.CharField()
    text = serializers.SerializerMethodField(help_text="what became of it, in words")

    def get_law(self, irr) -> str:
        return LAW[irr.stage]

    def get_section(self, irr) -> str | None:
        return irr.meeting.section.name if irr.meeting else None

    def get_round(self, irr) -> int | None:
        return irr.meeting.round if irr.meeting else None

    def get_table(self, irr) -> int | None:
        return irr.meeting.table if irr.meeting else None

    def get_text(self, irr) -> str:
        if irr.status in selectors.OPEN_IRREGULAR and irr.meeting is not None:
            return presenters.irregular_wait(irr)
        return presenters.irregular_note(irr)


def _rows(event):
    return (Irregularity.objects.filter(event=event)
            .select_related("board", "meeting__section").order_by("reported_at", "id"))


def _mine(request, event, rows):
    """A table sees the reports it made, and those of boards sent back to it."""
    table = table_in_event(request, event)
    if table is None:
        return rows
    return rows.filter(Q(meeting__section_id=table.section_id, meeting__table=table.table)
                       | Q(meeting__section_id=table.section_id, sent_to_table=table.table))


class IrregularityList(ApiView):
    """Irregular boards: a table reports one of its current round; the director any."""

    permission_classes = [IsDirectorOrTable, CanSeeEvent]

    @extend_schema(responses={200: IrregularityOut(many=True), **ERRORS})
    def get(self, request, event_id: int):
        event = self.get_event()
        return Response(IrregularityOut(_mine(request, event, _rows(event)), many=True).data)

    @extend_schema(request=IrregularityIn, responses={201: IrregularityOut, **WRITE_ERRORS},
                   parameters=[IDEMPOTENCY])
    @idempotent
    def post(self, request, event_id: int):
        event = self.get_event()
        data = validated(IrregularityIn, request)
        table = table_in_event(request, event)
        meeting = None
        if table is not None:
            if "round" not in data:
                raise services.ServiceError("say which round you are playing", field="round")
            meeting = lookups.meeting_at(table.section, table.table, data["round"])
        elif "round" in data or "table" in data:
            if "round" not in data or "table" not in data:
                raise services.ServiceError("name both the round and the table", field="table")
            section = (lookups.section_of(event, data["section"]) if data.get("section")
                       else event.sections.order_by("name").first())
            meeting = lookups.meeting_at(section, data["table"], data["round"])
        irr = services.irregularity_report(
            event=event, board=data["board"], stage=data["stage"], actor=actor_for(request),
            meeting=meeting, short_seat=data["short_seat"], surplus_seat=data["surplus_seat"],
            misplaced_card=data["misplaced_card"], note=data["note"])
        return Response(IrregularityOut(_rows(event).get(pk=irr.pk)).data,
                        status=status.HTTP_201_CREATED)


class OneIrregularity(ApiView):
    permission_classes = [IsDirectorOrTable, CanSeeEvent]

    def get_irregularity(self, event) -> Irregularity:
        irr = _mine(self.request, event, _rows(event)).filter(
            pk=self.kwargs["irregularity_id"]).first()
        if irr is None:
            raise NotFound(f"there is no irregular board {self.kwargs['irregularity_id']} "
                           "for you in this event")
        return irr



class IrregularityDetail(OneIrregularity):
    @extend_schema(responses={200: IrregularityOut, **ERRORS})
    def get(self, request, event_id: int, irregularity_id: int):
        return Response(IrregularityOut(self.get_irregularity(self.get_event())).data)


class IrregularityStep(OneIrregularity):
    """One of the law's steps on a report: ``new-deal`` (B(1); B(3) at two tables;
    ``dealt`` says how: re-dealt at the table by hand, dealt here or given as PBN),
    ``send-back`` and ``rectified`` (B(2)), ``rule`` (average or fouled, B(3) at more
    tables), ``cancel`` (B(3) at two tables, no time), ``withdraw`` (the cards were right)
    or ``undo`` (take the decision back). A table may mark rectified and withdraw."""

    @extend_schema(request=StepIn, responses={200: IrregularityOut, **WRITE_ERRORS},
                   parameters=[IDEMPOTENCY], operation_id="events_irregularities_step")
    @idempotent
    def post(self, request, event_id: int, irregularity_id: int, step: str):
        event = self.get_event()
        irr = self.get_irregularity(event)
        if step not in STEPS:
            raise NotFound(f"{step} is not a step; the steps are {', '.join(STEPS)}")
        if table_of(request) is not None and step not in TABLE_STEPS:
            raise PermissionDenied("only the director decides what happens to an irregular "
                                   "board")
        data = validated(StepIn, request)
        actor, reason = actor_for(request), data["reason"]
        if step == "new-deal":
            how, deal = new_deal_how(data["dealt"], data["deal"], irr.board)
            services.irregularity_new_deal(irregularity=irr, actor=actor, deal=deal,
                                           by_hand=how == "hand", reason=reason)
        elif step == "send-back":
            services.irregularity_send_back(irregularity=irr, actor=actor, reason=reason)
        elif step == "rectified":
            services.irregularity_rectified(irregularity=irr, actor=actor, reason=reason)
        elif step == "rule":
            services.irregularity_rule(irregularity=irr, actor=actor, reason=reason,
                                       short_seat=data["short_seat"],
                                       surplus_seat=data["surplus_seat"])
        elif step == "cancel":
            services.irregularity_cancel(irregularity=irr, actor=actor, reason=reason)
        elif step == "withdraw":
            services.irregularity_withdraw(irregularity=irr, actor=actor, reason=reason)
        else:
            services.irregularity_undo(irregularity=irr, actor=actor, reason=reason)
        return Response(IrregularityOut(_rows(event).get(pk=irr.pk)).data)

