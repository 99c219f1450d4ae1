"""The lock order every action on seats follows: the session row first, then
the booking rows it touches (``select_for_update``; on SQLite the transaction
starts with BEGIN IMMEDIATE and writers take turns). Also the free-seat count
read inside the lock, and the staff check."""

from __future__ import annotations

from typing import Any

from games.bookings.errors import BookingError
from games.bookings.models import Booking, Session


def lock_session(session_id: Any) -> Session:
    try:
        return Session.objects.select_for_update().get(pk=int(session_id))
    except (Session.DoesNotExist, TypeError, ValueError):
        raise BookingError("no_session") from None


def lock_booking(booking_id: Any) -> tuple[Session, Booking]:
    """Lock a booking's session, then the booking (the one lock order everywhere)."""
    try:
        session_id = Booking.objects.values_list("session_id", flat=True).get(pk=int(booking_id))
    except (Booking.DoesNotExist, TypeError, ValueError):
        raise BookingError("no_booking") from None
    session = lock_session(session_id)
    booking = Booking.objects.select_for_update().get(pk=int(booking_id))
    booking.session = session
    return session, booking


def free_seats(session: Session) -> int:
    """Free seats now, read inside the lock (the triggers moved the counter)."""
    session.refresh_from_db(fields=["seats_taken", "capacity"])
    return session.capacity - session.seats_taken


def require_staff(user: Any) -> None:
    if user is None or not getattr(user, "is_staff", False):
        raise BookingError("staff_only")
