"""The emails: sent after the commit only, in the booker's language, each
with a working link, and the confirmation with an .ics a standard parser
reads back with the right times."""

from __future__ import annotations

from datetime import UTC, timedelta
from urllib.parse import urlsplit

import icalendar
import pytest
from django.test import override_settings

from games.bookings import emails, services
from games.bookings.errors import BookingError
from ludo.typography import french as typeset
from tests.bookings.conftest import guest


def only_calendar(message):
    calendars = [a for a in message.attachments if a[2] == "text/calendar"]
    assert len(calendars) == 1
    return icalendar.Calendar.from_ical(calendars[0][1])


def link_path(message):
    line = next(line for line in message.body.splitlines() if "/reservation/" in line or "/booking/" in line)
    return urlsplit(line.strip()).path


@override_settings(SITE_URL="https://ludo.example")
def test_the_confirmation_has_a_working_link_and_an_ics(soon, client, mailoutbox, on_commit):
    session = soon(capacity=4, room="La grange")
    with on_commit():
        booking = services.book(session.pk, seats=2, language="fr", **guest(1))
    [message] = mailoutbox
    assert message.to == ["guest1@example.org"]
    assert message.subject == typeset(f"Réservation confirmée : {session.title}")
    assert "https://ludo.example/sessions/reservation/" in message.body
    assert client.get(link_path(message)).status_code == 200
    [event] = only_calendar(message).walk("VEVENT")
    assert event.decoded("dtstart") == session.starts_at.astimezone(UTC)
    assert event.decoded("dtend") == session.ends_at.astimezone(UTC)
    assert str(event["summary"]) == session.title
    assert str(event["status"]) == "CONFIRMED"
    assert str(event["uid"]) == f"booking-{booking.pk}@ludo.example"
    assert "La grange" in str(event["location"])


def test_an_english_booker_gets_english_emails_and_links(soon, client, mailoutbox, on_commit):
    session = soon()
    with on_commit():
        services.book(session.pk, seats=1, language="en", **guest(1))
    [message] = mailoutbox
    assert message.subject.startswith("Booking confirmed:")
    assert "Hello Guest 1," in message.body
    path = link_path(message)
    assert path.startswith("/en/sessions/booking/")
    assert "Your booking" in client.get(path).content.decode()


def test_the_waiting_list_and_the_offer_are_told(make_session, now, mailoutbox, on_commit):
    session = make_session(capacity=1)
    with on_commit():
        first = services.book(session.pk, seats=1, now=now, **guest(1))
        services.book(session.pk, seats=1, now=now, language="en", **guest(2))
    assert mailoutbox[1].subject.startswith("On the waiting list:")
    assert "number 1" in mailoutbox[1].body
    with on_commit():
        services.cancel(first.pk, counter=0, now=now)
    cancelled, offer = mailoutbox[2:]
    assert cancelled.subject.startswith("Réservation annulée")
    assert str(only_calendar(cancelled).walk("VEVENT")[0]["status"]) == "CANCELLED"
    assert offer.subject.startswith("A seat is free for you:") and "/en/sessions/booking/" in offer.body


def test_approval_emails(make_session, alice, now, mailoutbox, on_commit):
    session = make_session(requires_approval=True)
    with on_commit():
        booking = services.book(session.pk, seats=1, now=now, **guest(1))
        services.decline(booking.pk, alice, "Complet ce soir-là", now=now)
    received, declined = mailoutbox
    assert received.subject.startswith("Réservation reçue") and not received.attachments
    assert declined.subject.startswith("Réservation refusée") and "Complet ce soir-là" in declined.body


def test_a_cancelled_session_tells_everyone(make_session, alice, now, mailoutbox, on_commit):
    session = make_session(capacity=1)
    services.book(session.pk, seats=1, now=now, **guest(1))
    services.book(session.pk, seats=1, now=now, **guest(2))
    with on_commit():
        services.cancel_session(session.pk, alice, "Tempête", now=now)
    assert sorted(m.to[0] for m in mailoutbox) == ["guest1@example.org", "guest2@example.org"]
    assert all("Tempête" in m.body for m in mailoutbox)


def test_a_refused_action_sends_nothing(make_session, now, mailoutbox, on_commit):
    session = make_session(capacity=1, waiting_list_size=0)
    with on_commit():
        services.book(session.pk, seats=1, now=now, **guest(1))
    with on_commit(), pytest.raises(BookingError):
        services.book(session.pk, seats=1, now=now, **guest(2))
    assert len(mailoutbox) == 1


def test_a_change_sends_a_new_confirmation_with_the_new_link(make_session, now, mailoutbox, on_commit):
    session = make_session()
    booking = services.book(session.pk, seats=1, now=now, **guest(1))
    with on_commit():
        services.change(booking.pk, counter=0, seats=3, now=now)
    [message] = mailoutbox
    assert message.subject.startswith("Réservation modifiée")
    assert "3 personnes" in message.body
    assert only_calendar(message).walk("VEVENT")[0]["sequence"] == 1


def test_email_text_is_not_html_escaped(make_session, now, mailoutbox, on_commit):
    session = make_session(title="Catan & Co")
    with on_commit():
        services.book(session.pk, seats=1, now=now, name="Zoë O'Hara", email="zoe@example.org")
    assert "Catan & Co" in mailoutbox[0].body and "Zoë O'Hara" in mailoutbox[0].body
    assert "&amp;" not in mailoutbox[0].body and "&#x27;" not in mailoutbox[0].body


def test_every_booking_email_carries_the_notice_rule(make_session, now, mailoutbox, on_commit):
    session = make_session(cancel_notice_hours=36)
    with on_commit():
        services.book(session.pk, seats=1, now=now, **guest(1))
    assert "36 heures" in mailoutbox[0].body
    assert session.starts_at - timedelta(hours=36) == session.cancel_deadline()


@pytest.mark.parametrize("kind", sorted(k for k in emails.SUBJECTS
                                        if not k.startswith("proposal_") and k not in emails.VISITOR_KINDS))
def test_every_booking_email_has_a_working_link(make_session, now, client, kind):
    session = make_session(capacity=2)
    booking = services.book(session.pk, seats=1, now=now, **guest(1))
    message = emails.build(kind, booking, reason="Because")
    assert message.to == ["guest1@example.org"] and message.subject
    response = client.get(link_path(message))
    assert response.status_code == 200 and "Guest 1" in response.content.decode()


@pytest.mark.parametrize("kind", ["proposal_received", "proposal_approved", "proposal_declined"])
def test_every_proposal_email_has_a_working_link(db, client, kind):
    from django.utils import timezone

    from catalog.collection.models import Game

    start = timezone.now() + timedelta(days=3)
    proposal = services.propose(game=Game.objects.create(title="Azul"), starts_at=start,
                                ends_at=start + timedelta(hours=2), seats=2, name="Carol", email="carol@example.org")
    message = emails.build_proposal(kind, proposal)
    line = next(line for line in message.body.splitlines() if "/proposition/" in line)
    assert client.get(urlsplit(line.strip()).path).status_code == 200
