"""Forms of the table pages and the director's console.

They check the shape of what was typed (a level is 1 to 7, a name is there) and
turn it into the service's input: a deal result of interfaces.md §1. Whether a
result makes sense by the laws is the engine's business, reached through the
services; its answer comes back as a ServiceError and lands next to the field
it names (``add_service_error``).
"""

from __future__ import annotations

import copy
import functools
import hashlib
import json
import re
from dataclasses import dataclass
from typing import Any

from django import forms

from boards.movements import MITCHELL_VARIANTS
from scoring.engine import (
    DOUBLING,
    PENALTY_RULES,
    SEATS,
    SIDES,
    get_rules,
    parse_deal,
)

from . import presenters
from .inputs import no_control_characters, no_control_characters_in_lines
from .models import (
    ADJUST_GRADES,
    KINDS,
    LAW_RULINGS,
    MAX_PAIRS,
    MAX_REASON,
    METHODS,
    MOVEMENTS,
    RULES,
    Result,
)
from .presenters import movement as movement_name

# The codes are the engine's; the table's form shows them as a player writes them.
SEAT_CHOICES = [(seat, seat) for seat in SEATS]
# The words the score pad taps too: "doubled", "redoubled" (the contract itself is written
# "3♥ ×", "3♥ ××" once entered).
DOUBLING_WORDS = {"": "none", "X": "doubled", "XX": "redoubled"}
DOUBLING_CHOICES = [(code, DOUBLING_WORDS[code]) for code in DOUBLING]
FIRST_PENALTY = [
    ("", "—"),
    ("points", "100 points"),
    ("tricks", "three tricks"),
]
# rules.md §3.7: the codes and points are the engine's; the form names them (law, what).
_PENALTY_WORDS = {
    "F-declaration-out-of-turn": ("Duplicate Law F", "declaration, double or redouble out of turn"),
    "F-law-81": ("Duplicate Law F, Law 81", "omitted to play to a trick"),
    "90": ("Law 90", "looked at a quitted trick"),
    "54-redouble-more-than-once": ("Law 54", "redoubled more than once"),
    "54-double-partner": ("Law 54", "doubled partner's declaration or redoubled partner's double"),
}
# (code, law, what, points), in the engine's order.
PENALTIES = [(code, *_PENALTY_WORDS[code], rule.points) for code, rule in PENALTY_RULES.items()]


def penalty_field(code: str) -> str:
    """The form field of a penalty code: "penalty_F_law_81"."""
    return "penalty_" + re.sub(r"[^A-Za-z0-9]", "_", code)


class _SharedChoices:
    """A choice field whose copies share its choices.

    Django gives each form its own copy of every field, and copies a choice field's
    choices twice over (the field's and its widget's, each normalized again): a board's
    form, twenty fields, took 0.64 ms to make, each time a table's page shows or takes a
    board, where it now takes 0.11 ms. A board's choices are made once, when the field
    is, and never changed in place (a form that needs others assigns new ones, which
    Django's setter puts on that copy and its widget alone), so the copies share them;
    the rest is copied as Django copies it (the widget and its attributes, the error
    messages, the validators)."""

    def __deepcopy__(self, memo):
        result = memo[id(self)] = _clone(self)
        result.widget = memo[id(self.widget)] = _clone(self.widget)
        result.widget.attrs = self.widget.attrs.copy()
        result.error_messages = self.error_messages.copy()
        result.validators = self.validators[:]
        return result


def _clone(thing):
    """A shallow copy of a field or a widget (copy.copy, without its trip through
    __reduce_ex__: a third of the time)."""
    clone = object.__new__(type(thing))
    clone.__dict__.update(thing.__dict__)
    return clone


class SharedChoiceField(_SharedChoices, forms.ChoiceField):
    pass


class SharedTypedChoiceField(_SharedChoices, forms.TypedChoiceField):
    pass


class SharedMultipleChoiceField(_SharedChoices, forms.MultipleChoiceField):
    pass


def _honours_held(seat: str) -> SharedTypedChoiceField:
    # No initial value: with no hand record, how many honours a player held is an answer
    # the table gives (Law 3: every honour is in some hand), never a silent 0.
    return SharedTypedChoiceField(
        choices=[(n, str(n)) for n in range(6)], coerce=int, required=False,
        empty_value=None, widget=forms.RadioSelect, label=f"Honours held by {seat}")


@functools.lru_cache(maxsize=1024)
def _shows_every_hand(deal: str) -> bool:
    """Does the hand record give every hand (so the honours can be counted from it)?
    Asked each time a board's form is made: a night's few boards are read once each."""
    try:
        parse_deal(deal)
    except ValueError:
        return False
    return True


def _count(label: str, most: int = 13) -> forms.IntegerField:
    return forms.IntegerField(
        label=label, min_value=0, max_value=most, initial=0, required=False,
        error_messages={
            "min_value": f"{label}: 0 or more",
            "max_value": f"{label}: at most {most}",
            "invalid": f"{label}: a whole number",
        },
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": 0, "max": most}),
    )


# How a number's bounds are said (number_field's `says`): an amount ("Deal at least 1
# board (and at most 64).") or a round ("... from round 1 at the earliest (and 99 at the
# latest).").
AMOUNT = ("at least {}", "at most {}")
ROUND = ("{} at the earliest", "{} at the latest")


def number_field(label: str, low: int, high: int, *, words: str = "",
                 says: tuple[str, str] = AMOUNT, why_no_more: str = "", least: str = "",
                 most: str = "", missing: str = "", invalid: str = "",
                 **kwargs: Any) -> forms.IntegerField:
    """A whole number the director types, refused in the form's own words: below `low`
    or above `high`, the words say the bound passed and the other one too. Django's own
    ("Ensure this value is greater than or equal to 1.") says neither what the number is
    nor how far it may go, and the browser's checks (min, max) are no guard: a page of an
    older browser, or a request made by hand, skips them, and the form's words are all
    that is left.

    `words` are said once for both bounds: "{bound}" stands for a bound as `says` puts it
    ("at least 1", "at most 64"), "{s}" for a plural's s ("board{s}": "1 board",
    "64 boards"); the other bound follows in brackets, and `why_no_more` after the upper
    one. So "Deal {bound} board{s}" gives "Deal at least 1 board (and at most 64)." and
    "Deal at most 64 boards (and at least 1).". Messages `words` cannot say are written
    whole instead, as `least` and `most`, with "{low}" and "{high}" for the bounds."""
    if bool(words) == bool(least or most) or bool(least) != bool(most):
        raise TypeError(f"number_field {label!r}: give the words, or least and most")
    if words:
        at_least, at_most = says
        least = _bound(words, low, at_least, at_most.format(high))
        most = _bound(words, high, at_most, at_least.format(low), why_no_more)
    else:
        least, most = least.format(low=low, high=high), most.format(low=low, high=high)
    messages = {"min_value": least, "max_value": most,
                "invalid": invalid or f"{label}: a whole number from {low} to {high}."}
    if missing:  # a number the form needs, left out
        messages["required"] = missing
    return forms.IntegerField(label=label, min_value=low, max_value=high,
                              error_messages=messages, **kwargs)


def _bound(words: str, n: int, edge: str, other: str, why: str = "") -> str:
    """One bound's message: "At most 30 tables (and at least 1): a bigger field plays in
    sections." (its first letter a capital, whatever `words` starts with)."""
    text = words.format(bound=edge.format(n), s="" if n == 1 else "s")
    return f"{text[:1].upper()}{text[1:]} (and {other})" + (f": {why}." if why else ".")


class ResultFormMixin:
    """Turns a ServiceError from the services (field "result.contract.level") into
    an error next to the field the player filled in; and remembers which result the
    players saw the warnings of (``as_entered``: "Yes, save it as entered")."""

    FIELD_MAP: dict[str, str] = {}

    def entry_digest(self) -> str:
        """A short fingerprint of the result as entered (after is_valid())."""
        text = json.dumps(self.result_data(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def saved_as_entered(self) -> bool:
        """Did the players confirm this very result after its warnings? A confirmation
        of an earlier version (changed since) does not count: it is looked at again."""
        given = self.cleaned_data.get("as_entered") or ""
        return bool(given) and given == self.entry_digest()

    def add_service_error(self, exc) -> None:
        field = (exc.field or "").removeprefix("result.")
        target = self.FIELD_MAP.get(field)
        if target is None and field.startswith("honours."):
            target = "honours_" + field.split(".", 1)[1]
        if target not in self.fields:
            target = None
        self.add_error(target, exc.message)


@functools.cache
def _auction_fields(rules: str, has_deal: bool) -> dict[str, forms.Field]:
    """The fields an Auction board's form adds to its declared ones under `rules`, for a
    board with (`has_deal`) or without a full hand record; made once, each form gets its
    own copy (as Django copies the declared fields)."""
    laws = get_rules(rules)
    fields: dict[str, forms.Field] = {"denomination": SharedChoiceField(
        choices=[(d, presenters.DENOMINATION_NAMES[d]) for d in laws.denominations],
        required=False, widget=forms.RadioSelect, label="Denomination")}
    if laws.dealer_may_pass:
        # English rule: a deal may be passed out ("No bid" all round).
        fields["passed_out"] = forms.BooleanField(required=False, label="Passed out")
    if not has_deal:
        for seat in SEATS:
            fields[f"honours_{seat}"] = _honours_held(seat)
    for code, law, what, _points in PENALTIES:
        fields[penalty_field(code)] = SharedMultipleChoiceField(
            choices=SEAT_CHOICES, required=False, widget=forms.CheckboxSelectMultiple,
            label=f"{law}: {what}")
    return fields


class AuctionResultForm(ResultFormMixin, forms.Form):
    """One board at Duplicate Auction: contract, declarer, doubling, tricks, honours,
    revokes (Law 84) and procedural penalties (rules.md §3.7)."""

    FIELD_MAP = {
        "contract.level": "level",
        "contract.denomination": "denomination",
        "contract.declarer": "declarer",
        "contract.doubled": "doubled",
        "tricks": "tricks",
        "revokes.declaring": "revokes_declaring",
        "revokes.defending": "revokes_defending",
        "revokes.first_penalty": "first_penalty",
        "honours": "honours",
        "reason": "reason",
    }

    token = forms.CharField(widget=forms.HiddenInput, required=False, max_length=64)
    # The stored result's version the form was opened on, when it changes one (its
    # initial_from): a result changed since is not overwritten (services.result_correct).
    version = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=1)
    as_entered = forms.CharField(widget=forms.HiddenInput, required=False, max_length=64)
    # Holds the errors about the honours as a whole ("they add up to 3"); never typed.
    honours = forms.CharField(widget=forms.HiddenInput, required=False, max_length=1)
    level = SharedTypedChoiceField(
        choices=[(n, str(n)) for n in range(1, 8)], coerce=int, required=False,
        widget=forms.RadioSelect, label="Contract")
    denomination = SharedChoiceField(choices=[], required=False, widget=forms.RadioSelect)
    declarer = SharedChoiceField(choices=SEAT_CHOICES, required=False, widget=forms.RadioSelect,
                                 label="Declarer")
    doubled = SharedChoiceField(choices=DOUBLING_CHOICES, required=False, widget=forms.RadioSelect,
                                initial="", label="Doubling")
    tricks = SharedTypedChoiceField(
        choices=[(n, str(n)) for n in range(14)], coerce=int, required=False,
        widget=forms.RadioSelect, label="Tricks won by the declaring side")
    revokes_declaring = _count("Revokes by the declaring side")
    revokes_defending = _count("Revokes by the defenders")
    first_penalty = SharedChoiceField(
        choices=FIRST_PENALTY, required=False,
        label="For the defenders' first revoke the declarer takes")

    def __init__(self, *args, rules: str, deal: str = "", **kwargs):
        super().__init__(*args, **kwargs)
        self.rules = get_rules(rules)
        # A hand record with hands missing cannot give the honours: the table does.
        self.has_deal = bool(deal) and _shows_every_hand(deal)
        # The fields these rules and this board add, copied as the declared ones are.
        self.fields.update(copy.deepcopy(_auction_fields(rules, self.has_deal)))

    # --- for templates ---
    def penalty_rows(self) -> list[dict]:
        return [
            {"code": code, "law": law, "what": what, "points": points,
             "field": self[penalty_field(code)]}
            for code, law, what, points in PENALTIES
        ]

    def honour_fields(self) -> list[dict]:
        if self.has_deal:
            return []
        return [{"seat": s, "field": self[f"honours_{s}"]} for s in SEATS]

    def _value(self, name: str):
        return self[name].value() if name in self.fields else None

    def revokes_open(self) -> bool:
        """Show the revokes when any was entered (or is wrong)."""
        names = ("revokes_declaring", "revokes_defending", "first_penalty")
        return any(self.errors.get(n) for n in names) or any(
            str(self._value(n) or "0") not in ("0", "") for n in names)

    def penalties_open(self) -> bool:
        return any(self._value(penalty_field(code)) for code, *_ in PENALTIES)

    def clean(self) -> dict:
        data = super().clean()
        if data.get("passed_out"):
            return data
        needed = {
            "level": "Choose the contract's level (1 to 7)",
            "denomination": "Choose the denomination (suit or no trump)",
            "declarer": "Who was the declarer?",
            "tricks": "How many tricks did the declaring side win?",
        }
        for name, message in needed.items():
            if data.get(name) in (None, "") and name not in self.errors:
                self.add_error(name, message)
        defending, declaring = data.get("revokes_defending"), data.get("revokes_declaring")
        if defending and not declaring and not data.get("first_penalty"):
            self.add_error("first_penalty", "The defenders revoked: choose what the declarer "
                                            "takes, 100 points or three tricks (Law 84(b))")
        return data

    def result_data(self) -> dict:
        """The deal result of interfaces.md §1 (without the board) for the services."""
        data = self.cleaned_data
        if data.get("passed_out"):
            return {"contract": None, "tricks": 0}
        result: dict[str, Any] = {
            "contract": {
                "level": data["level"],
                "denomination": data["denomination"],
                "declarer": data["declarer"],
                "doubled": data.get("doubled") or "",
            },
            "tricks": data["tricks"],
        }
        if not self.has_deal:
            # Only the seats answered: none answered, and the engine asks for them; a seat
            # left out once the others add up to 5 (4 aces) held none.
            honours = {s: data[f"honours_{s}"] for s in SEATS
                       if data.get(f"honours_{s}") is not None}
            if honours:
                result["honours"] = honours
        declaring = data.get("revokes_declaring") or 0
        defending = data.get("revokes_defending") or 0
        first = data.get("first_penalty") or None
        if declaring or defending:
            revokes: dict[str, Any] = {"declaring": declaring, "defending": defending}
            if defending and first:
                revokes["first_penalty"] = first
            result["revokes"] = revokes
        penalties = [
            {"law": code, "by": seat}
            for code, *_ in PENALTIES
            for seat in data.get(penalty_field(code)) or []
        ]
        if penalties:
            result["penalties"] = penalties
        return result

    @classmethod
    def initial_from(cls, result: Result) -> dict:
        """The form's fields for a stored result (to change it), with its version."""
        if result.passed_out:
            return {"passed_out": True, "version": result.version}
        if result.ruling or result.level is None:
            return {"version": result.version}
        details = result.details or {}
        initial: dict[str, Any] = {
            "version": result.version, "level": result.level, "denomination": result.denomination,
            "declarer": result.declarer, "doubled": result.doubled, "tricks": result.tricks,
        }
        for seat, count in (details.get("honours") or {}).items():
            initial[f"honours_{seat}"] = count
        revokes = details.get("revokes") or {}
        initial["revokes_declaring"] = revokes.get("declaring", 0)
        initial["revokes_defending"] = revokes.get("defending", 0)
        initial["first_penalty"] = revokes.get("first_penalty") or ""
        by_law: dict[str, list[str]] = {}
        for penalty in details.get("penalties") or []:
            by_law.setdefault(penalty["law"], []).append(penalty["by"])
        for code, seats in by_law.items():
            initial[penalty_field(code)] = seats
        return initial


class WhistResultForm(ResultFormMixin, forms.Form):
    """One board at Duplicate Whist: the tricks N-S won, and revokes per side (Whist Law 85)."""

    FIELD_MAP = {
        "tricks_ns": "tricks_ns",
        "revokes.NS": "revokes_ns",
        "revokes.EW": "revokes_ew",
        "reason": "reason",
    }

    token = forms.CharField(widget=forms.HiddenInput, required=False, max_length=64)
    # The stored result's version the form was opened on, when it changes one (its
    # initial_from): a result changed since is not overwritten (services.result_correct).
    version = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=1)
    as_entered = forms.CharField(widget=forms.HiddenInput, required=False, max_length=64)
    tricks_ns = SharedTypedChoiceField(
        choices=[(n, str(n)) for n in range(14)], coerce=int, required=True,
        widget=forms.RadioSelect, label="Tricks won by N–S",
        error_messages={"required": "How many tricks did North–South win?"})
    revokes_ns = _count("Revokes by N–S")
    revokes_ew = _count("Revokes by E–W")

    def __init__(self, *args, rules: str = "duplicate-whist", deal: str = "", **kwargs):
        super().__init__(*args, **kwargs)
        self.rules = get_rules(rules)
        self.has_deal = bool(deal)

    def result_data(self) -> dict:
        data = self.cleaned_data
        result: dict[str, Any] = {"tricks_ns": data["tricks_ns"]}
        ns, ew = data.get("revokes_ns") or 0, data.get("revokes_ew") or 0
        if ns or ew:
            result["revokes"] = {"NS": ns, "EW": ew}
        return result

    @classmethod
    def initial_from(cls, result: Result) -> dict:
        if result.ruling or result.tricks is None:
            return {"version": result.version}
        revokes = (result.details or {}).get("revokes") or {}
        return {"version": result.version, "tricks_ns": result.tricks,
                "revokes_ns": revokes.get("NS", 0), "revokes_ew": revokes.get("EW", 0)}


def result_form_class(rules: str) -> type[AuctionResultForm] | type[WhistResultForm]:
    return WhistResultForm if get_rules(rules).is_whist else AuctionResultForm


def reason_field() -> forms.CharField:
    return forms.CharField(
        label="Why (for the audit trail)", required=False, max_length=MAX_REASON,
        validators=[no_control_characters], widget=forms.TextInput(attrs={"size": 50}))


def director_result_form(rules: str, *, deal: str = "", **kwargs):
    """The table's result form plus a reason, for the director's corrections."""
    base = result_form_class(rules)
    form = base(rules=rules, deal=deal, **kwargs)
    form.fields["reason"] = reason_field()
    return form


# --- table code ----------------------------------------------------------------------------


class TableCodeForm(forms.Form):
    code = forms.CharField(
        label="Table code", max_length=20, validators=[no_control_characters],
        error_messages={"required": "Type the code on your table card"},
        widget=forms.TextInput(attrs={
            "id": "table-code", "autocomplete": "off", "autocapitalize": "characters",
            "spellcheck": "false", "inputmode": "text", "autofocus": True,
        }))


# --- director: events ----------------------------------------------------------------------


class EventForm(forms.Form):
    name = forms.CharField(max_length=120, label="Name", validators=[no_control_characters],
                           error_messages={"required": "Give the event a name"})
    date = forms.DateField(label="Date", widget=forms.DateInput(attrs={"type": "date"}),
                           error_messages={"required": "On which day is it played?",
                                           "invalid": "A date like 2026-11-17"})
    rules = forms.ChoiceField(choices=RULES, label="Game")
    kind = forms.ChoiceField(choices=KINDS, label="Contest")
    # The model's methods in words short enough for a phone's picker (the help text
    # below it says the rest).
    method = forms.ChoiceField(choices=[
        (value, {"plus-minus": "Plus/minus (Duplicate Law H)",
                 "total-points": "Total points (teams)"}.get(value, label))
        for value, label in METHODS
    ], label="Scoring")

    def clean(self) -> dict:
        data = super().clean()
        if data.get("kind") == "teams":
            # A team match has one way of scoring (Duplicate Law G): the picker's default,
            # plus/minus, left as it was is not a mistake to send back.
            data["method"] = "total-points"
        return data


class SessionForm(forms.Form):
    """The next session of an event: its day (blank: the last session's)."""

    date = forms.DateField(label="Day of the next session", required=False,
                           widget=forms.DateInput(attrs={"type": "date"}),
                           error_messages={"invalid": "A date like 2026-11-24"})


class CarryOverForm(forms.Form):
    """The percentage at which each earlier session counts overall."""

    carry_over = forms.IntegerField(
        label="Carry-over (percent)", min_value=0, max_value=100,
        error_messages={"required": "Type a percentage from 0 to 100",
                        "invalid": "The carry-over is a whole percentage from 0 to 100",
                        "min_value": "The carry-over is a whole percentage from 0 to 100",
                        "max_value": "The carry-over is a whole percentage from 0 to 100"})


@dataclass
class PairLine:
    number: int
    players: list[str]
    team: str | None


# A line is at most a team's name and two players' names (80 letters each) and separators.
PAIRS_TEXT_LENGTH = MAX_PAIRS * 256
PAIR_SPLIT = re.compile(r"\s*(?:&|\+|/|\band\b)\s*", re.IGNORECASE)


class PairsForm(forms.Form):
    """One pair per line, numbered in order: "Ann Lee & Bob Ray";
    for teams, "Team name: Ann Lee & Bob Ray"."""

    pairs = forms.CharField(
        label="Pairs, one a line", widget=forms.Textarea(attrs={"rows": 16, "cols": 60}),
        max_length=PAIRS_TEXT_LENGTH, validators=[no_control_characters_in_lines],
        error_messages={"required": "Type at least two pairs, one a line",
                        "max_length": f"At most {MAX_PAIRS} pairs in one event: the list is "
                                      "too long"})

    def __init__(self, *args, teams: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.teams = teams

    def clean_pairs(self) -> list[PairLine]:
        lines = [line.strip() for line in self.cleaned_data["pairs"].splitlines()]
        lines = [line for line in lines if line]
        if len(lines) > MAX_PAIRS:
            raise forms.ValidationError(f"At most {MAX_PAIRS} pairs in one event")
        out: list[PairLine] = []
        problems: list[str] = []
        for number, line in enumerate(lines, start=1):
            team = None
            if self.teams:
                if ":" not in line:
                    problems.append(f"Line {number}: write the team first, "
                                    "like \"Knickerbocker: Ann Lee & Bob Ray\"")
                    continue
                team, line = (part.strip() for part in line.split(":", 1))
                if not team or len(team) > 80:
                    problems.append(f"Line {number}: a team needs a name of at most 80 letters")
                    continue
            names = [n.strip() for n in PAIR_SPLIT.split(line) if n.strip()]
            if len(names) != 2:
                problems.append(f"Line {number}: a pair is two players, like \"Ann Lee & Bob Ray\"")
                continue
            if any(len(n) > 80 for n in names):
                problems.append(f"Line {number}: a name is at most 80 letters")
                continue
            out.append(PairLine(number=number, players=names, team=team))
        if problems:
            raise forms.ValidationError(problems)
        if len(out) < 2:
            raise forms.ValidationError("A contest needs at least two pairs")
        if self.teams and len({p.team for p in out}) < 2:
            raise forms.ValidationError("A team match needs at least two teams")
        return out


MOVEMENT_KINDS = [(k, movement_name(k)) for k, _ in MOVEMENTS if k != "none"]

# The bounds of the director's numbers, and the words that say them (number_field).
MAX_TABLES = 30
MAX_BOARDS_PER_ROUND = 8
MAX_ROUND = 99
MAX_DEAL = 64
TABLES_WORDS = {"words": "{bound} table{s}", "why_no_more": "a bigger field plays in sections"}
BOARDS_WORDS = {"words": "{bound} board{s} a round"}
PAIR_WORDS = {"words": "A pair's number is {bound}"}


def variant_for_mitchell_only(data: dict) -> dict:
    """The even Mitchell's variant (skip or relay) is a Mitchell's alone: with any other
    movement it is dropped, whether left over from a Mitchell chosen first or sent by a
    page without its script (the movement page and the change page alike)."""
    if data.get("kind") != "mitchell":
        data["variant"] = ""
    return data


class MovementForm(forms.Form):
    """The console's movement page: the movement, its tables and boards a round, the
    even Mitchell's variant, and (a teams event only) the pairs in each team.

    Every error lands on a field the page shows or on the form itself (its non-field
    errors, shown at the top): a pairs event has no "pairs per team" field at all, so no
    error can hide on a field the page leaves out.
    """

    TEAM_MATCH_FOR_TEAMS = ("A team match is for a teams event: this event is a pairs "
                            "event (choose Mitchell or Howell, or start a teams event).")

    kind = forms.ChoiceField(choices=MOVEMENT_KINDS, label="Movement")
    # Not required: a team match asks no tables (clean() asks for them otherwise).
    tables = number_field("Tables", 1, MAX_TABLES, required=False, **TABLES_WORDS)
    boards_per_round = number_field("Boards per round", 1, MAX_BOARDS_PER_ROUND,
                                    missing="How many boards a round?", **BOARDS_WORDS)
    variant = forms.ChoiceField(
        choices=[("", "—"), *((code, presenters.variant(code)) for code in MITCHELL_VARIANTS)],
        required=False, label="Even Mitchell")
    pairs_per_team = number_field("Pairs per team (team match)", 2, 12, required=False,
                                  words="{bound} pair{s} in each team")

    def __init__(self, *args, teams: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.teams = teams
        if not teams:
            # A pairs event: no team match on offer and no pairs-per-team field. The
            # kind stays a valid choice, so a page left open from before (or a hand-made
            # request) gets the plain words of clean(), not "Select a valid choice".
            del self.fields["pairs_per_team"]
            self.fields["kind"].widget.choices = [
                (code, name) for code, name in MOVEMENT_KINDS if code != "team-match"]

    def clean(self) -> dict:
        data = variant_for_mitchell_only(super().clean())
        kind = data.get("kind")
        if kind == "team-match" and not self.teams:
            self.add_error(None, self.TEAM_MATCH_FOR_TEAMS)
        elif kind == "team-match":
            if not data.get("pairs_per_team") and "pairs_per_team" not in self.errors:
                self.add_error("pairs_per_team", "How many pairs in each team?")
        elif not data.get("tables") and "tables" not in self.errors:
            # Left out; a number refused already says what it should be.
            self.add_error("tables", "How many tables?")
        return data


class MovementChangeForm(forms.Form):
    """A new movement from a round on (the console's movement change page)."""

    from_round = number_field("From round", 1, MAX_ROUND, missing="From which round?",
                              words="The new movement starts at round {bound}", says=ROUND)
    kind = forms.ChoiceField(choices=MOVEMENT_KINDS, label="New movement")
    tables = number_field("Tables", 1, MAX_TABLES, missing="How many tables?",
                          **TABLES_WORDS)
    variant = forms.ChoiceField(
        choices=[("", "—"), *((code, presenters.variant(code)) for code in MITCHELL_VARIANTS)],
        required=False, label="Even Mitchell")
    boards_per_round = number_field("Boards per round", 1, MAX_BOARDS_PER_ROUND,
                                    missing="How many boards a round?", **BOARDS_WORDS)
    reason = forms.CharField(label="Why (for the audit trail)", required=False,
                             max_length=MAX_REASON, validators=[no_control_characters])

    def clean(self) -> dict:
        return variant_for_mitchell_only(super().clean())


class BoardsUploadForm(forms.Form):
    pbn = forms.FileField(label="Hand record (PBN file)",
                          error_messages={"required": "Choose a .pbn file"})


class DealForm(forms.Form):
    count = number_field("Boards to deal", 1, MAX_DEAL, missing="How many boards?",
                         words="Deal {bound} board{s}")


class ReasonForm(forms.Form):
    reason = forms.CharField(label="Why (for the audit trail)", required=False,
                             max_length=MAX_REASON, validators=[no_control_characters])


RULING_CHOICE_LABELS = {
    "average": "Average: the short hand's adversary had the surplus",
    "fouled": "Fouled: the short hand's partner had the surplus",
    "cancelled": "Cancelled at both tables, no new deal played (two-table duplicate)",
    "not-played": "Not played: no comparison for either pair",
}


class RulingForm(forms.Form):
    """Duplicate Law B(3): an artificial result in place of play."""

    kind = forms.ChoiceField(
        label="Ruling", widget=forms.RadioSelect,
        # The laws' rulings; club adjustments have their own pages (director_adjust).
        choices=[(code, RULING_CHOICE_LABELS[code]) for code in LAW_RULINGS],
        error_messages={"required": "Choose the ruling"})
    offending = forms.ChoiceField(
        label="Offending side (fouled board: the side whose player was short)",
        choices=[("", "—"), *((side, presenters.side_name(side)) for side in SIDES)],
        required=False)
    # The director's ruling needs a reason (services.ruling_award): asked here first, in
    # the service's words, so that the form keeps what was chosen beside the message.
    reason = forms.CharField(label="Why (for the audit trail)", max_length=MAX_REASON,
                             validators=[no_control_characters], error_messages={
                                 "required": "Say why: a ruling needs a reason for the "
                                             "audit trail"})

    def __init__(self, *args, two_tables: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        if not two_tables:
            # Duplicate Law B(3): a new deal is only for two-table duplicate.
            self.fields["kind"].choices = [c for c in self.fields["kind"].choices
                                           if c[0] != "cancelled"]


class AdjustedForm(forms.Form):
    """An adjusted score (club practice): a grade for each side, and why."""

    ns_grade = forms.ChoiceField(label="N–S", choices=ADJUST_GRADES, widget=forms.RadioSelect,
                                 error_messages={"required": "Choose N–S's grade"})
    ew_grade = forms.ChoiceField(label="E–W", choices=ADJUST_GRADES, widget=forms.RadioSelect,
                                 error_messages={"required": "Choose E–W's grade"})
    reason = forms.CharField(label="Why (for the audit trail)", max_length=MAX_REASON,
                             validators=[no_control_characters],
                             error_messages={"required": "Say why: an adjusted score needs a "
                                                         "reason for the audit trail"})


class MeetingBoardsForm(forms.Form):
    """Some boards of one meeting, and why (boards not played; leave to play them late)."""

    boards = forms.TypedMultipleChoiceField(
        label="Boards", coerce=int, widget=forms.CheckboxSelectMultiple,
        error_messages={"required": "Choose the boards"})
    reason = forms.CharField(label="Why (for the audit trail)", required=False,
                             max_length=MAX_REASON, validators=[no_control_characters])

    def __init__(self, *args, boards: list[int], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["boards"].choices = [(n, f"Board {n}") for n in boards]


# --- pairs who come late, leave early, or change (web/director_pairs.py) -------------------


class _PairChangeForm(forms.Form):
    """What every pair change asks: a reason for the audit trail, and "check" or "confirm"
    (the page shows what will happen before the director confirms it)."""

    reason = forms.CharField(label="Why (for the audit trail): required",
                             max_length=MAX_REASON, validators=[no_control_characters],
                             error_messages={"required": "Say why: a change of pairs needs a "
                                                         "reason for the audit trail."})
    confirm = forms.BooleanField(required=False, widget=forms.HiddenInput)


class LatePairForm(_PairChangeForm):
    player_1 = forms.CharField(label="First player", max_length=80,
                               validators=[no_control_characters])
    player_2 = forms.CharField(label="Second player", max_length=80,
                               validators=[no_control_characters])
    from_round = number_field(
        "Plays from round", 1, MAX_ROUND, missing="From which round does the pair play?",
        words="The late pair plays from round {bound}", says=ROUND)

    def __init__(self, *args, sections: tuple[str, ...] = (), **kwargs):
        super().__init__(*args, **kwargs)
        if len(sections) > 1:  # a night of one section asks nothing
            self.fields["section"] = forms.ChoiceField(
                label="Joins section", choices=[(name, f"Section {name}") for name in sections])
            self.order_fields(["section"])


class PairLeaveForm(_PairChangeForm):
    pair = number_field("Pair", 1, MAX_PAIRS, missing="Which pair leaves?", **PAIR_WORDS)
    # Round 0 wants saying what it is ("before the first"), which `words` cannot.
    after_round = number_field(
        "Leaves after round", 0, MAX_ROUND, missing="After which round does the pair leave?",
        least="The pair leaves after round {low} (before the first) at the earliest, and "
              "after round {high} at the latest.",
        most="The pair leaves after round {high} at the latest (and after round {low}, "
             "before the first, at the earliest).")


class SubstituteForm(_PairChangeForm):
    pair = number_field("Pair", 1, MAX_PAIRS, missing="In which pair does the substitute "
                                                       "play?", **PAIR_WORDS)
    seat = forms.TypedChoiceField(label="Replaces", coerce=int,
                                  choices=[(1, "the first player named"),
                                           (2, "the second player named")])
    player = forms.CharField(label="Substitute's name", max_length=80,
                             validators=[no_control_characters])
    from_round = number_field(
        "From round", 1, MAX_ROUND, missing="From which round does the substitute play?",
        words="The substitute plays from round {bound}", says=ROUND)
