"""Which webhook addresses the server will call (issue 25): only https to public addresses.

A player's webhook URL is a request the server makes on their behalf, so it must never reach the
server's own network (SSRF): the host is resolved and every address it resolves to must be public
(not private, loopback, link-local, multicast, reserved, unspecified or shared; an IPv4-mapped or
NAT64-embedded IPv6 address is judged by the IPv4 address inside). The check runs when the URL is set
and again at every call, which then connects to the address it checked (games/mail/hook_calls.py): a
name that resolves elsewhere the second time (DNS rebinding) gains nothing. Numeric hosts in any form
the resolver accepts (decimal 2130706433, octal, short forms) are judged by the address they mean.
``WEBHOOK_ALLOW_PRIVATE_ADDRESSES=true`` (tests only) lets private addresses and plain http through.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings

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


def url_check(url: str, *, resolve_host=None) -> CheckedTarget:
    """The URL's target if the server may call it; raises AddressNotAllowed saying why."""
    if not isinstance(url, str) or not url.strip():
        raise AddressNotAllowed("a URL is required")
    url = url.strip()
    if len(url) > MAX_URL or any(ord(c) < 33 or ord(c) == 127 for c in url):
        raise AddressNotAllowed(f"not a valid URL (at most {MAX_URL} characters, no spaces or control characters)")
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
    host = parts.hostname
    if not host:
        raise AddressNotAllowed("the URL has no host")
    port = port or (443 if parts.scheme == "https" else 80)
    addresses = (resolve_host or resolve)(host, port)
    if not addresses:
        raise AddressNotAllowed(f"the host {host!r} has no address")
    refused = [a for a in addresses if not address_allowed(a)]
    if refused:
        raise AddressNotAllowed(f"the host {host!r} resolves to an address that is not public ({refused[0]})")
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return CheckedTarget(scheme=parts.scheme, host=host, port=port, path=path, addresses=addresses)


def webhook_secret(*, user_id: int) -> str:
    """The player's webhook signing secret: derived from SECRET_KEY, so never stored; shown on their
    preferences page and returned by PUT /api/auth/webhook/ so the receiver can check X-Faltisia-Signature."""
    return hmac.new(settings.SECRET_KEY.encode(), f"webhook-secret:{user_id}".encode(), hashlib.sha256).hexdigest()[:40]
