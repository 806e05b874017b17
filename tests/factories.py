"""factory_boy factories for the app tests (rows only; results go through the services)."""

import datetime

import factory
from django.contrib.auth import get_user_model

from tournaments.models import Board, Event, Pair, Player, Section, Team


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password("pass-word-123")


class DirectorFactory(UserFactory):
    username = factory.Sequence(lambda n: f"director{n}")
    is_staff = True


class EventFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Event

    name = factory.Sequence(lambda n: f"Tuesday duplicate {n}")
    date = datetime.date(2026, 11, 17)
    rules = "american-1913"
    kind = "pairs"
    method = "plus-minus"
    status = Event.Status.RUNNING


class SectionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Section
        django_get_or_create = ("event", "name")

    event = factory.SubFactory(EventFactory)
    name = "A"


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    name = factory.Faker("name")


class TeamFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Team

    event = factory.SubFactory(EventFactory)
    name = factory.Sequence(lambda n: f"Team {n}")


class PairFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Pair

    event = factory.SubFactory(EventFactory)
    number = factory.Sequence(lambda n: n + 1)
    player_1 = factory.SubFactory(PlayerFactory)
    player_2 = factory.SubFactory(PlayerFactory)


class BoardFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Board

    event = factory.SubFactory(EventFactory)
    number = factory.Sequence(lambda n: n + 1)
    deal = ""


def make_pairs_event(*, pairs: int = 8, boards: int = 4, **event_fields) -> Event:
    """An event with pairs 1..pairs and boards 1..boards (no deals), ready for results."""
    event = EventFactory(**event_fields)
    SectionFactory(event=event)
    for number in range(1, pairs + 1):
        PairFactory(event=event, number=number)
    for number in range(1, boards + 1):
        BoardFactory(event=event, number=number)
    return event
