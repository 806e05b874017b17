"""The pages answer bad input with a 4xx or a message at the field, never a server error:
numbers read strictly, path segments within their columns, no control characters in
text, bounded text, and only the methods a page answers."""

import pytest

from tests.web.conftest import contract_post
from tournaments.models import AuditEntry, Event, Meeting

pytestmark = pytest.mark.postgres


@pytest.mark.parametrize("method", ["TRACE", "PUT", "DELETE", "PATCH", "OPTIONS"])
@pytest.mark.parametrize("address", ["/", "/t/", "/events/{pk}/", "/director/",
                                     "/accounts/login/"])
def test_a_page_answers_get_head_and_post_only(client, event, method, address):
    response = client.generic(method, address.format(pk=event.pk))
    assert response.status_code == 405, (method, address)
    assert response["Allow"] == "GET, HEAD, POST"


# The pages looked these up safely already; the converters now refuse them at the address.
@pytest.mark.parametrize("address", [
    "/t/AB%00CD/",  # NUL
    "/t/AB%1BCD/round/1/",
    "/events/{pk}/pairs/40000/",  # a pair number is a small integer
    "/events/{pk}/boards/0/",
    "/events/99999999999999999999/",  # beyond a bigint
    "/director/events/{pk}/meetings/99999999999999999999/",
])
def test_a_path_segment_out_of_its_columns_range_is_a_404(director_client, event, address):
    response = director_client.get(address.format(pk=event.pk))
    assert response.status_code == 404


def _agree_url(event) -> str:
    section_id = Meeting.objects.filter(section__event=event).first().section_id
    return f"/director/events/{event.pk}/sections/{section_id}/rounds/1/agree/"


@pytest.mark.parametrize("table", ["²", "٣", "99999999999", "1.0"])
def test_agreeing_a_table_that_is_not_a_number_is_a_400(director_client, event, table):
    assert director_client.get(_agree_url(event), {"table": table}).status_code == 400
    assert director_client.post(_agree_url(event), {"table": table}).status_code == 400
    assert not Meeting.objects.filter(section__event=event, agreed_at__isnull=False).exists()


def test_agreeing_the_whole_round_still_sends_a_blank_table(director_client, event):
    response = director_client.post(_agree_url(event), {"table": ""})
    assert response.status_code == 302
    assert Meeting.objects.filter(section__event=event, round=1,
                                  agreed_at__isnull=False).count() == 2


def test_a_correction_period_in_other_digits_is_refused(director_client, event):
    url = f"/director/events/{event.pk}/correction-period/"
    response = director_client.post(url, {"correction_minutes": "٤٥"}, follow=True)
    assert "Give the correction period in whole minutes" in response.content.decode()
    assert Event.objects.get(pk=event.pk).correction_minutes == 30


def test_a_reason_with_a_nul_is_refused_at_the_field(director_client, event):
    response = director_client.post(f"/director/events/{event.pk}/agree/",
                                     {"reason": "late\x00start"})
    assert response.status_code == 200
    assert "Control characters (such as NUL) are not allowed" in response.content.decode()
    assert Event.objects.get(pk=event.pk).status == Event.Status.RUNNING


def test_a_reason_longer_than_500_characters_is_refused(director_client, event):
    response = director_client.post(f"/director/events/{event.pk}/agree/",
                                     {"reason": "x" * 501})
    assert "at most 500 characters" in response.content.decode()
    assert not AuditEntry.objects.filter(event=event, action__contains="agree").exists()


def test_the_pairs_list_is_bounded_before_it_is_read(director_client, event):
    lines = "\n".join(f"Ann Lee {n} & Bob Ray {n}" for n in range(5000))
    response = director_client.post(f"/director/events/{event.pk}/pairs/", {"pairs": lines})
    assert response.status_code == 200
    assert "At most 200 pairs in one event: the list is too long" in response.content.decode()


def test_a_control_character_in_a_pair_name_is_refused(director_client, event):
    response = director_client.post(f"/director/events/{event.pk}/pairs/",
                                    {"pairs": "Ann\x07 Lee & Bob Ray\nCy Dow & Di Eck"})
    assert "Control characters" in response.content.decode()


@pytest.mark.parametrize(("field", "value"), [("round", "٣"), ("board", "1_0"),
                                              ("round", "99999999999")])
def test_the_live_score_names_a_number_it_cannot_read(client, event, table1, field, value):
    data = {**contract_post(), "round": "1", "board": "1", "action": "preview", field: value}
    response = client.post(f"/t/{table1}/preview/", data)
    assert response.status_code == 400
    assert response.json()["field"] == field
