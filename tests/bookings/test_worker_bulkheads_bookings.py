"""Worker bulkheads for the sessions' other jobs (issue 29, finding 2): one
booking whose row cannot be written (a damaged page) never keeps the others
from their reminders, their expired offers moving on, or their lapsing; it is
set aside for a host after LUDO_WORKER_ROW_FAILURES tries."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.bookings import jobs, services
from games.bookings.models import Booking, Session
from ludo import worker
from ludo.bulkheads.models import JobFailure
from tests.bookings.conftest import guest
from tests.ludo.poison import unwritable_row

pytestmark = [pytest.mark.django_db(transaction=True)]
ROUNDS = 3


@pytest.fixture(autouse=True)
def quick(settings):
    settings.LUDO_WORKER_ROW_FAILURES = ROUNDS
    settings.LUDO_WORKER_ROW_RETRY_SECONDS = 0


def rounds(job: str, unwritable: Booking) -> None:
    with unwritable_row(Booking, unwritable.pk):
        for _ in range(ROUNDS + 1):
            jobs._last_run.clear()  # the job's own pause between two runs (a minute)
            worker.run_once([job])


def set_aside(job: str, booking: Booking) -> bool:
    record = JobFailure.objects.get(job=job, model="bookings.booking", row=str(booking.pk))
    return record.set_aside and record.failures == ROUNDS and "disk fault" in record.error


def test_the_other_guests_get_their_reminder(soon):
    session = soon()
    bookings = [services.book(session.pk, seats=1, **guest(n)) for n in range(3)]
    now = timezone.now()
    Session.objects.filter(pk=session.pk).update(remind_at=now - timedelta(minutes=1))
    Booking.objects.filter(session=session).update(created_at=now - timedelta(hours=1))
    rounds("bookings.reminders", bookings[0])
    sent = {b.pk for b in Booking.objects.filter(session=session, reminder_sent_at__isnull=False)}
    assert sent == {bookings[1].pk, bookings[2].pk}
    assert set_aside("bookings.reminders", bookings[0])


def test_the_other_expired_offers_move_on(soon):
    offered = []
    for n in range(2):
        session = soon(capacity=1)
        first = services.book(session.pk, seats=1, **guest(10 * n))
        waiting = services.book(session.pk, seats=1, **guest(10 * n + 1))
        assert waiting.status == Booking.Status.WAITING
        services.cancel(first.pk, by_staff=session.created_by)
        waiting.refresh_from_db()
        assert waiting.status == Booking.Status.OFFERED
        offered.append(waiting)
    Booking.objects.filter(pk__in=[b.pk for b in offered]).update(
        offer_expires_at=timezone.now() - timedelta(minutes=1))
    rounds("bookings.offers", offered[0])
    assert Booking.objects.get(pk=offered[1].pk).status == Booking.Status.EXPIRED
    assert Booking.objects.get(pk=offered[0].pk).status == Booking.Status.OFFERED
    assert set_aside("bookings.offers", offered[0])


def test_the_other_unconfirmed_bookings_lapse(soon):
    session = soon()
    unverified = [services.request_booking(session.pk, seats=1, **guest(n)) for n in range(3)]
    Booking.objects.filter(pk__in=[b.pk for b in unverified]).update(confirm_by=timezone.now() - timedelta(minutes=1))
    rounds("bookings.unverified", unverified[0])
    assert list(Booking.objects.filter(session=session).values_list("pk", flat=True)) == [unverified[0].pk]
    assert set_aside("bookings.unverified", unverified[0])


def test_the_other_reserved_copies_leave_the_shelf(soon, alice):
    from catalog.collection.models import Game
    from catalog.shelves import services as shelves
    from catalog.shelves.models import Copy
    from games.bookings.models import CopyReservation

    azul = Game.objects.create(title="Azul")
    reservations = []
    for shelf in ("B3", "B4"):
        session = soon(games=[azul])
        reservations.append(services.reserve_copy(session.pk, shelves.add_copy(azul, shelf).pk, alice))
        # The session runs now.
        Session.objects.filter(pk=session.pk).update(starts_at=timezone.now() - timedelta(hours=1),
                                                     ends_at=timezone.now() + timedelta(hours=2))
    stuck, other = reservations
    with unwritable_row(CopyReservation, stuck.pk):
        for _ in range(ROUNDS + 1):
            jobs._last_run.clear()
            worker.run_once(["bookings.copies"])
    assert Copy.objects.get(pk=other.copy_id).status == Copy.Status.IN_USE
    assert Copy.objects.get(pk=stuck.copy_id).status == Copy.Status.AVAILABLE  # rolled back with its step
    record = JobFailure.objects.get(job="bookings.copies", model="bookings.copyreservation", row=str(stuck.pk))
    assert record.set_aside and record.failures == ROUNDS
