"""The API of the party night: the director sets it up, starts it, calls the rounds and
corrects; each table enters its deals by its phone's code (in the address, like the
score pad's); anyone reads the standings. Thin like views.py: validate, call one
service, serialize out."""

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny
from rest_framework.response import Response

from .. import services
from ..models import Party, PartyTable
from .auth import actor_for
from .idempotency import idempotent
from .permissions import IsDirector
from .serializers import (
    PartyAdvanceIn,
    PartyCorrectIn,
    PartyDealIn,
    PartyIn,
    PartyOut,
    PartyPlayersIn,
    PartyRoundOut,
    PartyStandingsOut,
    PartyStartIn,
    PartyTableViewOut,
)
from .views import ERRORS, IDEMPOTENCY, WRITE_ERRORS, ApiView, validated

TAGS = ["party night"]


def party_out(party: Party) -> dict:
    return {
        "id": party.pk, "name": party.name, "date": party.date, "game": party.game,
        "rules": party.rules, "deals_per_round": party.deals_per_round,
        "minutes_per_round": party.minutes_per_round, "rounds": party.rounds,
        "status": party.status, "current_round": party.current_round,
        "players": [{"player": p.number, "name": p.name,
                     "member": p.member.number if p.member else None}
                    for p in party.players.select_related("member")],
        "tables": [{"table": t.number, "code": t.code} for t in party.tables.all()],
    }


def round_out(party: Party, round_number: int | None = None) -> dict:
    data = services.party_round(party=party, round_number=round_number)
    data["progression"] = services.party_progression(party=party, round_number=data["round"])
    return data


class DirectorPartyView(ApiView):
    permission_classes = [IsDirector]

    def get_party(self) -> Party:
        party = Party.objects.filter(pk=self.kwargs["party_id"]).first()
        if party is None:
            raise NotFound(f"there is no party night {self.kwargs['party_id']}")
        return party


class PartyList(DirectorPartyView):
    @extend_schema(responses={200: PartyOut(many=True), **ERRORS}, tags=TAGS)
    def get(self, request):
        return Response(PartyOut([party_out(p) for p in Party.objects.all()[:100]],
                                 many=True).data)

    @extend_schema(request=PartyIn, responses={201: PartyOut, **WRITE_ERRORS}, tags=TAGS,
                   parameters=[IDEMPOTENCY])
    @idempotent
    def post(self, request):
        data = validated(PartyIn, request)
        party = services.party_create(actor=actor_for(request), **data)
        return Response(PartyOut(party_out(party)).data, status=status.HTTP_201_CREATED)


class PartyDetail(DirectorPartyView):
    @extend_schema(responses={200: PartyOut, **ERRORS}, tags=TAGS)
    def get(self, request, party_id):
        return Response(PartyOut(party_out(self.get_party())).data)


class PartyPlayers(DirectorPartyView):
    @extend_schema(request=PartyPlayersIn, responses={200: PartyOut, **WRITE_ERRORS},
                   tags=TAGS, parameters=[IDEMPOTENCY], description=(
                       "Put a new list of players in place of the old one (before the "
                       "start only)."))
    @idempotent
    def put(self, request, party_id):
        data = validated(PartyPlayersIn, request)
        party = services.party_players_set(party=self.get_party(), actor=actor_for(request),
                                           **data)
        return Response(PartyOut(party_out(party)).data)


class PartyStart(DirectorPartyView):
    @extend_schema(request=PartyStartIn, responses={200: PartyOut, **WRITE_ERRORS}, tags=TAGS,
                   parameters=[IDEMPOTENCY], description=(
                       "Seat round 1 (in the order listed, or drawn) and give each table "
                       "its phone's code."))
    @idempotent
    def post(self, request, party_id):
        data = validated(PartyStartIn, request)
        party = services.party_start(party=self.get_party(), actor=actor_for(request), **data)
        return Response(PartyOut(party_out(party)).data)


class PartyAdvance(DirectorPartyView):
    @extend_schema(request=PartyAdvanceIn, responses={200: PartyOut, **WRITE_ERRORS},
                   tags=TAGS, parameters=[IDEMPOTENCY], description=(
                       "Call the next round, seated by the progression (or end the night "
                       "after the last round)."))
    @idempotent
    def post(self, request, party_id):
        data = validated(PartyAdvanceIn, request)
        party = services.party_round_advance(party=self.get_party(), actor=actor_for(request),
                                             **data)
        return Response(PartyOut(party_out(party)).data)


class PartyRound(DirectorPartyView):
    @extend_schema(responses={200: PartyRoundOut, **ERRORS}, tags=TAGS)
    def get(self, request, party_id, round):
        party = self.get_party()
        if not 1 <= round <= party.current_round:
            raise NotFound(f"there is no round {round} yet")
        return Response(PartyRoundOut(round_out(party, round)).data)


class PartyDealCorrect(DirectorPartyView):
    @extend_schema(request=PartyCorrectIn, responses={200: PartyRoundOut, **WRITE_ERRORS},
                   tags=TAGS, parameters=[IDEMPOTENCY], description=(
                       "The director corrects a deal of any round (audited); a round "
                       "already moved on keeps its progression."))
    @idempotent
    def put(self, request, party_id, round, table, number):
        party = self.get_party()
        row = PartyTable.objects.filter(party=party, number=table).first()
        if row is None:
            raise NotFound(f"there is no table {table}")
        data = validated(PartyCorrectIn, request)
        services.party_deal_correct(table=row, number=number, round_number=round,
                                    actor=actor_for(request), **data)
        return Response(PartyRoundOut(round_out(party, round)).data)


class PartyStandings(ApiView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: PartyStandingsOut, **ERRORS}, tags=TAGS)
    def get(self, request, party_id):
        party = Party.objects.filter(pk=party_id).first()
        if party is None or party.status == Party.Status.SETTING_UP:
            raise NotFound(f"there is no party night {party_id} under way")
        return Response(PartyStandingsOut(services.party_standings(party=party)).data)


class PartyTableApi(ApiView):
    """A party table is named by its phone's code (its secret), as a score pad is: no
    table code header, no session needed."""

    authentication_classes: list = []
    permission_classes = [AllowAny]

    def idempotency_scope(self, request) -> str:
        """A table's keys are its phone's code's, whoever sends them (as the pad's)."""
        return f"party-table:{self.kwargs.get('code', '')}"

    def get_table(self) -> PartyTable:
        table = PartyTable.objects.select_related("party").filter(
            code=self.kwargs["code"]).first()
        if table is None:
            raise NotFound("no party table has this code")
        return table

    def answer(self, table: PartyTable, code: int = status.HTTP_200_OK) -> Response:
        view = services.party_table_view(table=table)
        party = view.pop("party")
        view.update(party=party.pk, name=party.name, game=party.game, status=party.status)
        view.setdefault("next", None)
        return Response(PartyTableViewOut(view).data, status=code)


class PartyTableDetail(PartyTableApi):
    @extend_schema(responses={200: PartyTableViewOut, **ERRORS}, tags=TAGS)
    def get(self, request, code):
        return self.answer(self.get_table())


class PartyTableDeals(PartyTableApi):
    @extend_schema(request=PartyDealIn, responses={201: PartyTableViewOut, **WRITE_ERRORS},
                   tags=TAGS, parameters=[IDEMPOTENCY],
                   description="Add the table's next deal of the round in play.")
    @idempotent
    def post(self, request, code):
        table = self.get_table()
        data = validated(PartyDealIn, request)
        services.party_deal_add(table=table, actor=services.table_actor(table), **data)
        return self.answer(table, status.HTTP_201_CREATED)


class PartyTableDeal(PartyTableApi):
    @extend_schema(request=PartyDealIn, responses={200: PartyTableViewOut, **WRITE_ERRORS},
                   tags=TAGS, parameters=[IDEMPOTENCY],
                   description="Correct a deal of the round in play at this table.")
    @idempotent
    def put(self, request, code, number):
        table = self.get_table()
        data = validated(PartyDealIn, request)
        services.party_deal_correct(table=table, number=number,
                                    actor=services.table_actor(table), **data)
        return self.answer(table)


class PartyTableRoundOver(PartyTableApi):
    @extend_schema(request=None, responses={200: PartyTableViewOut, **WRITE_ERRORS},
                   tags=TAGS, parameters=[IDEMPOTENCY],
                   description="The table's time is up (a round of a fixed time).")
    @idempotent
    def post(self, request, code):
        table = self.get_table()
        services.party_round_over(table=table, actor=services.table_actor(table))
        return self.answer(table)
