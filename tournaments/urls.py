from django.urls import include, path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("api/", include("tournaments.api.urls")),
    path("", include("tournaments.web.urls")),
    path("", include("tournaments.reports.urls")),
]
