"""Login throttling limits for django-axes: one for a username, another for an address.

axes counts failures per lockout parameter (``AXES_LOCKOUT_PARAMETERS =
["username", "ip_address"]``: the username's failures from any address, the
address's failures over any usernames), takes the larger count and compares it
with a single ``AXES_FAILURE_LIMIT``. A username deserves a small limit (5: a
person mistypes a few times), an address a larger one (20: several people may
share a household's or a café's address). ``failure_limit`` is that single
limit, computed for the request so that the lock falls exactly when

    username failures >= LUDO_USERNAME_FAILURE_LIMIT
    or address failures >= LUDO_ADDRESS_FAILURE_LIMIT

(both counted since the cool-off window began, as axes counts them).
"""

from __future__ import annotations

from axes.helpers import get_client_username
from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import Sum
from django.utils import timezone

from ludo.client_ip import budget_ip


def _failures(**match) -> int:
    rows = AccessAttempt.objects.filter(**match)
    return rows.aggregate(total=Sum("failures_since_start"))["total"] or 0


def failure_limit(request, credentials=None) -> int:
    """``AXES_FAILURE_LIMIT`` for this request (see the module's docstring)."""
    now = getattr(request, "axes_attempt_time", None) or timezone.now()
    window = {"attempt_time__gte": now - settings.AXES_COOLOFF_TIME}
    address = getattr(request, "axes_ip_address", None) or budget_ip(request)
    username = get_client_username(request, credentials)
    by_username = _failures(username=username, **window) if username is not None else 0
    by_address = _failures(ip_address=address, **window) if address else 0
    largest = max(by_username, by_address)
    if by_username >= settings.LUDO_USERNAME_FAILURE_LIMIT or by_address >= settings.LUDO_ADDRESS_FAILURE_LIMIT:
        return max(1, largest)  # axes compares largest >= limit: locked
    return largest + 1  # not locked
