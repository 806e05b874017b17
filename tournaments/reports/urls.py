"""The director's print room (included at "" by tournaments/urls.py)."""

from django.urls import path

from .. import converters  # noqa: F401  (registers the id, number and name converters)
from . import views

urlpatterns = [
    path("events/<id:pk>/reports/", views.reports_index, name="reports-index"),
    path("events/<id:pk>/reports/<name:kind>/", views.report_job, name="report-job"),
    path("events/<id:pk>/reports/<name:kind>/status/", views.report_status,
         name="report-status"),
    path("events/<id:pk>/reports/<name:kind>/file/", views.report_file, name="report-file"),
    path("seasons/<id:pk>/report/", views.season_report, name="season-report"),
    path("seasons/<id:pk>/report/status/", views.season_report_status,
         name="season-report-status"),
    path("seasons/<id:pk>/report/file/", views.season_report_file, name="season-report-file"),
]
