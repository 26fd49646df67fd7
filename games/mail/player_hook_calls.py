"""One signed webhook call to a checked address, made by the outbox's delivery (delivery.py).

    url_check (accounts/player_hook_urls.py: normalise, resolve, every address public) -> connect to the first
    checked address itself (never a second lookup: DNS rebinding gains nothing), TLS verified for the URL's host
    -> POST the JSON body with X-Faltisia-Signature: sha256=<HMAC of the body> -> a 2xx is delivered.

No redirect is followed (a 3xx could point anywhere, the server's own network included): it is a refusal.
A 5xx, 429, timeout or connection error is worth a retry (WebhookFailed: the send task's back-off); a
refused address, a request that cannot be sent as it is, or any other status is final (WebhookRefused:
the row is marked failed, never resent). The signature uses the player's current secret, read at each
call: a rotated secret signs the next call, the old one none.
"""

from __future__ import annotations

import hashlib
import hmac
import http.client
import socket
import ssl

from accounts.player_hook_urls import AddressNotAllowed, CheckedTarget, player_hook_secret, url_check

TIMEOUT_SECONDS = 10
SIGNATURE_HEADER = "X-Faltisia-Signature"


class WebhookFailed(Exception):
    """Worth trying again later (the receiver is down or busy)."""


class WebhookRefused(Exception):
    """Not to be tried again: the address is not allowed, or the receiver refused the call."""


def signature(body: bytes, *, secret: str) -> str:
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


class _PinnedHTTPConnection(http.client.HTTPConnection):
    def __init__(self, target: CheckedTarget, **kwargs):
        super().__init__(target.host, target.port, **kwargs)
        self._address = target.addresses[0]

    def connect(self):
        self.sock = socket.create_connection((self._address, self.port), self.timeout)


class _PinnedHTTPSConnection(http.client.HTTPSConnection):
    def __init__(self, target: CheckedTarget, **kwargs):
        super().__init__(target.host, target.port, context=ssl.create_default_context(), **kwargs)
        self._address = target.addresses[0]

    def connect(self):
        sock = socket.create_connection((self._address, self.port), self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)  # the certificate of the URL's host


def webhook_post(*, url: str, body: bytes, user_id: int, delivery_id: int, resolve_host=None) -> int:
    """Call the webhook once; returns the HTTP status of a delivered call (2xx)."""
    try:
        target = url_check(url, resolve_host=resolve_host)
    except AddressNotAllowed as e:
        raise WebhookRefused(f"address_not_allowed: {e}") from e
    cls = _PinnedHTTPSConnection if target.scheme == "https" else _PinnedHTTPConnection
    conn = cls(target, timeout=TIMEOUT_SECONDS)
    headers = {"Content-Type": "application/json", "User-Agent": "Faltisia-Webhook/1",
               SIGNATURE_HEADER: signature(body, secret=player_hook_secret(user_id=user_id)),
               "X-Faltisia-Delivery": str(delivery_id)}  # the same on a retry: the receiver may drop repeats
    try:
        conn.request("POST", target.path, body=body, headers=headers)
        status = conn.getresponse().status
    except (OSError, http.client.HTTPException) as e:  # a certificate error too (an OSError and a ValueError)
        raise WebhookFailed(f"{type(e).__name__}: {e}") from e
    except ValueError as e:  # the request cannot be sent as it is (InvalidURL, UnicodeEncodeError): nor ever will
        raise WebhookRefused(f"invalid_request: {type(e).__name__}: {e}") from e
    finally:
        conn.close()
    if 200 <= status < 300:
        return status
    if status >= 500 or status == 429:
        raise WebhookFailed(f"HTTP {status}")
    raise WebhookRefused(f"HTTP {status}" + (" (redirects are not followed)" if 300 <= status < 400 else ""))
