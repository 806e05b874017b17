"""Submission keys are now claimed in the write's own transaction, with the answer
stored before it commits. A record committed without an answer is a claim left by a
process that died under the earlier scheme: forget it, so a retry runs again."""

from django.db import migrations


def forget_dead_claims(apps, schema_editor):
    record = apps.get_model("tournaments", "IdempotencyRecord")
    record.objects.filter(status_code__isnull=True).delete()


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0006_service_state"),
    ]

    operations = [
        migrations.RunPython(forget_dead_claims, migrations.RunPython.noop),
    ]
