"""The reminder the day before: which bookings are due one, and sending them
once (rows claimed with SKIP LOCKED where the database has it)."""

from __future__ import annotations

from datetime import datetime

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


@transaction.atomic
def send_due_reminders(now: datetime | None = None, limit: int = 100) -> int:
    """Mark due reminders sent and put them in the outbox, in one
    transaction (the worker sends them). Rows are claimed
    with SKIP LOCKED where the database has it, so two workers never send
    the same reminder."""
    now = now or timezone.now()
    rows = due_reminders(now).order_by("session__starts_at", "id")
    if connection.features.has_select_for_update_skip_locked:
        rows = rows.select_for_update(skip_locked=True, of=("self",))
    ids = list(rows.values_list("id", flat=True)[:limit])
    Booking.objects.filter(pk__in=ids, reminder_sent_at__isnull=True).update(reminder_sent_at=now)
    for booking in Booking.objects.filter(pk__in=ids):
        emails.queue("reminder", booking)
    return len(ids)
