"""The REST API: one class per resource, permissions declared on each.

Every view is thin: an input serializer checks the request's shape, ONE service
call makes the change (or one selector reads), an output serializer renders.
Errors come back as ``{"error": ..., "field": ...}`` (see errors.py); writes
accept an ``Idempotency-Key`` (required from a table; see idempotency.py).

Callers (see auth.py and permissions.py): the director (staff session, CSRF
enforced), a table (``Authorization: Table <code>``) and the public (read-only,
published events only).
"""

from collections.abc import Callable

from django.conf import settings
from django.db import transaction
from django.http import HttpResponsePermanentRedirect
from django.urls import Resolver404, resolve, reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.authentication import SessionAuthentication
from rest_framework.exceptions import NotAuthenticated, NotFound, PermissionDenied
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring.engine import dealer_for_board

from .. import access, selectors, services, standings
from ..converters import NUMBER, ROW_ID
from ..inputs import query_number
from ..models import AuditEntry, Board, Event, Meeting, Pair, Result, Rubber, Section, Team
from ..services.rubbers import RubberDealChanged
from ..throttle import client_address
from . import hot, lookups
from .auth import TableCodeAuthentication, actor_for, table_of
from .errors import api_exception_handler
from .idempotency import HEADER, answer_for, idempotent
from .permissions import (
    CanSeeEvent,
    IsDirector,
    IsDirectorOrTable,
    IsTable,
    PublishedOrDirector,
    ReadAnyoneWriteDirector,
    event_for,
    require_own_meeting,
    require_own_table,
    table_in_event,
    visible_events,
)
from .serializers import (
    AgreedOut,
    AgreeIn,
    AuditOut,
    BoardOut,
    BoardsIn,
    ConfirmIn,
    ConflictOut,
    CorrectIn,
    ErrorOut,
    EventIn,
    EventOut,
    EventPublishIn,
    EventStatusIn,
    LatePairIn,
    LatePlayIn,
    MeetingOut,
    MovementChangeIn,
    MovementChangeOut,
    MovementIn,
    MovementSectionOut,
    PairChangeOut,
    PairIn,
    PairLeaveIn,
    PairOut,
    PreviewIn,
    ReasonIn,
    ResultIn,
    ResultOut,
    RubberConflictOut,
    RubberCorrectIn,
    RubberDealIn,
    RubberIn,
    RubberSheetOut,
    RulingIn,
    ScorecardOut,
    ScoreOut,
    SubstituteIn,
    TableOut,
    TableRoundOut,
    TeamOut,
    TeamsIn,
    TravellerOut,
    UnusualOut,
    result_out,
)

IDEMPOTENCY = OpenApiParameter(
    HEADER, OpenApiTypes.STR, OpenApiParameter.HEADER,
    description="A fresh random key per submission (required from a table). Sending the "
                "same request again with the same key returns the first answer (sent while "
                "the first is still running, it waits for it).",
)
ERRORS = {
    400: OpenApiResponse(ErrorOut, description="the request cannot be done, and why"),
    403: OpenApiResponse(ErrorOut, description="not allowed for this caller"),
    404: OpenApiResponse(ErrorOut, description="no such thing (or not visible to this caller)"),
}
WRITE_ERRORS = {
    **ERRORS,
    422: OpenApiResponse(ErrorOut, description="the Idempotency-Key was used for another "
                                               "request"),
}
RESULT_WRITE_ERRORS = {
    **WRITE_ERRORS,
    409: OpenApiResponse(ConflictOut, description="a different result is stored already"),
    422: OpenApiResponse(UnusualOut, description=(
        "field `as_entered`: the result is unusual (its `warnings` say why); look at it "
        "again and send it with `as_entered: true` to save it as entered (the same "
        "Idempotency-Key may be used: this answer is not kept). Field `Idempotency-Key`: "
        "the key was used for another request")),
}
RESULT_ROWS = ("board", "ns_pair", "ew_pair", "meeting__section", "event")
# Query parameters as the schema describes them: the bounds are those read_number applies.
BOARD_QUERY = {"type": "integer", "minimum": NUMBER[0], "maximum": NUMBER[1]}
ROW_QUERY = {"type": "integer", "format": "int64", "minimum": ROW_ID[0], "maximum": ROW_ID[1]}


def validated(serializer_class, request) -> dict:
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


class ApiView(APIView):
    """Table codes first (a bad code is a 401), then the director's session."""

    authentication_classes = [TableCodeAuthentication, SessionAuthentication]
    permission_classes = [AllowAny]
    # Methods answered in one database transaction from the caller's lookup to the stored
    # answer: one commit a request (the hot writes; see ResultList).
    atomic_methods: tuple[str, ...] = ()
    # A table's hot write answered before the rest of the middleware and DRF's dispatch
    # (hot.TableWriteMiddleware): called with the request, this view's Allow header and the
    # URL's arguments; None sends the request on, to be answered here.
    hot_path: Callable | None = None

    def dispatch(self, request, *args, **kwargs):
        if request.method not in self.atomic_methods:
            return super().dispatch(request, *args, **kwargs)
        request.atomic_request = True  # the Idempotency-Key's claim needs no savepoint
        with transaction.atomic():
            return super().dispatch(request, *args, **kwargs)

    def get_exception_handler(self):
        return api_exception_handler

    def initial(self, request, *args, **kwargs):
        # A method the address does not answer (TRACE, DELETE...) is a 405 whoever calls,
        # before the caller is asked who they are or the event is looked up.
        if not hasattr(self, request.method.lower()):
            self.http_method_not_allowed(request)
        super().initial(request, *args, **kwargs)

    def permission_denied(self, request, message=None, code=None):
        # DRF says "Authentication credentials were not provided."; say who may do it.
        if request.authenticators and not request.successful_authenticator:
            raise NotAuthenticated(message)
        raise PermissionDenied(message, code)

    def get_event(self) -> Event:
        """The event in the URL (loaded by the CanSeeEvent permission, 404 if not visible;
        event_for also publishes it final if its correction period is over)."""
        if getattr(self, "event", None) is None:
            self.event = event_for(self.request, self.kwargs["event_id"])
        return self.event

    def get_result(self, event: Event) -> Result:
        result = next(iter(Result.objects.select_related(*RESULT_ROWS).order_by()
                           .filter(event=event, pk=self.kwargs["result_id"])[:1]), None)
        if result is None:
            raise NotFound(f"there is no result {self.kwargs['result_id']} in this event")
        require_own_meeting(self.request, event, result.meeting)
        return result


# --- the index --------------------------------------------------------------------------------

# The main addresses, as URI templates (RFC 6570) a caller fills in: name → (url, its slots).
API_TEMPLATES = {
    "event": ("api:event", ("event_id",)),
    "standings": ("api:standings", ("event_id",)),
    "sessions": ("api:sessions", ("event_id",)),
    "overall": ("api:overall", ("event_id",)),
    "results": ("api:results", ("event_id",)),
    "rulings": ("api:rulings", ("event_id",)),
    "boards": ("api:boards", ("event_id",)),
    "pairs": ("api:pairs", ("event_id",)),
    "movement": ("api:movement", ("event_id",)),
    "audit": ("api:audit", ("event_id",)),
    "score_preview": ("api:score-preview", ("event_id",)),
    "traveller": ("api:traveller", ("event_id", "number")),
    "scorecard": ("api:scorecard", ("event_id", "number")),
    "table_round": ("api:table-current", ("event_id", "section", "table")),
}
# Stand-ins reversed into each address, then replaced by "{slot}".
_SLOTS = {"event_id": 970001, "number": 32701, "section": "32703", "table": 32704}


def _uri_template(name: str, slots: tuple[str, ...]) -> str:
    address = reverse(name, kwargs={slot: _SLOTS[slot] for slot in slots})
    for slot in slots:
        address = address.replace(f"/{_SLOTS[slot]}/", "/{" + slot + "}/")
    return address


class ApiRoot(ApiView):
    """The API's front door: links to the schema, the docs and the main addresses."""

    @extend_schema(responses={200: OpenApiTypes.OBJECT}, tags=["index"],
                   summary="Links to the schema, these docs and the main addresses")
    def get(self, request):
        def absolute(address: str) -> str:
            return request.build_absolute_uri(address)

        return Response({
            "title": "Duplicate Auction & Whist tournament API",
            "schema": absolute(reverse("api-schema")),
            "docs": absolute(reverse("api-docs")),
            "events": absolute(reverse("api:events")),
            "seasons": absolute(reverse("api:seasons")),
            "table": absolute(reverse("api:table")),
            # Joined by hand: build_absolute_uri would escape the braces.
            "templates": {key: absolute("/").rstrip("/") + _uri_template(name, slots)
                          for key, (name, slots) in API_TEMPLATES.items()},
        })


# --- events ---------------------------------------------------------------------------------


class EventList(ApiView):
    """Events: the public sees those with published standings; the director creates them."""

    permission_classes = [ReadAnyoneWriteDirector]

    @extend_schema(responses=EventOut(many=True))
    def get(self, request):
        services.events_final_due()
        events = visible_events(request).prefetch_related("sections")
        return Response(EventOut(events, many=True).data)

    @extend_schema(request=EventIn, responses={201: EventOut, **WRITE_ERRORS},
                   parameters=[IDEMPOTENCY])
    @idempotent
    def post(self, request):
        data = validated(EventIn, request)
        event = services.event_create(actor=actor_for(request), **data)
        return Response(EventOut(event).data, status=status.HTTP_201_CREATED)


class EventDetail(ApiView):
    permission_classes = [CanSeeEvent]

    @extend_schema(responses={200: EventOut, 404: ERRORS[404]})
    def get(self, request, event_id: int):
        return Response(EventOut(self.get_event()).data)


class EventStatus(ApiView):
    """setting-up → running → agreed → closed; "closed" agrees a running event first.

    Agreeing while boards are not in needs a reason. Closing starts the correction
    period (``final_after``), unless ``publish_final``; "agreed" with a reason reopens a
    closed event during it.
    """

    permission_classes = [IsDirector, CanSeeEvent]

    @extend_schema(request=EventStatusIn, responses={200: EventOut, **WRITE_ERRORS},
                   parameters=[IDEMPOTENCY])
    @idempotent
    def post(self, request, event_id: int):
        event = self.get_event()
        data = validated(EventStatusIn, request)
        wanted, reason = data["status"], data.get("reason", "")
        if wanted == Event.Status.CLOSED:
            event = services.event_close(event=event, actor=actor_for(request), reason=reason,
                                         publish_final=data["publish_final"],
                                         correction_minutes=data.get("correction_minutes"))
        else:
            event = services.event_set_status(event=event, status=wanted,
                                              actor=actor_for(request), reason=reason)
        return Response(EventOut(event).data)


class EventPublish(ApiView):
    permission_classes = [IsDirector, CanSeeEvent]

    @extend_schema(request=EventPublishIn, responses={200: EventOut, **WRITE_ERRORS},
                   parameters=[IDEMPOTENCY])
    @idempotent
    def post(self, request, event_id: int):
        level = validated(EventPublishIn, request)["published"]
        event = services.event_publish(event=self.get_event(), level=level,
                                       actor=actor_for(request))
        return Response(EventOut(event).data)


# --- pairs, teams, boards, movement ------------------------------------------------------------


class PairList(ApiView):
    permission_classes = [CanSeeEvent]

    @extend_schema(responses={200: PairOut(many=True), 404: ERRORS[404]})
    def get(self, request, event_id: int):
        pairs = Pair.objects.filter(event=self.get_event()).select_related(
            "player_1", "player_2", "team", "section")
        return Response(PairOut(pairs, many=True).data)


class PairDetail(ApiView):
    """One pair; the director creates it, or renames its players, with PUT."""

    permission_classes = [ReadAnyoneWriteDirector, CanSeeEvent]

    def get_pair(self, event: Event) -> Pair:
        pair = (Pair.objects.select_related("player_1", "player_2", "team", "section")
                .filter(event=event, number=self.kwargs["number"]).first())
        if pair is None:
            raise NotFound(f"there is no pair {self.kwargs['number']} in this event")
        return pair

    @extend_schema(responses={200: PairOut, **ERRORS})
    def get(self, request, event_id: int, number: int):
        return Response(PairOut(self.get_pair(self.get_event())).data)

    @extend_schema(request=PairIn, responses={200: PairOut, **WRITE_ERRORS},
                   parameters=[IDEMPOTENCY])
    @idempotent
    def put(self, request, event_id: int, number: int):
        event = self.get_event()
        data = validated(PairIn, request)
        team = None
        if data.get("team"):
            team = Team.objects.filter(event=event, name=data["team"].strip()).first()
            if team is None:
                raise services.ServiceError(
                    f"there is no team called {data['team']}: add the teams first",
                    field="team")
        pair = services.pair_set(event=event, number=number, players=data["players"],
                                 team=team, actor=actor_for(request))
        return Response(PairOut(pair).data)


class LatePair(ApiView):
    """A late pair takes the sit-out's place in a section from a round not yet begun (it
    becomes the movement's missing pair: number 2 × tables in an event of one section, the
    event's next pair number in one of several). `check: true` only says what would
    happen."""

    permission_classes = [IsDirector, CanSeeEvent]

    @extend_schema(request=LatePairIn, responses={200: PairChangeOut, **WRITE_ERRORS},
                   parameters=[IDEMPOTENCY])
    @idempotent
    def post(self, request, event_id: int):
        event = self.get_event()
        data = validated(LatePairIn, request)
        section = services.section_named(event, data["section"])
        plan = services.late_pair_plan(event=event, from_round=data["from_round"],
                                       section=section)
        if not data["check"]:
            services.pair_join_late(event=event, players=data["players"],
                                    from_round=data["from_round"], reason=data["reason"],
                                    actor=actor_for(request), section=section)
        return Response(PairChangeOut({"stored": not data["check"], "pair": plan.number,
                                       "plan": plan.as_dict()}).data)


class PairLeave(ApiView):
    """A pair leaves after a round: its later meetings are taken out, its opponents sit
    out, those boards are not played. `check: true` only says what would happen."""

    permission_classes = [IsDirector, CanSeeEvent]

    @extend_schema(request=PairLeaveIn, responses={200: PairChangeOut, **WRITE_ERRORS},
                   parameters=[IDEMPOTENCY])
    @idempotent
    def post(self, request, event_id: int, number: int):
        event = self.get_event()
        data = validated(PairLeaveIn, request)
        plan = services.pair_leave_plan(event=event, number=number,
                                        after_round=data["after_round"])
        if not data["check"]:
            services.pair_leave(event=event, number=number, after_round=data["after_round"],
                                reason=data["reason"], actor=actor_for(request))
        return Response(PairChangeOut({"stored": not data["check"], "pair": number,
                                       "plan": plan.as_dict()}).data)


class PairSubstitutes(ApiView):
    """A substitute takes one seat of a pair from a round to the end; the answer is the
    pair's score card (with its substitutes)."""

    permission_classes = [IsDirector, CanSeeEvent]

    @extend_schema(request=SubstituteIn, responses={200: ScorecardOut, **WRITE_ERRORS},
                   parameters=[IDEMPOTENCY])
    @idempotent
    def post(self, request, event_id: int, number: int):
        event = self.get_event()
        data = validated(SubstituteIn, request)
        services.substitute_set(event=event, number=number, seat=int(data["seat"]),
                                player=data["player"], from_round=data["from_round"],
                                reason=data["reason"], actor=actor_for(request))
        return Response(ScorecardOut(selectors.scorecard(event, number)).data)


class TeamList(ApiView):
    permission_classes = [ReadAnyoneWriteDirector, CanSeeEvent]

    @extend_schema(responses={200: TeamOut(many=True), 404: ERRORS[404]})
    def get(self, request, event_id: int):
        teams = Team.objects.filter(event=self.get_event()).prefetch_related("pairs")
        return Response(TeamOut(teams, many=True).data)

    @extend_schema(request=TeamsIn, responses={200: TeamOut(many=True), **WRITE_ERRORS},
                   parameters=[IDEMPOTENCY])
    @idempotent
    def post(self, request, event_id: int):
        names = validated(TeamsIn, request)["names"]
        teams = services.teams_set(event=self.get_event(), names=names,
                                   actor=actor_for(request))
        return Response(TeamOut(teams, many=True).data)


def _deals_shown(request, event: Event, numbers: list[int]) -> set[int]:
    return access.deals_shown(access.api_caller(request), event, numbers)


class BoardList(ApiView):
    """The boards; a deal is shown to the director, or to anyone once the board is finished
    and the standings published. The director sets the boards and deals with PUT."""

    permission_classes = [ReadAnyoneWriteDirector, CanSeeEvent]

    @extend_schema(responses={200: BoardOut(many=True), 404: ERRORS[404]})
    def get(self, request, event_id: int):
        event = self.get_event()
        boards = list(Board.objects.filter(event=event).order_by("number"))
        deals = _deals_shown(request, event, [b.number for b in boards if b.deal])
        return Response(BoardOut(boards, many=True, context={"deals": deals}).data)

    @extend_schema(request=BoardsIn, responses={200: BoardOut(many=True), **WRITE_ERRORS},
                   parameters=[IDEMPOTENCY])
    @idempotent
    def put(self, request, event_id: int):
        data = validated(BoardsIn, request)
        boards = services.boards_set(event=self.get_event(), count=data["count"],
                                     deals=data.get("deals"), actor=actor_for(request))
        return Response(BoardOut(boards, many=True,
                                 context={"deals": {b.number for b in boards}}).data)


class BoardDetail(ApiView):
    permission_classes = [CanSeeEvent]

    @extend_schema(responses={200: BoardOut, **ERRORS})
    def get(self, request, event_id: int, number: int):
        event = self.get_event()
        board = Board.objects.filter(event=event, number=number).first()
        if board is None:
            raise NotFound(f"there is no board {number} in this event")
        deals = _deals_shown(request, event, [number])
        return Response(BoardOut(board, context={"deals": deals}).data)


class MovementView(ApiView):
    """Who plays where in each round. A table sees only its own table's rounds.
    The director generates a section's movement with POST."""

    permission_classes = [ReadAnyoneWriteDirector, CanSeeEvent]

    @extend_schema(responses={200: MovementSectionOut(many=True), 404: ERRORS[404]})
    def get(self, request, event_id: int):
        event = self.get_event()
        meetings = Meeting.objects.filter(section__event=event).select_related(
            "section", "ns_pair", "ew_pair").order_by("round", "table")
        table = table_in_event(request, event)
        if table is not None:
            meetings = meetings.filter(section_id=table.section_id, table=table.table)
        sections = [_movement(section, [m for m in meetings if m.section_id == section.pk])
                    for section in event.sections.all()]
        return Response(MovementSectionOut(sections, many=True).data)

    @extend_schema(request=MovementIn, responses={200: MovementSectionOut, **WRITE_ERRORS},
                   parameters=[IDEMPOTENCY])
    @idempotent
    def post(self, request, event_id: int):
        event = self.get_event()
        data = validated(MovementIn, request)
        section = lookups.section_of(event, data["section"])
        movement, problems = services.movement_generate(
            event=event, kind=data["movement"], boards_per_round=data["boards_per_round"],
            section=section, **{k: data[k] for k in ("tables", "variant", "pairs", "pairs_per_team")
               if data.get(k) is not None})
        if problems:
            raise services.ServiceError("; ".join(problems), field="movement")
        meetings = services.movement_meetings_set(section=section, movement=movement,
                                         actor=actor_for(request))
        section.refresh_from_db()
        return Response(MovementSectionOut(_movement(section, meetings)).data)


class MovementChange(ApiView):
    """The director changes a section's movement between rounds: the rounds before
    `from_round` keep their meetings and results; from it the new movement's rounds are
    seated with the pairs playing now so that nobody plays a board again. With
    `preview` nothing changes: the answer shows the change and what is wrong with it.
    A change with problems is refused (400) and changes nothing."""

    permission_classes = [IsDirector, CanSeeEvent]

    @extend_schema(request=MovementChangeIn, responses={200: MovementChangeOut, **WRITE_ERRORS},
                   parameters=[IDEMPOTENCY])
    @idempotent
    def post(self, request, event_id: int):
        event = self.get_event()
        data = validated(MovementChangeIn, request)
        section = lookups.section_of(event, data["section"])
        options = {"section": section, "from_round": data["from_round"],
                   "kind": data["movement"], "tables": data.get("tables"),
                   "variant": data.get("variant"),
                   "boards_per_round": data["boards_per_round"]}
        if data["preview"]:
            plan = services.movement_plan(**options)
        else:
            plan = services.movement_change(**options, actor=actor_for(request),
                                            reason=data["reason"])
        return Response(MovementChangeOut({
            **vars(plan), "changed": not data["preview"], "sound": plan.sound}).data)


def _movement(section: Section, meetings: list[Meeting]) -> dict:
    """The data of MovementSectionOut: the section and its meetings round by round."""
    rounds: dict[int, list[Meeting]] = {}
    for meeting in sorted(meetings, key=lambda m: (m.round, m.table)):
        meeting.section = section
        rounds.setdefault(meeting.round, []).append(meeting)
    return {
        "name": section.name, "movement": section.movement, "variant": section.variant,
        "tables": section.tables, "boards_per_round": section.boards_per_round,
        "rounds": [{"round": number, "meetings": ms} for number, ms in rounds.items()],
    }


# --- a table's own view -------------------------------------------------------------------------


def _table_round(meeting: Meeting, meetings: list[Meeting]) -> dict:
    """The data of TableRoundOut for one meeting of a table."""
    results = lookups.meeting_results(meeting)
    current = selectors.current_meeting(meetings)
    lines = [{"number": n, "dealer": dealer_for_board(n), "result": results.get(n)}
             for n in meeting.boards]
    return {
        "event": meeting.section.event_id,
        "section": meeting.section.name,
        "table": meeting.table,
        "round": meeting.round,
        "rounds": [m.round for m in meetings],
        "current": current is not None and current.pk == meeting.pk,
        "ns": {"number": meeting.ns_pair.number, "names": meeting.ns_pair.names},
        "ew": {"number": meeting.ew_pair.number, "names": meeting.ew_pair.names},
        "boards": lines,
        "entered": len(results),
        "confirmed": sum(r.status != Result.Status.ENTERED for r in results.values()),
        "agreed": meeting.agreed_at is not None,
        "agreed_at": meeting.agreed_at,
        "late_play": [{"round": late.round, "board": late.board, "ns": late.ns, "ew": late.ew}
                      for late in selectors.late_play_boards(meetings)],
    }


class TableMe(ApiView):
    """The table a code opens: its event, section, table and the round being played."""

    permission_classes = [IsTable]

    @extend_schema(responses={200: TableOut})
    def get(self, request):
        table = table_of(request)
        meetings = selectors.table_meetings(table.section, table.table)
        current = selectors.current_meeting(meetings)
        return Response(TableOut({
            "event": table.section.event,
            "section": table.section.name,
            "table": table.table,
            "current_round": current.round if current else None,
            "rounds": [m.round for m in meetings],
        }).data)


class TableRoundMixin:
    def table_meetings(self, event: Event, section_name: str, table: int) -> list[Meeting]:
        require_own_table(self.request, event, section_name, table)
        section = lookups.section_of(event, section_name)
        meetings = selectors.table_meetings(section, table)
        if not meetings:
            raise NotFound(f"there is no table {table} in section {section_name}")
        for meeting in meetings:
            meeting.section = section  # spare a query per meeting
        return meetings


class TableCurrentRound(TableRoundMixin, ApiView):
    """The round being played at a table now (the first not yet agreed)."""

    permission_classes = [IsDirectorOrTable, CanSeeEvent]

    @extend_schema(responses={200: TableRoundOut, **ERRORS})
    def get(self, request, event_id: int, section: str, table: int):
        meetings = self.table_meetings(self.get_event(), section, table)
        return Response(TableRoundOut(
            _table_round(selectors.current_meeting(meetings), meetings)).data)


class TableRound(TableRoundMixin, ApiView):
    permission_classes = [IsDirectorOrTable, CanSeeEvent]

    @extend_schema(responses={200: TableRoundOut, **ERRORS})
    def get(self, request, event_id: int, section: str, table: int, round: int):
        meetings = self.table_meetings(self.get_event(), section, table)
        meeting = next((m for m in meetings if m.round == round), None)
        if meeting is None:
            raise NotFound(f"table {table} does not play a round {round}")
        return Response(TableRoundOut(_table_round(meeting, meetings)).data)


class TableRoundAgree(TableRoundMixin, ApiView):
    """Duplicate Law E: the table agrees its round once every board is in and confirmed."""

    permission_classes = [IsDirectorOrTable, CanSeeEvent]
    # A table agreeing its round, every board in: two statements (hot.py).
    hot_path = staticmethod(hot.round_agree_post)

    @extend_schema(request=None, responses={200: AgreedOut, **WRITE_ERRORS},
                   parameters=[IDEMPOTENCY])
    @idempotent
    def post(self, request, event_id: int, section: str, table: int, round: int):
        # What the agree needs and no more: the section (the table's own, read with its
        # code) and the rounds the table plays, in one light query.
        event = self.get_event()
        caller = table_in_event(request, event)
        require_own_table(request, event, section, table)
        section_row = caller.section if caller is not None else lookups.section_of(
            event, section)
        rounds = selectors.table_rounds(section_row, table)
        if not rounds:
            raise NotFound(f"there is no table {table} in section {section}")
        meeting = next((m for m in rounds if m.round == round), None)
        if meeting is None:
            raise NotFound(f"table {table} does not play a round {round}")
        actor = actor_for(request)
        if caller is not None and meeting.agreed_at is None and not getattr(
                request, "agree_not_common", False):
            # The common case in one write statement, the answer stored with it (unless
            # the hot path found it is not, a moment ago).
            answer = answer_for(request, hot.agreed_out)
            if answer is not None:
                answer.status_code = status.HTTP_200_OK
            agreed = services.round_agree_at_table(event=event, section=section_row,
                                                   meeting=meeting, actor=actor, answer=answer)
            if agreed is not None:
                if answer is None:
                    return Response(hot.agreed_out(agreed))
                response = Response(answer.body, status=answer.status_code)
                response.answer_stored = True
                return response
        agreed = services.round_agree(section=section_row, round_number=round,
                                      actor=actor, tables=[table])
        return Response(AgreedOut({"agreed": agreed}).data)


class TableRoundLateMixin(TableRoundMixin):
    def meeting(self, round_number: int, section: str, table: int) -> Meeting:
        meetings = self.table_meetings(self.get_event(), section, table)
        meeting = next((m for m in meetings if m.round == round_number), None)
        if meeting is None:
            raise NotFound(f"table {table} does not play a round {round_number}")
        return meeting


class TableRoundLatePlay(TableRoundLateMixin, ApiView):
    """Late play: the director gives the table leave to play boards of this round late (out
    of order, at the end of the session). The table then enters each with this round,
    whatever round it is at, even an agreed one; the result is marked `late_play` and the
    leave is used up. A late result takes the place of a `not-played` ruling."""

    permission_classes = [IsDirector, CanSeeEvent]

    @extend_schema(request=LatePlayIn, responses={200: MeetingOut, **WRITE_ERRORS},
                   parameters=[IDEMPOTENCY])
    @idempotent
    def post(self, request, event_id: int, section: str, table: int, round: int):
        data = validated(LatePlayIn, request)
        meeting = services.late_play_allow(meeting=self.meeting(round, section, table),
                                           boards=data["boards"], actor=actor_for(request),
                                           reason=data["reason"])
        return Response(MeetingOut(meeting).data)


class TableRoundLatePlayWithdraw(TableRoundLateMixin, ApiView):
    """The director withdraws the leave to play these boards late."""

    permission_classes = [IsDirector, CanSeeEvent]

    @extend_schema(request=LatePlayIn, responses={200: MeetingOut, **WRITE_ERRORS},
                   parameters=[IDEMPOTENCY])
    @idempotent
    def post(self, request, event_id: int, section: str, table: int, round: int):
        data = validated(LatePlayIn, request)
        meeting = services.late_play_withdraw(meeting=self.meeting(round, section, table),
                                              boards=data["boards"], actor=actor_for(request),
                                              reason=data["reason"])
        return Response(MeetingOut(meeting).data)


class TableRoundNotPlayed(TableRoundLateMixin, ApiView):
    """Boards not played at this table in this round (slow play, time): a `not-played`
    ruling for each, no comparison and no credit for either pair (Duplicate Law H). Each is
    audited and undone like any ruling (audit/<id>/undo/)."""

    permission_classes = [IsDirector, CanSeeEvent]

    @extend_schema(request=LatePlayIn, responses={200: ResultOut(many=True), **WRITE_ERRORS},
                   parameters=[IDEMPOTENCY])
    @idempotent
    def post(self, request, event_id: int, section: str, table: int, round: int):
        data = validated(LatePlayIn, request)
        results = services.boards_not_played(meeting=self.meeting(round, section, table),
                                             boards=data["boards"], actor=actor_for(request),
                                             reason=data["reason"])
        rows = Result.objects.filter(pk__in=[r.pk for r in results]).select_related(
            *RESULT_ROWS).order_by("board__number")
        return Response(ResultOut(rows, many=True).data)


class RoundAgree(ApiView):
    """The director agrees a whole round of a section (or some of its tables)."""

    permission_classes = [IsDirector, CanSeeEvent]

    @extend_schema(request=AgreeIn, responses={200: AgreedOut, **WRITE_ERRORS},
                   parameters=[IDEMPOTENCY])
    @idempotent
    def post(self, request, event_id: int, section: str, round: int):
        data = validated(AgreeIn, request)
        agreed = services.round_agree(
            section=lookups.section_of(self.get_event(), section), round_number=round,
            actor=actor_for(request), tables=data.get("tables"))
        return Response(AgreedOut({"agreed": agreed}).data)


# --- results ----------------------------------------------------------------------------------


class ResultList(ApiView):
    """Results: a table enters its boards (naming the round); the director any board."""

    permission_classes = [IsDirectorOrTable, CanSeeEvent]
    atomic_methods = ("POST",)
    hot_path = staticmethod(hot.result_post)

    @extend_schema(
        parameters=[OpenApiParameter("board", BOARD_QUERY, description="only this board")],
        responses={200: ResultOut(many=True), **ERRORS},
    )
    def get(self, request, event_id: int):
        event = self.get_event()
        results = Result.objects.filter(event=event, voided=False).select_related(*RESULT_ROWS)
        table = table_in_event(request, event)
        if table is not None:
            results = results.filter(meeting__section_id=table.section_id,
                                     meeting__table=table.table)
        board = query_number(request.query_params, "board", low=NUMBER[0], high=NUMBER[1])
        if board is not None:
            results = results.filter(board__number=board)
        return Response(ResultOut(results, many=True).data)

    @extend_schema(request=ResultIn,
                   responses={201: ResultOut, 200: OpenApiResponse(
                       ResultOut, description="this result was stored already"),
                       **RESULT_WRITE_ERRORS},
                   parameters=[IDEMPOTENCY])
    @idempotent
    def post(self, request, event_id: int):
        event = self.get_event()
        data = validated(ResultIn, request)
        board = data["board"]
        table = table_in_event(request, event)
        if table is not None:
            if "round" not in data:
                raise services.ServiceError("say which round you are playing", field="round")
            entry = selectors.table_entry(table.section, table.table, data["round"], board)
            meeting = lookups.entry_meeting(table, data["round"], entry)
            ns = data.get("ns", meeting.ns_pair.number)
            ew = data.get("ew", meeting.ew_pair.number)
            if not data["late_play"]:
                # The common case in one write statement, the answer stored with it.
                answer = answer_for(request, result_out)
                result = services.result_enter_at_table(
                    event=event, entry=entry, actor=actor_for(request), data=data["result"],
                    ns=ns, ew=ew, as_entered=data["as_entered"], answer=answer)
                if result is not None:
                    if answer is None:
                        return Response(result_out(result), status=status.HTTP_201_CREATED)
                    response = Response(answer.body, status=answer.status_code)
                    response.answer_stored = True
                    return response
        else:
            if "ns" not in data or "ew" not in data:
                raise services.ServiceError("say which pairs played: N–S (ns) and E–W (ew)",
                                            field="ns")
            ns, ew = data["ns"], data["ew"]
            meeting = lookups.meeting_for_pairs(event, board, ns, ew)
        result, created = services.result_record(
            event=event, board=board, ns=ns, ew=ew, data=data["result"],
            actor=actor_for(request), meeting=meeting, as_entered=data["as_entered"],
            late_play=data["late_play"])
        return Response(ResultOut(result).data,
                        status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


class ResultDetail(ApiView):
    permission_classes = [IsDirectorOrTable, CanSeeEvent]

    @extend_schema(responses={200: ResultOut, **ERRORS})
    def get(self, request, event_id: int, result_id: int):
        return Response(ResultOut(self.get_result(self.get_event())).data)


class ResultConfirm(ApiView):
    """The opponents confirm a result on the same device (or the director does)."""

    permission_classes = [IsDirectorOrTable, CanSeeEvent]
    atomic_methods = ("POST",)
    hot_path = staticmethod(hot.result_confirm_post)

    @extend_schema(request=ConfirmIn, responses={
        200: ResultOut, **WRITE_ERRORS,
        409: OpenApiResponse(ConflictOut, description="the result was changed after the "
                                                      "`version` sent")},
        parameters=[IDEMPOTENCY])
    @idempotent
    def post(self, request, event_id: int, result_id: int):
        data = validated(ConfirmIn, request)
        result = services.result_confirm(result=self.get_result(self.get_event()),
                                         actor=actor_for(request), by=data.get("by", ""),
                                         version=data.get("version"))
        return Response(ResultOut(result).data)


class ResultCorrect(ApiView):
    """Change a stored result: the table until its round is agreed; the director any time,
    with a reason, also to put a ruling in its place."""

    permission_classes = [IsDirectorOrTable, CanSeeEvent]

    @extend_schema(request=CorrectIn, responses={200: ResultOut, **RESULT_WRITE_ERRORS},
                   parameters=[IDEMPOTENCY])
    @idempotent
    def post(self, request, event_id: int, result_id: int):
        data = validated(CorrectIn, request)
        result = services.result_correct(
            result=self.get_result(self.get_event()), actor=actor_for(request),
            data=data.get("result"), ruling=data["ruling"],
            offending=data["offending"], reason=data["reason"], as_entered=data["as_entered"],
            version=data.get("version"))
        return Response(ResultOut(result).data)


class ResultVoid(ApiView):
    """The director removes a result (audited; undo brings it back)."""

    permission_classes = [IsDirector, CanSeeEvent]

    @extend_schema(request=ReasonIn, responses={200: ResultOut, **WRITE_ERRORS},
                   parameters=[IDEMPOTENCY])
    @idempotent
    def post(self, request, event_id: int, result_id: int):
        reason = validated(ReasonIn, request)["reason"]
        result = services.result_void(result=self.get_result(self.get_event()),
                                      actor=actor_for(request), reason=reason)
        return Response(ResultOut(result).data)


class RulingList(ApiView):
    """Duplicate Law B(3): the director's average, fouled board or cancelled deal; or a
    board not played at a meeting (`not-played`: no comparison, no credit)."""

    permission_classes = [IsDirector, CanSeeEvent]

    @extend_schema(request=RulingIn, responses={200: ResultOut, **WRITE_ERRORS},
                   parameters=[IDEMPOTENCY])
    @idempotent
    def post(self, request, event_id: int):
        event = self.get_event()
        data = validated(RulingIn, request)
        result = services.ruling_given(
            event=event, board=data["board"], ns=data["ns"], ew=data["ew"], kind=data["ruling"],
            offending=data["offending"], reason=data["reason"], actor=actor_for(request),
            meeting=lookups.meeting_for_pairs(event, data["board"], data["ns"], data["ew"]))
        return Response(ResultOut(result).data)


class ScorePreview(ApiView):
    """Score a deal result without storing it: the table page's live score."""

    permission_classes = [IsDirectorOrTable, CanSeeEvent]

    @extend_schema(request=PreviewIn, responses={200: ScoreOut, **ERRORS})
    def post(self, request, event_id: int):
        event = self.get_event()
        data = validated(PreviewIn, request)
        table_in_event(request, event)  # another event's code: 403
        if not access.may_preview(access.api_caller(request), event, data["board"]):
            raise PermissionDenied(
                f"board {data['board']} is not played at your table this round")
        board = lookups.board_of(event, data["board"])
        return Response(ScoreOut(lookups.score_preview(event, board, data["result"])).data)


# --- standings, travellers, score cards ---------------------------------------------------


class StandingsView(ApiView):
    """interfaces.md §3: rankings (pairs) or matches and rankings (teams). With several
    sections each ranking may carry "section"; compared within each section, `rankings` is
    one per section and direction; compared across the field, `rankings` is the field's
    and `section_rankings` places each section's pairs among themselves
    (docs/decisions.md)."""

    permission_classes = [CanSeeEvent, PublishedOrDirector]

    @extend_schema(responses={200: OpenApiTypes.OBJECT, **ERRORS})
    def get(self, request, event_id: int):
        return Response(standings.standings(self.get_event()))


class TravellerView(ApiView):
    """Every result of a board, to whom tournaments.access lets see it (a table once the
    pairs at it may know it; the public once published and the board finished)."""

    permission_classes = [CanSeeEvent]

    @extend_schema(responses={200: TravellerOut, **ERRORS})
    def get(self, request, event_id: int, number: int):
        event = self.get_event()
        if not Board.objects.filter(event=event, number=number).exists():
            raise NotFound(f"there is no board {number} in this event")
        self.check_traveller(event, number)
        data = selectors.traveller(event, number)
        if not access.may_see_deal(access.api_caller(request), event, number):
            data = {**data, "deal": None, "hands": None}
        return Response(TravellerOut(data).data)

    def check_traveller(self, event: Event, number: int) -> None:
        refusal = access.traveller_refusal(access.api_caller(self.request), event, number)
        if refusal is not None:
            raise PermissionDenied(refusal)


class ScorecardView(ApiView):
    """A pair's night board by board with its running total (published events)."""

    permission_classes = [CanSeeEvent, PublishedOrDirector]

    @extend_schema(responses={200: ScorecardOut, **ERRORS})
    def get(self, request, event_id: int, number: int):
        try:
            event = self.get_event()
            data = selectors.scorecard(event, number)
        except Pair.DoesNotExist:
            raise NotFound(f"there is no pair {number} in this event") from None
        return Response(ScorecardOut(
            access.shown_scorecard(access.api_caller(request), event, data)).data)


# --- the audit trail ---------------------------------------------------------------------------


class AuditPagination(LimitOffsetPagination):
    """DRF's limit and offset, read strictly: a limit or offset that is not a whole number
    is a 400 naming it (DRF silently ignored it); a limit above max_limit gives max_limit."""

    default_limit = 100
    max_limit = 1000

    def get_limit(self, request) -> int:
        limit = query_number(request.query_params, self.limit_query_param,
                             low=1, high=ROW_ID[1])
        return self.default_limit if limit is None else min(limit, self.max_limit)

    def get_offset(self, request) -> int:
        offset = query_number(request.query_params, self.offset_query_param,
                              low=0, high=ROW_ID[1])
        return offset or 0


class AuditList(ApiView):
    """Every change, newest first: who, when, before, after, why. ?result= narrows it."""

    permission_classes = [IsDirector, CanSeeEvent]
    pagination_class = AuditPagination

    @extend_schema(
        parameters=[OpenApiParameter("result", ROW_QUERY,
                                     description="only changes to this result"),
                    OpenApiParameter("limit", {**ROW_QUERY, "minimum": 1}, description=(
                        f"how many changes (at most {AuditPagination.max_limit} are given; "
                        f"{AuditPagination.default_limit} if left out)")),
                    OpenApiParameter("offset", {**ROW_QUERY, "minimum": 0},
                                     description="how many of the newest to skip")],
        responses={200: AuditOut(many=True), **ERRORS},
    )
    def get(self, request, event_id: int):
        entries = (AuditEntry.objects.filter(event=self.get_event())
                   .select_related("result__board", "undoes").order_by("-at", "-id"))
        result = query_number(request.query_params, "result", low=ROW_ID[0], high=ROW_ID[1])
        if result is not None:
            entries = entries.filter(result_id=result)
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(entries, request, view=self)
        return paginator.get_paginated_response(AuditOut(page, many=True).data)


class AuditUndo(ApiView):
    """Put a result back as it was before an audited change."""

    permission_classes = [IsDirector, CanSeeEvent]

    @extend_schema(request=ReasonIn, responses={200: ResultOut, **WRITE_ERRORS},
                   parameters=[IDEMPOTENCY])
    @idempotent
    def post(self, request, event_id: int, entry_id: int):
        event = self.get_event()
        entry = AuditEntry.objects.filter(event=event, pk=entry_id).first()
        if entry is None:
            raise NotFound(f"there is no change {entry_id} in this event's audit trail")
        reason = validated(ReasonIn, request)["reason"]
        result = services.audit_undo(entry=entry, actor=actor_for(request), reason=reason)
        return Response(ResultOut(result).data)



# --- any other address under /api/ -------------------------------------------------------------


def _is_api_address(path: str) -> bool:
    try:
        match = resolve(path)
    except Resolver404:
        return False
    return getattr(match.func, "view_class", None) is not NoSuchAddress


@extend_schema(exclude=True)
class NoSuchAddress(APIView):
    """The last pattern of api/urls.py: whatever matched no address is a 404 in the API's
    shape, whatever the method (not Django's HTML page). A GET of an address without its
    final slash is sent to it, as Django's APPEND_SLASH would."""

    authentication_classes = []
    permission_classes = [AllowAny]

    def get_exception_handler(self):
        return api_exception_handler

    def answer(self, request, *args, **kwargs):
        path = request.path_info
        if (settings.APPEND_SLASH and request.method in ("GET", "HEAD")
                and not path.endswith("/") and _is_api_address(path + "/")):
            query = request.META.get("QUERY_STRING", "")
            return HttpResponsePermanentRedirect(
                request.path + "/" + (f"?{query}" if query else ""))
        raise NotFound("there is no such address in the API: /api/ lists its addresses")

    get = post = put = patch = delete = head = options = trace = answer


# --- the score pad ---------------------------------------------------------------------------


class PadView(ApiView):
    """A score pad is opened by its code (its secret): no table code, no session needed."""

    authentication_classes: list = []
    permission_classes = [AllowAny]

    def idempotency_scope(self, request) -> str:
        """A pad's keys are the pad's own, whoever sends them ("pad:<code>": its players
        share the link, not a login). A pad still to be made has no code: its keys are the
        client address's ("pad-new:<address>"; decisions.md)."""
        code = self.kwargs.get("code")
        if code:
            return f"pad:{code}"
        return f"pad-new:{client_address(request)}"

    def get_rubber(self) -> Rubber:
        rubber = Rubber.objects.filter(code=self.kwargs["code"]).first()
        if rubber is None:
            raise NotFound("no score pad has this code")
        return rubber


class RubberList(PadView):
    @extend_schema(request=RubberIn, responses={201: RubberSheetOut, 400: ERRORS[400],
                                                422: WRITE_ERRORS[422]},
                   tags=["score pad"], parameters=[IDEMPOTENCY])
    @idempotent
    def post(self, request):
        data = validated(RubberIn, request)
        rubber = services.rubber_create(**data)
        return Response(RubberSheetOut(services.rubber_sheet(rubber=rubber)).data,
                        status=status.HTTP_201_CREATED)


class RubberDetail(PadView):
    @extend_schema(responses={200: RubberSheetOut, 404: ERRORS[404]}, tags=["score pad"])
    def get(self, request, code):
        return Response(RubberSheetOut(services.rubber_sheet(rubber=self.get_rubber())).data)


class RubberDeals(PadView):
    @extend_schema(request=RubberDealIn, responses={201: RubberSheetOut, 400: ERRORS[400],
                                                    404: ERRORS[404], 422: WRITE_ERRORS[422]},
                   tags=["score pad"], parameters=[IDEMPOTENCY],
                   description="Add the next deal; refused once the rubber is won.")
    @idempotent
    def post(self, request, code):
        rubber = self.get_rubber()
        data = validated(RubberDealIn, request)
        services.rubber_deal_add(rubber=rubber, **data)
        return Response(RubberSheetOut(services.rubber_sheet(rubber=rubber)).data,
                        status=status.HTTP_201_CREATED)


# A correction or removal made to a deal changed since it was read (decisions.md 197).
RUBBER_CHANGED = OpenApiResponse(
    RubberConflictOut, description="the deal was corrected, or removed and entered again, since "
                             "it was read: nothing was written; `existing` is the deal as "
                             "the sheet now has it (null once it is off the sheet)")


class RubberLastDeal(PadView):
    @extend_schema(request=RubberCorrectIn, responses={200: RubberSheetOut, 400: ERRORS[400],
                                                       404: ERRORS[404], 409: RUBBER_CHANGED,
                                                       422: WRITE_ERRORS[422]},
                   tags=["score pad"], parameters=[IDEMPOTENCY],
                   description="Correct a deal: the one `number` names, the last when left "
                               "out; the whole rubber is scored again. With `version`, a "
                               "deal changed since is not overwritten: 409.")
    @idempotent
    def put(self, request, code):
        rubber = self.get_rubber()
        data = validated(RubberCorrectIn, request)
        try:
            services.rubber_deal_correct(rubber=rubber, **data)
        except RubberDealChanged as exc:
            return _rubber_conflict(rubber, exc)
        return Response(RubberSheetOut(services.rubber_sheet(rubber=rubber)).data)

    @extend_schema(
        parameters=[OpenApiParameter(
            "number", int, required=True,
            description="the last deal's number: a second DELETE sent by mistake names a "
                        "deal no longer on the sheet, and is refused"),
            OpenApiParameter(
                "version", int, required=False,
                description="the deal's version as read: a deal corrected, or removed and "
                            "entered again, since is not removed (409)")],
        responses={200: RubberSheetOut, 400: ERRORS[400], 404: ERRORS[404],
                   409: RUBBER_CHANGED},
        tags=["score pad"],
        description="Remove the last deal (entered twice, or not played); only the last. "
                    "A rubber that deal won is open again.")
    def delete(self, request, code):
        rubber = self.get_rubber()
        number = request.query_params.get("number", "")
        if not (number.isascii() and number.isdigit()):
            raise services.ServiceError("say which deal to remove: ?number= the last deal's "
                                        "number", field="number")
        version = request.query_params.get("version", "")
        if version and not (version.isascii() and version.isdigit()):
            raise services.ServiceError("?version= is the deal's version as read, a whole "
                                        "number", field="version")
        try:
            services.rubber_deal_remove(rubber=rubber, number=int(number),
                                        version=int(version) if version else None)
        except RubberDealChanged as exc:
            return _rubber_conflict(rubber, exc)
        return Response(RubberSheetOut(services.rubber_sheet(rubber=rubber)).data)


def _rubber_conflict(rubber: Rubber, exc: RubberDealChanged) -> Response:
    """A deal changed since the caller read it: a 409, as for a duplicate result, with the
    deal as the sheet now has it under ``existing`` (null once it is off the sheet)."""
    existing = None
    if exc.now is not None:
        existing = next((d for d in services.rubber_sheet(rubber=rubber)["deals"]
                         if d["number"] == exc.now.number), None)
    return Response({"error": exc.message, "field": exc.field, "existing": existing},
                    status=status.HTTP_409_CONFLICT)
