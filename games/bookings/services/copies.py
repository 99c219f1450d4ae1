"""Copies of the library set aside for a session, and taken off the shelf
while it runs ("in use"), then put back."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from catalog.shelves import services as shelves
from catalog.shelves.models import Copy
from games.bookings.errors import BookingError
from games.bookings.models import CopyReservation, Session
from games.bookings.services.locks import lock_session, require_staff


@transaction.atomic
def reserve_copy(session_id: Any, copy_id: Any, by: Any, now: datetime | None = None) -> CopyReservation:
    """Set a copy aside for a session. Refused for a copy of a game not on
    offer, a copy lent out or in quarantine, a box a count found not playable
    (boxes.status), or one already reserved for an overlapping session.

    The checks are made here, under the locks, whatever a form offered: a
    crafted request, or a box taken off the list since the page was drawn,
    gets the same refusal."""
    require_staff(by)
    session = lock_session(session_id)
    if session.status != Session.Status.SCHEDULED:
        raise BookingError("session_cancelled")
    try:
        copy_pk = int(copy_id)
    except (TypeError, ValueError):
        raise BookingError("no_copy") from None
    # The box's state first, then the copy: the order a count takes them in
    # (boxes.counting), so neither waits for the other in a circle.
    playable = _playable(copy_pk)
    try:
        copy = Copy.objects.select_for_update().select_related("game").get(pk=copy_pk)
    except Copy.DoesNotExist:
        raise BookingError("no_copy") from None
    game_ids = set(session.games.values_list("id", flat=True))
    if copy.game_id not in game_ids:
        raise BookingError("copy_wrong_game")
    if copy.status in (Copy.Status.LENT, Copy.Status.QUARANTINE):
        raise BookingError("copy_unavailable", status=copy.get_status_display())
    if not playable:
        raise BookingError("copy_unplayable")
    if session.copy_reservations.filter(copy=copy).exists():
        raise BookingError("copy_already_reserved")
    clash = (CopyReservation.objects.filter(copy=copy, session__status=Session.Status.SCHEDULED)
             .filter(session__starts_at__lt=session.ends_at, session__ends_at__gt=session.starts_at)
             .select_related("session").first())
    if clash is not None:
        raise BookingError("copy_taken", other=str(clash.session))
    return CopyReservation.objects.create(session=session, copy=copy, created_by=by)


def _playable(copy_pk: int) -> bool:
    """Whether a count left the box playable, read under a lock on its state: a
    count marking it not playable at this moment is waited for, then obeyed."""
    from boxes.models import BoxState  # the boxes build on the bookings' reservations

    # Locked by its key alone: a WHERE on the flag would skip, without waiting, a row
    # a count is changing (PostgreSQL matches the committed version first).
    state = BoxState.objects.select_for_update().filter(pk=copy_pk).values_list("unplayable", flat=True)
    return not any(state)


@transaction.atomic
def release_copy(reservation_id: Any, by: Any, now: datetime | None = None) -> None:
    """Give up a reservation; a copy the worker took off the shelf goes back."""
    require_staff(by)
    try:
        reservation = CopyReservation.objects.select_for_update().get(pk=int(reservation_id))
    except (CopyReservation.DoesNotExist, TypeError, ValueError):
        raise BookingError("no_reservation") from None
    _put_back(reservation, now or timezone.now())
    reservation.delete()


def _put_back(reservation: CopyReservation, now: datetime) -> None:
    if reservation.taken_at is None or reservation.returned_at is not None:
        return
    copy = Copy.objects.select_for_update().get(pk=reservation.copy_id)
    if copy.status == Copy.Status.IN_USE:
        shelves.set_copy_status(copy, Copy.Status.AVAILABLE)
    reservation.returned_at = now
    reservation.save(update_fields=["returned_at"])


def sync_copies(now: datetime | None = None) -> int:
    """Copies reserved for a session that is running leave the shelf ("in
    use"); once it is over (or cancelled) they go back. Only a copy that was
    on the shelf is taken, and only one still "in use" is put back: a copy a
    host lent or quarantined meanwhile keeps the status the host gave it."""
    now = now or timezone.now()
    to_take = list(copies_to_take(now).values_list("pk", flat=True)[:50])
    to_return = list(copies_to_return(now).values_list("pk", flat=True)[:50])
    return sum(take_copy(pk, now) for pk in to_take) + sum(return_copy(pk, now) for pk in to_return)


def copies_to_take(now: datetime | None = None):
    """Reservations of sessions running now whose copy is still on the shelf."""
    now = now or timezone.now()
    return CopyReservation.objects.filter(
        taken_at__isnull=True, session__status=Session.Status.SCHEDULED,
        session__starts_at__lte=now, session__ends_at__gt=now,
    ).order_by("id")


def copies_to_return(now: datetime | None = None):
    """Reservations whose copy left the shelf for a session now over (or cancelled)."""
    now = now or timezone.now()
    return CopyReservation.objects.filter(taken_at__isnull=False, returned_at__isnull=True).filter(
        Q(session__ends_at__lte=now) | Q(session__status=Session.Status.CANCELLED)
    ).order_by("id")


@transaction.atomic
def take_copy(reservation_id: Any, now: datetime | None = None) -> bool:
    """Take one reserved copy off the shelf if its session runs now and it is on the shelf."""
    now = now or timezone.now()
    reservation = copies_to_take(now).select_for_update(of=("self",)).filter(pk=reservation_id).first()
    if reservation is None:
        return False
    copy = Copy.objects.select_for_update().get(pk=reservation.copy_id)
    if copy.status != Copy.Status.AVAILABLE:
        return False
    shelves.set_copy_status(copy, Copy.Status.IN_USE)
    reservation.taken_at = now
    reservation.save(update_fields=["taken_at"])
    return True


@transaction.atomic
def return_copy(reservation_id: Any, now: datetime | None = None) -> bool:
    """Put one copy back once its session is over (or cancelled)."""
    now = now or timezone.now()
    reservation = copies_to_return(now).select_for_update(of=("self",)).filter(pk=reservation_id).first()
    if reservation is None:
        return False
    _put_back(reservation, now)
    return True
