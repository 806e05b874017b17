"""Board's table takes the tournaments name, and its content type follows it.

After 0004 and ``boards`` 0003 the model is ``tournaments.Board`` on the table
``boards_board``; here the table is renamed to ``tournaments_board`` (PostgreSQL and
SQLite carry the foreign key from ``tournaments_result`` along), and the
``django_content_type`` row ``boards.board`` becomes ``tournaments.board``, keeping its id,
so the admin's log entries and the permissions granted on boards keep pointing at it.
Both steps reverse.
"""

from django.db import migrations


def _move_content_type(apps, source: str, target: str) -> None:
    ContentType = apps.get_model("contenttypes", "ContentType")
    moving = ContentType.objects.filter(app_label=source, model="board").first()
    if moving is None:  # a fresh database: post_migrate makes the row after this
        return
    # A row for the target exists only when post_migrate ran between the two halves of
    # the move (say `migrate tournaments 0004` alone): it holds no more than the default
    # permissions, which the moving row holds too, so the moving row, with the history,
    # takes its place.
    ContentType.objects.filter(app_label=target, model="board").delete()
    moving.app_label = target
    moving.save(update_fields=["app_label"])


def content_type_to_tournaments(apps, schema_editor) -> None:
    _move_content_type(apps, "boards", "tournaments")


def content_type_to_boards(apps, schema_editor) -> None:
    _move_content_type(apps, "tournaments", "boards")


class Migration(migrations.Migration):

    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("boards", "0003_board_moved_to_tournaments"),
        ("tournaments", "0004_board_from_boards"),
    ]

    operations = [
        migrations.AlterModelTable(name="board", table=None),
        migrations.RunPython(content_type_to_tournaments, content_type_to_boards),
    ]
