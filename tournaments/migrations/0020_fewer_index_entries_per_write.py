"""Fewer index entries for every table's write: each result entered and confirmed wrote an
entry in nine indexes of the results and seven of the audit trail.

- Results: the index of seq alone (nothing looks results up by seq without their event)
  and the event's own index (the index on (event, seq) begins with the event, and serves
  its lookups) go.
- Audit trail: the party night's and the director's indexes hold only the entries that
  have one (partial indexes), where every table's entry, with neither, added a NULL to each.
"""


import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0019_table_writes_fewer_steps'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AlterField(
            model_name='auditentry',
            name='actor',
            field=models.ForeignKey(blank=True, db_index=False, null=True, on_delete=django.db.models.deletion.SET_NULL, to=settings.AUTH_USER_MODEL),
        ),
        migrations.AlterField(
            model_name='auditentry',
            name='party',
            field=models.ForeignKey(blank=True, db_index=False, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='audit', to='tournaments.party'),
        ),
        migrations.AlterField(
            model_name='result',
            name='event',
            field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='results', to='tournaments.event'),
        ),
        migrations.AlterField(
            model_name='result',
            name='seq',
            field=models.BigIntegerField(default=0),
        ),
        migrations.AddIndex(
            model_name='auditentry',
            index=models.Index(condition=models.Q(('party__isnull', False)), fields=['party'], name='audit_party'),
        ),
        migrations.AddIndex(
            model_name='auditentry',
            index=models.Index(condition=models.Q(('actor__isnull', False)), fields=['actor'], name='audit_actor'),
        ),
    ]
