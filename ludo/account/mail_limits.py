"""How many account emails (password reset links, address confirmations) one
address and one client may cause: anyone can type someone's address into the
password reset form, so without a limit the form is a way to flood a mailbox.

LUDO_ACCOUNT_MAIL_RATE_LIMIT (default 3 an hour per address, and ten times
that per client address). Per server process, like the guest tokens' limit.
Over the limit the form answers as usual and sends nothing: the answer must
not tell whether an address has an account.
"""

from __future__ import annotations

from django.conf import settings

from games.ratelimit import KeyedLimits

_limits: dict[str, KeyedLimits] = {}


def _limit(kind: str) -> KeyedLimits:
    limit, period = getattr(settings, "LUDO_ACCOUNT_MAIL_RATE_LIMIT", (3, 3600.0))
    limit = int(limit) * (10 if kind == "client" else 1)
    found = _limits.get(kind)
    if found is None or (found.limit, found.period) != (limit, float(period)):
        found = _limits[kind] = KeyedLimits(limit, float(period))
    return found


def allow(email: str, client: str) -> bool:
    """Count one email to ``email`` asked from ``client``; False when either is over its limit."""
    return _limit("client").hit(client or "-") and _limit("address").hit(email.strip().lower())


def forget() -> None:
    """Start again from nothing (tests)."""
    _limits.clear()
