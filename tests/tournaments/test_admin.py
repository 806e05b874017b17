"""Django admin for all of it: every model's list and an event's page open for a superuser."""

import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model

from tests.factories import make_pairs_event
from tournaments import services


@pytest.mark.django_db
def test_every_admin_page_opens(client):
    event = make_pairs_event(pairs=4, boards=2)
    client.force_login(get_user_model().objects.create_superuser("root", "", "pw-12345678"))
    models = [m for m in admin.site._registry if m._meta.app_label == "tournaments"]
    assert len(models) >= 11
    for model in models:
        url = f"/admin/{model._meta.app_label}/{model._meta.model_name}/"
        assert client.get(url).status_code == 200, url
    assert client.get(f"/admin/tournaments/event/{event.pk}/change/").status_code == 200
    # Pairs change only through the director's console, which audits them.
    pair = event.pairs.first()
    assert client.post(f"/admin/tournaments/pair/{pair.pk}/change/", {}).status_code == 403


@pytest.mark.django_db
def test_a_score_pad_reads_in_the_admin_without_its_key(client):
    client.force_login(get_user_model().objects.create_superuser("root", "", "pw-12345678"))
    rubber = services.rubber_create(game="auction", players=["Ann", "Bob", "Cy", "Di"])
    page = client.get(f"/admin/tournaments/rubber/{rubber.pk}/change/")
    assert page.status_code == 200
    assert rubber.code not in page.content.decode()


@pytest.mark.django_db
def test_a_party_night_reads_in_the_admin(client):
    import datetime

    root = get_user_model().objects.create_superuser("root", "", "pw-12345678")
    client.force_login(root)
    party = services.party_create(
        name="Party", date=datetime.date(2026, 12, 1), game="whist", rounds=1,
        deals_per_round=1, players=["Ann", "Bob", "Cy", "Di"],
        actor=services.Actor.director(root))
    page = client.get(f"/admin/tournaments/party/{party.pk}/change/")
    assert page.status_code == 200 and "Cy" in page.content.decode()
