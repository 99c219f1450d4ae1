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
