"""Entering results over the API: the table's submission, replays, conflicts, bad input."""

import pytest

from tournaments import services
from tournaments.models import AuditEntry, IdempotencyRecord, Result

from .helpers import THREE_HEARTS, TWO_HEARTS, TWO_HEARTS_BOARD_1, key, post, url

pytestmark = pytest.mark.django_db


def submit(client, night, *, table=1, round_number=1, board=None, data=TWO_HEARTS,
           idem="new", **extra):
    meeting = night.meeting(table, round_number)
    body = {"board": board or meeting.boards[0], "round": round_number, "result": data, **extra}
    return post(client, url(night.event, "results/"), body, idem=idem)


def test_table_enters_a_board_of_its_round(night, table_client):
    meeting = night.meeting(2, 1)
    response = submit(table_client(2), night, table=2)
    assert response.status_code == 201, response.json()
    body = response.json()
    assert (body["board"], body["ns"], body["ew"]) == (
        meeting.boards[0], meeting.ns_pair.number, meeting.ew_pair.number)
    assert (body["section"], body["round"], body["table"]) == ("A", 1, 2)
    assert body["result"] == TWO_HEARTS
    # Law 47/Duplicate Law A: 2 odd tricks at hearts = 16; Law 3: N 3 + S 2 honours,
    # 5 divided = 40 (no hand record: the table gave them).
    assert body["ns_columns"] == {"trick_score": 16, "honour_score": 40, "total": 56}
    assert (body["ns_score"], body["ew_score"]) == (56, -56)
    assert body["status"] == "entered" and body["entered_by"] == "table 2"
    stored = Result.objects.get()
    assert stored.meeting_id == meeting.pk and stored.tricks == 8


def test_honours_come_from_the_hand_record(night, table_client):
    # Board 1 has a hand record: N holds A K Q of hearts and S the J 10, so N-S score
    # honours though the table sent none.
    round_number = next(r for r in (1, 2, 3) if 1 in night.meeting(1, r).boards)
    response = submit(table_client(1), night, round_number=round_number, board=1,
                      data=TWO_HEARTS_BOARD_1)
    assert response.status_code == 201, response.json()
    assert response.json()["ns_columns"]["honour_score"] > 0
    assert response.json()["result"]["contract"]["denomination"] == "H"


def test_retry_with_the_same_key_replays_the_first_answer(night, table_client):
    client = table_client(1)
    idem = key()
    first = submit(client, night, idem=idem)
    again = submit(client, night, idem=idem)
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true"
    assert Result.objects.count() == 1
    assert AuditEntry.objects.filter(action="enter").count() == 1
    assert IdempotencyRecord.objects.get(key=idem).status_code == 201


def test_same_key_for_a_different_request_is_refused(night, table_client):
    client = table_client(1)
    idem = key()
    submit(client, night, idem=idem)
    response = submit(client, night, idem=idem, data=THREE_HEARTS)
    assert response.status_code == 422
    assert response.json()["error"] == "This key was used for a different request"
    assert Result.objects.get().tricks == 8


def test_same_result_with_a_new_key_answers_200_with_the_stored_one(night, table_client):
    client = table_client(1)
    first = submit(client, night)
    again = submit(client, night)
    assert again.status_code == 200
    assert again.json()["id"] == first.json()["id"]
    assert Result.objects.count() == 1


def test_a_different_result_is_409_carrying_the_stored_one(night, table_client):
    client = table_client(1)
    first = submit(client, night)
    response = submit(client, night, data=THREE_HEARTS)
    assert response.status_code == 409
    body = response.json()
    assert "has a different result already" in body["error"]
    assert body["existing"]["id"] == first.json()["id"]
    assert body["existing"]["result"] == TWO_HEARTS
    assert Result.objects.get().tricks == 8


def test_the_conflict_is_replayed_for_its_own_key(night, table_client):
    client = table_client(1)
    submit(client, night)
    idem = key()
    first = submit(client, night, data=THREE_HEARTS, idem=idem)
    again = submit(client, night, data=THREE_HEARTS, idem=idem)
    assert first.status_code == again.status_code == 409
    assert again.json() == first.json()


def test_a_table_must_send_an_idempotency_key(night, table_client):
    response = submit(table_client(1), night, idem=None)
    assert response.status_code == 400
    assert response.json()["field"] == "Idempotency-Key"
    assert Result.objects.count() == 0


def test_an_overlong_key_is_refused(night, table_client):
    response = submit(table_client(1), night, idem="k" * 65)
    assert response.status_code == 400
    assert "at most 64 characters" in response.json()["error"]


def test_keys_belong_to_their_caller(night, table_client):
    """Two tables using the same key (a poor random source, say) do not see each other's
    answers: keys are scoped to the caller."""
    idem = key()
    one = submit(table_client(1), night, table=1, idem=idem)
    two = submit(table_client(2), night, table=2, idem=idem)
    assert one.status_code == two.status_code == 201
    assert one.json()["id"] != two.json()["id"]


def test_the_director_enters_by_pairs_without_a_key(night, director_client):
    meeting = night.meeting(3, 2)
    body = {"board": meeting.boards[1], "ns": meeting.ns_pair.number,
            "ew": meeting.ew_pair.number, "result": THREE_HEARTS}
    response = director_client.post(url(night.event, "results/"), body, format="json")
    assert response.status_code == 201, response.json()
    # Linked to its meeting, so the round's count of entered boards is right.
    assert (response.json()["round"], response.json()["table"]) == (2, 3)
    assert response.json()["status"] == "director"
    assert IdempotencyRecord.objects.count() == 0


def test_the_director_must_name_the_pairs(night, director_client):
    response = director_client.post(url(night.event, "results/"),
                                    {"board": 1, "result": TWO_HEARTS}, format="json")
    assert response.status_code == 400
    assert response.json() == {"error": "Say which pairs played: N–S (ns) and E–W (ew)",
                               "field": "ns"}


def test_a_board_not_played_at_the_table_is_refused_in_plain_words(night, table_client):
    meeting = night.meeting(3, 2)
    board = next(b for b in range(1, 7) if b not in meeting.boards)
    response = submit(table_client(3), night, table=3, round_number=2, board=board)
    assert response.status_code == 400
    assert response.json() == {"error": f"Board {board} is not played at table 3 in round 2",
                               "field": "board"}
    assert Result.objects.count() == 0


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        ({"result": {**TWO_HEARTS, "tricks": 14}}, "result.tricks",
         "Tricks must be between 0 and 13"),
        ({"round": 9}, "round", "Table 1 does not play a round 9"),
        ({"board": "seven"}, "board", "Board must be a whole number"),
        ({"board": 0}, "board", "Board must be 1 or more"),
    ],
)
def test_bad_input_gets_a_message_and_writes_nothing(night, table_client, change, field,
                                                     message):
    body = {"board": night.meeting(1, 1).boards[0], "round": 1, "result": TWO_HEARTS, **change}
    response = post(table_client(1), url(night.event, "results/"), body)
    assert response.status_code == 400, response.json()
    assert response.json()["field"] == field
    assert response.json()["error"] == message
    assert Result.objects.count() == 0


def test_a_table_must_say_which_round(night, table_client):
    body = {"board": 1, "result": TWO_HEARTS}
    response = post(table_client(1), url(night.event, "results/"), body)
    assert response.status_code == 400
    assert response.json() == {"error": "Say which round you are playing", "field": "round"}


def test_a_table_cannot_enter_another_tables_pairs(night, table_client):
    other = night.meeting(2, 1)
    response = submit(table_client(1), night, ns=other.ns_pair.number, ew=other.ew_pair.number)
    assert response.status_code == 400
    assert "sits North–South against" in response.json()["error"]
    assert Result.objects.count() == 0


def test_an_agreed_round_is_closed_to_the_table(night, table_client):
    night.play_round(1, 1, agree=True)
    stored = Result.objects.filter(meeting=night.meeting(1, 1)).first()
    client = table_client(1)
    response = post(client, url(night.event, f"results/{stored.pk}/correct/"),
                    {"result": THREE_HEARTS})
    assert response.status_code == 403
    assert "is agreed (Duplicate Law E)" in response.json()["error"]
    again = submit(client, night)
    assert again.status_code == 403
    assert Result.objects.get(pk=stored.pk).tricks == 8


def test_a_closed_event_takes_no_more_scores(night, table_client, director_client):
    # No board is in yet: closing (which agrees the event first) needs a reason.
    response = post(director_client, url(night.event, "status/"), {"status": "closed"})
    assert response.status_code == 400 and response.json()["field"] == "reason"
    response = post(director_client, url(night.event, "status/"),
                    {"status": "closed", "reason": "The club lost the hall"})
    assert response.status_code == 200 and response.json()["status"] == "closed"
    response = submit(table_client(1), night)
    assert response.status_code == 403
    assert response.json()["error"].startswith(
        "The event is closed: to correct a score the director reopens it, until ")
    assert Result.objects.count() == 0


def test_the_opponents_confirm_on_the_same_device(night, table_client):
    client = table_client(1)
    result = submit(client, night).json()
    response = post(client, url(night.event, f"results/{result['id']}/confirm/"),
                    {"by": "Pair 4"})
    assert response.status_code == 200
    assert response.json()["status"] == "confirmed"
    assert response.json()["confirmed_by"] == "Pair 4"


def test_a_table_cannot_touch_another_tables_result(night, table_client):
    result = night.enter(2, 1)
    for tail in ("", "confirm/", "correct/"):
        address = url(night.event, f"results/{result.pk}/{tail}")
        if tail:
            response = post(table_client(1), address, {"result": THREE_HEARTS})
        else:
            response = table_client(1).get(address)
        assert response.status_code == 403, tail
        assert "its table" in response.json()["error"]
    assert Result.objects.get(pk=result.pk).status == "entered"


def test_a_table_corrects_its_own_result_before_agreeing(night, table_client):
    client = table_client(1)
    result = submit(client, night).json()
    response = post(client, url(night.event, f"results/{result['id']}/correct/"),
                    {"result": THREE_HEARTS})
    assert response.status_code == 200, response.json()
    assert response.json()["tricks"] == 9 and response.json()["version"] == 2


def test_a_correction_of_a_version_changed_since_is_a_conflict(night, director_client):
    result = night.enter(1, 1)
    address = url(night.event, f"results/{result.pk}/correct/")
    assert post(director_client, address, {"result": THREE_HEARTS, "reason": "misboard",
                                           "version": 1}).status_code == 200
    stale = post(director_client, address, {"result": TWO_HEARTS, "reason": "another tab",
                                            "version": 1})
    assert stale.status_code == 409
    body = stale.json()
    assert body["existing"]["version"] == 2 and body["existing"]["tricks"] == 9
    assert body["error"].startswith("Board 1 was changed after this correction was begun")
    result.refresh_from_db()
    assert (result.tricks, result.version) == (9, 2)
    # Without a version, whatever is stored is corrected (as before).
    assert post(director_client, address, {"result": TWO_HEARTS, "reason": "looked again"}
                ).status_code == 200


def test_only_the_director_gives_rulings(night, table_client):
    client = table_client(1)
    result = submit(client, night).json()
    response = post(client, url(night.event, f"results/{result['id']}/correct/"),
                    {"ruling": "average"})
    assert response.status_code == 403
    assert response.json()["error"] == "Only the director gives rulings"


def test_a_correction_is_a_result_or_a_ruling(night, director_client):
    result = night.enter(1, 1)
    address = url(night.event, f"results/{result.pk}/correct/")
    response = post(director_client, address, {"reason": "why not"})
    assert response.status_code == 400
    assert response.json()["error"] == (
        "Send either the corrected result or a ruling, not both or neither")


def test_the_director_corrects_with_a_reason(night, director_client):
    result = night.enter(1, 1)
    address = url(night.event, f"results/{result.pk}/correct/")
    response = post(director_client, address, {"result": THREE_HEARTS})
    assert response.status_code == 400
    assert response.json()["field"] == "reason"
    response = post(director_client, address, {"result": THREE_HEARTS, "reason": "misboard"})
    assert response.status_code == 200
    assert response.json()["status"] == "director" and response.json()["tricks"] == 9
    entry = AuditEntry.objects.filter(result=result, action="correct").get()
    assert entry.reason == "misboard" and entry.actor_label == "director alice"


def test_the_director_corrects_to_a_ruling(night, director_client):
    result = night.enter(1, 1)
    response = post(director_client, url(night.event, f"results/{result.pk}/correct/"),
                    {"ruling": "fouled", "offending": "ew", "reason": "E had 12 cards"})
    assert response.status_code == 200
    assert (response.json()["ruling"], response.json()["offending"]) == ("fouled", "ew")
    assert response.json()["result"] is None and response.json()["ns_score"] is None


def test_the_director_awards_a_ruling(night, director_client):
    meeting = night.meeting(2, 3)
    body = {"board": meeting.boards[0], "ns": meeting.ns_pair.number,
            "ew": meeting.ew_pair.number, "ruling": "average", "reason": "slow play"}
    response = post(director_client, url(night.event, "rulings/"), body)
    assert response.status_code == 200, response.json()
    assert response.json()["ruling"] == "average"
    assert (response.json()["round"], response.json()["table"]) == (3, 2)
    response = post(director_client, url(night.event, "rulings/"),
                    {**body, "board": meeting.boards[1], "ruling": "fouled"})
    assert response.status_code == 400
    assert response.json()["field"] == "offending"


def test_void_and_undo(night, director_client):
    result = night.enter(1, 1)
    response = post(director_client, url(night.event, f"results/{result.pk}/void/"),
                    {"reason": "entered twice"})
    assert response.status_code == 200 and response.json()["voided"] is True
    audit = director_client.get(url(night.event, f"audit/?result={result.pk}")).json()
    void = next(e for e in audit["results"] if e["action"] == "void")
    assert void["reason"] == "entered twice" and void["board"] == result.board.number
    response = post(director_client, url(night.event, f"audit/{void['id']}/undo/"), {})
    assert response.status_code == 200 and response.json()["voided"] is False
    response = post(director_client, url(night.event, f"audit/{void['id']}/undo/"), {})
    assert response.status_code == 400
    assert response.json()["error"] == "This change has been undone already"


def test_the_audit_lists_changes_newest_first(night, director_client):
    night.enter(1, 1)
    night.enter(2, 1)
    body = director_client.get(url(night.event, "audit/?limit=2")).json()
    assert body["count"] >= 2 and len(body["results"]) == 2
    first, second = body["results"]
    assert first["id"] > second["id"]
    assert first["action"] == "enter" and first["actor"] == "table 2"


def test_results_list_shows_a_table_only_its_own(night, table_client, director_client):
    night.enter(1, 1)
    night.enter(2, 1)
    mine = table_client(1).get(url(night.event, "results/")).json()
    assert [r["table"] for r in mine] == [1]
    everything = director_client.get(url(night.event, "results/")).json()
    assert sorted(r["table"] for r in everything) == [1, 2]
    board = night.meeting(2, 1).boards[0]
    only = director_client.get(url(night.event, f"results/?board={board}")).json()
    assert [r["board"] for r in only] == [board]


def test_agreeing_a_round_at_the_table(night, table_client):
    client = table_client(1)
    meeting = night.meeting(1, 1)
    address = url(night.event, "sections/A/tables/1/rounds/1/agree/")
    first = submit(client, night).json()
    response = post(client, address)
    assert response.status_code == 400
    assert response.json()["error"] == "Enter all 2 boards before agreeing the round (1 entered)"
    submit(client, night, board=meeting.boards[1])
    response = post(client, address)
    assert response.json()["error"] == "The opponents must confirm every board first"
    for result in Result.objects.filter(meeting=meeting):
        post(client, url(night.event, f"results/{result.pk}/confirm/"))
    response = post(client, address)
    assert response.status_code == 200 and response.json() == {"agreed": 1}
    meeting.refresh_from_db()
    assert meeting.agreed_at is not None
    assert Result.objects.filter(pk=first["id"]).exists()


def test_a_table_agrees_only_its_own_round(night, table_client):
    night.play_round(2, 1)
    response = post(table_client(1), url(night.event, "sections/A/tables/2/rounds/1/agree/"))
    assert response.status_code == 403
    assert night.meeting(2, 1).agreed_at is None


def test_the_director_agrees_a_whole_round(night, director_client, table_client):
    response = post(director_client, url(night.event, "sections/A/rounds/2/agree/"), {})
    assert response.status_code == 200 and response.json() == {"agreed": 3}
    response = post(table_client(1), url(night.event, "sections/A/rounds/2/agree/"), {})
    assert response.status_code == 403


def test_director_writes_can_be_idempotent_too(night, director_client):
    meeting = night.meeting(1, 2)
    body = {"board": meeting.boards[0], "ns": meeting.ns_pair.number,
            "ew": meeting.ew_pair.number, "result": TWO_HEARTS}
    idem = key()
    first = post(director_client, url(night.event, "results/"), body, idem=idem)
    again = post(director_client, url(night.event, "results/"), body, idem=idem)
    assert first.status_code == again.status_code == 201
    assert first.json() == again.json()


def test_services_stay_the_single_write_path(night, director_client):
    """A result entered by the service shows up through the API exactly as stored."""
    result = night.enter(3, 1)
    services.result_confirm(result=result, actor=night.actor)
    body = director_client.get(url(night.event, f"results/{result.pk}/")).json()
    assert body["status"] == "confirmed" and body["id"] == result.pk
