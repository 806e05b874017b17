"""The API's sections (A, B, …): list, add and remove them, put pairs in a section, and choose
whether pairs are compared within their section or across the field (Duplicate Law H).
Each section's movement is POST /movement/ with "section". Thin like views.py."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from .. import services
from ..converters import NUMBER
from ..inputs import no_control_characters
from ..models import Section
from . import lookups
from .auth import actor_for
from .idempotency import idempotent
from .permissions import CanSeeEvent, IsDirector, ReadAnyoneWriteDirector
from .serializers import EventOut, FlagField, TextField, WholeNumberField
from .views import ERRORS, IDEMPOTENCY, WRITE_ERRORS, ApiView, validated

TAGS = ["sections"]


class SectionDetailOut(serializers.ModelSerializer):
    """A section, its movement's size and its pairs' numbers."""

    pairs = serializers.SerializerMethodField()

    class Meta:
        model = Section
        fields = ["name", "movement", "variant", "tables", "boards_per_round", "pairs"]

    def get_pairs(self, section) -> list[int]:
        return sorted(p.number for p in section.pairs.all())


class SectionIn(serializers.Serializer):
    name = TextField(max_length=10, required=False, allow_blank=True,
                     validators=[no_control_characters],
                                 help_text="Leave out for the next free letter (B, C, …)")
    pairs = serializers.ListField(
        child=WholeNumberField(min_value=1, max_value=NUMBER[1]), required=False,
        max_length=240, help_text="Pair numbers to put in the new section")


class SectionPairsIn(serializers.Serializer):
    pairs = serializers.ListField(
        child=WholeNumberField(min_value=1, max_value=NUMBER[1]), min_length=1,
        max_length=240)


class SectionScoringIn(serializers.Serializer):
    compare_by_section = FlagField(
        help_text="true: within each section; false: across the whole field (same boards)")


def _out(event):
    return SectionDetailOut(event.sections.prefetch_related("pairs").order_by("name"),
                            many=True).data


class SectionList(ApiView):
    """The event's sections. The director adds one with POST (its pairs may come with it)."""

    permission_classes = [ReadAnyoneWriteDirector, CanSeeEvent]

    @extend_schema(responses={200: SectionDetailOut(many=True), 404: ERRORS[404]}, tags=TAGS)
    def get(self, request, event_id: int):
        return Response(_out(self.get_event()))

    @extend_schema(request=SectionIn, responses={201: SectionDetailOut, **WRITE_ERRORS},
                   parameters=[IDEMPOTENCY], tags=TAGS)
    @idempotent
    def post(self, request, event_id: int):
        data = validated(SectionIn, request)
        event = self.get_event()
        actor = actor_for(request)
        section = services.section_add(event=event, name=data.get("name", ""), actor=actor)
        if data.get("pairs"):
            services.pairs_section_set(section=section, numbers=data["pairs"], actor=actor)
        section = Section.objects.prefetch_related("pairs").get(pk=section.pk)
        return Response(SectionDetailOut(section).data, status=status.HTTP_201_CREATED)


class SectionPairs(ApiView):
    """Put pairs in this section (not a pair seated in another section's movement)."""

    permission_classes = [IsDirector, CanSeeEvent]

    @extend_schema(request=SectionPairsIn, responses={200: SectionDetailOut, **WRITE_ERRORS},
                   parameters=[IDEMPOTENCY], tags=TAGS)
    @idempotent
    def post(self, request, event_id: int, section: str):
        data = validated(SectionPairsIn, request)
        found = lookups.section_of(self.get_event(), section)
        services.pairs_section_set(section=found, numbers=data["pairs"],
                                   actor=actor_for(request))
        found = Section.objects.prefetch_related("pairs").get(pk=found.pk)
        return Response(SectionDetailOut(found).data)


class SectionRemove(ApiView):
    """Remove a section that has no movement yet: its pairs go to the first section left.
    Answers the sections left."""

    permission_classes = [IsDirector, CanSeeEvent]

    @extend_schema(request=None, responses={200: SectionDetailOut(many=True), **WRITE_ERRORS},
                   parameters=[IDEMPOTENCY], tags=TAGS)
    @idempotent
    def post(self, request, event_id: int, section: str):
        event = self.get_event()
        services.section_remove(section=lookups.section_of(event, section),
                                actor=actor_for(request))
        return Response(_out(event))


class SectionScoring(ApiView):
    """Compare pairs within each section or across the whole field (Duplicate Law H)."""

    permission_classes = [IsDirector, CanSeeEvent]

    @extend_schema(request=SectionScoringIn, responses={200: EventOut, **WRITE_ERRORS},
                   parameters=[IDEMPOTENCY], tags=TAGS)
    @idempotent
    def post(self, request, event_id: int):
        data = validated(SectionScoringIn, request)
        event = services.compare_by_section_set(
            event=self.get_event(), by_section=data["compare_by_section"],
            actor=actor_for(request))
        return Response(EventOut(event).data)
