"""A database made before ``Board`` moved from the ``boards`` app into ``tournaments`` keeps
its boards, its results' links to them and the admin's log entries (docs/decisions.md,
item 61).

Each test migrates the test database back to the last state before the move (``Board``
under the app label ``boards``, on the table ``boards_board``), writes a night there with
the models of that state, migrates forward to the latest and reads it back with today's
models. Transactional, since the migrations manage their own transactions; the database
is left fully migrated, whatever happens.
"""

import datetime

import pytest
from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.auth import get_user_model
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tournaments.models import Board, Result

# The last migrations of both labels before the move.
BEFORE_THE_MOVE = [("tournaments", "0003_correction_period"), ("boards", "0002_initial")]


def _migrate(targets) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    executor.loader.build_graph()  # the applied set changed: read it again
    return executor


def _latest() -> list[tuple[str, str]]:
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


def _write_a_night_before_the_move(apps) -> dict:
    """An event, three boards and a result on board 2, written with the historical
    models; an admin log entry on board 2 under the old content type."""
    Event = apps.get_model("tournaments", "Event")
    OldBoard = apps.get_model("boards", "Board")
    Player = apps.get_model("tournaments", "Player")
    Pair = apps.get_model("tournaments", "Pair")
    OldResult = apps.get_model("tournaments", "Result")
    ContentType = apps.get_model("contenttypes", "ContentType")
    OldLogEntry = apps.get_model("admin", "LogEntry")
    User = apps.get_model(*get_user_model()._meta.label.split("."))

    assert OldBoard._meta.db_table == "boards_board"
    event = Event.objects.create(name="Tuesday duplicate", date=datetime.date(1913, 11, 4))
    boards = {n: OldBoard.objects.create(event=event, number=n, deal="") for n in (1, 2, 3)}
    players = [Player.objects.create(name=name) for name in ("Ann", "Bob", "Cy", "Di")]
    ns = Pair.objects.create(event=event, number=1, player_1=players[0], player_2=players[1])
    ew = Pair.objects.create(event=event, number=2, player_1=players[2], player_2=players[3])
    result = OldResult.objects.create(
        event=event, board=boards[2], ns_pair=ns, ew_pair=ew, level=2, denomination="H",
        declarer="S", tricks=8, ns_score=16, ew_score=0, status="confirmed")
    content_type, _ = ContentType.objects.get_or_create(app_label="boards", model="board")
    director = User.objects.create(username="old-director")
    entry = OldLogEntry.objects.create(
        user=director, content_type=content_type, object_id=str(boards[2].pk),
        object_repr="Board 2", action_flag=CHANGE, change_message="deal typed in")
    return {"event": event.pk, "boards": {n: b.pk for n, b in boards.items()},
            "result": result.pk, "content_type": content_type.pk, "entry": entry.pk}


def _check_the_night_survived(before: dict) -> None:
    ContentType.objects.clear_cache()
    tables = connection.introspection.table_names()
    assert "tournaments_board" in tables and "boards_board" not in tables
    boards = {b.number: b.pk for b in Board.objects.filter(event_id=before["event"])}
    assert boards == before["boards"]
    result = Result.objects.select_related("board").get(pk=before["result"])
    assert (result.board.pk, result.board.number) == (before["boards"][2], 2)
    assert [r.pk for r in Board.objects.get(pk=before["boards"][2]).results.all()] == [
        before["result"]]
    # The row of the content type moved, keeping its id: the admin's log entry and any
    # permission granted on boards still point at boards.
    content_type = ContentType.objects.get_for_model(Board)
    assert (content_type.pk, content_type.app_label) == (before["content_type"], "tournaments")
    assert not ContentType.objects.filter(app_label="boards").exists()
    entry = LogEntry.objects.get(pk=before["entry"])
    assert entry.get_edited_object() == Board.objects.get(pk=before["boards"][2])
    assert entry.get_admin_url() == f"/admin/tournaments/board/{before['boards'][2]}/change/"
    # The database's foreign key went with the table.
    with connection.cursor() as cursor:
        constraints = connection.introspection.get_constraints(cursor, "tournaments_result")
    assert [c["foreign_key"] for c in constraints.values()
            if c["columns"] == ["board_id"] and c["foreign_key"]] == [("tournaments_board", "id")]


def _a_night_survives_the_move() -> None:
    latest = _latest()
    try:
        executor = _migrate(BEFORE_THE_MOVE)
        assert "boards_board" in connection.introspection.table_names()
        others = [node for node in executor.loader.graph.leaf_nodes()
                  if node[0] not in ("tournaments", "boards")]  # admin, auth, contenttypes…
        state = executor.loader.project_state(BEFORE_THE_MOVE + others)
        before = _write_a_night_before_the_move(state.apps)
        _migrate(latest)
        _check_the_night_survived(before)
    finally:
        _migrate(latest)
        ContentType.objects.clear_cache()
    assert not MigrationExecutor(connection).migration_plan(latest)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_boards_and_results_survive_the_move_on_postgresql():
    _a_night_survives_the_move()


@pytest.mark.django_db(transaction=True)
def test_boards_and_results_survive_the_move_on_sqlite():
    if connection.vendor != "sqlite":
        pytest.skip("the database here is not SQLite (make test's default is)")
    _a_night_survives_the_move()
