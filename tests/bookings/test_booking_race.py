"""Races: many people booking the last seats at the same moment, each from
its own thread with its own database connection. Exactly the capacity is
booked; everybody else is on the waiting list or told plainly that the
session is full. On PostgreSQL the session row lock decides; on SQLite the
write lock (BEGIN IMMEDIATE) on a real database file does. Behind both, the
database's trigger and CHECK constraint would refuse an overbooking."""

from __future__ import annotations

import random

import pytest
from django.db import connection

from games.bookings import services
from games.bookings.errors import BookingError
from games.bookings.models import Booking, Session
from tests.bookings.conftest import guest
from tests.races import race as start_together

pytestmark = pytest.mark.django_db(transaction=True)

REQUESTS = 50


def race(calls):
    """Bookings started at the same moment (tests.races): ``("refused", code, message)``."""
    return start_together(calls, BookingError, told=lambda exc: (exc.code, exc.message))


def test_it_books_exactly_ten_of_fifty_concurrent_requests(shared_database, make_session, now):
    session = make_session(capacity=10, waiting_list_size=20)
    calls = [
        (lambda n=n: services.book(session.pk, seats=1, now=now, **guest(n)).status)
        for n in range(REQUESTS)
    ]
    results = race(calls)
    assert not [r for r in results if r[0] == "crashed"], results
    statuses = [r[1] for r in results if r[0] == "ok"]
    refused = [r for r in results if r[0] == "refused"]
    assert statuses.count("confirmed") == 10
    assert statuses.count("waiting") == 20
    assert len(refused) == 20
    assert {r[1] for r in refused} == {"full"}
    assert {r[2] for r in refused} == {BookingError("full").message}  # the message says why
    session.refresh_from_db()
    assert session.seats_taken == 10
    rows = Booking.objects.filter(session=session)
    assert rows.filter(status="confirmed").count() == 10
    assert rows.filter(status="waiting").count() == 20
    assert rows.count() == 30  # a refused request leaves nothing behind
    assert connection.vendor in ("sqlite", "postgresql")


def test_parties_of_mixed_sizes_never_overbook(shared_database, make_session, now):
    session = make_session(capacity=10, waiting_list_size=0)
    sizes = random.Random(7).choices([1, 2, 3], k=REQUESTS)
    calls = [
        (lambda n=n, k=k: services.book(session.pk, seats=k, now=now, **guest(n)).status)
        for n, k in enumerate(sizes)
    ]
    results = race(calls)
    assert not [r for r in results if r[0] == "crashed"], results
    booked = [k for k, r in zip(sizes, results) if r[0] == "ok"]
    assert all(r[1] == "confirmed" for r in results if r[0] == "ok")
    assert {r[1] for r in results if r[0] == "refused"} == {"full_no_waiting_list"}
    assert sum(booked) <= 10
    # Every party that was refused did not fit in what was left at the end.
    session.refresh_from_db()
    assert session.seats_taken == sum(booked)
    left = 10 - sum(booked)
    assert all(k > left for k, r in zip(sizes, results) if r[0] == "refused")


def test_cancellations_racing_bookings_keep_the_counter_exact(shared_database, make_session, now):
    session = make_session(capacity=10, waiting_list_size=40, cancel_notice_hours=0)
    first = [services.book(session.pk, seats=1, now=now, **guest(n)) for n in range(10)]
    calls = [(lambda b=b: services.cancel(b.pk, counter=0, now=now).status) for b in first]
    calls += [(lambda n=n: services.book(session.pk, seats=1, now=now, **guest(n)).status)
              for n in range(100, 120)]
    results = race(calls)
    assert not [r for r in results if r[0] != "ok"], results
    session.refresh_from_db()
    held = sum(Booking.objects.filter(session=session, status__in=Booking.HOLDING).values_list("seats", flat=True))
    assert session.seats_taken == held == 10
    # The ten freed seats went to the newcomers, confirmed or offered in turn.
    assert Booking.objects.filter(session=session, status="cancelled").count() == 10
    assert Session.objects.get(pk=session.pk).seats_free == 0
