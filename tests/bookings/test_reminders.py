"""The reminder the day before: sent once, to confirmed bookings only, and
not at all once its time has passed (a booking made after it, or a worker
that wakes up after the start)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.bookings import jobs, services
from games.bookings.models import Booking
from ludo import worker
from tests.bookings.conftest import guest


@pytest.fixture
def booked(make_session, now):
    session = make_session(capacity=3)
    return session, services.book(session.pk, seats=1, now=now, **guest(1))


def test_it_is_due_the_day_before_at_the_same_time(booked):
    session, _ = booked
    assert session.starts_at - session.remind_at == timedelta(days=1)


def test_it_is_sent_once_when_due(booked, mailoutbox, on_commit):
    session, booking = booked
    with on_commit():
        assert services.send_due_reminders(now=session.remind_at - timedelta(minutes=1)) == 0
        assert services.send_due_reminders(now=session.remind_at + timedelta(minutes=1)) == 1
        assert services.send_due_reminders(now=session.remind_at + timedelta(minutes=2)) == 0
    [message] = mailoutbox
    assert message.subject.startswith("Demain au gîte") and message.to == ["guest1@example.org"]
    assert "/sessions/reservation/" in message.body and message.attachments
    booking.refresh_from_db()
    assert booking.reminder_sent_at == session.remind_at + timedelta(minutes=1)


def test_it_is_not_sent_once_the_session_has_started(booked, mailoutbox, on_commit):
    session, _ = booked
    with on_commit():
        assert services.send_due_reminders(now=session.starts_at + timedelta(minutes=1)) == 0
    assert mailoutbox == []


def test_a_booking_made_after_the_reminder_time_gets_none(make_session, now, mailoutbox, on_commit):
    session = make_session()
    late = session.remind_at + timedelta(hours=2)
    services.book(session.pk, seats=1, now=late, **guest(2))
    with on_commit():
        assert services.send_due_reminders(now=late + timedelta(minutes=1)) == 0
    assert mailoutbox == []


def test_only_confirmed_bookings_get_one(make_session, alice, now):
    session = make_session(capacity=1)
    confirmed = services.book(session.pk, seats=1, now=now, **guest(1))
    services.book(session.pk, seats=1, now=now, **guest(2))  # waiting
    assert list(services.due_reminders(session.remind_at)) == [confirmed]
    services.cancel_session(session.pk, alice, now=now)
    assert not services.due_reminders(session.remind_at).exists()


# The worker closes connections between jobs: outside the test's transaction.
@pytest.mark.django_db(transaction=True)
def test_the_worker_sends_them(soon, mailoutbox):
    session = soon(starts_at=timezone.now() + timedelta(hours=12))
    booking = services.book(session.pk, seats=1, **guest(1))
    Booking.objects.filter(pk=booking.pk).update(created_at=timezone.now() - timedelta(days=3))
    jobs._last_run.clear()
    worker.run_once(["bookings.reminders"])
    booking.refresh_from_db()
    assert booking.reminder_sent_at is not None
    # The job runs at most once a minute, whatever the worker's pace.
    assert 0 < jobs.send_reminders() <= jobs.REMINDERS_EVERY
