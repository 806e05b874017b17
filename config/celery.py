"""The Celery application.

With ``REDIS_URL`` set, Redis is the broker and result backend and jobs run in a
worker (``make worker``). Without it, settings turn on ``task_always_eager`` and
jobs run in-process, so a newcomer needs no Redis.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("duplicate")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
