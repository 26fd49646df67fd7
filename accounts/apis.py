"""Sign-up and token endpoints of the JSON API contract."""

from django.contrib.auth import authenticate
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import AuthenticationFailed, ValidationError
from rest_framework.response import Response
from rest_framework.views import APIView

from .models import User
from .services import token_for_user, user_create


class TokenOutput(serializers.Serializer):
    class Meta:
        ref_name = "TokenResponse"

    token = serializers.CharField()


def _error_responses(**described: str) -> dict:
    """{status: the API's one error body} for the codes given as e<status>="when"."""
    from games.api_serializers import ErrorResponse  # games' error handler makes that body for every route
    return {int(code[1:]): OpenApiResponse(ErrorResponse, description=text) for code, text in described.items()}


class RegisterApi(APIView):
    authentication_classes: list = []
    permission_classes: list = []

    class Input(serializers.Serializer):
        class Meta:
            ref_name = "RegisterRequest"  # its own schema component: nested Input classes collide (issue 10 item 8)

        username = serializers.CharField(max_length=150)
        email = serializers.EmailField()
        password = serializers.CharField(write_only=True)

    @extend_schema(request=Input, responses={201: TokenOutput, **_error_responses(
        e400="Invalid input, a taken username or a weak password.", e429="Too many attempts; try again later.")})
    def post(self, request):
        data = self.Input(data=request.data)
        data.is_valid(raise_exception=True)
        if User.objects.filter(username=data.validated_data["username"]).exists():
            raise ValidationError({"username": "taken"})
        try:
            user = user_create(**data.validated_data)
        except DjangoValidationError as e:
            raise ValidationError({"password": e.messages})
        except IntegrityError:
            raise ValidationError({"username": "taken"})
        return Response({"token": token_for_user(user=user)}, status=status.HTTP_201_CREATED)


class TokenApi(APIView):
    authentication_classes: list = []
    permission_classes: list = []

    class Input(serializers.Serializer):
        class Meta:
            ref_name = "TokenRequest"  # its own schema component: nested Input classes collide (issue 10 item 8)

        username = serializers.CharField()
        password = serializers.CharField(write_only=True)

    @extend_schema(request=Input, responses={200: TokenOutput, **_error_responses(
        e400="Invalid input.", e401="Wrong username or password.", e403="Wrong username or password.",
        e429="Too many failed attempts; try again later.")})
    def post(self, request):
        data = self.Input(data=request.data)
        data.is_valid(raise_exception=True)
        user = authenticate(request, **data.validated_data)
        if user is None:
            raise AuthenticationFailed("wrong username or password")
        return Response({"token": token_for_user(user=user)})
