"""URL routes: the admin, the API under /api/, the OpenAPI schema and its interactive docs."""

from django.contrib import admin
from django.urls import include, path
from django.views.generic import RedirectView
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

urlpatterns = [
    path("", RedirectView.as_view(url="/api/", permanent=False)),
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="docs"),
    path("api/", include("arena.api.urls")),
]

# Addresses no route matches (a malformed id, /api/nothing/) and server errors answer in the
# API's JSON shape under /api/, Django's pages elsewhere (arena/api/errors.py).
handler404 = "arena.api.errors.page_not_found"
handler500 = "arena.api.errors.server_error"
