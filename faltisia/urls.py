"""Root URLs. Each app owns its routes; add new surfaces (web pages, email webhooks) as includes."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(permission_classes=[]), name="api-schema"),
    path("api/auth/", include("accounts.urls")),
    path("api/", include("games.urls")),
    path("accounts/", include("accounts.urls_web")),
    path("", include("games.web.urls")),
]
urlpatterns += [
    path("api/", include("games.tournaments.api_urls")),
    path("", include("games.tournaments.urls")),
]
urlpatterns += [path("mail/", include("games.mail.urls"))]
