"""The console's member pages (web/director_members.py) and the pairs page's picker."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from tests.factories import DirectorFactory, UserFactory, make_pairs_event
from tournaments.models import AuditEntry, Pair, Player

from .conftest import GOOD

pytestmark = pytest.mark.django_db


def _upload(client, text):
    return client.post(reverse("director-members"), {
        "file": SimpleUploadedFile("members.csv", text.encode(), "text/csv")}, follow=True)


def test_upload_lists_and_searches(director_client):
    page = _upload(director_client, GOOD)
    text = page.content.decode()
    assert "3 members added, 0 updated." in text
    assert "Ann Lee" in text and "Cora Day" in text
    found = director_client.get(reverse("director-members"), {"q": "cor"}).content.decode()
    assert "Cora Day" in found and "Ann Lee" not in found
    by_number = director_client.get(reverse("director-members"), {"q": "1002"}).content.decode()
    assert "Bob Ray" in by_number and "Cora Day" not in by_number


def test_a_bad_upload_names_the_line_and_stores_nothing(director_client):
    page = _upload(director_client, GOOD + "1004,,,\n")
    text = page.content.decode()
    assert "Line 5: member 1004 needs a name. Nothing was stored" in text
    # Said at the top as well: the upload form is below the whole list.
    assert text.index('data-testid="upload-refused"') < text.index('id="member-upload"')
    assert not Player.objects.exists()
    page = _upload(director_client, GOOD + "1004,Di,Eck,not-an-email\n")
    assert ("Line 5: “not-an-email” is not an e-mail address. Nothing was stored"
            in page.content.decode())


def test_download_is_the_csv(director_client, members):
    response = director_client.get(reverse("director-members-csv"))
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert "attachment" in response["Content-Disposition"]
    # A byte-order mark first, so that a spreadsheet opens the accents as written.
    assert response.content.startswith(b"\xef\xbb\xbf")
    lines = response.content.decode("utf-8-sig").splitlines()
    assert lines[0] == "number,first_name,last_name,email,active"


def test_the_list_downloaded_uploads_again_as_it_is(director_client, members):
    """Download, edit in a spreadsheet, upload: the club's routine. The active column
    is read back; the accents survive the round trip."""
    Player.objects.filter(number="1002").update(active=False, first_name="Émile",
                                                name="Émile Ray")
    downloaded = director_client.get(reverse("director-members-csv")).content
    page = director_client.post(reverse("director-members"), {
        "file": SimpleUploadedFile("members.csv", downloaded, "text/csv")}, follow=True)
    assert "0 members added, 0 updated." in page.content.decode()
    bob = Player.objects.get(number="1002")
    assert (bob.first_name, bob.active) == ("Émile", False)
    edited = downloaded.decode("utf-8-sig").replace("1002,Émile,Ray,,no", "1002,Émile,Ray,,yes")
    page = _upload(director_client, edited)
    assert "0 members added, 1 updated." in page.content.decode()
    assert Player.objects.get(number="1002").active
    refused = _upload(director_client, edited.replace(",yes\n", ",maybe\n", 1)).content.decode()
    assert "active is yes or no, not “maybe”. Nothing was stored" in refused


def test_an_empty_email_cell_keeps_the_address_on_file(director_client, members):
    """A list without addresses does not wipe them (and with them the score cards)."""
    assert Player.objects.get(number="1001").email == "ann@example.org"
    page = _upload(director_client, "number,first_name,last_name,email\n1001,Ann,Lee-Ross,\n")
    assert "0 members added, 1 updated." in page.content.decode()
    ann = Player.objects.get(number="1001")
    assert (ann.name, ann.email) == ("Ann Lee-Ross", "ann@example.org")


def test_edit_and_mark_inactive(director_client, members):
    bob = Player.objects.get(number="1002")
    url = reverse("director-member", kwargs={"player_id": bob.pk})
    assert "Bob" in director_client.get(url).content.decode()
    director_client.post(url, {"number": "1002", "first_name": "Robert", "last_name": "Ray",
                       "email": "rob@example.org"})  # active unticked
    bob.refresh_from_db()
    assert (bob.name, bob.email, bob.active) == ("Robert Ray", "rob@example.org", False)
    director_client.get(reverse("director-members"))  # shows (and clears) the "saved" message
    listed = director_client.get(reverse("director-members")).content.decode()
    assert "Robert Ray" not in listed  # the list shows active members by default
    assert "Robert Ray" in director_client.get(reverse("director-members"),
                                       {"show": "members"}).content.decode()


@pytest.mark.parametrize(("typed", "first", "last"), [
    ("Amos Pell", "Amos", "Pell"), ("Mary Ann van Dyke", "Mary Ann", "van Dyke"),
    ("Cher", "", "Cher")])
def test_a_visitors_name_is_offered_as_first_and_last(director_client, typed, first, last):
    """A visitor is known by the name typed on the pairs page: made a member, its name
    is offered split (the last word the last name, or the words from a particle on:
    "van Dyke"), not all in the last name."""
    visitor = Player.objects.create(name=typed)
    form = director_client.get(reverse("director-member", kwargs={"player_id": visitor.pk})
                       ).content.decode()
    assert f'id="m-first" maxlength="40" value="{first}"' in form
    assert f'id="m-last" maxlength="40" value="{last}"' in form


def test_a_taken_number_is_refused_on_the_form(director_client, members):
    bob = Player.objects.get(number="1002")
    page = director_client.post(reverse("director-member", kwargs={"player_id": bob.pk}), {
        "number": "1001", "first_name": "Bob", "last_name": "Ray", "active": "on"})
    assert "Member number 1001 is Ann Lee" in page.content.decode()


def test_new_member(director_client):
    director_client.post(reverse("director-member-new"), {"number": "77", "first_name": "Nell",
                                                  "last_name": "New", "active": "on"})
    assert Player.objects.get(number="77").name == "Nell New"


def test_merge_from_the_console(director_client, members, director):
    ann = Player.objects.get(number="1001")
    event = make_pairs_event(pairs=2, boards=1)
    twin = Pair.objects.get(event=event, number=1).player_1
    page = director_client.get(reverse("director-member", kwargs={"player_id": ann.pk}),
                       {"merge": twin.name})
    assert f'data-testid="merge-{twin.pk}"' in page.content.decode()
    done = director_client.post(reverse("director-member-merge", kwargs={"player_id": ann.pk}),
                        {"drop": twin.pk, "reason": "the same person"}, follow=True)
    assert "merged into Ann Lee" in done.content.decode()
    assert Pair.objects.get(event=event, number=1).player_1 == ann
    assert AuditEntry.objects.filter(event=event, action="merge players").exists()


def test_a_refused_merge_keeps_the_search_and_two_numbers_are_said_before(director_client, members):
    ann, bob = Player.objects.get(number="1001"), Player.objects.get(number="1002")
    twin = Player.objects.create(name="Ann Lee")  # a visitor of the same name
    url = reverse("director-member", kwargs={"player_id": ann.pk})
    page = director_client.get(url, {"merge": "Ann"}).content.decode()
    assert f'data-testid="merge-go-{twin.pk}"' in page
    # No reason: refused, and back to the same search, the record still offered.
    refused = director_client.post(reverse("director-member-merge", kwargs={"player_id": ann.pk}),
                           {"drop": twin.pk, "reason": "", "q": "Ann"})
    assert refused.status_code == 302 and refused["Location"] == url + "?merge=Ann"
    again = director_client.get(refused["Location"]).content.decode()
    assert "Say why" in again and f'data-testid="merge-go-{twin.pk}"' in again
    # Two members: the page says why before a merge is tried, and offers none.
    page = director_client.get(url, {"merge": "Bob"}).content.decode()
    assert f'data-testid="merge-blocked-{bob.pk}"' in page
    assert f'data-testid="merge-go-{bob.pk}"' not in page


def test_the_json_suggestions(director_client, members):
    Player.objects.filter(number="1003").update(active=False)
    data = director_client.get(reverse("director-members-json"), {"q": "100"}).json()
    assert [m["label"] for m in data["members"]] == ["Ann Lee #1001", "Bob Ray #1002"]
    assert director_client.get(reverse("director-members-json"), {"q": "ann"}).json()["members"][0][
        "number"] == "1001"


def test_only_directors(client, members):
    for name in ("director-members", "director-members-json", "director-members-csv"):
        assert client.get(reverse(name)).status_code == 302  # to the log-in page
    player = Client()
    player.force_login(UserFactory())
    assert player.get(reverse("director-members-json"), {"q": "a"}).status_code == 403


def test_the_pairs_page_has_the_picker_and_takes_numbers(director_client, members):
    event = make_pairs_event(pairs=0, boards=1)
    url = reverse("director-pairs", kwargs={"event_id": event.pk})
    page = director_client.get(url).content.decode()
    assert 'id="member-picker"' in page and "js/members.js" in page
    assert "<script>" not in page
    director_client.post(url, {"pairs": "1001 & Bob Ray #1002\nVic Visitor & Nell New #2001"})
    assert Pair.objects.get(event=event, number=1).player_1.number == "1001"
    assert "Ann Lee #1001 &amp; Bob Ray #1002" in director_client.get(url).content.decode()


def test_director_factory_is_staff():
    assert DirectorFactory.build().is_staff
