# The print room's hand records: a new kind of report job (choices only; no data change).

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0024_rubber_change_numbers'),
    ]

    operations = [
        migrations.AlterField(
            model_name='reportjob',
            name='kind',
            field=models.CharField(choices=[
                ('travellers', 'Travellers'), ('standings', 'Standings'),
                ('scorecards', 'Personal score cards'), ('guidecards', 'Guide cards'),
                ('handrecords', 'Hand records'),
                ('overall', 'Overall standings (all sessions)'),
                ('rubber', 'Rubber score sheet'), ('party', 'Party night standings'),
                ('season', 'Season table'),
            ], max_length=12),
        ),
    ]
