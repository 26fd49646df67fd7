from django.urls import path

from .apis import RegisterApi, TokenApi

urlpatterns = [
    path("register/", RegisterApi.as_view(), name="auth-register"),
    path("token/", TokenApi.as_view(), name="auth-token"),
]
