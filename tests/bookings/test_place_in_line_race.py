"""The place in line each visitor is told when confirming at the same moment as
others: distinct, 1..N, and the one the database keeps.

``confirm_booking`` read the clock before waiting for the session lock and that
time set the place: on PostgreSQL 8 of 20 visitors confirming at once were told a
number another was also told (three were told "number 1"). Each visitor here is a
thread with its own database connection, as on a server.
"""

from __future__ import annotations

import pytest

from games.bookings import services
from games.bookings.models import Booking
from tests.bookings.conftest import guest
from tests.bookings.test_booking_race import race

pytestmark = pytest.mark.django_db(transaction=True)

VISITORS = 20


def _told(booking_id: int) -> tuple[str, int | None]:
    """Confirm, then read the place as the page the visitor lands on does."""
    booking, _already = services.confirm_booking(booking_id)
    booking.refresh_from_db()
    return booking.status, booking.waiting_position()


def _database_places(session) -> dict[int, int]:
    waiting = Booking.objects.filter(session=session, status=Booking.Status.WAITING).order_by("created_at", "id")
    return {row.pk: place for place, row in enumerate(waiting, start=1)}


def test_visitors_confirming_at_once_are_each_told_their_own_place(shared_database, make_session, now):
    session = make_session(capacity=1, waiting_list_size=VISITORS)
    services.book(session.pk, seats=1, now=now, **guest(999))  # the only seat is taken
    pending = [services.request_booking(session.pk, seats=1, now=now, **guest(n)).pk for n in range(VISITORS)]

    results = race([lambda pk=pk: _told(pk) for pk in pending])

    assert all(result[0] == "ok" for result in results), results
    told = {pk: result[1] for pk, result in zip(pending, results)}
    assert {status for status, _place in told.values()} == {"waiting"}
    places = sorted(place for _status, place in told.values())
    assert places == list(range(1, VISITORS + 1)), places  # nobody told a number another was told
    database = _database_places(session)
    assert {pk: place for pk, (_status, place) in told.items()} == database


def test_direct_bookings_at_once_are_each_told_their_own_place(shared_database, make_session, now):
    session = make_session(capacity=1, waiting_list_size=VISITORS)
    services.book(session.pk, seats=1, now=now, **guest(999))

    def book_and_read(n: int) -> tuple[int, int | None]:
        booking = services.book(session.pk, seats=1, **guest(n))
        booking.refresh_from_db()
        return booking.pk, booking.waiting_position()

    results = race([lambda n=n: book_and_read(n) for n in range(VISITORS)])

    assert all(result[0] == "ok" for result in results), results
    told = dict(result[1] for result in results)
    assert sorted(told.values()) == list(range(1, VISITORS + 1))
    assert told == _database_places(session)
