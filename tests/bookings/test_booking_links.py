"""The emailed link: it opens the booking without an account, lets its
owner change or cancel it within the rules, and nothing else opens it: a
forged, tampered, expired or replaced link is refused."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import signing
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.bookings import conf, services, tokens
from games.bookings.errors import BookingError
from games.bookings.models import Booking
from tests.bookings.conftest import deliver, guest
from tests.bookings.test_booking_emails import link_path


@pytest.fixture
def booking(soon):
    session = soon(capacity=6, max_changes=2, cancel_notice_hours=24)
    return services.book(session.pk, seats=2, **guest(1))


def url(token):
    return reverse("bookings:manage", args=[token])


class TestTokens:
    def test_a_token_names_its_booking_and_change_count(self, booking):
        link = tokens.read_manage_token(tokens.manage_token(booking))
        assert (link.pk, link.counter) == (booking.pk, 0)

    def test_a_tampered_token_is_refused(self, booking):
        token = tokens.manage_token(booking)
        value, signature = token.rsplit(":", 1)
        forged_value = signing.Signer(salt="another").sign_object({"id": booking.pk + 1, "n": 0, "t": 0})
        for bad in (token[:-2] + ("AA" if token[-2:] != "AA" else "BB"), forged_value.rsplit(":", 1)[0] + ":" + signature,
                    "", "garbage", "x" * 600):
            with pytest.raises(BookingError) as exc:
                tokens.read_manage_token(bad)
            assert exc.value.code == "bad_link"

    def test_a_token_signed_for_another_purpose_is_refused(self, booking):
        other = signing.Signer(salt=tokens.PROPOSAL_SALT).sign_object(
            {"id": booking.pk, "n": 0, "t": int(timezone.now().timestamp())}, compress=True)
        with pytest.raises(BookingError) as exc:
            tokens.read_manage_token(other)
        assert exc.value.code == "bad_link"

    def test_a_token_expires(self, booking):
        issued = timezone.now() - conf.link_max_age() - timedelta(minutes=1)
        old = tokens.manage_token(booking, now=issued)
        with pytest.raises(BookingError) as exc:
            tokens.read_manage_token(old)
        assert exc.value.code == "expired_link"
        assert tokens.read_manage_token(tokens.manage_token(booking, now=issued + timedelta(minutes=2)))


class TestManagePage:
    def test_it_shows_the_booking(self, client, booking):
        response = client.get(url(tokens.manage_token(booking)))
        assert response.status_code == 200
        assert b"Guest 1" in response.content and b"guest1@example.org" in response.content

    def test_a_forged_link_gets_a_clear_refusal(self, client, booking):
        response = client.get(url("eyJpZCI6MX0:forged"))
        assert response.status_code == 400
        assert BookingError("bad_link").message.encode() in response.content

    def test_an_expired_link_gets_a_clear_refusal_and_a_way_to_a_new_one(self, client, booking):
        old = tokens.manage_token(booking, now=timezone.now() - timedelta(days=365))
        response = client.get(url(old))
        assert response.status_code == 410
        assert BookingError("expired_link").message.encode() in response.content
        assert reverse("bookings:resend").encode() in response.content

    def test_cancelling(self, client, booking):
        token = tokens.manage_token(booking)
        response = client.post(url(token), {"action": "cancel"})
        assert response.status_code == 302
        booking.refresh_from_db()
        assert booking.status == "cancelled"

    def test_cancelling_is_refused_after_the_notice(self, client, soon):
        session = soon(cancel_notice_hours=72)  # starts in 48 h: already too late
        booking = services.book(session.pk, seats=1, **guest(2))
        response = client.post(url(tokens.manage_token(booking)), {"action": "cancel"}, follow=True)
        booking.refresh_from_db()
        assert booking.status == "confirmed"
        assert BookingError("too_late_to_cancel", hours=72).message.encode() in response.content

    def test_a_change_retires_the_old_link(self, client, booking):
        old = tokens.manage_token(booking)
        response = client.post(url(old), {"action": "change", "seats": 3, "name": "Guest One"})
        assert response.status_code == 302
        booking.refresh_from_db()
        assert (booking.seats, booking.name, booking.changes) == (3, "Guest One", 1)
        assert response["Location"] == url(tokens.manage_token(booking))
        # The used link can neither be read nor replayed.
        assert client.get(url(old)).status_code == 410
        client.post(url(old), {"action": "change", "seats": 4, "name": "Guest One"})
        client.post(url(old), {"action": "cancel"})
        booking.refresh_from_db()
        assert (booking.seats, booking.status, booking.changes) == (3, "confirmed", 1)

    def test_changes_are_capped(self, client, booking):
        for seats in (3, 4):
            client.post(url(tokens.manage_token(booking)), {"action": "change", "seats": seats, "name": "Guest 1"})
            booking.refresh_from_db()
        assert (booking.seats, booking.changes) == (4, 2)
        response = client.post(url(tokens.manage_token(booking)), {"action": "change", "seats": 5, "name": "Guest 1"},
                               follow=True)
        booking.refresh_from_db()
        assert booking.seats == 4
        assert BookingError("no_changes_left", max=2).message.encode() in response.content

    def test_a_change_needs_the_seats_to_be_free(self, booking):
        services.book(booking.session_id, seats=3, **guest(2))
        with pytest.raises(BookingError) as exc:
            services.change(booking.pk, counter=0, seats=4)
        assert exc.value.code == "not_enough_seats" and exc.value.params == {"free": 1}
        booking.refresh_from_db()
        assert (booking.seats, booking.changes) == (2, 0)

    def test_a_change_with_nothing_new_does_not_use_up_a_change(self, booking):
        with pytest.raises(BookingError) as exc:
            services.change(booking.pk, counter=0, seats=2, name="Guest 1")
        assert exc.value.code == "nothing_changed"
        booking.refresh_from_db()
        assert booking.changes == 0

    def test_a_change_is_refused_after_the_notice(self, booking):
        late = booking.session.starts_at - timedelta(hours=1)
        with pytest.raises(BookingError) as exc:
            services.change(booking.pk, counter=0, seats=1, now=late)
        assert exc.value.code == "too_late_to_change"

    def test_accepting_an_offer_from_the_page(self, client, soon):
        session = soon(capacity=1)
        first = services.book(session.pk, seats=1, **guest(1))
        second = services.book(session.pk, seats=1, **guest(2))
        services.cancel(first.pk, counter=0)
        response = client.post(url(tokens.manage_token(second)), {"action": "accept"})
        assert response.status_code == 302
        second.refresh_from_db()
        assert second.status == "confirmed"

    def test_an_unknown_action_changes_nothing(self, client, booking):
        client.post(url(tokens.manage_token(booking)), {"action": "delete"})
        booking.refresh_from_db()
        assert booking.status == "confirmed"

    def test_its_forms_need_the_csrf_token(self, booking):
        strict = Client(enforce_csrf_checks=True)
        response = strict.post(url(tokens.manage_token(booking)), {"action": "cancel"})
        assert response.status_code == 403
        booking.refresh_from_db()
        assert booking.status == "confirmed"
        page = strict.get(url(tokens.manage_token(booking))).content.decode()
        assert page.count("<form") == page.count('name="csrfmiddlewaretoken"') >= 3

    def test_the_calendar_file_of_the_booking(self, client, booking):
        response = client.get(reverse("bookings:booking_ics", args=[tokens.manage_token(booking)]))
        assert response.status_code == 200 and response["Content-Type"].startswith("text/calendar")
        assert client.get(reverse("bookings:booking_ics", args=["nope:nope"])).status_code == 404


def test_lost_links_are_sent_to_the_address_only(client, booking, mailoutbox):
    deliver()
    mailoutbox.clear()
    response = client.post(reverse("bookings:resend"), {"email": "GUEST1@example.org"})
    assert response.status_code == 302
    deliver()
    assert [m.to for m in mailoutbox] == [["guest1@example.org"]]
    # The link in the mail is this booking's own (its token carries the second it was
    # made, so it is read back, not made again and compared).
    link = tokens.read_manage_token(link_path(mailoutbox[0]).rstrip("/").rsplit("/", 1)[-1])
    assert (link.pk, link.counter) == (booking.pk, booking.changes)
    client.post(reverse("bookings:resend"), {"email": "nobody@example.org"})
    deliver()
    assert len(mailoutbox) == 1
    assert Booking.objects.count() == 1
