"""/api/docs/ works without internet: Swagger UI comes from the project's own static files
(and its start-up script from the docs page's own address, not inline: the CSP runs no
inline script); /api/ answers with links to the schema, the docs and the main addresses."""

import re
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.core.management import call_command
from django.test import Client

ADDRESS = re.compile(r"""(?:src|href)=["']([^"']+)["']""")
START_UP_SCRIPT = "/api/docs/?script="  # drf-spectacular's split view serves it as a file


def docs_page_addresses(client) -> list[str]:
    response = client.get("/api/docs/")
    assert response.status_code == 200
    html = response.content.decode()
    return ADDRESS.findall(html)


@pytest.mark.django_db
def test_the_docs_page_loads_only_local_static_files(client):
    addresses = docs_page_addresses(client)
    assert addresses, "the page names no script or style"
    assert all(a.startswith("/static/") or a == START_UP_SCRIPT for a in addresses), addresses
    assert START_UP_SCRIPT in addresses
    assert any(a.endswith("swagger-ui-bundle.js") for a in addresses)
    assert any(a.endswith("swagger-ui.css") for a in addresses)
    assert "cdn" not in client.get("/api/docs/").content.decode().lower()


@pytest.mark.django_db
def test_the_files_the_docs_page_names_are_served(settings, tmp_path, client):
    # As in production: collectstatic, then whitenoise serves STATIC_ROOT.
    settings.STATIC_ROOT = tmp_path / "static"
    call_command("collectstatic", "--noinput", verbosity=0)
    fresh = Client()  # a new handler: whitenoise reads the new STATIC_ROOT on its first request
    for address in docs_page_addresses(client):
        response = fresh.get(address)
        assert response.status_code == 200, address
        body = b"".join(response.streaming_content) if response.streaming else response.content
        if address == START_UP_SCRIPT:
            assert response["Content-Type"].startswith("application/javascript")
            assert b"SwaggerUIBundle(" in body and b"/api/schema/" in body
            assert b"http://" not in body and b"https://" not in body
        else:  # the very file the project ships, not an error page
            assert body == Path(finders.find(address.removeprefix("/static/"))).read_bytes()


@pytest.mark.django_db
def test_the_api_root_lists_its_main_addresses(client):
    response = client.get("/api/")
    assert response.status_code == 200
    body = response.json()
    assert body["schema"] == "http://testserver/api/schema/"
    assert body["docs"] == "http://testserver/api/docs/"
    assert body["events"] == "http://testserver/api/events/"
    assert body["table"] == "http://testserver/api/table/"
    templates = body["templates"]
    assert templates["standings"] == "http://testserver/api/events/{event_id}/standings/"
    assert templates["traveller"] == (
        "http://testserver/api/events/{event_id}/boards/{number}/traveller/")
    assert templates["table_round"] == (
        "http://testserver/api/events/{event_id}/sections/{section}/tables/{table}/")
    for key in ("schema", "docs", "events"):
        assert client.get(body[key]).status_code == 200, key
    schema = client.get(body["schema"], HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    for address in templates.values():  # every template is a real address of the API
        assert address.removeprefix("http://testserver") in schema["paths"], address
