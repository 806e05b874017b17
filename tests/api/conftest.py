"""Fixtures for the API tests: a running night, and a client for each kind of caller
(the director, each table, the public). See helpers.py for the night's layout."""

import pytest
from rest_framework.test import APIClient

from tests.factories import DirectorFactory

from .helpers import Night, build_night


@pytest.fixture
def director(db):
    return DirectorFactory(username="alice")


@pytest.fixture
def night(director) -> Night:
    return build_night(director)


@pytest.fixture
def other_night(director) -> Night:
    """A second event, unpublished: nobody but the director may know it exists."""
    return build_night(director, name="Thursday duplicate")


@pytest.fixture
def public() -> APIClient:
    return APIClient()


@pytest.fixture
def director_client(director) -> APIClient:
    client = APIClient()
    client.force_login(director)
    return client


@pytest.fixture
def table_client(night):
    """table_client(3) is a client holding table 3's code."""

    def make(table: int, code: str | None = None) -> APIClient:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Table {code or night.codes[table]}")
        return client

    return make
