"""The director's print room (included at "" by tournaments/urls.py)."""

from django.urls import path

from . import views

urlpatterns = [
    path("events/<int:pk>/reports/", views.reports_index, name="reports-index"),
    path("events/<int:pk>/reports/<str:kind>/", views.report_job, name="report-job"),
    path("events/<int:pk>/reports/<str:kind>/status/", views.report_status,
         name="report-status"),
    path("events/<int:pk>/reports/<str:kind>/file/", views.report_file, name="report-file"),
]
