"""Checking what people type before any action uses it: names, emails, party
sizes, languages, a host's session settings, and wall-clock slots at the house
(the clock-change nights refused, or resolved as asked, in words people
understand). Every refusal is a :class:`BookingError`."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.utils import timezone

from games.bookings import clock
from games.bookings.errors import BookingError
from games.bookings.models import MAX_CAPACITY, Session

LANGUAGES = ("fr", "en")
MAX_SESSION_HOURS = 24
# What a host may set on a session, with the bounds a form would check.
SESSION_FIELDS = {
    "title", "room", "capacity", "notes", "visibility", "requires_approval", "waiting_list_size",
    "offer_minutes", "cancel_notice_hours", "max_changes", "host",
}
BOUNDS = {
    "waiting_list_size": (0, 500),
    "offer_minutes": (5, 14 * 24 * 60),
    "cancel_notice_hours": (0, 14 * 24),
    "max_changes": (0, 50),
}


def clean_name(raw: Any) -> str:
    name = " ".join(str(raw or "").split())
    if not 2 <= len(name) <= 100 or not name.isprintable():
        raise BookingError("bad_name")
    return name


def clean_email(raw: Any) -> str:
    email = str(raw or "").strip().lower()
    try:
        validate_email(email)
    except ValidationError:
        raise BookingError("bad_email") from None
    if len(email) > 254:
        raise BookingError("bad_email")
    return email


def clean_seats(raw: Any) -> int:
    if isinstance(raw, bool):
        raise BookingError("bad_seats", max=MAX_CAPACITY)
    try:
        seats = int(raw)
    except (TypeError, ValueError):
        raise BookingError("bad_seats", max=MAX_CAPACITY) from None
    if not 1 <= seats <= MAX_CAPACITY:
        raise BookingError("bad_seats", max=MAX_CAPACITY)
    return seats


def clean_language(raw: Any) -> str:
    language = str(raw or "fr")[:2].lower()
    if language not in LANGUAGES:
        raise BookingError("bad_language")
    return language


def clean_capacity(raw: Any) -> int:
    try:
        capacity = int(raw)
    except (TypeError, ValueError):
        raise BookingError("bad_capacity", max=MAX_CAPACITY) from None
    if isinstance(raw, bool) or not 1 <= capacity <= MAX_CAPACITY:
        raise BookingError("bad_capacity", max=MAX_CAPACITY)
    return capacity


def check_times(starts_at: datetime, ends_at: datetime) -> None:
    if starts_at.tzinfo is None or ends_at.tzinfo is None:
        raise ValueError("session times must be aware datetimes")
    if not starts_at < ends_at <= starts_at + timedelta(hours=MAX_SESSION_HOURS):
        raise BookingError("bad_times")


def local_span(day: date, start: time, end: time, ambiguous: str = "raise") -> tuple[datetime, datetime]:
    """UTC instants of a wall-clock slot at the house, with the clock-change
    nights refused (or resolved as asked) in words people understand."""
    try:
        return clock.span(day, start, end, timezone.get_default_timezone(), ambiguous)  # type: ignore[arg-type]
    except clock.NonExistentTime as exc:
        raise BookingError("time_missing", day=exc.day.isoformat(), time=exc.at.strftime("%H:%M")) from None
    except clock.AmbiguousTime as exc:
        raise BookingError("time_twice", day=exc.day.isoformat(), time=exc.at.strftime("%H:%M")) from None


def session_settings(values: dict[str, Any]) -> dict[str, Any]:
    """Check a host's session settings; unknown names are a programming error."""
    unknown = set(values) - SESSION_FIELDS
    if unknown:
        raise TypeError(f"unknown session fields: {sorted(unknown)}")
    out = dict(values)
    if "capacity" in out:
        out["capacity"] = clean_capacity(out["capacity"])
    if "title" in out:
        out["title"] = " ".join(str(out["title"] or "").split())[:200]
    if "visibility" in out and out["visibility"] not in Session.Visibility.values:
        raise BookingError("bad_value", field="visibility", problem=out["visibility"])
    for name, (low, high) in BOUNDS.items():
        if name in out:
            value = out[name]
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise BookingError("bad_value", field=name, problem=f"{low}–{high}")
    host = out.get("host")
    if host is not None and not host.is_staff:
        raise BookingError("staff_only")
    return out
