"""Query parameters read as numbers and dates, in one place: a value that is not
one, or out of range, is a 400 (django.core.exceptions.BadRequest), never a 500
further down (an overflowing date sum, a number no database column holds).

    since = query_int(request, "since", maximum=10**9)     # None when absent
    day = query_date(request, "date", default=today)
"""

from __future__ import annotations

import re
from datetime import date

from django.core.exceptions import BadRequest

from ludo.converters import MAX_DIGITS

EARLIEST = date(1900, 1, 1)
LATEST = date(2199, 12, 31)
_DIGITS = re.compile(f"[0-9]{{1,{MAX_DIGITS}}}")  # ASCII digits only: "²".isdigit() is true


def query_int(request, name: str, default: int | None = None, minimum: int = 0,
              maximum: int = 10**MAX_DIGITS - 1) -> int | None:
    """``?name=`` as a whole number within [minimum, maximum]; ``default`` when absent or empty."""
    value = request.GET.get(name, "").strip()
    if not value:
        return default
    if not _DIGITS.fullmatch(value) or not minimum <= int(value) <= maximum:
        raise BadRequest(f"{name} must be a whole number from {minimum} to {maximum}")
    return int(value)


def query_date(request, name: str, default: date, earliest: date = EARLIEST, latest: date = LATEST) -> date:
    """``?name=YYYY-MM-DD`` within [earliest, latest]; ``default`` when absent or empty."""
    value = request.GET.get(name, "").strip()
    if not value:
        return default
    try:
        day = date.fromisoformat(value) if re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", value) else None
    except ValueError:
        day = None
    if day is None or not earliest <= day <= latest:
        raise BadRequest(f"{name} must be a date (YYYY-MM-DD) from {earliest} to {latest}")
    return day
