"""The API's member list (the director's): list and search, create, update, import a CSV.
Thin like views.py: validate, call one service, serialize out."""

from django.db.models import Q
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.response import Response

from .. import services
from ..models import Player
from .auth import actor_for
from .idempotency import idempotent
from .permissions import IsDirector
from .serializers import (
    MemberIn,
    MemberMergeIn,
    MemberOut,
    MembersImportIn,
    MembersImportOut,
)
from .views import ERRORS, IDEMPOTENCY, WRITE_ERRORS, ApiView, validated

TAGS = ["members"]
MAX_LISTED = 500


def _flag(request, name: str) -> bool | None:
    """A true/false query parameter given once, or None when absent; else a 400."""
    values = request.query_params.getlist(name)
    if not values:
        return None
    if len(values) > 1 or values[0] not in ("true", "false"):
        raise ValidationError({name: f"{name} is true or false"})
    return values[0] == "true"


class MemberList(ApiView):
    """The club's members (and, with ``visitors=true``, the visitors too); ``q`` finds by
    number (its start), name or e-mail."""

    permission_classes = [IsDirector]

    @extend_schema(responses={200: MemberOut(many=True), **ERRORS}, tags=TAGS, parameters=[
        OpenApiParameter("q", OpenApiTypes.STR, description="number, part of a name, or "
                                                            "an e-mail address"),
        OpenApiParameter("active", OpenApiTypes.BOOL, description="only active (true) or "
                                                                  "inactive (false) members"),
        OpenApiParameter("visitors", OpenApiTypes.BOOL, description="list visitors too"),
    ])
    def get(self, request):
        visitors = _flag(request, "visitors")
        active = _flag(request, "active")
        query = request.query_params.get("q", "").strip()[:80]
        if "\x00" in query:
            raise ValidationError({"q": "the search holds a NUL character"})
        found = Player.objects.all()
        if not visitors:
            found = found.exclude(number=None)
        if active is not None:
            found = found.filter(active=active)
        if query:
            found = found.filter(Q(number__istartswith=query) | Q(name__icontains=query)
                                 | Q(email__iexact=query))
        found = found.order_by("last_name", "first_name", "name", "number")[:MAX_LISTED]
        return Response(MemberOut(found, many=True).data)

    @extend_schema(request=MemberIn, responses={201: MemberOut, **WRITE_ERRORS}, tags=TAGS,
                   parameters=[IDEMPOTENCY])
    @idempotent
    def post(self, request):
        data = validated(MemberIn, request)
        player = services.member_save(actor=actor_for(request), **data)
        return Response(MemberOut(player).data, status=status.HTTP_201_CREATED)


class MemberView(ApiView):
    """A view of one member, named by its id in the address."""

    permission_classes = [IsDirector]

    def get_player(self) -> Player:
        player = Player.objects.filter(pk=self.kwargs["player_id"]).first()
        if player is None:
            raise NotFound("there is no such member")
        return player


class MemberDetail(MemberView):

    @extend_schema(responses={200: MemberOut, **ERRORS}, tags=TAGS)
    def get(self, request, player_id: int):
        return Response(MemberOut(self.get_player()).data)

    @extend_schema(request=MemberIn, responses={200: MemberOut, **WRITE_ERRORS}, tags=TAGS,
                   parameters=[IDEMPOTENCY])
    @idempotent
    def put(self, request, player_id: int):
        data = validated(MemberIn, request)
        player = services.member_save(player=self.get_player(), actor=actor_for(request),
                                      **data)
        return Response(MemberOut(player).data)


class MemberMerge(MemberView):
    """Two records of one person become this one (``drop`` goes): audited on every event
    either played in."""

    @extend_schema(request=MemberMergeIn, responses={200: MemberOut, **WRITE_ERRORS},
                   tags=TAGS, parameters=[IDEMPOTENCY])
    @idempotent
    def post(self, request, player_id: int):
        data = validated(MemberMergeIn, request)
        drop = Player.objects.filter(pk=data["drop"]).first()
        if drop is None:
            raise NotFound("there is no such member to merge")
        player = services.members_merge(keep=self.get_player(), drop=drop,
                                        actor=actor_for(request), reason=data["reason"])
        return Response(MemberOut(player).data)


class MembersImport(ApiView):
    """Import the member list as CSV text (what ``manage.py import_members`` reads)."""

    permission_classes = [IsDirector]

    @extend_schema(request=MembersImportIn, responses={200: MembersImportOut, **WRITE_ERRORS},
                   tags=TAGS, parameters=[IDEMPOTENCY])
    @idempotent
    def post(self, request):
        data = validated(MembersImportIn, request)
        report = services.members_import(text=data["csv"], actor=actor_for(request))
        return Response(MembersImportOut(report).data)
