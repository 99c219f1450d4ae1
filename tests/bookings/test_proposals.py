"""Guests propose a session around a game; hosts approve (the session is
created with the proposer's party booked) or decline (with a reason)."""

from __future__ import annotations

from datetime import timedelta

from urllib.parse import urlsplit

import pytest
from django.urls import resolve, reverse
from django.utils import timezone

from catalog.collection.models import Game
from games.bookings import services, tokens
from games.bookings.errors import BookingError
from games.bookings.models import Booking, Proposal, Session


@pytest.fixture
def azul(db):
    return Game.objects.create(title="Azul", min_players=2, max_players=4)


def form(day, **extra):
    return {"game": "azul", "day": day.isoformat(), "start": "15:00", "end": "17:00", "seats": 3,
            "name": "Carol", "email": "carol@example.org", "message": "Pour l’anniversaire de Léa", **extra}


def test_a_guest_proposes_from_the_page_and_confirms_by_email(client, azul, mailoutbox, on_commit):
    day = timezone.localdate() + timedelta(days=10)
    with on_commit():
        response = client.post(reverse("bookings:propose"), form(day))
    assert response.status_code == 302 and response["Location"] == reverse("bookings:check_email")
    proposal = Proposal.objects.get()
    assert (proposal.game, proposal.seats, proposal.status) == (azul, 3, "unverified")
    assert timezone.localtime(proposal.starts_at).strftime("%H:%M") == "15:00"
    [message] = mailoutbox
    # The address is not known to be the visitor's: the mail carries none of the visitor's words.
    assert message.to == ["carol@example.org"] and "Léa" not in message.body and "Carol" not in message.body
    confirm = next(line for line in message.body.splitlines() if "/proposition/confirmer/" in line)
    path = urlsplit(confirm.strip()).path
    assert client.get(path).status_code == 200
    with on_commit():
        response = client.post(path)
    proposal.refresh_from_db()
    assert proposal.status == "pending"
    # The link to the proposal's page (its token holds the second it was made: compared by what it reads).
    match = resolve(response["Location"])
    assert match.view_name == "bookings:proposal"
    assert tokens.read_proposal_token(match.kwargs["token"]).pk == proposal.pk
    page = client.get(response["Location"])
    assert page.status_code == 200 and "Azul" in page.content.decode()
    [_, received] = mailoutbox
    assert received.to == ["carol@example.org"] and "/sessions/proposition/" in received.body


def test_a_proposal_needs_a_known_game_and_a_future_time(client, azul):
    day = timezone.localdate() + timedelta(days=10)
    assert client.post(reverse("bookings:propose"), form(day, game="Nope")).status_code == 400
    past = timezone.localdate() - timedelta(days=1)
    response = client.post(reverse("bookings:propose"), form(past))
    assert response.status_code == 400 and "déjà passée" in response.content.decode()
    assert not Proposal.objects.exists()


def test_the_game_can_be_named_by_its_title(client, azul):
    day = timezone.localdate() + timedelta(days=10)
    assert client.post(reverse("bookings:propose"), form(day, game="AZUL")).status_code == 302


def proposal(azul, seats=3):
    start = timezone.now().replace(microsecond=0) + timedelta(days=7)
    return services.propose(game=azul, starts_at=start, ends_at=start + timedelta(hours=2), seats=seats,
                            name="Carol", email="carol@example.org", language="en")


def test_approving_creates_the_session_and_books_the_party(azul, alice, mailoutbox, on_commit):
    waiting = proposal(azul)
    with on_commit():
        session = services.approve_proposal(waiting.pk, alice, capacity=6, room="Véranda")
    assert (session.title, session.capacity, session.room, list(session.games.all())) == ("Azul", 6, "Véranda", [azul])
    booking = Booking.objects.get(session=session)
    assert (booking.email, booking.seats, booking.status, booking.language) == ("carol@example.org", 3, "confirmed", "en")
    session.refresh_from_db()
    assert session.seats_taken == 3
    waiting.refresh_from_db()
    assert (waiting.status, waiting.session, waiting.decided_by) == ("approved", session, alice)
    subjects = [m.subject for m in mailoutbox]
    assert subjects == ["Session proposal approved: Azul", "Booking confirmed: Azul"]


def test_the_session_must_fit_the_party(azul, alice):
    waiting = proposal(azul, seats=5)
    with pytest.raises(BookingError) as exc:
        services.approve_proposal(waiting.pk, alice, capacity=4)
    assert exc.value.code == "capacity_below_party"
    assert not Session.objects.exists()


def test_declining_tells_the_guest_why(azul, alice, mailoutbox, on_commit):
    waiting = proposal(azul)
    with on_commit():
        services.decline_proposal(waiting.pk, alice, "The house is full that weekend.")
    waiting.refresh_from_db()
    assert waiting.status == "declined"
    assert "The house is full that weekend." in mailoutbox[0].body
    with pytest.raises(BookingError) as exc:
        services.approve_proposal(waiting.pk, alice, capacity=6)
    assert exc.value.code == "proposal_decided"


def test_hosts_decide_from_their_page(client, alice, azul):
    one, two = proposal(azul), proposal(azul)
    client.force_login(alice)
    page = client.get(reverse("bookings:proposals")).content.decode()
    assert "Carol" in page and page.count("Azul") >= 2
    response = client.post(reverse("bookings:decide_proposal", args=[one.pk, "approve"]),
                           {f"p{one.pk}-capacity": 5, f"p{one.pk}-visibility": "public"})
    session = Session.objects.get()
    assert response["Location"] == session.staff_url()
    client.post(reverse("bookings:decide_proposal", args=[two.pk, "decline"]), {"reason": "Non"})
    two.refresh_from_db()
    assert two.status == "declined" and two.reason == "Non"


def test_a_guest_cannot_decide(client, bob, azul):
    waiting = proposal(azul)
    client.force_login(bob)
    client.post(reverse("bookings:decide_proposal", args=[waiting.pk, "approve"]), {f"p{waiting.pk}-capacity": 5})
    waiting.refresh_from_db()
    assert waiting.status == "pending"
    with pytest.raises(BookingError):
        services.decline_proposal(waiting.pk, bob)
