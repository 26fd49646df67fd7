"""Sign-up and token endpoints of the JSON API contract."""

from django.contrib.auth import authenticate
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import AuthenticationFailed, ValidationError
from rest_framework.response import Response
from rest_framework.views import APIView

from .lockout import LoginLockedOut
from .services import token_for_user, user_register
from .usernames import RULE, USERNAME_MAX_LENGTH, username_clean


class TokenOutput(serializers.Serializer):
    token = serializers.CharField()


class RegisterApi(APIView):
    authentication_classes: list = []
    permission_classes: list = []

    class Input(serializers.Serializer):
        username = serializers.CharField(max_length=USERNAME_MAX_LENGTH * 2, trim_whitespace=False,
                                         help_text=f"{RULE}; unique regardless of case")
        email = serializers.EmailField()
        password = serializers.CharField(write_only=True)

        def validate_username(self, value: str) -> str:
            try:
                return username_clean(value)  # the same rule as web sign-up and the admin
            except DjangoValidationError as e:
                raise ValidationError(e.messages)

    @extend_schema(request=Input, responses={
        201: TokenOutput,
        400: OpenApiResponse(description="{error: \"invalid\", detail, fields}: the username breaks the rule or is "
                                         "taken (any case), the address is not valid, or the password is weak.")})
    def post(self, request):
        """Sign up: the token at once; the address gets a confirmation link, and no game mail before."""
        data = self.Input(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            user = user_register(**data.validated_data, base_url=request.build_absolute_uri("/"))
        except DjangoValidationError as e:
            raise ValidationError(e.message_dict)
        except IntegrityError:
            raise ValidationError({"username": ["That username is taken."]})
        return Response({"token": token_for_user(user=user)}, status=status.HTTP_201_CREATED)


class TokenApi(APIView):
    authentication_classes: list = []
    permission_classes: list = []

    class Input(serializers.Serializer):
        username = serializers.CharField()
        password = serializers.CharField(write_only=True)

    @extend_schema(request=Input, responses={
        200: TokenOutput,
        403: OpenApiResponse(description="Wrong username or password: {error, detail}."),
        429: OpenApiResponse(description="Too many failed logins for this username or from this address "
                                         "(LOGIN_FAILURE_LIMIT); {error: \"locked_out\", detail}. Try again after "
                                         "LOGIN_COOLOFF_MINUTES.")})
    def post(self, request):
        data = self.Input(data=request.data)
        data.is_valid(raise_exception=True)
        user = authenticate(request, **data.validated_data)  # through django-axes (settings.py)
        if user is None:
            if getattr(request, "axes_locked_out", False):
                raise LoginLockedOut()  # 429 {error: "locked_out", detail}
            raise AuthenticationFailed("wrong username or password")
        return Response({"token": token_for_user(user=user)})
