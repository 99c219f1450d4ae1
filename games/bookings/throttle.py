"""Rate limits on the guests' forms (booking, proposal, lost link), through the
site's one limiter (ludo.limits: shared by every server process when Redis is
configured): per client address, and per email address typed in the form."""

from __future__ import annotations

import hashlib

from django.http import HttpRequest

from games.bookings import conf
from ludo import limits


def address_allowed(request: HttpRequest, form: str) -> bool:
    return limits.allow(f"bookings-{form}-address", limits.client_address(request) or "unknown",
                        conf.form_limits()["address"]).allowed


def email_allowed(email: str, form: str) -> bool:
    # The address is hashed: the limiter's keys (in Redis) never hold a guest's email.
    key = hashlib.sha256(email.strip().lower().encode()).hexdigest()[:32]
    return limits.allow(f"bookings-{form}-email", key, conf.form_limits()["email"]).allowed
