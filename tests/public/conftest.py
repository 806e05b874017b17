"""Fixtures for the public live pages: a small Mitchell night built through the services."""

import pytest

from tests.reports.night import build_night, make_director
from tournaments import standings


@pytest.fixture(autouse=True)
def _fresh_standings():
    standings.clear_cache()
    yield
    standings.clear_cache()


@pytest.fixture
def director(db):
    return make_director()


@pytest.fixture
def night(director):
    """Every board played; published as provisional."""
    return build_night(director)


@pytest.fixture
def director_client(client, director):
    client.force_login(director)
    return client
