"""Root URLs. Each app owns its routes; add new surfaces (web pages, email webhooks) as includes."""

from django.contrib import admin
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView

from games.request_guard import api_not_found

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(permission_classes=[]), name="api-schema"),
    path("api/auth/", include("accounts.urls")),
    path("api/", include("games.api.urls")),
    path("accounts/", include("accounts.urls_web")),
    path("", include("games.web.urls")),
]
urlpatterns += [
    path("api/", include("games.tournaments.api_urls")),
    path("", include("games.tournaments.urls")),
]
urlpatterns += [path("mail/", include("games.mail.urls"))]

from django.conf import settings  # noqa: E402  (kept with the only route that needs it)

if settings.BENCHMARK_FLOOR_ENDPOINT:
    # The load benchmark's floor (benchmarks/floor_api.py); never mounted unless the setting is on.
    from benchmarks.floor_api import AuthenticatedApi, FloorInsertApi, plain_django_view

    urlpatterns += [path("api/bench/floor/<int:game_id>/", FloorInsertApi.as_view(), name="bench-floor"),
                    path("api/bench/plain/", plain_django_view, name="bench-plain"),  # benchmarks/server_floor.py
                    path("api/bench/authenticated/", AuthenticatedApi.as_view(), name="bench-authenticated")]

# Last: under /api/, a URL that matches no route answers the API's error body, in DEBUG too
# (games/request_guard.py). Only URLs ending in a slash, so APPEND_SLASH still redirects the others.
urlpatterns.append(re_path(r"^api/(?:[\s\S]*/)?\Z", api_not_found, name="api-not-found"))  # [\s\S]: newlines too
