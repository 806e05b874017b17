from django.conf import settings
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from tournaments.health import health

urlpatterns = [
    path("health/", health, name="health"),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("", include("tournaments.urls")),
]
if settings.ADMIN_URL:  # ADMIN_URL moves the admin; empty turns it off
    urlpatterns.insert(1, path(settings.ADMIN_URL, admin.site.urls))
