"""The /health/ endpoint: is the database up, and does the job queue answer?"""

from celery import Celery
from django.db import connection
from django.http import JsonResponse

from config.celery import app as default_app

JOB_TIMEOUT_SECONDS = 3.0


def database_status() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception:  # any driver error means the same thing to a director
        return "unreachable"
    return "ok"


def jobs_status(app: Celery = default_app) -> str:
    """ok: a worker ran a ping; eager: jobs run in-process; unreachable otherwise."""
    if app.conf.task_always_eager:
        from .tasks import ping

        return "eager" if ping.apply().get() == "pong" else "unreachable"
    try:
        result = app.send_task("tournaments.ping", retry=False)
        answer = result.get(timeout=JOB_TIMEOUT_SECONDS)
    except Exception:  # broker refused, backend down, no worker within the timeout
        return "unreachable"
    return "ok" if answer == "pong" else "unreachable"


def health(request):
    database = database_status()
    body = {"database": database, "jobs": jobs_status()}
    body["status"] = "ok" if database == "ok" else "degraded"
    return JsonResponse(body, status=200 if database == "ok" else 503)
