"""The guests' pages: upcoming sessions, a session with its booking form,
an invitation-only session behind its link; no inline code, CSRF on forms."""

from __future__ import annotations

import re
from urllib.parse import urlsplit
from datetime import timedelta

from django.test import Client
from django.urls import resolve, reverse
from django.utils import timezone

from games.bookings import services, tokens
from games.bookings.models import Booking, Session
from tests.bookings.conftest import deliver, guest
from ludo.language import english_url


def no_inline_code(html):
    assert not re.search(r"<script(?![^>]*\bsrc=)", html), "inline script"
    assert not re.search(r"\son\w+=", html), "inline event handler"
    assert " style=" not in html


def test_the_list_shows_upcoming_public_sessions(client, soon, alice):
    soon(title="Grande soirée", capacity=5)
    soon(title="Secrète", visibility=Session.Visibility.INVITATION)
    past = timezone.now() - timedelta(days=2)
    services.create_session(alice, title="Passée", starts_at=past, ends_at=past + timedelta(hours=2), capacity=4,
                            now=past - timedelta(days=1))
    response = client.get(reverse("bookings:list"))
    html = response.content.decode()
    assert response.status_code == 200 and reverse("bookings:list") == "/sessions/"
    assert "Grande soirée" in html and "5 places libres" in html
    assert "Secrète" not in html and "Passée" not in html
    no_inline_code(html)


def test_the_list_in_english(client, soon):
    soon(title="Big night", capacity=1)
    html = client.get("/en/sessions/").content.decode()
    assert "1 seat free" in html and "Propose a session" in html


def test_booking_from_the_session_page(client, soon, mailoutbox):
    session = soon(capacity=4)
    page = client.get(session.get_absolute_url())
    assert page.status_code == 200
    no_inline_code(page.content.decode())
    response = client.post(session.get_absolute_url(), {"name": "Carol", "email": "carol@example.org", "seats": 3})
    booking = Booking.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("bookings:check_email")
    assert (booking.seats, booking.status, booking.language) == (3, "unverified", "fr")
    check = client.get(response["Location"])
    assert check.status_code == 200 and "30 minutes" in check.content.decode()
    no_inline_code(check.content.decode())
    deliver()
    [message] = mailoutbox
    confirm = urlsplit(next(line for line in message.body.splitlines() if "/reservation/confirmer/" in line).strip())
    page = client.get(confirm.path)
    assert page.status_code == 200 and "Confirmer ma réservation" in page.content.decode()
    no_inline_code(page.content.decode())
    response = client.post(confirm.path)
    booking.refresh_from_db()
    match = resolve(response["Location"])  # the booking's own page (its token holds the second it was made)
    assert match.view_name == "bookings:manage"
    link = tokens.read_manage_token(match.kwargs["token"])
    assert (link.pk, link.counter) == (booking.pk, booking.changes)
    assert (booking.seats, booking.status, booking.language) == (3, "confirmed", "fr")


def test_a_refusal_is_shown_on_the_form(client, soon):
    session = soon(capacity=2, waiting_list_size=0)
    services.book(session.pk, seats=2, **guest(1))
    response = client.post(session.get_absolute_url(), {"name": "Carol", "email": "carol@example.org", "seats": 1})
    assert response.status_code == 400
    assert "complète (elle n’a pas de liste d’attente)" in response.content.decode()
    assert Booking.objects.count() == 1


def test_an_english_booking_is_in_english(client, soon):
    session = soon()
    client.post(english_url(session.get_absolute_url()), {"name": "Carol", "email": "carol@example.org", "seats": 1})
    assert Booking.objects.get().language == "en"


def test_an_invitation_only_session_needs_its_link(client, soon):
    session = soon(visibility=Session.Visibility.INVITATION)
    assert client.get(session.get_absolute_url()).status_code == 404
    assert client.get(session.get_absolute_url() + "?invite=wrong").status_code == 404
    assert client.get(session.invitation_url()).status_code == 200
    response = client.post(session.get_absolute_url(),
                           {"name": "Carol", "email": "carol@example.org", "seats": 1, "invite": session.invite_key})
    assert response.status_code == 302 and Booking.objects.count() == 1


def test_the_booking_form_needs_the_csrf_token(soon):
    session = soon()
    strict = Client(enforce_csrf_checks=True)
    assert strict.post(session.get_absolute_url(), {"name": "Carol", "email": "c@example.org", "seats": 1}).status_code == 403
    assert not Booking.objects.exists()
    html = strict.get(session.get_absolute_url()).content.decode()
    assert html.count("<form") == html.count('name="csrfmiddlewaretoken"')


def test_the_header_points_at_the_sessions(client):
    html = client.get("/").content.decode()
    assert 'href="/sessions/"' in html


def test_a_signed_in_player_has_name_and_email_filled_in(client, bob, soon):
    client.force_login(bob)
    html = client.get(soon().get_absolute_url()).content.decode()
    assert 'value="bob@example.org"' in html
