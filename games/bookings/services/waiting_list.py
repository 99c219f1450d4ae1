"""The waiting list: free seats are offered to the first party in line that
fits; an offer holds the seats for a while, then runs out and the seats go on
to the next."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from games.bookings import emails
from games.bookings.models import Booking, Session
from games.bookings.services.locks import free_seats, lock_booking


def offer_freed_seats(session: Session, now: datetime) -> list[Booking]:
    """Offer free seats to the waiting list, first in line first; a party
    too large for what is free keeps its place and the next one that fits
    gets the offer. Called under the session lock."""
    if session.status != Session.Status.SCHEDULED or now >= session.starts_at:
        return []
    free = free_seats(session)
    offered = []
    if free <= 0:
        return offered
    queue = session.bookings.select_for_update().filter(status=Booking.Status.WAITING).order_by("created_at", "id")
    expires = min(now + timedelta(minutes=session.offer_minutes), session.starts_at)
    for waiting in queue:
        if waiting.seats > free:
            continue
        waiting.status = Booking.Status.OFFERED
        waiting.offer_expires_at = expires
        waiting.save()
        emails.queue("offer", waiting)
        offered.append(waiting)
        free -= waiting.seats
        if free <= 0:
            break
    return offered


@transaction.atomic
def expire_offer(booking_id: Any, now: datetime | None = None) -> bool:
    """Withdraw a seat offer whose time ran out, and offer the seats on.
    False when there was nothing to do (accepted meanwhile, or not yet due)."""
    now = now or timezone.now()
    session, booking = lock_booking(booking_id)
    if booking.status != Booking.Status.OFFERED or booking.offer_expires_at > now:
        return False
    booking.status = Booking.Status.EXPIRED
    booking.offer_expires_at = None
    booking.save()
    emails.queue("offer_expired", booking)
    offer_freed_seats(session, now)
    return True


def due_offers(now: datetime | None = None):
    """Seat offers whose time ran out, the oldest first."""
    now = now or timezone.now()
    return Booking.objects.filter(status=Booking.Status.OFFERED, offer_expires_at__lte=now).order_by(
        "offer_expires_at", "id")


def expire_offers(now: datetime | None = None, limit: int = 50) -> int:
    """Expire every offer that is due."""
    now = now or timezone.now()
    due = list(due_offers(now).values_list("id", flat=True)[:limit])
    return sum(1 for pk in due if expire_offer(pk, now))
