"""Sign-up and token endpoints of the JSON API contract."""

from django.conf import settings
from django.contrib.auth import authenticate
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import AuthenticationFailed, Throttled, ValidationError
from rest_framework.response import Response
from rest_framework.views import APIView

from .lockout import LoginLockedOut
from .preferences import player_hook_secret_rotate, preferences_for, webhook_set
from .player_hook_urls import MAX_URL, AddressNotAllowed, url_check, player_hook_secret
from .services import token_for_user, user_register
from .throttle import signup_allowed
from .new_usernames import username_clean
from .usernames import RULE, USERNAME_MAX_LENGTH


class TokenOutput(serializers.Serializer):
    class Meta:
        ref_name = "TokenResponse"

    token = serializers.CharField()


def _error_responses(**described: str) -> dict:
    """{status: the API's one error body} for the codes given as e<status>="when"."""
    from games.api.serializers import ErrorResponse  # games' error handler makes that body for every route
    return {int(code[1:]): OpenApiResponse(ErrorResponse, description=text) for code, text in described.items()}


class RegisterApi(APIView):
    authentication_classes: list = []
    permission_classes: list = []

    class Input(serializers.Serializer):
        class Meta:
            ref_name = "RegisterRequest"  # its own schema component: nested Input classes would collide

        username = serializers.CharField(max_length=USERNAME_MAX_LENGTH * 2, trim_whitespace=False,
                                         help_text=f"{RULE}; unique regardless of case")
        email = serializers.EmailField()
        password = serializers.CharField(write_only=True)

        def validate_username(self, value: str) -> str:
            try:
                return username_clean(value)  # the same rule as web sign-up and the admin
            except DjangoValidationError as e:
                raise ValidationError(e.messages)

    @extend_schema(request=Input, responses={201: TokenOutput, **_error_responses(
        e400="{error: \"invalid\", detail, fields}: the username breaks the rule or is taken (any case), the "
             "address is not valid, or the password is weak.",
        e429="Too many sign-ups from this address; try again later.")})
    def post(self, request):
        """Sign up: the token at once; the address gets a confirmation link, and no game mail before."""
        if not signup_allowed(request=request):
            raise Throttled(detail="Too many sign-ups from this address; try again later.",
                            wait=settings.MAIL_REQUEST_WINDOW_SECONDS)
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
        class Meta:
            ref_name = "TokenRequest"  # its own schema component: nested Input classes would collide

        username = serializers.CharField()
        password = serializers.CharField(write_only=True)

    @extend_schema(request=Input, responses={200: TokenOutput, **_error_responses(
        e400="Invalid input.", e401="Wrong username or password.", e403="Wrong username or password.",
        e429="Too many failed logins for this username or from this address (LOGIN_FAILURE_LIMIT); "
             "{error: \"locked_out\", detail}. Try again after LOGIN_COOLOFF_MINUTES.")})
    def post(self, request):
        data = self.Input(data=request.data)
        data.is_valid(raise_exception=True)
        user = authenticate(request, **data.validated_data)  # through django-axes (settings.py)
        if user is None:
            if getattr(request, "axes_locked_out", False):
                raise LoginLockedOut()  # 429 {error: "locked_out", detail}
            raise AuthenticationFailed("wrong username or password")
        return Response({"token": token_for_user(user=user)})


class WebhookApi(APIView):
    """PUT/DELETE /api/auth/webhook/: the caller's webhook for their turns; POST rotates its
    signing secret."""

    class Input(serializers.Serializer):
        class Meta:
            ref_name = "WebhookRequest"

        url = serializers.CharField(max_length=MAX_URL, trim_whitespace=True,
                                    help_text="https:// to a public address (Discord- and Slack-compatible JSON); "
                                              "stored and answered normalised: an international host in its "
                                              "IDNA (xn--) form, the path and query percent-encoded as UTF-8")

    class RotateInput(serializers.Serializer):
        class Meta:
            ref_name = "WebhookRotateRequest"

        rotate_secret = serializers.BooleanField(help_text="true: make a new signing secret; the old one signs "
                                                           "nothing from now on")

        def validate_rotate_secret(self, value: bool) -> bool:
            if value is not True:
                raise ValidationError("must be true")
            return value

    class Output(serializers.Serializer):
        class Meta:
            ref_name = "WebhookResponse"

        url = serializers.CharField(allow_blank=True,
                                    help_text="the webhook as stored (normalised); \"\" when none is set")
        secret = serializers.CharField(help_text="X-Faltisia-Signature is sha256=HMAC-SHA256(secret, body)")

    @extend_schema(request=Input, responses={200: Output, **_error_responses(
        e400="{error: \"address_not_allowed\", detail}: not https, a host that is not a valid (international) "
             "domain name, or one that resolves to a private, loopback, link-local or otherwise non-public "
             "address; {error: \"invalid\", ...} for a missing url.",
        e401="Not logged in.")})
    def put(self, request):
        """Set the webhook the server posts each of your turns to."""
        data = self.Input(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            url = url_check(data.validated_data["url"]).url
        except AddressNotAllowed as e:
            return Response({"error": "address_not_allowed", "detail": str(e)}, status=status.HTTP_400_BAD_REQUEST)
        webhook_set(user=request.user, url=url)
        return Response({"url": url, "secret": player_hook_secret(user_id=request.user.pk)})

    @extend_schema(request=RotateInput, responses={200: Output, **_error_responses(
        e400="{error: \"invalid\", ...}: rotate_secret is missing or not true.", e401="Not logged in.")})
    def post(self, request):
        """Rotate your webhook's signing secret: the answer shows the new one (also shown on your preferences
        page); from now on every call is signed with it, and the old one verifies none."""
        self.RotateInput(data=request.data).is_valid(raise_exception=True)
        secret = player_hook_secret_rotate(user=request.user)
        return Response({"url": preferences_for(user=request.user).webhook_url, "secret": secret})

    @extend_schema(request=None, responses={204: None, **_error_responses(e401="Not logged in.")})
    def delete(self, request):
        """Remove your webhook (calls not made yet are dropped)."""
        webhook_set(user=request.user, url="")
        return Response(status=status.HTTP_204_NO_CONTENT)
