from django.urls import path

from .apis import RegisterApi, TokenApi, WebhookApi

urlpatterns = [
    path("register/", RegisterApi.as_view(), name="auth-register"),
    path("token/", TokenApi.as_view(), name="auth-token"),
    path("webhook/", WebhookApi.as_view(), name="auth-webhook"),
]
