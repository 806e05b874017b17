"""``Board`` now belongs to ``tournaments`` (tournaments 0004 took it over, in state, with its
table): drop it from this label's state. No table is touched."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("boards", "0002_initial"),
        # Result.board must name tournaments.Board before boards.Board can go.
        ("tournaments", "0004_board_from_boards"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="Board")],
            database_operations=[],
        ),
    ]
