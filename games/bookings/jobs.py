"""Background jobs of the sessions, run by the worker (``manage.py worker``).

Everything they act on is database state (an offer's deadline, a session's
reminder time, a reservation not yet taken), so a worker can stop and start
at any moment, and the services lock and re-check every row they change.
"""

from __future__ import annotations

import time

from django.utils import timezone

from games.bookings import emails, outbox, services
from games.bookings.models import Booking

REMINDERS_EVERY = 60.0
COPIES_EVERY = 60.0
OFFERS_AT_MOST = 30.0
LAPSE_EVERY = 60.0
EMAILS_AT_MOST = 5.0

_last_run: dict[str, float] = {}


def _throttled(name: str, every: float) -> float | None:
    """None when the job may run now, else the seconds left before it may."""
    now = time.monotonic()
    last = _last_run.get(name)
    if last is not None and now - last < every:
        return every - (now - last)
    _last_run[name] = now
    return None


def expire_offers() -> float:
    """Withdraw seat offers whose time ran out and offer the seats on."""
    services.expire_offers()
    upcoming = (Booking.objects.filter(status=Booking.Status.OFFERED)
                .order_by("offer_expires_at").values_list("offer_expires_at", flat=True).first())
    if upcoming is None:
        return OFFERS_AT_MOST
    return max(0.0, min(OFFERS_AT_MOST, (upcoming - timezone.now()).total_seconds()))


def send_reminders() -> float:
    wait = _throttled("reminders", REMINDERS_EVERY)
    if wait is not None:
        return wait
    services.send_due_reminders()
    return REMINDERS_EVERY


def sync_copies() -> float:
    wait = _throttled("copies", COPIES_EVERY)
    if wait is not None:
        return wait
    services.sync_copies()
    return COPIES_EVERY


def send_emails() -> float:
    """Send the outbox's due emails (a failed one is tried again later)."""
    emails.deliver_due()
    return outbox.seconds_until_due(at_most=EMAILS_AT_MOST)


def lapse_unverified() -> float:
    """Drop the bookings and proposals nobody confirmed in time."""
    wait = _throttled("lapse", LAPSE_EVERY)
    if wait is not None:
        return wait
    services.lapse_unverified()
    return LAPSE_EVERY


def register() -> None:
    from ludo import worker

    worker.register("bookings.offers", expire_offers)
    worker.register("bookings.reminders", send_reminders)
    worker.register("bookings.copies", sync_copies)
    worker.register("bookings.emails", send_emails)
    worker.register("bookings.unverified", lapse_unverified)
