from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0008_law_b_and_changes_in_the_night"),
    ]

    operations = [
        migrations.AddField(
            model_name="tablecode",
            name="closed_after_round",
            field=models.PositiveSmallIntegerField(blank=True, null=True),
        ),
    ]
