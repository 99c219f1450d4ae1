"""Abuse kept out of the bookings (issue 18, finding 6): invented addresses
hold nothing until their mailbox confirms (double opt-in, with a deadline);
the forms answer the same whether or not an address has bookings; one
address gets at most one mail per window; every email leaves through the
worker's outbox job, never inside the request, and a failing mail server
is retried with a growing pause, its error kept."""

from __future__ import annotations

from datetime import timedelta
from urllib.parse import urlsplit

import re

import pytest
from django.core import mail
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone

from games.bookings import outbox, services, tokens
from games.bookings.errors import BookingError
from games.bookings.models import Booking, Proposal, VerifiedAddress
from games.bookings.outbox import OutgoingEmail
from ludo import worker
from tests.bookings.conftest import deliver, guest


def book(client, session, email, seats=1, name="Carol", **extra):
    return client.post(session.get_absolute_url(), {"name": name, "email": email, "seats": seats, **extra})


def confirm_path(message) -> str:
    line = next(line for line in message.body.splitlines() if "/reservation/confirmer/" in line)
    return urlsplit(line.strip()).path


def test_booking_every_seat_with_invented_addresses_holds_none(client, soon):
    session = soon(capacity=4, waiting_list_size=2)
    for n in range(6):
        assert book(client, session, f"nobody{n}@invented.example").status_code == 302
    session.refresh_from_db()
    assert session.seats_taken == 0 and session.waiting_count() == 0
    assert set(Booking.objects.values_list("status", flat=True)) == {"unverified"}
    # A real guest still gets a seat, once their mailbox confirms.
    book(client, session, "carol@example.org", seats=2)
    deliver()
    carol = next(m for m in mail.outbox if m.to == ["carol@example.org"])
    client.post(confirm_path(carol))
    session.refresh_from_db()
    assert session.seats_taken == 2
    assert Booking.objects.get(email="carol@example.org").status == "confirmed"


def test_an_unconfirmed_booking_lapses_by_itself_and_frees_everything(soon, now):
    session = soon(capacity=2)
    booking = services.request_booking(session.pk, seats=2, **guest(1))
    assert booking.confirm_by == booking.created_at + timedelta(minutes=30)
    assert services.lapse_unverified(now=booking.confirm_by - timedelta(seconds=1)) == 0
    with pytest.raises(BookingError) as exc:
        services.confirm_booking(booking.pk, now=booking.confirm_by)
    assert exc.value.code == "confirm_expired"
    assert services.lapse_unverified(now=booking.confirm_by) == 1
    assert not Booking.objects.exists()
    with pytest.raises(BookingError) as exc:
        services.confirm_booking(booking.pk)
    assert exc.value.code == "confirm_expired"
    assert "bookings.unverified" in worker.jobs()


def test_the_confirmation_link_expires_with_its_booking(client, soon):
    session = soon()
    book(client, session, "carol@example.org")
    deliver()
    booking = Booking.objects.get()
    Booking.objects.filter(pk=booking.pk).update(confirm_by=timezone.now() - timedelta(seconds=1))
    path = confirm_path(mail.outbox[0])
    assert client.get(path).status_code == 410
    assert client.post(path).status_code == 410
    assert Booking.objects.get().status == "unverified"


def test_fifteen_lost_link_requests_send_at_most_one_mail(client, soon):
    session = soon()
    services.book(session.pk, seats=1, **guest(1))
    deliver()
    mail.outbox.clear()
    for _ in range(15):
        assert client.post(reverse("bookings:resend"), {"email": "guest1@example.org"}).status_code == 302
    deliver()
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["guest1@example.org"]


def without_csrf(html: bytes) -> bytes:
    """A page without its CSRF tokens (masked afresh on every response)."""
    return re.sub(rb'name="csrfmiddlewaretoken" value="[^"]+"', b"", html)


def test_a_known_and_an_unknown_address_get_the_same_answer(client, soon):
    session = soon(capacity=6)
    services.book(session.pk, seats=1, name="Dave", email="known@example.org")
    answers = []
    for email in ("known@example.org", "unknown@example.org"):
        lost = client.post(reverse("bookings:resend"), {"email": email}, follow=True)
        booked = client.post(session.get_absolute_url(), {"name": "Eve", "email": email, "seats": 1})
        landing = client.get(booked["Location"])
        answers.append((lost.status_code, lost.redirect_chain, without_csrf(lost.content), booked.status_code,
                        booked["Location"], booked.content, landing.status_code, without_csrf(landing.content)))
    assert answers[0] == answers[1]
    assert answers[0][3] == 302 and answers[0][4] == reverse("bookings:check_email")


def test_the_address_that_already_booked_learns_it_only_from_its_mailbox(client, soon):
    session = soon(capacity=6)
    mine = services.book(session.pk, seats=1, name="Dave", email="dave@example.org")
    deliver()
    mail.outbox.clear()
    book(client, session, "dave@example.org", name="Mallory", seats=3)
    deliver()
    response = client.post(confirm_path(mail.outbox[0]), follow=True)
    token = response.redirect_chain[-1][0].rstrip("/").rsplit("/", 1)[1]
    assert tokens.read_manage_token(token).pk == mine.pk
    assert "déjà une réservation" in response.content.decode()
    assert list(Booking.objects.values_list("name", "seats", "status")) == [("Dave", 1, "confirmed")]


def test_mails_to_a_typed_address_carry_none_of_the_visitors_words(client, soon):
    session = soon()
    book(client, session, "victim@example.org", name="Buy cheap pills at spam.example", note="http://spam.example")
    deliver()
    [message] = mail.outbox
    assert "spam.example" not in message.body and "spam.example" not in message.subject
    assert session.title in message.subject


def test_emails_leave_only_through_the_worker(client, soon, transactional_db):
    session = soon()
    book(client, session, "carol@example.org")
    client.post(reverse("bookings:resend"), {"email": "carol@example.org"})
    assert mail.outbox == []
    assert OutgoingEmail.objects.filter(status="queued").count() == 2
    worker.run_once(["bookings.emails"])
    # The confirmation goes; the lost links find no live booking yet, so nothing is sent for them.
    assert [m.to for m in mail.outbox] == [["carol@example.org"]]
    assert sorted(OutgoingEmail.objects.values_list("kind", "status")) == [
        ("confirm_booking", "sent"), ("lost_links", "skipped")]
    client.post(confirm_path(mail.outbox[0]))
    assert len(mail.outbox) == 1
    worker.run_once(["bookings.emails"])
    assert mail.outbox[1].subject.startswith("Réservation confirmée")


def test_one_confirmation_per_window_and_address(client, soon):
    session = soon()
    for seats in (1, 2, 3):
        book(client, session, "carol@example.org", seats=seats)
    deliver()
    assert len(mail.outbox) == 1
    # The link confirms the booking as last asked for.
    client.post(confirm_path(mail.outbox[0]))
    assert list(Booking.objects.values_list("seats", "status")) == [(3, "confirmed")]


def test_an_unverified_party_is_small_and_a_verified_account_books_directly(client, soon, alice, bob):
    session = soon(capacity=10)
    response = book(client, session, "carol@example.org", seats=5)
    assert response.status_code == 400 and "4 personnes au plus" in response.content.decode()
    client.force_login(alice)  # a host: an operator set the account's address
    response = book(client, session, alice.email, seats=6, name="Alice")
    booking = Booking.objects.get()
    assert (booking.status, booking.seats) == ("confirmed", 6)
    assert response["Location"] == booking.manage_url()
    # An account proves an address once, by its link; then it books directly.
    client.force_login(bob)
    book(client, session, "bob@example.org", name="Bob")
    deliver()
    client.post(confirm_path(mail.outbox[-1]))
    assert VerifiedAddress.objects.filter(user=bob, email="bob@example.org").exists()
    other = soon(capacity=4)
    book(client, other, "bob@example.org", name="Bob")
    assert other.bookings.get().status == "confirmed"


def test_proposals_wait_for_the_address_and_lapse(client, db):
    from catalog.collection.models import Game

    Game.objects.create(title="Azul")
    day = timezone.localdate() + timedelta(days=10)
    fields = {"game": "azul", "day": day.isoformat(), "start": "15:00", "end": "17:00", "seats": 3,
              "name": "Carol", "email": "victim@example.org", "message": "Visit http://spam.example"}
    for _ in range(10):
        assert client.post(reverse("bookings:propose"), fields)["Location"] == reverse("bookings:check_email")
    deliver()
    assert len(mail.outbox) == 1 and "spam.example" not in mail.outbox[0].body
    assert not Proposal.objects.filter(status="pending").exists()
    # Past the address's limit of requests, nothing more is even written (the answer stays the same).
    assert Proposal.objects.count() == 5
    assert services.lapse_unverified(now=timezone.now() + timedelta(minutes=31)) == 5
    assert not Proposal.objects.exists()


@override_settings(MAILERS={"default": {"BACKEND": "django.core.mail.backends.smtp.EmailBackend",
                                        "OPTIONS": {"host": "127.0.0.1", "port": 9, "timeout": 2}}})
def test_a_mail_server_that_is_down_delays_the_email_and_keeps_the_error(soon):
    session = soon()
    services.book(session.pk, seats=1, **guest(1))
    start = timezone.now()
    assert deliver() == 0
    row = OutgoingEmail.objects.get()
    assert (row.status, row.attempts) == ("queued", 1) and row.last_error
    assert row.next_attempt_at >= start + timedelta(minutes=1)
    assert deliver() == 0 and OutgoingEmail.objects.get().attempts == 1  # not due again yet
    assert outbox.retry_pause(2) == timedelta(minutes=2) and outbox.retry_pause(20) == outbox.LONGEST_RETRY
    OutgoingEmail.objects.update(attempts=outbox.MAX_ATTEMPTS - 1, next_attempt_at=start)
    deliver()
    assert OutgoingEmail.objects.get().status == "failed"


@override_settings(BOOKINGS_FORM_LIMITS={"address": (3, 600), "email": (5, 600)})
def test_one_client_address_is_limited_on_the_forms(client, soon):
    session = soon()
    for n in range(3):
        assert book(client, session, f"guest{n}@example.org").status_code == 302
    assert book(client, session, "guest9@example.org").status_code == 429
    assert Booking.objects.count() == 3
    other = client.post(session.get_absolute_url(), {"name": "Xavier", "email": "x@example.org", "seats": 1},
                        REMOTE_ADDR="192.0.2.7")
    assert other.status_code == 302


def test_a_session_that_filled_up_meanwhile_says_so_on_its_page(client, soon):
    session = soon(capacity=2, waiting_list_size=0)
    book(client, session, "carol@example.org", seats=2)
    book(client, soon(), "carol@example.org")  # another session: its own confirmation
    deliver()
    assert len(mail.outbox) == 2
    services.book(session.pk, seats=1, **guest(1))
    response = client.post(confirm_path(mail.outbox[0]), follow=True)
    assert response.redirect_chain[-1][0] == session.get_absolute_url()
    assert "complète" in response.content.decode()
    assert Booking.objects.get(email="carol@example.org", session=session).status == "unverified"


# The data migration's logic goes through the ORM, the same on either database (the schema
# migrations run on both stacks whenever a test database is made): CI runs this test, which
# migrates every app back and forward again (about a minute), on its first pass only.
@pytest.mark.one_stack
def test_bookings_made_before_the_confirmation_step_count_as_confirmed(transactional_db):
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    before = [("bookings", "0002_seat_guard")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    start = timezone.now() + timedelta(days=2)
    session = old.get_model("bookings", "Session").objects.create(
        title="Soirée", starts_at=start, ends_at=start + timedelta(hours=3), capacity=4, remind_at=start,
        invite_key="key")
    old.get_model("bookings", "Booking").objects.create(
        session=session, name="Carol", email="carol@example.org", seats=3, status="confirmed", language="fr",
        created_at=timezone.now())
    # On to every app's latest migration: going back to bookings 0002 also took back the
    # apps that depend on its later migrations (boxes, ...), which later tests need.
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    booking = Booking.objects.select_related("session").get()
    assert (booking.status, booking.confirm_by, booking.session.seats_taken) == ("confirmed", None, 3)
    # Its seats are held: a party of two no longer fits and waits.
    assert services.book(booking.session_id, seats=2, **guest(2)).status == "waiting"
