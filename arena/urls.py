"""URL routes: the admin, the API under /api/, its schema and docs, and the pages (arena/web/)."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from arena.api.metrics import metrics_view

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="docs"),
    path("api/", include("arena.api.urls")),
    path("metrics", metrics_view, name="metrics"),
    path("", include("arena.web.live_urls")),
    path("", include("arena.web.urls")),
]

# Addresses no route matches (a malformed id, /api/nothing/) and server errors answer in the
# API's JSON shape under /api/, Django's pages elsewhere (arena/api/errors.py).
handler404 = "arena.api.errors.page_not_found"
handler500 = "arena.api.errors.server_error"
