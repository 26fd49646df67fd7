"""Sign-up and token endpoints of the JSON API contract."""

from django.contrib.auth import authenticate
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import AuthenticationFailed, ValidationError
from rest_framework.response import Response
from rest_framework.views import APIView

from .models import User
from .services import token_for_user, user_create


class TokenOutput(serializers.Serializer):
    token = serializers.CharField()


class RegisterApi(APIView):
    authentication_classes: list = []
    permission_classes: list = []

    class Input(serializers.Serializer):
        username = serializers.CharField(max_length=150)
        email = serializers.EmailField()
        password = serializers.CharField(write_only=True)

    @extend_schema(request=Input, responses={201: TokenOutput})
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
        username = serializers.CharField()
        password = serializers.CharField(write_only=True)

    @extend_schema(request=Input, responses={200: TokenOutput})
    def post(self, request):
        data = self.Input(data=request.data)
        data.is_valid(raise_exception=True)
        user = authenticate(request, **data.validated_data)
        if user is None:
            raise AuthenticationFailed("wrong username or password")
        return Response({"token": token_for_user(user=user)})
