"""Every number the director types is refused in the form's own words, with its bounds.

The reviewer, with the browser's own checks removed, read Django's words: Boards → Deal
with 0 gave "Ensure this value is greater than or equal to 1.", and so did the movement's
boards per round and a season's minimum attendance. Each of the director's number fields
is tried here below its least, above its most, with something not a number and (when the
form needs it) with nothing: no answer may be Django's own.
"""

import datetime
import html

import pytest
from django import forms
from django.core.validators import MaxValueValidator, MinValueValidator

from tournaments import services
from tournaments.forms import (
    CarryOverForm,
    DealForm,
    LatePairForm,
    MovementChangeForm,
    MovementForm,
    PairLeaveForm,
    SubstituteForm,
)
from tournaments.irregular_forms import DirectorReportForm
from tournaments.models import Season
from tournaments.services import Actor
from tournaments.web.director_members import MergeForm
from tournaments.web.director_seasons import SeasonForm

# Django's own words for a whole number, whatever its bounds.
DJANGO_WORDS = (
    str(forms.IntegerField.default_error_messages["invalid"]),
    str(forms.Field.default_error_messages["required"]),
    str(MinValueValidator.message).split("%")[0],  # "Ensure this value is greater than …"
    str(MaxValueValidator.message).split("%")[0],
)

DIRECTOR_FORMS = [
    DealForm, MovementForm, MovementChangeForm, CarryOverForm, LatePairForm, PairLeaveForm,
    SubstituteForm, SeasonForm, MergeForm, DirectorReportForm,
]


def tries(field: forms.IntegerField) -> dict[str, str]:
    """What to type to provoke each refusal of a number field."""
    typed = {"not a number": "x2"}
    if field.min_value is not None:
        typed["below"] = str(field.min_value - 1)
    if field.max_value is not None:
        typed["above"] = str(field.max_value + 1)
    if field.required:
        typed["left out"] = ""
    return typed


@pytest.mark.django_db
@pytest.mark.parametrize("form_class", DIRECTOR_FORMS)
def test_no_number_is_refused_in_djangos_words(form_class):
    kwargs = {"teams": True} if form_class is MovementForm else {}
    numbers = {name: field for name, field in form_class(**kwargs).fields.items()
               if isinstance(field, forms.IntegerField)}
    assert numbers, form_class
    for name, field in numbers.items():
        for what, value in tries(field).items():
            form = form_class({name: value}, **kwargs)
            errors = [str(e) for e in form.errors.get(name, [])]
            assert errors, (form_class.__name__, name, what)
            for error in errors:
                assert not error.startswith(DJANGO_WORDS), (form_class.__name__, name, what,
                                                            error)


@pytest.mark.parametrize(("form_class", "name", "typed", "words"), [
    (DealForm, "count", "0", "Deal at least 1 board (and at most 64)."),
    (DealForm, "count", "65", "Deal at most 64 boards (and at least 1)."),
    (DealForm, "count", "many", "Boards to deal: a whole number from 1 to 64."),
    (MovementForm, "boards_per_round", "0", "At least 1 board a round (and at most 8)."),
    (MovementForm, "tables", "31",
     "At most 30 tables (and at least 1): a bigger field plays in sections."),
    (MovementChangeForm, "from_round", "0",
     "The new movement starts at round 1 at the earliest (and 99 at the latest)."),
    (PairLeaveForm, "after_round", "-1", "The pair leaves after round 0 (before the first) "
                                         "at the earliest, and after round 99 at the latest."),
    (DirectorReportForm, "board", "1000", "A board's number is at most 999 (and at least 1)."),
    (SeasonForm, "min_events", "0",
     f"The minimum attendance is at least 1 night (and at most {Season.MAX_EVENTS})."),
    (SeasonForm, "best_of", str(Season.MAX_EVENTS + 1),
     f"N is at most {Season.MAX_EVENTS} nights, as many as a season holds (and at least 1)."),
])
def test_the_words_say_what_the_number_is_and_its_bounds(db, form_class, name, typed, words):
    assert form_class({name: typed}).errors[name] == [words]


# --- the three pages the reviewer tried, as a browser without its checks sends them ----------


@pytest.fixture
def small_event(director):
    actor = Actor.director(director)
    event = services.event_create(name="Tuesday", date=datetime.date(2026, 11, 17),
                                  actor=actor)
    for number, players in enumerate([("Ann Lee", "Bob Ray"), ("Cy Dow", "Di Eck"),
                                      ("Ed Fox", "Flo Gay"), ("Gus Hay", "Hal Ing")], 1):
        services.pair_set(event=event, number=number, players=players, actor=actor)
    return event


def page_text(response) -> str:
    return html.unescape(response.content.decode())


def test_boards_deal_zero(director_client, small_event):
    response = director_client.post(f"/director/events/{small_event.pk}/boards/",
                                    {"action": "deal", "count": "0"})
    text = page_text(response)
    assert "Deal at least 1 board (and at most 64)." in text
    assert "Ensure this value" not in text


def test_movement_boards_per_round_zero(director_client, small_event):
    response = director_client.post(f"/director/events/{small_event.pk}/movement/",
                                    {"kind": "howell", "tables": "2", "boards_per_round": "0",
                                     "variant": "", "action": "show"})
    text = page_text(response)
    assert "At least 1 board a round (and at most 8)." in text
    assert "Ensure this value" not in text


def test_season_minimum_attendance_zero(director_client, db):
    response = director_client.post("/director/seasons/new/", {
        "name": "Winter", "entrants": "pairs", "counts": "score", "rule": "total",
        "min_events": "0", "points_scale": ""})
    text = page_text(response)
    assert "The minimum attendance is at least 1 night (and at most 100)." in text
    assert "Ensure this value" not in text
    # The page's box says the bounds to the browser too.
    assert 'id="s-min" min="1" max="100"' in text


def test_one_refusal_a_number_not_two(db):
    """A number refused is not also "left out": the movement form asked "How many
    tables?" beside "At most 30 tables" for the same box."""
    form = MovementForm({"kind": "team-match", "pairs_per_team": "13"}, teams=True)
    assert form.errors["pairs_per_team"] == ["At most 12 pairs in each team (and at least 2)."]
    form = MovementForm({"kind": "mitchell", "tables": "0", "boards_per_round": "2"})
    assert form.errors["tables"] == ["At least 1 table (and at most 30)."]
