"""Booking seats: who gets confirmed, who waits, who is refused, and that a
refusal changes nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games.bookings import services
from games.bookings.errors import BookingError
from games.bookings.models import Booking, Session
from tests.bookings.conftest import guest


def book(session, n, seats=1, **kw):
    return services.book(session.pk, seats=seats, now=kw.pop("now"), **guest(n), **kw)


def test_it_confirms_a_party_that_fits(make_session, now):
    session = make_session(capacity=10)
    booking = book(session, 1, seats=4, now=now)
    assert booking.status == "confirmed"
    session.refresh_from_db()
    assert session.seats_taken == 4 and session.seats_free == 6


def test_it_puts_a_party_that_does_not_fit_on_the_waiting_list(make_session, now):
    session = make_session(capacity=5)
    book(session, 1, seats=4, now=now)
    waiting = book(session, 2, seats=2, now=now)
    assert waiting.status == "waiting"
    assert waiting.waiting_position() == 1
    session.refresh_from_db()
    assert session.seats_taken == 4  # a waiting booking holds no seat


def test_it_refuses_when_the_waiting_list_is_full_and_keeps_nothing(make_session, now):
    session = make_session(capacity=1, waiting_list_size=1)
    book(session, 1, now=now)
    book(session, 2, now=now)
    with pytest.raises(BookingError) as exc:
        book(session, 3, now=now)
    assert exc.value.code == "full"
    assert not Booking.objects.filter(email="guest3@example.org").exists()


def test_it_refuses_with_another_message_when_there_is_no_waiting_list(make_session, now):
    session = make_session(capacity=1, waiting_list_size=0)
    book(session, 1, now=now)
    with pytest.raises(BookingError) as exc:
        book(session, 2, now=now)
    assert exc.value.code == "full_no_waiting_list"


def test_it_refuses_a_party_larger_than_the_session(make_session, now):
    session = make_session(capacity=6)
    with pytest.raises(BookingError) as exc:
        book(session, 1, seats=7, now=now)
    assert exc.value.code == "party_too_large" and "6" in exc.value.message


def test_it_refuses_a_second_live_booking_for_the_same_email(make_session, now):
    session = make_session()
    book(session, 1, now=now)
    with pytest.raises(BookingError) as exc:
        services.book(session.pk, seats=1, name="Someone", email="GUEST1@example.org", now=now)
    assert exc.value.code == "already_booked"


def test_it_lets_the_same_email_book_again_after_cancelling(make_session, now):
    session = make_session()
    first = book(session, 1, now=now)
    services.cancel(first.pk, counter=0, now=now)
    assert book(session, 1, now=now).status == "confirmed"


@pytest.mark.parametrize("field,value,code", [
    ("name", "", "bad_name"),
    ("name", "x" * 101, "bad_name"),
    ("email", "not-an-email", "bad_email"),
    ("seats", 0, "bad_seats"),
    ("seats", "three", "bad_seats"),
    ("seats", True, "bad_seats"),
    ("language", "de", "bad_language"),
])
def test_it_refuses_bad_input_and_writes_nothing(make_session, now, field, value, code):
    session = make_session()
    args = {"name": "Carol", "email": "carol@example.org", "seats": 2, "language": "fr", field: value}
    with pytest.raises(BookingError) as exc:
        services.book(session.pk, now=now, **args)
    assert exc.value.code == code
    assert not Booking.objects.exists()


def test_it_refuses_an_unknown_session(db, now):
    with pytest.raises(BookingError) as exc:
        services.book(999999, seats=1, now=now, **guest(1))
    assert exc.value.code == "no_session"


def test_it_refuses_a_session_that_has_started(make_session, now):
    session = make_session()
    with pytest.raises(BookingError) as exc:
        book(session, 1, now=session.starts_at + timedelta(minutes=1))
    assert exc.value.code == "session_started"


def test_it_refuses_a_cancelled_session(make_session, alice, now):
    session = make_session()
    services.cancel_session(session.pk, alice, now=now)
    with pytest.raises(BookingError) as exc:
        book(session, 1, now=now)
    assert exc.value.code == "session_cancelled"


def test_an_invitation_only_session_needs_its_key(make_session, now):
    session = make_session(visibility=Session.Visibility.INVITATION)
    with pytest.raises(BookingError) as exc:
        book(session, 1, now=now)
    assert exc.value.code == "invitation_only"
    with pytest.raises(BookingError):
        book(session, 1, now=now, invite="guessed")
    assert book(session, 1, now=now, invite=session.invite_key).status == "confirmed"


def test_a_booking_with_an_account_is_linked_to_it(make_session, bob, now):
    session = make_session()
    booking = services.book(session.pk, seats=2, name="Bob", email="bob@example.org", user=bob, now=now)
    assert booking.user == bob


class TestApproval:
    def test_it_holds_the_seats_of_a_booking_awaiting_approval(self, make_session, now):
        session = make_session(capacity=4, requires_approval=True)
        pending = book(session, 1, seats=3, now=now)
        assert pending.status == "pending"
        session.refresh_from_db()
        assert session.seats_taken == 3
        assert book(session, 2, seats=2, now=now).status == "waiting"

    def test_a_host_approves(self, make_session, alice, now):
        session = make_session(requires_approval=True)
        pending = book(session, 1, now=now)
        assert services.approve(pending.pk, alice).status == "confirmed"
        with pytest.raises(BookingError) as exc:
            services.approve(pending.pk, alice)
        assert exc.value.code == "not_pending"

    def test_a_host_declines_and_the_seats_go_to_the_waiting_list(self, make_session, alice, now):
        session = make_session(capacity=2, requires_approval=True)
        pending = book(session, 1, seats=2, now=now)
        waiting = book(session, 2, seats=2, now=now)
        services.decline(pending.pk, alice, "Sorry", now=now)
        waiting.refresh_from_db()
        assert waiting.status == "offered"

    def test_a_guest_cannot_approve(self, make_session, bob, now):
        session = make_session(requires_approval=True)
        pending = book(session, 1, now=now)
        with pytest.raises(BookingError) as exc:
            services.approve(pending.pk, bob)
        assert exc.value.code == "staff_only"
        pending.refresh_from_db()
        assert pending.status == "pending"


class TestSessions:
    def test_only_hosts_create_sessions(self, bob, now):
        with pytest.raises(BookingError):
            services.create_session(bob, starts_at=now + timedelta(days=1), ends_at=now + timedelta(days=1, hours=2),
                                    capacity=4, now=now)

    @pytest.mark.parametrize("hours", [0, -1, 25])
    def test_it_refuses_times_that_do_not_make_a_session(self, alice, now, hours):
        start = now + timedelta(days=1)
        with pytest.raises(BookingError) as exc:
            services.create_session(alice, starts_at=start, ends_at=start + timedelta(hours=hours), capacity=4, now=now)
        assert exc.value.code == "bad_times"

    @pytest.mark.parametrize("capacity", [0, 201, "many"])
    def test_it_refuses_a_bad_capacity(self, alice, now, capacity):
        start = now + timedelta(days=1)
        with pytest.raises(BookingError) as exc:
            services.create_session(alice, starts_at=start, ends_at=start + timedelta(hours=2), capacity=capacity,
                                    now=now)
        assert exc.value.code == "bad_capacity"
        assert not Session.objects.exists()

    def test_the_capacity_cannot_drop_below_the_seats_booked(self, make_session, alice, now):
        session = make_session(capacity=6)
        book(session, 1, seats=5, now=now)
        with pytest.raises(BookingError) as exc:
            services.update_session(session.pk, alice, capacity=4, now=now)
        assert exc.value.code == "capacity_below_booked"
        session.refresh_from_db()
        assert session.capacity == 6

    def test_more_capacity_offers_seats_to_the_waiting_list(self, make_session, alice, now):
        session = make_session(capacity=2)
        book(session, 1, seats=2, now=now)
        waiting = book(session, 2, seats=1, now=now)
        services.update_session(session.pk, alice, capacity=3, now=now)
        waiting.refresh_from_db()
        assert waiting.status == "offered"

    def test_times_are_locked_once_people_have_booked(self, make_session, alice, now):
        session = make_session()
        book(session, 1, now=now)
        with pytest.raises(BookingError) as exc:
            services.update_session(session.pk, alice, starts_at=session.starts_at + timedelta(hours=1), now=now)
        assert exc.value.code == "times_locked"

    def test_cancelling_a_session_cancels_every_live_booking(self, make_session, alice, now):
        session = make_session(capacity=1)
        book(session, 1, now=now)
        book(session, 2, now=now)
        services.cancel_session(session.pk, alice, "Snow", now=now)
        assert set(Booking.objects.values_list("status", flat=True)) == {"cancelled"}
        session.refresh_from_db()
        assert session.seats_taken == 0 and session.status == "cancelled"
