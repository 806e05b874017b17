import pytest

from tests.factories import DirectorFactory
from tournaments.services import Actor


@pytest.fixture
def director(db):
    return DirectorFactory()


@pytest.fixture
def as_director(director):
    return Actor.director(director)


GOOD = ("number,first_name,last_name,email\n"
        "1001,Ann,Lee,ann@example.org\n"
        "1002,Bob,Ray,\n"
        "1003,Cora,Day,cora@example.org\n")


@pytest.fixture
def members(db):
    from tournaments.services import members_import
    members_import(text=GOOD, actor=Actor.system("test"))
