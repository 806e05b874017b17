"""Board moves from the app label ``boards`` to ``tournaments``: in Django's state only.

The table ``boards_board`` and its rows stay as they are; ``tournaments.Board`` is declared
over it (``db_table``) and ``Result.board`` now names ``tournaments.Board``, which is the
same table, so its column and foreign key need no change. ``boards`` 0003 then drops
``Board`` from the old label's state, and 0005 renames the table. Three steps, since one
migration belongs to one app label (docs/decisions.md, item 61).
"""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0003_correction_period"),
        ("boards", "0002_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Board",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True,
                                                   serialize=False, verbose_name="ID")),
                        ("number", models.PositiveSmallIntegerField()),
                        ("deal", models.CharField(blank=True, max_length=80)),
                        ("event", models.ForeignKey(
                            on_delete=django.db.models.deletion.CASCADE,
                            related_name="boards", to="tournaments.event")),
                    ],
                    options={
                        "ordering": ["event", "number"],
                        "db_table": "boards_board",
                        "constraints": [
                            models.UniqueConstraint(fields=("event", "number"),
                                                    name="board_number_unique_in_event"),
                            models.CheckConstraint(condition=models.Q(("number__gte", 1)),
                                                   name="board_number_positive"),
                        ],
                    },
                ),
                migrations.AlterField(
                    model_name="result",
                    name="board",
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE,
                                            related_name="results", to="tournaments.board"),
                ),
            ],
            database_operations=[],
        ),
    ]
