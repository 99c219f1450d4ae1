"""The app's knobs, read from settings with defaults (none is required)."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings


def link_max_age() -> timedelta:
    """How long an emailed booking link stays valid (every email carries a fresh one)."""
    return timedelta(days=int(getattr(settings, "BOOKINGS_LINK_MAX_AGE_DAYS", 120)))


def attendance_opens() -> timedelta:
    """How long before the start hosts may begin marking who came."""
    return timedelta(hours=2)


def site_url() -> str:
    return getattr(settings, "SITE_URL", "http://127.0.0.1:8000").rstrip("/")


def confirm_within() -> timedelta:
    """How long a visitor has to confirm a booking or a proposal by email
    (double opt-in) before it lapses by itself."""
    return timedelta(minutes=int(getattr(settings, "BOOKINGS_CONFIRM_MINUTES", 30)))


def unverified_max_seats() -> int:
    """The largest party one booking by an unverified address may hold."""
    return int(getattr(settings, "BOOKINGS_UNVERIFIED_MAX_SEATS", 4))


def mail_window() -> timedelta:
    """A visitor's request mails one address at most once per window and kind
    (confirmation links, lost links)."""
    return timedelta(minutes=int(getattr(settings, "BOOKINGS_MAIL_WINDOW_MINUTES", 10)))


def form_limits() -> dict[str, tuple[int, int]]:
    """Requests allowed to the guests' forms: (how many, per how many seconds),
    per client address ("address") and per email address typed ("email")."""
    return getattr(settings, "BOOKINGS_FORM_LIMITS", {"address": (20, 600), "email": (5, 600)})
