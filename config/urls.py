from csp.decorators import csp_update
from django.conf import settings
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.shortcuts import redirect
from django.templatetags.static import static
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from tournaments.health import health

# Swagger UI under the site's Content-Security-Policy: the split view serves its start-up
# script as a file (/api/docs/?script=) instead of inline, our template links its one style
# sheet instead of a <style> block, and the page allows data: images, which Swagger UI's own
# style sheet uses for its icons.
api_docs = csp_update({"img-src": ["data:"]})(
    SpectacularSwaggerSplitView.as_view(url_name="api-schema", template_name="api/docs.html"))

urlpatterns = [
    path("health/", health, name="health"),
    # Browsers and feed readers that do not read the pages' <link rel="icon"> ask here.
    path("favicon.ico", lambda request: redirect(static("favicon.svg"), permanent=True)),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", api_docs, name="api-docs"),
    path("", include("tournaments.urls")),
]
if settings.ADMIN_URL:  # ADMIN_URL moves the admin; empty turns it off
    urlpatterns.insert(1, path(settings.ADMIN_URL, admin.site.urls))
