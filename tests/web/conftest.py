"""Fixtures for the table pages and the director's console.

Events are built through the services (event_create, pair_set, boards_set); the
small two-table layout of the table tests is stored as rows, as a movement would
store it, so those tests do not depend on the movement generator.
"""

import datetime
from pathlib import Path

import pytest

from tests.factories import DirectorFactory, UserFactory
from tournaments import services
from tournaments.models import Event, Meeting, Section, TableCode
from tournaments.services import Actor
from tournaments.tablecodes import new_code

DATA = Path(__file__).parent / "data"


@pytest.fixture
def director(db):
    return DirectorFactory(username="alice")


@pytest.fixture
def player_user(db):
    return UserFactory(username="bob")


def make_event(director, *, rules: str = "american-1913", deals: dict[int, str] | None = None,
               status: str = Event.Status.RUNNING) -> Event:
    """Two tables, two rounds, four pairs, eight boards:

    round 1: table 1 pairs 1 v 3 boards 1-2; table 2 pairs 2 v 4 boards 3-4
    round 2: table 1 pairs 1 v 4 boards 5-6; table 2 pairs 2 v 3 boards 7-8
    """
    actor = Actor.director(director)
    event = services.event_create(name="Tuesday duplicate", date=datetime.date(2026, 11, 17),
                                  rules=rules, actor=actor)
    names = [("Ann Lee", "Bob Ray"), ("Cy Dow", "Di Eck"), ("Ed Fox", "Flo Gay"),
             ("Gus Hay", "Hal Ing")]
    for number, players in enumerate(names, start=1):
        services.pair_set(event=event, number=number, players=players, actor=actor)
    services.boards_set(event=event, count=8, deals=deals or {}, actor=actor)
    section = Section.objects.get(event=event)
    pairs = {p.number: p for p in event.pairs.all()}
    layout = [(1, 1, 1, 3, [1, 2]), (1, 2, 2, 4, [3, 4]),
              (2, 1, 1, 4, [5, 6]), (2, 2, 2, 3, [7, 8])]
    for rnd, table, ns, ew, boards in layout:
        Meeting.objects.create(section=section, round=rnd, table=table, ns_pair=pairs[ns],
                               ew_pair=pairs[ew], boards=boards)
    section.tables, section.boards_per_round, section.movement = 2, 2, "howell"
    section.save()
    for table in (1, 2):
        TableCode.objects.create(section=section, table=table, code=new_code())
    if status != Event.Status.SETTING_UP:
        services.event_set_status(event=event, status=Event.Status.RUNNING, actor=actor)
    return event


def code_of(event: Event, table: int) -> str:
    return TableCode.objects.get(section__event=event, table=table).code


@pytest.fixture
def event(director):
    return make_event(director)


@pytest.fixture
def table1(event):
    return code_of(event, 1)


def contract_post(level=4, denomination="H", declarer="S", doubled="", tricks=10, **extra):
    """The table form's POST for a played board (honours entered as counts).

    Without a hand record every honour must be given (Law 3): unless the test names some,
    N 2 and one each for E, S and W (suit: N-S simple honours), or an ace each at no trump.
    """
    data = {
        "level": str(level), "denomination": denomination, "declarer": declarer,
        "doubled": doubled, "tricks": str(tricks),
        "revokes_declaring": "0", "revokes_defending": "0", "first_penalty": "",
        "action": "save",
    }
    if not any(k.startswith("honours_") for k in extra):
        counts = "1111" if denomination == "NT" else "2111"
        data.update({f"honours_{seat}": n for seat, n in zip("NESW", counts, strict=True)})
    data.update({k: str(v) if not isinstance(v, list) else v for k, v in extra.items()})
    return data


PAIR_NAMES = [
    "Ann Lee & Bob Ray", "Cy Dow & Di Eck", "Ed Fox & Flo Gay", "Gus Hay & Hal Ing",
    "Ida Jay & Jo Kay", "Kit Lam & Lou May", "Max Ney & Ned Orr", "Oda Pym & Pat Quin",
    "Quin Roe & Ray Sim", "Sal Tay & Ted Ure", "Uma Vale & Val West", "Wes Yale & Yul Zee",
    "Zoe Abel & Abe Bain", "Bea Cole & Cal Dunn",
]


def console_event(client, *, name="Tuesday duplicate", rules="american-1913", kind="pairs",
                  method="plus-minus") -> Event:
    response = client.post("/director/events/new/", {
        "name": name, "date": "2026-11-17", "rules": rules, "kind": kind, "method": method})
    assert response.status_code == 302, response.content.decode()[:2000]
    return Event.objects.get(name=name)


def console_mitchell(client, *, tables: int = 7, boards_per_round: int = 3) -> Event:
    """A pairs event set up through the console: 2 x tables pairs and a Mitchell."""
    event = console_event(client)
    response = client.post(f"/director/events/{event.pk}/pairs/",
                           {"pairs": "\n".join(PAIR_NAMES[: 2 * tables])})
    assert response.status_code == 302, response.content.decode()[:2000]
    response = client.post(f"/director/events/{event.pk}/movement/", {
        "kind": "mitchell", "tables": str(tables), "boards_per_round": str(boards_per_round),
        "variant": "", "pairs_per_team": "", "action": "save"})
    assert response.status_code == 302, response.content.decode()[:3000]
    event.refresh_from_db()
    return event


@pytest.fixture
def mitchell(director_client):
    return console_mitchell(director_client)
