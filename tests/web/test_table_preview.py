"""The live score: a JSON preview that writes nothing, and the no-script fallback."""

from django.test import Client

from tests.web.conftest import contract_post
from tests.web.test_table_flow import board_url
from tournaments.models import AuditEntry, Result


def preview(client, code, **fields):
    data = contract_post(**fields)
    data.update({"round": "1", "board": "1", "action": "preview"})
    return client.post(f"/t/{code}/preview/", data)


def test_preview_scores_without_writing(client, event, table1):
    before = AuditEntry.objects.count()
    response = preview(client, table1, level=2, denomination="D", declarer="E", doubled="X",
                       tricks=9, honours_N=2, honours_E=1, honours_S=2)
    assert response.status_code == 200
    body = response.json()
    assert body["ok"] is True
    # rules.md §9 example 4: 2D X by E, 9 tricks, N 2 + S 2 honours.
    assert body["score"]["ew"] == {"trick_score": 42, "honour_score": 225, "total": 267}
    assert body["score"]["ns"] == {"trick_score": 0, "honour_score": 28, "total": 28}
    laws = {item["law_text"] for item in body["score"]["items"]}
    assert {"Law 53", "Law 56", "Duplicate Law A", "Law 3"} & laws
    assert sum(i["points"] for i in body["score"]["items"]) == 267 + 28
    # Each item's side in the presenters' words, for the page's script to show as it is.
    assert {(i["side"], i["side_text"]) for i in body["score"]["items"]} == {
        ("ns", "N–S"), ("ew", "E–W")}
    # The honours in the engine's order of seats, which the script keeps.
    assert list(body["honours"]) == ["N", "E", "S", "W"]
    assert not Result.objects.exists() and AuditEntry.objects.count() == before


def test_preview_names_the_field_in_error(client, event, table1):
    body = preview(client, table1, tricks="").json()
    assert body == {"ok": False, "field": "tricks",
                    "message": "How many tricks did the declaring side win?"}
    body = preview(client, table1, honours_N=4, honours_S=2).json()
    assert body["ok"] is False and "a suit has 5" in body["message"]


def test_preview_only_for_this_tables_boards(client, event, table1):
    data = contract_post()
    data.update({"round": "1", "board": "3"})
    assert client.post(f"/t/{table1}/preview/", data).status_code == 404
    data.update({"board": "x"})
    assert client.post(f"/t/{table1}/preview/", data).status_code == 400


def test_without_script_the_server_shows_the_score(client, event, table1):
    data = contract_post(level=1, denomination="NT", declarer="N", tricks=9, honours_N=2,
                         honours_E=1, honours_S=1, token="np")
    data["action"] = "preview"
    response = client.post(board_url(table1, 1, 1), data)
    assert response.status_code == 200
    html = response.content.decode()
    # rules.md §9 example 2: 30 trick, 30 honours + 125 premium.
    assert 'id="preview-ns-trick">30<' in html and 'id="preview-ns-total">185<' in html
    assert "<li>N–S trick 30:" in html and "<li>E–W" not in html
    assert not Result.objects.exists()


def test_every_form_carries_csrf_and_posts_need_it(event, table1):
    strict = Client(enforce_csrf_checks=True)
    for url in ("/t/?new=1", board_url(table1, 1, 1)):
        assert "csrfmiddlewaretoken" in strict.get(url).content.decode()
    assert strict.post(board_url(table1, 1, 1), contract_post(token="c")).status_code == 403
    assert strict.post(f"/t/{table1}/preview/", {"round": 1, "board": 1}).status_code == 403
    assert strict.post("/t/", {"code": table1}).status_code == 403
    assert not Result.objects.exists()
