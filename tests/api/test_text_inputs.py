"""Text sent to the API is measured and checked as sent, as its schema says.

DRF's CharField trims with str.strip before it measures, and str.strip counts the
separators U+001C-U+001F as white space: a reason of six hundred of them and a word passed
a maxLength of 500 and was stored as the word, its control characters never seen.
"""

import importlib
import pkgutil

import pytest
from rest_framework import serializers

import tournaments.api
from tournaments.api.serializers import TextField
from tournaments.models import MAX_REASON, Result

from .helpers import post, url

pytestmark = pytest.mark.postgres


def _input_serializers() -> list[type[serializers.Serializer]]:
    found = {}
    for info in pkgutil.iter_modules(tournaments.api.__path__):
        module = importlib.import_module(f"tournaments.api.{info.name}")
        for name, value in vars(module).items():
            if (name.endswith("In") and isinstance(value, type)
                    and issubclass(value, serializers.Serializer)):
                found[f"{value.__module__}.{name}"] = value
    return [found[name] for name in sorted(found)]


def _text_fields(field: serializers.Field, path: str):
    """Every writable text field under `field`, with where it sits."""
    if isinstance(field, serializers.ListSerializer):
        yield from _text_fields(field.child, f"{path}[]")
    elif isinstance(field, serializers.Serializer):
        for name, child in field.fields.items():
            yield from _text_fields(child, f"{path}.{name}")
    elif isinstance(field, serializers.ListField | serializers.DictField):
        yield from _text_fields(field.child, f"{path}[]")
    elif isinstance(field, serializers.CharField) and not field.read_only:
        yield path, field


INPUTS = _input_serializers()


def test_the_api_has_its_input_serializers():
    names = {serializer.__name__ for serializer in INPUTS}
    assert {"ReasonIn", "RubberIn", "PartyIn", "StepIn", "IrregularityIn"} <= names


@pytest.mark.parametrize("serializer", INPUTS, ids=lambda s: s.__name__)
def test_every_text_an_api_request_sends_is_a_strict_text_field(serializer):
    loose = [path for path, field in _text_fields(serializer(), serializer.__name__)
             if not isinstance(field, TextField)]
    assert loose == []


@pytest.mark.parametrize("text", [
    "\x1e" * 600 + "K",  # separators str.strip takes for white space
    " " * 600 + "K",  # plain spaces: the text as sent is over the length
])
def test_a_reason_over_its_length_as_sent_is_refused(night, director_client, text):
    assert len(text) > MAX_REASON
    result = night.enter(1, 1)
    response = post(director_client, url(night.event, f"results/{result.pk}/void/"),
                    {"reason": text})
    assert response.status_code == 400, response.content
    assert response.json()["field"] == "reason"
    assert not Result.objects.get(pk=result.pk).voided


@pytest.mark.parametrize("text", ["\x1eFraud", "Fraud\x1f", "\x85Fraud"])
def test_control_characters_trimming_would_take_are_refused(night, director_client, text):
    result = night.enter(1, 1)
    response = post(director_client, url(night.event, f"results/{result.pk}/void/"),
                    {"reason": text})
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["field"] == "reason"
    assert "Control characters" in body["error"]
    assert not Result.objects.get(pk=result.pk).voided


def test_plain_white_space_round_a_reason_is_still_trimmed(night, director_client):
    result = night.enter(1, 1)
    response = post(director_client, url(night.event, f"results/{result.pk}/void/"),
                    {"reason": "  wrong board played\n"})
    assert response.status_code == 200, response.content
    assert Result.objects.get(pk=result.pk).voided


def test_a_party_name_with_a_separator_is_refused(director_client):
    response = post(director_client, "/api/parties/", {
        "name": "\x1c" * 200 + "Friday", "date": "2026-11-27", "game": "whist",
        "rounds": 1, "deals_per_round": 4,
        "players": [{"name": name} for name in "ABCD"]})
    assert response.status_code == 400, response.content
    assert response.json()["field"] == "name"
