"""The database itself refuses an overbooking, whoever writes the rows:
triggers keep Session.seats_taken equal to the seats held, and a CHECK keeps
it within capacity. These tests write rows directly, bypassing the service."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, transaction

from games.bookings import seatguard
from games.bookings.models import Booking


def row(session, n, seats, status="confirmed"):
    return Booking.objects.create(session=session, name=f"Guest {n}", email=f"g{n}@example.org", seats=seats,
                                  status=status)


def test_the_triggers_are_installed(db):
    assert seatguard.installed(connection) == seatguard.TRIGGER_NAMES[connection.vendor]


def test_the_counter_follows_inserts_updates_and_deletes(make_session):
    session = make_session(capacity=10)
    a = row(session, 1, 3)
    b = row(session, 2, 2, status="waiting")
    session.refresh_from_db()
    assert session.seats_taken == 3
    b.status = "offered"
    b.offer_expires_at = session.starts_at
    b.save()
    a.seats = 4
    a.save()
    session.refresh_from_db()
    assert session.seats_taken == 6
    a.status = "cancelled"
    a.save()
    b.delete()
    session.refresh_from_db()
    assert session.seats_taken == 0


def test_it_refuses_a_row_that_would_overbook(make_session):
    session = make_session(capacity=5)
    row(session, 1, 4)
    with pytest.raises(IntegrityError), transaction.atomic():
        row(session, 2, 2)
    assert Booking.objects.count() == 1
    session.refresh_from_db()
    assert session.seats_taken == 4


def test_it_refuses_an_update_that_would_overbook(make_session):
    session = make_session(capacity=5)
    row(session, 1, 4)
    waiting = row(session, 2, 2, status="waiting")
    with pytest.raises(IntegrityError), transaction.atomic():
        Booking.objects.filter(pk=waiting.pk).update(status="confirmed")
    waiting.refresh_from_db()
    assert waiting.status == "waiting"


def test_saving_a_session_never_writes_back_a_stale_counter(make_session):
    session = make_session(capacity=5)
    stale = type(session).objects.get(pk=session.pk)
    row(session, 1, 3)
    stale.notes = "Bring snacks"
    stale.save()
    session.refresh_from_db()
    assert session.seats_taken == 3 and session.notes == "Bring snacks"


def test_reinstalling_recounts_a_drifted_counter(make_session):
    session = make_session(capacity=5)
    row(session, 1, 3)
    type(session).objects.filter(pk=session.pk).update(seats_taken=1)
    seatguard.install(connection)
    session.refresh_from_db()
    assert session.seats_taken == 3
    assert seatguard.installed(connection) == seatguard.TRIGGER_NAMES[connection.vendor]
