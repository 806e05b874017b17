"""The API's sessions (an event of several sessions): list them and add the next one, set
the carry-over, and read the overall standings. Each session is an event of its own, set
up and scored through the event's other addresses. Thin like views.py."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.response import Response

from .. import access, services, standings
from ..models import Event
from ..services import ServiceError
from .auth import actor_for
from .idempotency import idempotent
from .permissions import CanSeeEvent, IsDirector, ReadAnyoneWriteDirector
from .serializers import WholeNumberField
from .views import ERRORS, IDEMPOTENCY, WRITE_ERRORS, ApiView, validated

TAGS = ["sessions"]
NO_SESSIONS_FOR_TEAMS = "a team match has no sessions: its standings are the event's own"
NO_OVERALL_FOR_ONE_SESSION = ("an event of one session has no overall standings: its "
                              "standings are its own")


class SessionOut(serializers.ModelSerializer):
    """One session: an event of its own (its id addresses it everywhere)."""

    session = serializers.IntegerField(source="session_number", read_only=True)

    class Meta:
        model = Event
        fields = ["session", "id", "name", "date", "status", "published"]


class SessionsOut(serializers.Serializer):
    carry_over = serializers.IntegerField(
        help_text="the percentage at which each earlier session counts overall (the last "
                  "counts in full)")
    sessions = SessionOut(many=True)


class SessionIn(serializers.Serializer):
    date = serializers.DateField(required=False,
                                 help_text="Leave out for the last session's date")


class CarryOverIn(serializers.Serializer):
    carry_over = WholeNumberField(min_value=0, max_value=100,
                                  help_text="each earlier session counts at this percentage")


def _sessions(request, event: Event) -> dict:
    """The series' sessions this caller may see, and its carry-over."""
    caller = access.api_caller(request)
    sessions = list(event.session_events())
    return SessionsOut({"carry_over": sessions[0].carry_over,
                        "sessions": [s for s in sessions if access.may_see_event(caller, s)]}
                       ).data


class SessionList(ApiView):
    """The event's sessions, the first first. The director adds the next one with POST: it
    starts with the last session's pairs (numbers, players and sections); its boards and
    movement are set up as for any event."""

    permission_classes = [ReadAnyoneWriteDirector, CanSeeEvent]

    @extend_schema(responses={200: SessionsOut, 404: ERRORS[404]}, tags=TAGS)
    def get(self, request, event_id: int):
        return Response(_sessions(request, self.get_event()))

    @extend_schema(request=SessionIn, responses={201: SessionOut, **WRITE_ERRORS},
                   parameters=[IDEMPOTENCY], tags=TAGS)
    @idempotent
    def post(self, request, event_id: int):
        data = validated(SessionIn, request)
        session = services.session_add(event=self.get_event(), date=data.get("date"),
                                       actor=actor_for(request))
        return Response(SessionOut(session).data, status=status.HTTP_201_CREATED)


class CarryOver(ApiView):
    """Set the percentage at which each earlier session counts in the overall standings."""

    permission_classes = [IsDirector, CanSeeEvent]

    @extend_schema(request=CarryOverIn, responses={200: SessionsOut, **WRITE_ERRORS},
                   parameters=[IDEMPOTENCY], tags=TAGS)
    @idempotent
    def post(self, request, event_id: int):
        data = validated(CarryOverIn, request)
        event = self.get_event()
        services.carry_over_set(event=event, percent=data["carry_over"],
                                actor=actor_for(request))
        return Response(_sessions(request, event))


class OverallView(ApiView):
    """The overall standings of the event's sessions: each pair's score in each session
    (null where it did not play) and overall, every pair ranked together. Everyone's once
    every session's standings are published; the director's always (docs/decisions.md)."""

    permission_classes = [CanSeeEvent]

    @extend_schema(responses={200: OpenApiTypes.OBJECT, **ERRORS}, tags=TAGS)
    def get(self, request, event_id: int):
        event = self.get_event()
        if event.kind == "teams":
            raise ServiceError(NO_SESSIONS_FOR_TEAMS, field="kind")
        if not event.has_sessions():
            # Decision 129, as the web page: one session has its own standings, no overall
            # (which would rank a Mitchell's N–S and E–W pairs in one list).
            raise NotFound(NO_OVERALL_FOR_ONE_SESSION)
        # Each session's correction period may have ended since anyone last looked.
        sessions = [services.event_final_if_due(event=s) for s in event.session_events()]
        if not access.may_see_overall(access.api_caller(request), sessions):
            raise PermissionDenied(access.NOT_PUBLISHED)
        return Response(standings.overall_standings(event))
