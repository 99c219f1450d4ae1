"""A guest's booking: book seats (confirmed, awaiting approval, or on the
waiting list), change the party or the name, cancel, take a seat offered from
the waiting list. Guests without an account act through their emailed link,
whose change counter ``counter`` retires older links. A party booked by an
address no account vouches for stays within ``conf.unverified_max_seats``,
changes included."""

from __future__ import annotations

import hmac
import logging
from datetime import datetime, timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone

from games.bookings import emails
from games.bookings.conf import unverified_max_seats
from games.bookings.errors import BookingError
from games.bookings.models import Booking, Session, VerifiedAddress
from games.bookings.services.inputs import clean_email, clean_language, clean_name, clean_seats
from games.bookings.services.locks import free_seats, lock_booking, lock_session, require_staff
from games.bookings.services.waiting_list import offer_freed_seats

log = logging.getLogger(__name__)


def can_see(session: Session, invite: str | None, user: Any = None) -> bool:
    if session.visibility == Session.Visibility.PUBLIC:
        return True
    if user is not None and getattr(user, "is_staff", False):
        return True
    return bool(invite) and hmac.compare_digest(str(invite), session.invite_key)


def check_bookable(session: Session, seats: int, now: datetime) -> None:
    """Refuse a booking the session cannot take whoever asks (nothing here
    depends on the address)."""
    if session.status != Session.Status.SCHEDULED:
        raise BookingError("session_cancelled")
    if now >= session.starts_at:
        raise BookingError("session_started")
    if seats > session.capacity:
        raise BookingError("party_too_large", capacity=session.capacity)


def placement(session: Session, seats: int) -> str:
    """Where a party goes now: its seats (confirmed, or awaiting approval),
    the waiting list, or nowhere (refused). Under the session lock."""
    if seats <= free_seats(session):
        return Booking.Status.PENDING if session.requires_approval else Booking.Status.CONFIRMED
    if session.waiting_list_size == 0:
        raise BookingError("full_no_waiting_list")
    if session.bookings.filter(status=Booking.Status.WAITING).count() < session.waiting_list_size:
        return Booking.Status.WAITING
    raise BookingError("full")


def place_time(session: Session, now: datetime | None = None) -> datetime:
    """When a booking takes its place in line (``created_at``, which orders the
    waiting list): read under the session lock, and later than every booking
    already in line, so that places follow the order in which the lock let the
    bookings in. A time read before waiting for the lock gave three visitors
    confirming at once the same "number 1". ``now`` (tests) replaces the clock."""
    at = now or timezone.now()
    latest = session.bookings.filter(status=Booking.Status.WAITING).aggregate(last=Max("created_at"))["last"]
    if latest is not None and at <= latest:
        at = latest + timedelta(microseconds=1)
    return at


PLACED_EMAIL = {"confirmed": "confirmed", "pending": "received", "waiting": "waiting"}


@transaction.atomic
def book(session_id: Any, *, name: Any, email: Any, seats: Any, user: Any = None, language: Any = "fr",
         note: Any = "", invite: str | None = None, now: datetime | None = None) -> Booking:
    """Book seats for a party whose address is known to be theirs (an
    account's verified address, a host booking someone in). Visitors come
    through ``request_booking``, which confirms the address first.

    Confirmed (or awaiting approval) when the seats are free; on the waiting
    list when they are not and the list has room; refused otherwise."""
    given_now, now = now, now or timezone.now()
    name, email, seats = clean_name(name), clean_email(email), clean_seats(seats)
    language = clean_language(language)
    note = " ".join(str(note or "").split())[:500]
    session = lock_session(session_id)
    if not can_see(session, invite, user):
        raise BookingError("invitation_only")
    check_bookable(session, seats, now)
    if session.bookings.filter(email=email, status__in=Booking.ACTIVE).exists():
        raise BookingError("already_booked")
    status = placement(session, seats)
    try:
        with transaction.atomic():
            booking = Booking.objects.create(
                session=session, user=user if getattr(user, "is_authenticated", False) else None,
                name=name, email=email, seats=seats, status=status, language=language, note=note,
                created_at=place_time(session, given_now),
            )
    except IntegrityError:
        # Only reachable if something bypassed the lock; the database held the line.
        log.warning("booking refused by the database for session %s", session.pk)
        raise BookingError("full") from None
    emails.queue(PLACED_EMAIL[status], booking)
    return booking


@transaction.atomic
def cancel(booking_id: Any, *, counter: int | None = None, by_staff: Any = None,
           now: datetime | None = None) -> Booking:
    """Cancel a booking (or leave the waiting list, or decline a seat offer).

    Guests (through their link: ``counter`` is the link's change count) cannot
    cancel held seats after the session's minimum notice; hosts can.
    """
    now = now or timezone.now()
    if by_staff is not None:
        require_staff(by_staff)
    session, booking = lock_booking(booking_id)
    _check_counter(booking, counter)
    if booking.status not in Booking.ACTIVE:
        raise BookingError("not_active")
    late = now > session.cancel_deadline()
    if by_staff is None and late and booking.status in (Booking.Status.CONFIRMED, Booking.Status.PENDING):
        raise BookingError("too_late_to_cancel", hours=session.cancel_notice_hours)
    held = booking.holds_seats
    booking.status = Booking.Status.CANCELLED
    booking.cancelled_at = now
    booking.offer_expires_at = None
    booking.save()
    emails.queue("cancelled", booking, by_staff=by_staff is not None)
    if held:
        offer_freed_seats(session, now)
    return booking


def address_verified(user: Any, email: str) -> bool:
    """Whether ``user`` is an account known to own ``email``: a host's
    account (an operator set its address), or an address the account
    confirmed through an emailed link."""
    if user is None or not getattr(user, "is_authenticated", False) or not getattr(user, "is_active", False):
        return False
    email = str(email or "").strip().lower()
    if user.is_staff and email and email == (user.email or "").strip().lower():
        return True
    return VerifiedAddress.objects.filter(user=user, email=email).exists()


def _check_counter(booking: Booking, counter: int | None) -> None:
    if counter is not None and counter != booking.changes:
        raise BookingError("stale_link")


@transaction.atomic
def change(booking_id: Any, *, counter: int, seats: Any = None, name: Any = None,
           now: datetime | None = None) -> Booking:
    """Change the party size or the name, through the emailed link.

    At most ``session.max_changes`` changes, none after the minimum notice.
    Each change bumps the booking's counter, which retires every older link.
    More seats need free seats now (no queue-jumping through a change).
    """
    now = now or timezone.now()
    session, booking = lock_booking(booking_id)
    _check_counter(booking, counter)
    if booking.status not in (Booking.Status.PENDING, Booking.Status.CONFIRMED, Booking.Status.WAITING):
        raise BookingError("cannot_change")
    if booking.changes >= session.max_changes:
        raise BookingError("no_changes_left", max=session.max_changes)
    if now > session.cancel_deadline():
        raise BookingError("too_late_to_change", hours=session.cancel_notice_hours)
    new_seats = booking.seats if seats is None else clean_seats(seats)
    new_name = booking.name if name is None else clean_name(name)
    if (new_seats, new_name) == (booking.seats, booking.name):
        raise BookingError("nothing_changed")
    if new_seats > session.capacity:
        raise BookingError("party_too_large", capacity=session.capacity)
    more = new_seats - booking.seats
    if more > 0 and new_seats > unverified_max_seats() and not address_verified(booking.user, booking.email):
        raise BookingError("party_too_large_unverified", max=unverified_max_seats())
    if booking.holds_seats and more > 0:
        free = free_seats(session)
        if more > free:
            raise BookingError("not_enough_seats", free=max(0, free))
    booking.seats, booking.name = new_seats, new_name
    booking.changes += 1
    booking.save()
    emails.queue("changed", booking)
    offer_freed_seats(session, now)
    return booking


@transaction.atomic
def accept_offer(booking_id: Any, *, counter: int | None = None, now: datetime | None = None) -> Booking:
    """Take the seat offered from the waiting list, before the offer runs out."""
    now = now or timezone.now()
    session, booking = lock_booking(booking_id)
    _check_counter(booking, counter)
    if booking.status != Booking.Status.OFFERED:
        raise BookingError("no_offer")
    if now >= booking.offer_expires_at:
        raise BookingError("offer_expired")
    booking.status = Booking.Status.PENDING if session.requires_approval else Booking.Status.CONFIRMED
    booking.offer_expires_at = None
    booking.save()
    emails.queue("confirmed" if booking.status == Booking.Status.CONFIRMED else "received", booking)
    return booking
