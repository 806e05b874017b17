"""The home page opens a table; the table pages are the players' pages, not a log-in page."""

import re

from tests.web.conftest import code_of


def test_the_home_page_asks_for_the_table_code(client, event, table1):
    page = client.get("/").content.decode()
    assert "Enter your table code" in page
    form = page.split('id="home-table-code-form"')[0].rsplit("<form", 1)[1]
    assert 'method="post"' in form and 'action="/t/"' in form
    assert 'name="code"' in page.split('id="home-table-code-form"')[1].split("</form>")[0]
    # Typing the code there opens the table, as /t/ does.
    response = client.post("/t/", {"code": table1.lower()})
    assert response.status_code == 302 and response["Location"] == f"/t/{table1}/"


def _header(page: str) -> str:
    return re.search(r'<header class="site">(.*?)</header>', page, re.S).group(1)


def test_table_pages_do_not_lead_with_director_log_in(client, event, table1):
    pages = [client.get("/t/?new=1"), client.get(f"/t/{table1}/"),
             client.get(f"/t/{table1}/round/1/board/1/"),
             client.get(f"/t/{code_of(event, 2)}/board/3/traveller/")]
    for response in pages:
        assert response.status_code in (200, 403)
        header = _header(response.content.decode())
        assert "Director log in" not in header, response.request["PATH_INFO"]
    assert 'data-testid="other-table"' in _header(pages[1].content.decode())
    # Other pages keep it.
    assert "Director log in" in _header(client.get("/").content.decode())


def test_a_director_at_a_table_still_sees_the_console_link(director_client, event, table1):
    header = _header(director_client.get(f"/t/{table1}/").content.decode())
    assert 'href="/director/"' in header


def test_the_director_console_leads_to_the_score_pads(director_client, event):
    # A social night's rubbers are kept on the pads: the console's front page leads there.
    page = director_client.get("/director/").content.decode()
    link = re.search(r'<a [^>]*data-testid="pads-link"[^>]*>([^<]*)</a>', page)
    assert link and 'href="/pad/"' in link.group(0) and link.group(1) == "Rubber score pads"
    assert director_client.get("/pad/").status_code == 200


def test_every_page_names_the_sites_icon_and_the_old_address_leads_to_it(client, db):
    page = client.get("/").content.decode()
    icon = re.search(r'<link rel="icon" href="([^"]+)"', page).group(1)
    assert icon.endswith("favicon.svg")
    # A browser that asks the old address is sent to the same file, not a 404.
    response = client.get("/favicon.ico")
    assert response.status_code == 301 and response["Location"] == icon
