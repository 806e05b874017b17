"""The API's club adjustments (the director's): the event's setting, adjusted scores and
assigned scores. Thin like views.py: validate, call one service, serialize out."""

from drf_spectacular.utils import extend_schema
from rest_framework.response import Response

from .. import services
from . import lookups
from .auth import actor_for
from .idempotency import idempotent
from .permissions import CanSeeEvent, IsDirector
from .serializers import AdjustedIn, AssignedIn, ClubAdjustmentsIn, EventOut, ResultOut
from .views import IDEMPOTENCY, WRITE_ERRORS, ApiView, validated

TAGS = ["club adjustments"]


class ClubAdjustments(ApiView):
    """Turn club adjustments on or off for the event (the 1913 laws have none: off by
    default). Off is refused while an adjusted or assigned score stands."""

    permission_classes = [IsDirector, CanSeeEvent]

    @extend_schema(request=ClubAdjustmentsIn, responses={200: EventOut, **WRITE_ERRORS},
                   parameters=[IDEMPOTENCY], tags=TAGS)
    @idempotent
    def post(self, request, event_id: int):
        data = validated(ClubAdjustmentsIn, request)
        event = services.club_adjustments_set(event=self.get_event(),
                                              on=data["club_adjustments"],
                                              actor=actor_for(request), reason=data["reason"])
        return Response(EventOut(event).data)


class AdjustedScores(ApiView):
    """An adjusted score in place of play: average-plus, average or average-minus for each
    side (matchpoints 60/50/40 % of the top). Club adjustments must be on."""

    permission_classes = [IsDirector, CanSeeEvent]

    @extend_schema(request=AdjustedIn, responses={200: ResultOut, **WRITE_ERRORS},
                   parameters=[IDEMPOTENCY], tags=TAGS)
    @idempotent
    def post(self, request, event_id: int):
        event = self.get_event()
        data = validated(AdjustedIn, request)
        result = services.adjusted_award(
            event=event, board=data["board"], ns=data["ns"], ew=data["ew"],
            ns_grade=data["ns_grade"], ew_grade=data["ew_grade"], reason=data["reason"],
            actor=actor_for(request),
            meeting=lookups.meeting_for_pairs(event, data["board"], data["ns"], data["ew"]))
        return Response(ResultOut(result).data)


class AssignedScores(ApiView):
    """An assigned score: a deal result scored as if played and compared like one; with
    `ew_result`, a split score. Club adjustments must be on."""

    permission_classes = [IsDirector, CanSeeEvent]

    @extend_schema(request=AssignedIn, responses={200: ResultOut, **WRITE_ERRORS},
                   parameters=[IDEMPOTENCY], tags=TAGS)
    @idempotent
    def post(self, request, event_id: int):
        event = self.get_event()
        data = validated(AssignedIn, request)
        result = services.assigned_award(
            event=event, board=data["board"], ns=data["ns"], ew=data["ew"],
            ns_result=data["ns_result"], ew_result=data.get("ew_result"),
            reason=data["reason"], actor=actor_for(request),
            meeting=lookups.meeting_for_pairs(event, data["board"], data["ns"], data["ew"]))
        return Response(ResultOut(result).data)
