"""Routes of the email layer (mounted under /mail/): one-click links, unsubscribe, inbound webhooks."""

from django.urls import include, path

from . import views
from .inbound_providers import inbound_urlpatterns

urlpatterns = [
    path("l/<str:token>/", views.pick_link, name="mail-pick"),
    path("unsubscribe/<str:token>/", views.unsubscribe, name="mail-unsubscribe"),
    # The providers' inbound webhooks: /mail/inbound/<esp>/inbound/ for each of MAIL_INBOUND_ESPS (inbound_providers.py)
    path("inbound/", include(inbound_urlpatterns())),
]
