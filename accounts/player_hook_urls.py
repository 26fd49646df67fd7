"""Which webhook addresses the server will call: only https to public addresses.

A player's webhook URL is a request the server makes on their behalf, so it must never reach the
server's own network (SSRF): the host is resolved and every address it resolves to must be public
(not private, loopback, link-local, multicast, reserved, unspecified or shared; an IPv4-mapped or
NAT64-embedded IPv6 address is judged by the IPv4 address inside). The check runs when the URL is set
and again at every call, which then connects to the address it checked (games/mail/player_hook_calls.py): a
name that resolves elsewhere the second time (DNS rebinding) gains nothing. Numeric hosts in any form
the resolver accepts (decimal 2130706433, octal, short forms) are judged by the address they mean.
``WEBHOOK_ALLOW_PRIVATE_ADDRESSES=true`` (tests only) lets private addresses and plain http through.

The URL is normalised before it is judged: a non-ASCII host becomes its IDNA (punycode) form, which is
what gets resolved and checked, and the path, query and fragment are percent-encoded as UTF-8 (escapes
already there and reserved characters kept). The normalised URL is what is stored and shown back, and a
row stored before is normalised again at send time: http.client sends only ASCII, so a raw non-ASCII
URL would otherwise fail inside the call, an error the send task takes for a passing one and retries.
Anything that cannot be normalised is an AddressNotAllowed, the only exception ``url_check`` raises.

The signing secret of a player's hook is derived, never stored: HMAC(SECRET_KEY, user id and the
player's ``hook_secret_nonce``). Rotating it draws a new nonce; an empty nonce (a player who never
rotated) derives exactly the secret of the form without a nonce, so adding the nonce changes no secret.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import re
import secrets
import socket
import string
import unicodedata
from dataclasses import dataclass
from urllib.parse import quote, urlsplit, urlunsplit

import idna
from django.conf import settings

from .models import NotificationPreferences

MAX_URL = 500


class AddressNotAllowed(ValueError):
    """The URL is not one the server will call; the message says why (shown to the player)."""


@dataclass(frozen=True)
class CheckedTarget:
    scheme: str
    host: str  # as written (SNI and the Host header)
    port: int
    path: str  # path and query
    addresses: tuple[str, ...]  # every address the host resolved to, all allowed
    url: str  # the whole URL normalised (ASCII): what is stored and shown back to the player


def private_allowed() -> bool:
    return bool(getattr(settings, "WEBHOOK_ALLOW_PRIVATE_ADDRESSES", False))


def _embedded_v4(ip: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    if ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    if ip in ipaddress.ip_network("64:ff9b::/96"):  # NAT64: the IPv4 address is the last 32 bits
        return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    if ip.sixtofour is not None:
        return ip.sixtofour
    return None


def address_allowed(address: str) -> bool:
    """Whether the server may connect to this IP address (a public unicast address)."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address):
        inner = _embedded_v4(ip)
        if inner is not None and not address_allowed(str(inner)):
            return False
    if private_allowed():
        return not ip.is_unspecified and not ip.is_multicast
    return ip.is_global and not (ip.is_multicast or ip.is_reserved or ip.is_link_local or ip.is_loopback
                                 or ip.is_private or ip.is_unspecified)


def resolve(host: str, port: int) -> tuple[str, ...]:
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError, OSError) as e:
        raise AddressNotAllowed(f"the host {host!r} could not be resolved") from e
    return tuple(dict.fromkeys(info[4][0] for info in infos))


# Kept as written in a path, query or fragment: RFC 3986's unreserved and reserved characters ("#" ends
# the part it would be in, so it never survives the split) and "%" when it starts an escape.
_URL_SAFE = string.ascii_letters + string.digits + "-._~" + "!$&'()*+,;=" + ":@/?[]"
_STRAY_PERCENT = re.compile(r"%(?![0-9A-Fa-f]{2})")
# Refused anywhere in the URL: invisible or ambiguous once shown (controls, format characters such as
# bidirectional overrides, every kind of space) or not encodable at all (lone surrogates).
_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zs", "Zl", "Zp"})


def _percent_encoded(text: str) -> str:
    return quote(_STRAY_PERCENT.sub("%25", text), safe=_URL_SAFE + "%", encoding="utf-8", errors="strict")


def _idna_host(host: str) -> str:
    """The host as DNS knows it: ASCII hosts as written, others by UTS 46 and IDNA 2008 (as browsers do)."""
    if host.isascii():
        return host
    try:
        return idna.encode(host, uts46=True).decode("ascii")
    except (idna.IDNAError, UnicodeError) as e:
        raise AddressNotAllowed(f"the host {host!r} is not a valid international domain name ({e})") from e


def _url_check(url: str, resolve_host) -> CheckedTarget:
    if not isinstance(url, str) or not url.strip():
        raise AddressNotAllowed("a URL is required")
    url = url.strip()
    if len(url) > MAX_URL or any(ord(c) < 33 or ord(c) == 127 or unicodedata.category(c) in _REFUSED_CATEGORIES
                                 for c in url):
        raise AddressNotAllowed(f"not a valid URL (at most {MAX_URL} characters, no spaces, control or "
                                "invisible formatting characters)")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as e:
        raise AddressNotAllowed("not a valid URL") from e
    allowed_schemes = ("https", "http") if private_allowed() else ("https",)
    if parts.scheme not in allowed_schemes:
        raise AddressNotAllowed("only https:// webhook URLs are allowed")
    if parts.username is not None or parts.password is not None:
        raise AddressNotAllowed("a webhook URL may not carry a user name or password")
    if not parts.hostname:
        raise AddressNotAllowed("the URL has no host")
    host = _idna_host(parts.hostname)
    netloc = (f"[{host}]" if ":" in host else host) + (f":{port}" if port is not None else "")
    path, query, fragment = (_percent_encoded(p) for p in (parts.path, parts.query, parts.fragment))
    normalised = urlunsplit((parts.scheme, netloc, path, query, fragment))
    if len(normalised) > MAX_URL:
        raise AddressNotAllowed(f"the URL is longer than {MAX_URL} characters once encoded")
    port = port or (443 if parts.scheme == "https" else 80)
    addresses = (resolve_host or resolve)(host, port)
    if not addresses:
        raise AddressNotAllowed(f"the host {host!r} has no address")
    refused = [a for a in addresses if not address_allowed(a)]
    if refused:
        raise AddressNotAllowed(f"the host {host!r} resolves to an address that is not public ({refused[0]})")
    return CheckedTarget(scheme=parts.scheme, host=host, port=port, addresses=addresses, url=normalised,
                         path=(path or "/") + (f"?{query}" if query else ""))


def url_check(url: str, *, resolve_host=None) -> CheckedTarget:
    """The URL's target, normalised, if the server may call it; raises AddressNotAllowed saying why, and
    nothing else: a stored URL the rules above missed still fails as a refusal (final), not as an error
    the send task would retry."""
    try:
        return _url_check(url, resolve_host)
    except AddressNotAllowed:
        raise
    except ValueError as e:  # UnicodeError among them
        raise AddressNotAllowed(f"not a valid URL ({type(e).__name__})") from e


def player_hook_secret_for(*, user_id: int, nonce: str) -> str:
    """The signing secret of a player's hook for this nonce. With "" it is HMAC of "webhook-secret:<id>"
    alone: a player who has not rotated keeps the secret their receiver already checks. A nonce goes after
    a separator, so no other user id and nonce derive the same message."""
    message = f"webhook-secret:{user_id}" + (f":{nonce}" if nonce else "")
    return hmac.new(settings.SECRET_KEY.encode(), message.encode(), hashlib.sha256).hexdigest()[:40]


def player_hook_secret_nonce_new() -> str:
    return secrets.token_hex(16)


def player_hook_secret(*, user_id: int) -> str:
    """The player's current webhook signing secret: derived from SECRET_KEY and their nonce, so never
    stored; shown on their preferences page and returned by /api/auth/webhook/ so the receiver can check
    X-Faltisia-Signature. Read at every call, so a rotated secret signs the very next one."""
    nonce = (NotificationPreferences.objects.filter(user_id=user_id)
             .values_list("hook_secret_nonce", flat=True).first())
    return player_hook_secret_for(user_id=user_id, nonce=nonce or "")
