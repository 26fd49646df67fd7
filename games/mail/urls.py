"""Routes of the email layer (mounted under /mail/): one-click links, unsubscribe, inbound webhooks."""

from django.urls import include, path

from . import views

urlpatterns = [
    path("l/<str:token>/", views.pick_link, name="mail-pick"),
    path("unsubscribe/<str:token>/", views.unsubscribe, name="mail-unsubscribe"),
    # django-anymail's inbound webhooks: /mail/inbound/<esp>/inbound/ (e.g. postmark, mailgun, amazon_ses)
    path("inbound/", include("anymail.urls")),
]
