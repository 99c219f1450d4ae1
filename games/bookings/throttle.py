"""Rate limits on the guests' forms (booking, proposal, lost link).

Two small functions, so the site's shared limiter can replace them in one
place: :func:`client_address` (who is asking) and :func:`allow` (may they,
once more, within the window). Counts live in Django's cache: per process
with the default local-memory cache, shared with a shared cache.
"""

from __future__ import annotations

import hashlib

from django.core.cache import cache
from django.http import HttpRequest

from games.bookings import conf


def client_address(request: HttpRequest) -> str:
    """The client's address as the site knows it."""
    return request.META.get("REMOTE_ADDR") or "unknown"


def allow(scope: str, key: str, limit: int, window_seconds: int) -> bool:
    """Count one request for ``key`` in ``scope``; False once ``limit``
    requests were counted within the current window."""
    digest = hashlib.sha256(f"{scope}\0{key}".encode()).hexdigest()[:32]
    name = f"ludo:bookings:limit:{digest}"
    if cache.add(name, 1, timeout=window_seconds):
        return True
    try:
        count = cache.incr(name)
    except ValueError:  # expired between add and incr
        cache.add(name, 1, timeout=window_seconds)
        return True
    return count <= limit


def address_allowed(request: HttpRequest, form: str) -> bool:
    limit, window = conf.form_limits()["address"]
    return allow(f"{form}:address", client_address(request), limit, window)


def email_allowed(email: str, form: str) -> bool:
    limit, window = conf.form_limits()["email"]
    return allow(f"{form}:email", email.strip().lower(), limit, window)
