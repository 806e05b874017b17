"""The OpenAPI 3 schema generates cleanly and describes the API."""

import pytest
from django.urls import include, path
from drf_spectacular.drainage import GENERATOR_STATS, reset_generator_stats
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.validation import validate_schema

MAIN_PATHS = [
    "/api/events/",
    "/api/events/{event_id}/",
    "/api/events/{event_id}/results/",
    "/api/events/{event_id}/results/{result_id}/confirm/",
    "/api/events/{event_id}/results/{result_id}/correct/",
    "/api/events/{event_id}/rulings/",
    "/api/events/{event_id}/standings/",
    "/api/events/{event_id}/boards/{number}/traveller/",
    "/api/events/{event_id}/pairs/{number}/scorecard/",
    "/api/events/{event_id}/sections/{section}/tables/{table}/",
    "/api/events/{event_id}/score-preview/",
    "/api/events/{event_id}/audit/",
    "/api/table/",
]


def test_the_api_schema_has_no_warnings_or_errors():
    reset_generator_stats()
    generator = SchemaGenerator(patterns=[path("api/", include("tournaments.api.urls"))])
    schema = generator.get_schema(request=None, public=True)
    problems = [*GENERATOR_STATS._warn_cache, *GENERATOR_STATS._error_cache]
    assert problems == []
    validate_schema(schema)
    assert set(MAIN_PATHS) <= set(schema["paths"])
    post = schema["paths"]["/api/events/{event_id}/results/"]["post"]
    assert {"201", "200", "400", "403", "409", "422"} <= set(post["responses"])
    assert any(p["name"] == "Idempotency-Key" for p in post["parameters"])
    assert "tableCode" in schema["components"]["securitySchemes"]


@pytest.mark.django_db
def test_the_schema_endpoint_serves(client):
    response = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    body = response.json()
    assert body["openapi"].startswith("3.")
    for address in MAIN_PATHS:
        assert address in body["paths"], address


@pytest.mark.django_db
def test_the_docs_page_serves(client):
    assert client.get("/api/docs/").status_code == 200
