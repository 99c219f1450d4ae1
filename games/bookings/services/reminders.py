"""The reminder the day before: which bookings are due one, and sending them
once (rows claimed with SKIP LOCKED where the database has it)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone

from games.bookings import emails
from games.bookings.models import Booking, Session


def due_reminders(now: datetime | None = None):
    """Confirmed bookings whose reminder is due and still makes sense: its
    time (the day before) has come, the session has not started, and the
    booking was made before that time (a later booking got its confirmation
    minutes ago: no reminder)."""
    now = now or timezone.now()
    return Booking.objects.filter(
        status=Booking.Status.CONFIRMED, reminder_sent_at__isnull=True,
        session__status=Session.Status.SCHEDULED, session__remind_at__lte=now, session__starts_at__gt=now,
        created_at__lt=F("session__remind_at"),
    )


def send_due_reminders(now: datetime | None = None, limit: int = 100) -> int:
    """Send every due reminder (see ``send_reminder``); returns how many."""
    now = now or timezone.now()
    ids = list(due_reminders(now).order_by("session__starts_at", "id").values_list("id", flat=True)[:limit])
    return sum(1 for pk in ids if send_reminder(pk, now))


@transaction.atomic
def send_reminder(booking_id: Any, now: datetime | None = None) -> bool:
    """Mark one due reminder sent and put it in the outbox, in one
    transaction (the worker sends it). The row is claimed with SKIP LOCKED
    where the database has it, so two workers never send the same reminder;
    False when it is not due (any more) or another worker holds it."""
    now = now or timezone.now()
    rows = due_reminders(now).filter(pk=booking_id)
    if connection.features.has_select_for_update_skip_locked:
        rows = rows.select_for_update(skip_locked=True, of=("self",))
    booking = rows.first()
    if booking is None:
        return False
    Booking.objects.filter(pk=booking.pk).update(reminder_sent_at=now)
    booking.reminder_sent_at = now
    emails.queue("reminder", booking)
    return True
