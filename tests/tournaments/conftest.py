import pytest

from tests.factories import DirectorFactory, make_pairs_event
from tournaments.services import Actor


@pytest.fixture
def director(db):
    return DirectorFactory()


@pytest.fixture
def as_director(director):
    return Actor.director(director)


@pytest.fixture
def importer():
    return Actor.system("import")


@pytest.fixture
def event(db):
    return make_pairs_event(pairs=8, boards=4)
