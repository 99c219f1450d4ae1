"""How many account emails (password reset links, address confirmations) one
address and one client may cause: anyone can type someone's address into the
password reset form, so without a limit the form is a way to flood a mailbox.

LUDO_ACCOUNT_MAIL_RATE_LIMIT (default 3 an hour per address, and ten times
that per client address), counted by the site's one limiter (ludo.limits: shared
by every server process on Redis). Over the limit the form answers as usual and
sends nothing: the answer must not tell whether an address has an account.
"""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.http import HttpRequest

from ludo import limits


def allow(email: str, request: HttpRequest) -> bool:
    """Count one email to ``email`` asked by ``request``'s client; False when either is over."""
    limit, period = getattr(settings, "LUDO_ACCOUNT_MAIL_RATE_LIMIT", (3, 3600.0))
    client = limits.client_address(request) or "-"
    if not limits.allow("account-mail-client", client, (int(limit) * 10, float(period))):
        return False
    # Hashed: the limiter's keys (in Redis) never hold an address.
    key = hashlib.sha256(email.strip().lower().encode()).hexdigest()[:32]
    return limits.allow("account-mail-address", key, (int(limit), float(period))).allowed


def forget() -> None:
    """Start again from nothing (tests)."""
    limits.reset()
