"""The API's seasons: anyone reads the published seasons and their tables (the director
every one); the director creates and changes them (the console removes one). Thin like
views.py: validate, call one service, serialize out."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.exceptions import NotFound
from rest_framework.response import Response

from .. import access, selectors, services
from ..models import Season
from .auth import actor_for
from .idempotency import idempotent
from .permissions import ReadAnyoneWriteDirector
from .serializers import SeasonIn, SeasonOut
from .views import ERRORS, IDEMPOTENCY, WRITE_ERRORS, ApiView, validated

TAGS = ["seasons"]


def _saved(data: dict) -> dict:
    """The serializer's names as the service's."""
    return {**{k: v for k, v in data.items() if k != "events"}, "event_ids": data["events"]}


class SeasonList(ApiView):
    """The seasons the caller may see (the published ones; the director's, all)."""

    permission_classes = [ReadAnyoneWriteDirector]

    @extend_schema(responses={200: SeasonOut(many=True), **ERRORS}, tags=TAGS)
    def get(self, request):
        caller = access.api_caller(request)
        seasons = access.visible_seasons(caller).prefetch_related("events")
        return Response(SeasonOut(seasons, many=True, context={"director": caller.director}).data)

    @extend_schema(request=SeasonIn, responses={201: SeasonOut, **WRITE_ERRORS}, tags=TAGS,
                   parameters=[IDEMPOTENCY])
    @idempotent
    def post(self, request):
        data = validated(SeasonIn, request)
        season = services.season_save(actor=actor_for(request), **_saved(data))
        return Response(SeasonOut(season).data, status=status.HTTP_201_CREATED)


class SeasonDetail(ApiView):
    """A season's table (GET: place, member, name, events, score and each night, as the
    caller may see it: the public counts the nights whose standings are final); the
    director changes its set-up (PUT, the whole of it)."""

    permission_classes = [ReadAnyoneWriteDirector]

    def get_season(self) -> Season:
        season = access.shown_season(access.api_caller(self.request),
                                     Season.objects.filter(pk=self.kwargs["season_id"]).first())
        if season is None:
            raise NotFound(access.NO_SUCH_SEASON)
        return season

    @extend_schema(responses={200: OpenApiTypes.OBJECT, **ERRORS}, tags=TAGS)
    def get(self, request, season_id: int):
        caller = access.api_caller(request)
        season = self.get_season()
        services.season_events_final_if_due(season=season)  # a correction period may be over
        return Response(selectors.season_table(season, director=caller.director))

    @extend_schema(request=SeasonIn, responses={200: SeasonOut, **WRITE_ERRORS}, tags=TAGS,
                   parameters=[IDEMPOTENCY])
    @idempotent
    def put(self, request, season_id: int):
        data = validated(SeasonIn, request)
        season = services.season_save(season=self.get_season(), actor=actor_for(request),
                                      **_saved(data))
        return Response(SeasonOut(season).data)
