"""What hosts do to bookings: approve or decline one awaiting approval, mark
who came; and the secret address of each host's calendar feed."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from games.bookings import emails
from games.bookings.conf import attendance_opens
from games.bookings.errors import BookingError
from games.bookings.models import Booking, HostFeed, new_key
from games.bookings.services.locks import lock_booking, require_staff
from games.bookings.services.waiting_list import offer_freed_seats


@transaction.atomic
def approve(booking_id: Any, by: Any, now: datetime | None = None) -> Booking:
    require_staff(by)
    _session, booking = lock_booking(booking_id)
    if booking.status != Booking.Status.PENDING:
        raise BookingError("not_pending")
    booking.status = Booking.Status.CONFIRMED
    booking.save()
    emails.queue("confirmed", booking)
    return booking


@transaction.atomic
def decline(booking_id: Any, by: Any, reason: str = "", now: datetime | None = None) -> Booking:
    """A host declines a booking awaiting approval (its seats go to the waiting list)."""
    require_staff(by)
    now = now or timezone.now()
    session, booking = lock_booking(booking_id)
    if booking.status != Booking.Status.PENDING:
        raise BookingError("not_pending")
    booking.status = Booking.Status.DECLINED
    booking.save()
    emails.queue("declined", booking, reason=str(reason or "").strip()[:500])
    offer_freed_seats(session, now)
    return booking


@transaction.atomic
def mark_attendance(booking_id: Any, by: Any, attended: bool | None, now: datetime | None = None) -> Booking:
    """Who came (True), who did not (False), or not known (None)."""
    require_staff(by)
    now = now or timezone.now()
    session, booking = lock_booking(booking_id)
    if booking.status != Booking.Status.CONFIRMED:
        raise BookingError("not_confirmed")
    if now < session.starts_at - attendance_opens():
        raise BookingError("too_early_to_mark")
    if attended not in (True, False, None):
        raise BookingError("bad_value", field="attended", problem=repr(attended))
    booking.attended = attended
    booking.save(update_fields=["attended", "updated_at"])
    return booking


def host_feed(user: Any) -> HostFeed:
    require_staff(user)
    feed, _created = HostFeed.objects.get_or_create(user=user)
    return feed


@transaction.atomic
def renew_host_feed(user: Any) -> HostFeed:
    """A new secret address for a host's feed; the old one stops working."""
    feed = host_feed(user)
    feed.key = new_key()
    feed.save()
    return feed
