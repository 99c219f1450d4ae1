"""The waiting list: freed seats are offered to the next in line that fits,
for a limited time; an offer that runs out goes to the next person."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.bookings import jobs, services
from games.bookings.errors import BookingError
from games.bookings.models import Booking
from ludo import worker
from tests.bookings.conftest import guest


def book(session, n, seats=1, now=None):
    return services.book(session.pk, seats=seats, now=now, **guest(n))


def status(booking):
    booking.refresh_from_db()
    return booking.status


def test_a_cancellation_offers_the_seat_to_the_first_in_line(make_session, now, mailoutbox, on_commit):
    session = make_session(capacity=1, offer_minutes=90)
    first = book(session, 1, now=now)
    second = book(session, 2, now=now)
    third = book(session, 3, now=now)
    with on_commit():
        services.cancel(first.pk, counter=0, now=now)
    assert status(second) == "offered" and status(third) == "waiting"
    assert second.offer_expires_at == now + timedelta(minutes=90)
    assert [m.to for m in mailoutbox[-2:]] == [["guest1@example.org"], ["guest2@example.org"]]
    session.refresh_from_db()
    assert session.seats_taken == 1  # the offered seat is held for them


def test_a_party_too_large_keeps_its_place_and_the_next_that_fits_gets_the_offer(make_session, now):
    session = make_session(capacity=2)
    first = book(session, 1, seats=2, now=now)
    big = book(session, 2, seats=2, now=now)
    services.change(first.pk, counter=0, seats=1, now=now)
    small = book(session, 3, seats=1, now=now)
    assert status(big) == "waiting"  # one seat free: not enough for two
    assert status(small) == "confirmed"  # the free seat was too few for the party waiting
    services.cancel(small.pk, counter=0, now=now)
    assert status(big) == "waiting"
    services.cancel(first.pk, counter=1, now=now)
    assert status(big) == "offered"


def test_first_fit_skips_a_large_party_for_a_small_one(make_session, now):
    session = make_session(capacity=3)
    a = book(session, 1, seats=1, now=now)
    book(session, 2, seats=2, now=now)
    large = book(session, 3, seats=3, now=now)
    small = book(session, 4, seats=1, now=now)
    services.cancel(a.pk, counter=0, now=now)
    assert status(large) == "waiting" and status(small) == "offered"


def test_someone_new_cannot_take_an_offered_seat(make_session, now):
    session = make_session(capacity=1)
    first = book(session, 1, now=now)
    second = book(session, 2, now=now)
    services.cancel(first.pk, counter=0, now=now)
    assert book(session, 3, now=now).status == "waiting"
    assert status(second) == "offered"


def test_accepting_an_offer_confirms_it(make_session, now, mailoutbox, on_commit):
    session = make_session(capacity=1)
    first = book(session, 1, now=now)
    second = book(session, 2, now=now)
    services.cancel(first.pk, counter=0, now=now)
    with on_commit():
        accepted = services.accept_offer(second.pk, counter=0, now=now + timedelta(minutes=5))
    assert accepted.status == "confirmed" and accepted.offer_expires_at is None
    assert mailoutbox[-1].to == ["guest2@example.org"] and mailoutbox[-1].attachments


def test_an_offer_on_a_session_needing_approval_goes_back_to_the_hosts(make_session, now):
    session = make_session(capacity=1, requires_approval=True)
    first = book(session, 1, now=now)
    second = book(session, 2, now=now)
    services.cancel(first.pk, counter=0, now=now)
    assert services.accept_offer(second.pk, counter=0, now=now).status == "pending"


def test_an_offer_cannot_be_accepted_after_it_runs_out(make_session, now):
    session = make_session(capacity=1, offer_minutes=30)
    first = book(session, 1, now=now)
    second = book(session, 2, now=now)
    services.cancel(first.pk, counter=0, now=now)
    with pytest.raises(BookingError) as exc:
        services.accept_offer(second.pk, counter=0, now=now + timedelta(minutes=30))
    assert exc.value.code == "offer_expired"
    assert status(second) == "offered"  # the worker withdraws it, and offers it on


def test_an_offer_never_runs_past_the_start(make_session, now):
    session = make_session(capacity=1, offer_minutes=14 * 24 * 60)
    first = book(session, 1, now=now)
    second = book(session, 2, now=now)
    services.cancel(first.pk, counter=0, now=now)
    second.refresh_from_db()
    assert second.offer_expires_at == session.starts_at


def test_an_expired_offer_goes_to_the_next_in_line(make_session, now, mailoutbox, on_commit):
    session = make_session(capacity=1, offer_minutes=60)
    first = book(session, 1, now=now)
    second = book(session, 2, now=now)
    third = book(session, 3, now=now)
    services.cancel(first.pk, counter=0, now=now)
    assert services.expire_offers(now=now + timedelta(minutes=59)) == 0
    with on_commit():
        assert services.expire_offers(now=now + timedelta(minutes=60)) == 1
    assert status(second) == "expired" and status(third) == "offered"
    assert {m.to[0] for m in mailoutbox} == {"guest2@example.org", "guest3@example.org"}
    session.refresh_from_db()
    assert session.seats_taken == 1


def test_declining_an_offer_passes_it_on(make_session, now):
    session = make_session(capacity=1)
    first = book(session, 1, now=now)
    second = book(session, 2, now=now)
    third = book(session, 3, now=now)
    services.cancel(first.pk, counter=0, now=now)
    services.cancel(second.pk, counter=0, now=now)
    assert status(third) == "offered"


def test_leaving_the_waiting_list_is_allowed_even_after_the_notice(make_session, now):
    session = make_session(capacity=1, cancel_notice_hours=48)
    book(session, 1, now=now)
    waiting = book(session, 2, now=now)
    late = session.starts_at - timedelta(hours=1)
    assert services.cancel(waiting.pk, counter=0, now=late).status == "cancelled"


# The worker closes connections between jobs: outside the test's transaction.
@pytest.mark.django_db(transaction=True)
def test_the_worker_job_withdraws_due_offers(soon, mailoutbox):
    session = soon(capacity=1, offer_minutes=5)
    first = book(session, 1)
    second = book(session, 2)
    third = book(session, 3)
    services.cancel(first.pk, counter=0)
    Booking.objects.filter(pk=second.pk).update(offer_expires_at=timezone.now() - timedelta(seconds=1))
    worker.run_once(["bookings.offers"])
    assert status(second) == "expired" and status(third) == "offered"
    assert "bookings.offers" in worker.jobs()
    assert 0 <= jobs.expire_offers() <= jobs.OFFERS_AT_MOST
