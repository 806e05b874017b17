"""ResultOut's written-out representation gives what DRF's walk over its fields gives.

ResultOut.to_representation builds the answer of every board entered and confirmed at the
tables straight from the result. The walk it replaces (each field's source looked up and
passed through the field) is still DRF's, so each result here is rendered both ways: every
kind of stored result (played, passed out, doubled, each ruling, an assigned score, a whist
deal, a director's entry with no meeting, one not yet saved) and field values hypothesis
draws, and the two must be equal, key by key and in order.
"""

import copy
import datetime

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework import serializers

from tournaments.api.serializers import ContractOut, ResultOut, result_out, shared
from tournaments.models import Result

pytestmark = pytest.mark.django_db


def walked(result: Result) -> dict:
    """DRF's own walk over ResultOut's fields (the representation before it was written out),
    with the contract as DRF's ContractOut renders it."""
    body = serializers.ModelSerializer.to_representation(shared(ResultOut), result)
    if result.level is not None:
        body["contract"] = serializers.Serializer.to_representation(shared(ContractOut), result)
    return body


def assert_same(result: Result) -> None:
    fast = result_out(result)
    slow = walked(result)
    assert list(fast) == list(slow)  # the answer's keys in the same order
    assert fast == slow
    assert {k: type(v) for k, v in fast.items()} == {k: type(v) for k, v in slow.items()}
    assert ResultOut(result).data == slow  # through .data, as the full road renders it


@pytest.fixture
def stored(night) -> Result:
    result = night.enter(1, 1)
    return Result.objects.select_related("board", "ns_pair", "ew_pair", "meeting__section",
                                         "event").get(pk=result.pk)


def _varied(stored: Result, **fields) -> Result:
    result = copy.copy(stored)
    for name, value in fields.items():
        setattr(result, name, value)
    return result


KINDS = {
    "played": {},
    "passed out": {"passed_out": True, "level": None, "denomination": "", "declarer": "",
                   "doubled": "", "tricks": 0, "ns_trick": 0, "ns_honour": 0, "ew_trick": 0,
                   "ew_honour": 0, "ns_score": 0, "ew_score": 0},
    "redoubled": {"doubled": "XX", "status": Result.Status.CONFIRMED, "confirmed_by": "E-W"},
    "average": {"ruling": "average", "level": None, "tricks": None, "ns_trick": None,
                "ns_honour": None, "ew_trick": None, "ew_honour": None, "ns_score": None,
                "ew_score": None},
    "fouled": {"ruling": "fouled", "offending": "ns", "level": None, "tricks": None,
               "ns_trick": None, "ew_trick": None, "ns_score": None, "ew_score": None},
    "adjusted": {"ruling": "adjusted", "ns_adjust": "plus", "ew_adjust": "minus",
                 "level": None, "tricks": None, "ns_trick": None, "ew_trick": None},
    "assigned": {"ruling": "assigned", "details": {"ew_result": {"contract": None,
                                                                  "tricks": 0}}},
    "director's, no meeting": {"meeting": None, "status": Result.Status.DIRECTOR,
                               "late_play": True, "voided": True},
    "not yet saved": {"pk": None, "id": None, "seq": None, "updated_at": None},
}


@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_of_result_renders_as_the_walk_does(stored, kind):
    assert_same(_varied(stored, **KINDS[kind]))


def test_a_whist_deal_renders_as_the_walk_does(stored):
    result = _varied(stored, level=None, denomination="", declarer="", doubled="", tricks=8)
    result.event = copy.copy(stored.event)
    result.event.rules = "duplicate-whist"
    assert result.event.is_whist
    assert_same(result)


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture],
          deadline=None)
@given(
    tricks=st.none() | st.integers(0, 13),
    scores=st.tuples(st.none() | st.integers(-5000, 5000), st.none() | st.integers(-5000, 5000)),
    columns=st.none() | st.tuples(st.integers(0, 500), st.integers(0, 500)),
    level=st.none() | st.integers(1, 7),
    texts=st.tuples(st.text(max_size=20), st.text(max_size=20)),
    flags=st.tuples(st.booleans(), st.booleans(), st.booleans()),
    numbers=st.tuples(st.none() | st.integers(1, 2**40), st.integers(1, 99),
                      st.none() | st.integers(0, 2**40)),
    updated_at=st.none() | st.datetimes(
        min_value=datetime.datetime(2000, 1, 1), max_value=datetime.datetime(2100, 1, 1),
        timezones=st.just(datetime.UTC)),
)
def test_drawn_values_render_as_the_walk_does(stored, tricks, scores, columns, level, texts,
                                              flags, numbers, updated_at):
    result = _varied(
        stored, tricks=tricks, ns_score=scores[0], ew_score=scores[1], level=level,
        ns_trick=None if columns is None else columns[0],
        ns_honour=None if columns is None else columns[1],
        entered_by=texts[0], confirmed_by=texts[1], passed_out=flags[0], voided=flags[1],
        late_play=flags[2], id=numbers[0], version=numbers[1], seq=numbers[2],
        updated_at=updated_at)
    assert_same(result)
