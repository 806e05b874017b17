"""The board form's choice fields: each form its own fields and widgets, their choices
shared (forms._SharedChoices), and everything shown and checked as Django's own fields
show and check it."""

import copy

import pytest
from django import forms as django_forms

from scoring.engine import RULE_SET_NAMES
from tournaments import forms
from tournaments.forms import result_form_class

DEAL = "N:KQT94.9862.T7.K7 3.Q73.KJ65.T9853 A752.AKT.Q4.AJ42 J86.J54.A9832.Q6"
ENTRY = {"level": "3", "denomination": "NT", "declarer": "E", "tricks": "9", "tricks_ns": "8"}


def board_forms(rules: str, deal: str = "", data=None):
    form_class = result_form_class(rules)
    return (form_class(data, rules=rules, deal=deal), form_class(data, rules=rules, deal=deal))


@pytest.mark.parametrize("rules", RULE_SET_NAMES)
@pytest.mark.parametrize("deal", ["", DEAL])
def test_each_form_has_its_own_fields_and_widgets_sharing_their_choices(rules, deal):
    first, second = board_forms(rules, deal)
    choice_fields = [name for name, field in first.fields.items()
                     if isinstance(field, django_forms.ChoiceField)]
    assert choice_fields
    for name in first.fields:
        a, b = first.fields[name], second.fields[name]
        assert a is not b and a.widget is not b.widget
        assert a.widget.attrs is not b.widget.attrs
        assert a.error_messages is not b.error_messages and a.validators is not b.validators
    for name in choice_fields:
        a, b = first.fields[name], second.fields[name]
        assert isinstance(a, forms._SharedChoices), name
        assert a.choices is b.choices and a.widget.choices is b.widget.choices


def test_new_choices_on_one_form_leave_the_others_as_they_were():
    first, second = board_forms("american-1913")
    declarers = list(second.fields["declarer"].choices)
    first.fields["declarer"].choices = [("N", "North alone")]
    first.fields["tricks"].widget.attrs["class"] = "changed"
    assert first.fields["declarer"].widget.choices == [("N", "North alone")]
    assert second.fields["declarer"].choices == declarers
    assert second.fields["declarer"].widget.choices == declarers
    assert 'id="id_declarer_1"' in str(second["declarer"])
    assert "changed" not in str(second["tricks"])
    assert result_form_class("american-1913")(rules="american-1913").fields[
        "declarer"].choices == declarers


@pytest.mark.parametrize("field", [
    forms.SharedChoiceField(choices=forms.SEAT_CHOICES, required=False,
                            widget=django_forms.RadioSelect, label="Declarer"),
    forms.SharedTypedChoiceField(choices=[(n, str(n)) for n in range(14)], coerce=int,
                                 required=False, widget=django_forms.RadioSelect),
    forms.SharedMultipleChoiceField(choices=forms.SEAT_CHOICES, required=False,
                                    widget=django_forms.CheckboxSelectMultiple),
    forms.SharedChoiceField(choices=forms.FIRST_PENALTY, required=False),
])
def test_a_copy_shows_and_checks_as_the_django_field_does(field):
    django_class = type(field).__mro__[2]  # the Django field after _SharedChoices
    assert django_class.__module__ == "django.forms.fields"
    plain = copy.deepcopy(django_class(**{
        "choices": field.choices, "required": field.required,
        "widget": type(field.widget), "label": field.label,
        **({"coerce": field.coerce} if hasattr(field, "coerce") else {})}))
    shared = copy.deepcopy(field)
    for value in ("", "3", ["N", "S"], "E", "points", "14", ["X"]):
        assert shared.widget.render("f", value) == plain.widget.render("f", value)
        try:
            expected = plain.clean(value)
        except django_forms.ValidationError as error:
            with pytest.raises(django_forms.ValidationError) as refused:
                shared.clean(value)
            assert refused.value.messages == error.messages
        else:
            assert shared.clean(value) == expected


@pytest.mark.parametrize("rules", RULE_SET_NAMES)
def test_a_board_entered_on_one_form_leaves_the_next_form_blank(rules):
    first, _ = board_forms(rules, data=ENTRY)
    assert first.is_valid(), first.errors
    fresh = result_form_class(rules)(rules=rules)
    for name in fresh.fields:
        assert 'checked' not in str(fresh[name]) or name in ("doubled",), name
