"""Background jobs of the sessions, run by the worker (``manage.py worker``).

Everything they act on is database state (an offer's deadline, a session's
reminder time, a reservation not yet taken), so a worker can stop and start
at any moment, and the services lock and re-check every row they change.

Each row (a booking, a reservation, an outbox email, a proposal) is handled in
a guarded step of its own (ludo.bulkheads.guard): one the job fails on is tried
again later, after the others, and set aside for a host after a few failures,
while the other bookings' offers, reminders and emails go on.
"""

from __future__ import annotations

import time

from django.utils import timezone

from games.bookings import emails, outbox, services
from games.bookings.models import Booking, CopyReservation
from games.bookings.services import confirmation, copies, reminders, waiting_list
from ludo.bulkheads.guard import Bulkhead

REMINDERS_EVERY = 60.0
COPIES_EVERY = 60.0
OFFERS_AT_MOST = 30.0
LAPSE_EVERY = 60.0
EMAILS_AT_MOST = 5.0
BATCH = 50

OFFERS = Bulkhead("bookings.offers")
REMINDERS = Bulkhead("bookings.reminders")
COPIES = Bulkhead("bookings.copies")
EMAILS = Bulkhead("bookings.emails")
UNVERIFIED = Bulkhead("bookings.unverified")

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
    now = timezone.now()
    offered = Booking.objects.filter(status=Booking.Status.OFFERED)
    OFFERS.each(waiting_list.due_offers(now), services.expire_offer, limit=BATCH, pending=offered)
    upcoming = (offered.exclude(pk__in=OFFERS.held(Booking)).order_by("offer_expires_at")
                .values_list("offer_expires_at", flat=True).first())
    if upcoming is None:
        return OFFERS_AT_MOST
    return max(0.0, min(OFFERS_AT_MOST, (upcoming - timezone.now()).total_seconds()))


def send_reminders() -> float:
    wait = _throttled("reminders", REMINDERS_EVERY)
    if wait is not None:
        return wait
    due = reminders.due_reminders().order_by("session__starts_at", "id")
    REMINDERS.each(due, reminders.send_reminder, limit=100)
    return REMINDERS_EVERY


def sync_copies() -> float:
    wait = _throttled("copies", COPIES_EVERY)
    if wait is not None:
        return wait
    COPIES.each(copies.copies_to_take(), copies.take_copy, limit=BATCH)
    COPIES.each(copies.copies_to_return(), copies.return_copy, limit=BATCH,
                pending=CopyReservation.objects.filter(returned_at__isnull=True))
    return COPIES_EVERY


def send_emails() -> float:
    """Send the outbox's due emails (one the mail server refused is tried again later)."""
    queued = outbox.OutgoingEmail.objects.filter(status=outbox.OutgoingEmail.Status.QUEUED)
    EMAILS.each(outbox.due(), emails.deliver_one, limit=20, pending=queued)
    return outbox.seconds_until_due(at_most=EMAILS_AT_MOST, exclude=EMAILS.held(outbox.OutgoingEmail))


def lapse_unverified() -> float:
    """Drop the bookings and proposals nobody confirmed in time."""
    wait = _throttled("lapse", LAPSE_EVERY)
    if wait is not None:
        return wait
    UNVERIFIED.each(confirmation.lapsed_bookings(), confirmation.lapse_booking, limit=500)
    UNVERIFIED.each(confirmation.lapsed_proposals(), confirmation.lapse_proposal, limit=500)
    return LAPSE_EVERY


def register() -> None:
    from ludo import worker

    worker.register("bookings.offers", expire_offers)
    worker.register("bookings.reminders", send_reminders)
    worker.register("bookings.copies", sync_copies)
    worker.register("bookings.emails", send_emails)
    worker.register("bookings.unverified", lapse_unverified)
