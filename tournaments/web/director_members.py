"""The director's console for the club's member list: search and list, upload a CSV,
download the list, edit one member (or mark them inactive), merge two records of one
person; and the small JSON list the pairs page's picker asks as the director types."""

from __future__ import annotations

from urllib.parse import urlencode

from django import forms
from django.contrib import messages
from django.core.paginator import Paginator
from django.db.models import Q
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods

from .. import presenters, selectors, services
from ..models import Player, ScoreCardMail
from ..services import ServiceError
from ..services.members import name_parts
from .director import _actor, director_required

MAX_UPLOAD = 1_000_000


class UploadForm(forms.Form):
    file = forms.FileField(label="Member list (CSV)", error_messages={
        "required": "Choose the CSV file to upload"})


class MemberForm(forms.Form):
    number = forms.CharField(label="Member number", max_length=20, required=False,
                             help_text="Leave empty for a visitor.")
    first_name = forms.CharField(label="First name", max_length=40, required=False)
    last_name = forms.CharField(label="Last name", max_length=40, required=False)
    email = forms.CharField(label="E-mail (optional)", max_length=254, required=False)
    active = forms.BooleanField(label="Active member", required=False)


class MergeForm(forms.Form):
    # Hidden: the record picked from the search. Missing or altered, the words say so.
    drop = forms.IntegerField(widget=forms.HiddenInput, error_messages={
        "required": "Pick the record to merge from the list found",
        "invalid": "Pick the record to merge from the list found"})
    reason = forms.CharField(label="Why they are one person", max_length=200,
                             error_messages={"required": "Say why the two are one person"})


def _players(query: str, show: str):
    found = Player.objects.all()
    if show != "all":
        found = found.exclude(number=None)
    if show == "active":
        found = found.filter(active=True)
    if query:
        found = found.filter(Q(number__istartswith=query) | Q(name__icontains=query)
                             | Q(email__icontains=query))
    return found.order_by("last_name", "first_name", "name", "number")


@director_required
@require_http_methods(["GET", "POST"])
def members(request: HttpRequest) -> HttpResponse:
    """The list (search by number, name or e-mail), the CSV upload and the download."""
    upload = UploadForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and upload.is_valid():
        handle = upload.cleaned_data["file"]
        if handle.size > MAX_UPLOAD:
            upload.add_error("file", "The file is over 1 MB: split it in two")
        else:
            try:
                text = handle.read().decode("utf-8")
                report = services.members_import(text=text, actor=_actor(request))
            except UnicodeDecodeError:
                upload.add_error("file", "The file is not UTF-8 text: save it as "
                                         "\"CSV UTF-8\" and upload it again")
            except ServiceError as exc:
                said = exc.message if exc.message.endswith((".", "!", "?")) else exc.message + "."
                upload.add_error("file", said + " Nothing was stored: correct that line and "
                                 "upload the file again.")
            else:
                messages.success(request, f"{report.words}.")
                return redirect("director-members")
    query = request.GET.get("q", "").strip()[:80]
    show = request.GET.get("show", "active")
    page = Paginator(_players(query, show), 50).get_page(request.GET.get("page"))
    return render(request, "tournaments/director/members.html",
                  {"upload": upload, "page": page, "q": query, "show": show})


@director_required
@require_GET
def members_csv(request: HttpRequest) -> HttpResponse:
    # A byte-order mark first: a spreadsheet then reads the file as UTF-8, accents and
    # all (the upload reads past it).
    response = HttpResponse("\ufeff" + selectors.members_export_csv(),
                            content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="members.csv"'
    return response


@director_required
@require_http_methods(["GET", "POST"])
def member_edit(request: HttpRequest, player_id: int | None = None) -> HttpResponse:
    player = get_object_or_404(Player, pk=player_id) if player_id else None
    initial = {"active": True}
    if player is not None:
        first, last = player.first_name, player.last_name
        if not first and not last:  # a visitor, known by the name typed: "Amos Pell"
            first, last = name_parts(player.name)
        initial = {"number": player.number or "", "first_name": first, "last_name": last,
                   "email": player.email, "active": player.active}
    form = MemberForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            saved = services.member_save(player=player, number=data["number"] or None,
                                         first_name=data["first_name"],
                                         last_name=data["last_name"], email=data["email"],
                                         active=data["active"], actor=_actor(request))
        except ServiceError as exc:
            field = exc.field if exc.field in form.fields else None
            form.add_error(field, exc.message)
        else:
            messages.success(request, f"{saved.name} saved.")
            return redirect("director-members")
    others = []
    query = request.GET.get("merge", "").strip()[:80]
    if player is not None and query:
        others = list(_players(query, "all").exclude(pk=player.pk)[:10])
    return render(request, "tournaments/director/member.html",
                  {"form": form, "member": player, "others": others, "merge_q": query,
                   "merge": MergeForm()})


@director_required
@require_http_methods(["POST"])
def member_merge(request: HttpRequest, player_id: int) -> HttpResponse:
    keep = get_object_or_404(Player, pk=player_id)
    form = MergeForm(request.POST)
    # A refusal goes back to the same search: the record to merge is still offered.
    again = reverse("director-member", kwargs={"player_id": keep.pk})
    query = request.POST.get("q", "").strip()[:80]
    if query:
        again += "?" + urlencode({"merge": query})
    if not form.is_valid():
        for errors in form.errors.values():
            messages.error(request, errors[0])
        return redirect(again)
    drop = get_object_or_404(Player, pk=form.cleaned_data["drop"])
    name = drop.name
    try:
        services.members_merge(keep=keep, drop=drop, actor=_actor(request),
                               reason=form.cleaned_data["reason"])
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect(again)
    messages.success(request, f"{name} merged into {keep.name}: their nights are "
                              f"{keep.name}'s now (each night's audit says so).")
    # A card skipped for the record dropped (no address) waits now if the one kept has
    # an address: its night's console sends it; say which nights.
    waiting = list(ScoreCardMail.objects.filter(player=keep,
                                                status=ScoreCardMail.Status.PENDING)
                   .order_by("event__date", "event_id")
                   .values_list("event__name", flat=True).distinct())
    if waiting:
        messages.info(request, f"{keep.name}'s score card of {' and of '.join(waiting)} "
                               "waits to be sent: “Send the cards not sent yet” on "
                               f"{'that night' if len(waiting) == 1 else 'each night'}'s "
                               "console sends it.")
    return redirect("director-member", player_id=keep.pk)


@director_required
@require_GET
def members_json(request: HttpRequest) -> JsonResponse:
    """Suggestions for the pairs page: active members whose number starts with, or whose
    name contains, ``q``; ``label`` is what the pairs list writes ("Ann Lee #1234")."""
    query = request.GET.get("q", "").strip()[:80]
    found = selectors.members_search(query, limit=8) if query else []
    return JsonResponse({"members": [
        {"number": p.number, "name": p.name, "label": presenters.player_label(p)}
        for p in found]})
