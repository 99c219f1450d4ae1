"""The WebSocket origin check: scheme, host and port, as Django's CSRF check does.

A browser sends the page's origin with every WebSocket handshake; a socket
opened from another site's page (with the visitor's cookies) must be refused.
Channels' AllowedHostsOriginValidator compares the host only, so a page served
at ``http://ludo.example.org:8080`` (or over plain http) passed for
``https://ludo.example.org``. Here an origin is accepted when its scheme, host
and port all equal those of

- ``SITE_URL``,
- an entry of ``CSRF_TRUSTED_ORIGINS`` (``https://*.example.org`` covers the
  subdomains, as for Django's CSRF check), or
- the handshake itself: the ``Host`` it was sent to (a name in
  ``ALLOWED_HOSTS``) and its scheme (``wss`` is https; with
  ``SECURE_PROXY_SSL_HEADER``, the proxy's ``X-Forwarded-Proto``, as Django reads it).

A missing or unreadable Origin is refused.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from django.conf import settings
from django.http.request import split_domain_port, validate_host


DEFAULT_PORTS = {"http": 80, "https": 443}
Origin = tuple[str, str, int]


def parse_origin(value: str) -> Origin | None:
    """``(scheme, host, port)`` of ``https://Host:443``-like text, or None."""
    try:
        parts = urlsplit(value.strip())
        port = parts.port
    except ValueError:
        return None
    scheme, host = parts.scheme.lower(), (parts.hostname or "").lower()
    if scheme not in DEFAULT_PORTS or not host or parts.path not in ("", "/") or parts.username is not None:
        return None
    return scheme, host, port or DEFAULT_PORTS[scheme]


def _header(scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return value.decode("latin-1")
    return None


def _handshake_scheme(scope) -> str:
    secure = scope.get("scheme") in ("wss", "https")
    proxy_header = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if proxy_header and not secure:
        # As Django reads it for HTTP requests. A browser cannot set this header on
        # a handshake, so it cannot help a foreign page; a script can send any
        # Origin anyway.
        name, value = proxy_header
        forwarded = _header(scope, name.removeprefix("HTTP_").lower().replace("_", "-").encode())
        secure = forwarded is not None and forwarded.split(",")[0].strip() == value
    return "https" if secure else "http"


def _own_origin(scope) -> Origin | None:
    host = _header(scope, b"host")
    if not host:
        return None
    domain, port = split_domain_port(host)
    if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
        return None
    scheme = _handshake_scheme(scope)
    try:
        number = int(port) if port else DEFAULT_PORTS[scheme]
    except ValueError:
        return None
    return scheme, domain, number


def _trusted_match(origin: Origin, entry: str) -> bool:
    if "://*." in entry:
        scheme, _, rest = entry.partition("://*.")
        pattern = parse_origin(f"{scheme}://{rest}")
        return (pattern is not None and origin[0] == pattern[0] and origin[2] == pattern[2]
                and origin[1].endswith("." + pattern[1]))
    return parse_origin(entry) == origin


def origin_allowed(scope, origin_header: str | None) -> bool:
    """Whether a handshake (ASGI ``scope``) with this Origin header may go on."""
    origin = parse_origin(origin_header) if origin_header else None
    if origin is None:
        return False
    if parse_origin(settings.SITE_URL) == origin:
        return True
    if any(_trusted_match(origin, entry) for entry in settings.CSRF_TRUSTED_ORIGINS):
        return True
    return _own_origin(scope) == origin
