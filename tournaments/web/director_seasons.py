"""The director's console for seasons: the list, a season's set-up (its name, who it
ranks, what a night gives, the rule, N, the points scale, the minimum attendance,
published or not, and its events), and removing one. Every change is
``services.season_save`` / ``season_delete``; the table itself is the public page's."""

from __future__ import annotations

import re

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from .. import presenters, services
from ..forms import number_field
from ..models import Event, Season
from ..services import ServiceError
from .director import _actor, director_required


def parse_scale(text: str) -> list[int]:
    """"10, 8, 6, 5" (commas or spaces) as whole numbers; a clear message otherwise."""
    parts = [p for p in re.split(r"[\s,;]+", text.strip()) if p]
    bad = next((p for p in parts if not p.isdigit()), None)
    if bad is not None:
        raise forms.ValidationError(
            f"“{bad[:20]}” is not a whole number: write the points for 1st, 2nd, 3rd … "
            "separated by commas, like 10, 8, 6, 5")
    return [int(p) for p in parts]


class SeasonForm(forms.Form):
    name = forms.CharField(label="Name", max_length=120, error_messages={
        "required": "Give the season a name"})
    entrants = forms.ChoiceField(label="Ranks", choices=Season.ENTRANTS,
                                 widget=forms.RadioSelect)
    counts = forms.ChoiceField(label="Each night gives", choices=Season.COUNTS,
                               widget=forms.RadioSelect)
    rule = forms.ChoiceField(label="Rule", choices=Season.RULES, widget=forms.RadioSelect)
    best_of = number_field(
        "Nights that count (N)", 1, Season.MAX_EVENTS, required=False,
        invalid="Write N as a whole number",
        least=f"N is at least 1 night (and at most {Season.MAX_EVENTS}).",
        most=f"N is at most {Season.MAX_EVENTS} nights, as many as a season holds (and at "
             "least 1).")
    points_scale = forms.CharField(label="Points for places", required=False, max_length=400)
    min_events = number_field(
        "Minimum attendance (nights)", 1, Season.MAX_EVENTS,
        missing="Say how many nights place a member",
        invalid="Write the minimum as a whole number",
        least=f"The minimum attendance is at least 1 night (and at most "
              f"{Season.MAX_EVENTS}).",
        most=f"The minimum attendance is at most {Season.MAX_EVENTS} nights, as many as a "
             "season holds (and at least 1).")
    published = forms.BooleanField(label="Published (the public sees the table)",
                                   required=False)
    events = forms.TypedMultipleChoiceField(label="Events", coerce=int, required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["events"].choices = [
            (e.pk, f"{e.name} ({presenters.day(e.date)})")
            for e in Event.objects.filter(kind="pairs").order_by("-date", "-id")]

    def clean_points_scale(self) -> list[int]:
        return parse_scale(self.cleaned_data.get("points_scale") or "")


def _initial(season: Season | None) -> dict:
    if season is None:
        return {"entrants": "pairs", "counts": "score", "rule": "total", "min_events": 1,
                "points_scale": "10, 8, 6, 5, 4, 3, 2, 1"}
    return {"name": season.name, "entrants": season.entrants, "counts": season.counts,
            "rule": season.rule, "best_of": season.best_of,
            "points_scale": ", ".join(str(p) for p in season.points_scale or []),
            "min_events": season.min_events, "published": season.published,
            "events": list(season.events.values_list("pk", flat=True))}


@director_required
@require_GET
def seasons(request: HttpRequest) -> HttpResponse:
    rows = [{"season": s, "rule": presenters.season_rule(s), "events": s.events.count()}
            for s in Season.objects.all()]
    return render(request, "tournaments/director/seasons.html", {"rows": rows})


@director_required
@require_http_methods(["GET", "POST"])
def season_edit(request: HttpRequest, season_id: int | None = None) -> HttpResponse:
    season = get_object_or_404(Season, pk=season_id) if season_id else None
    form = SeasonForm(request.POST or None, initial=_initial(season))
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            saved = services.season_save(
                season=season, name=data["name"], entrants=data["entrants"],
                counts=data["counts"], rule=data["rule"], best_of=data["best_of"],
                points_scale=data["points_scale"], min_events=data["min_events"],
                published=data["published"], event_ids=data["events"], actor=_actor(request))
        except ServiceError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        else:
            messages.success(request, f"{saved.name} saved.")
            return redirect("director-season", season_id=saved.pk)
    return render(request, "tournaments/director/season.html",
                  {"form": form, "season": season})


@director_required
@require_POST
def season_delete(request: HttpRequest, season_id: int) -> HttpResponse:
    """Remove a season, once the director has said yes to what it means (a season's set-up
    is not restored by anything after)."""
    season = get_object_or_404(Season, pk=season_id)
    if request.POST.get("confirmed") != "1":
        nights = season.events.count()
        return render(request, "tournaments/director/confirm.html", {
            "title": f"Remove {season.name}?",
            "explain": (f"The season's table goes, with its rule and its choice of "
                        f"{nights} night{'s' if nights != 1 else ''}: to have it again you "
                        "set it up again. The nights themselves, their scores and their "
                        "standings stay as they are."),
            "buttons": [("confirmed", "1", "Remove the season", "confirm-season-delete")],
            "back": reverse("director-season", kwargs={"season_id": season.pk})})
    name = season.name
    services.season_delete(season=season, actor=_actor(request))
    messages.success(request, f"{name} removed (its nights and their scores are kept).")
    return redirect("director-seasons")
