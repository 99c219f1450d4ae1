"""Calendar feeds: a public one of the public sessions, and one per host
(its address is a secret, replaceable) with the host's sessions and who booked."""

from __future__ import annotations

from datetime import UTC

import icalendar
from django.urls import reverse

from games.bookings import services
from games.bookings.models import HostFeed, Session
from tests.bookings.conftest import guest


def events(response):
    assert response.status_code == 200 and response["Content-Type"].startswith("text/calendar")
    return icalendar.Calendar.from_ical(response.content).walk("VEVENT")


def test_the_public_feed_lists_public_sessions_only(client, soon):
    public = soon(title="Ouverte")
    soon(title="Privée", visibility=Session.Visibility.INVITATION)
    [event] = events(client.get(reverse("bookings:public_feed")))
    assert str(event["summary"]) == "Ouverte"
    assert event.decoded("dtstart") == public.starts_at.astimezone(UTC)
    assert public.get_absolute_url() in str(event["url"])


def test_a_cancelled_public_session_stays_in_the_feed_as_cancelled(client, soon, alice):
    session = soon()
    services.cancel_session(session.pk, alice)
    [event] = events(client.get(reverse("bookings:public_feed")))
    assert str(event["status"]) == "CANCELLED"


def test_a_hosts_feed_has_their_sessions_and_who_booked(client, soon, alice, django_user_model):
    from ludo.accounts import create_staff_account

    other = create_staff_account("dora", "dora@example.org", "correct horse battery staple")
    mine = soon(title="Chez Alice", visibility=Session.Visibility.INVITATION)
    soon(title="Chez Dora", host=other)
    services.book(mine.pk, seats=2, invite=mine.invite_key, **guest(1))
    key = services.host_feed(alice).key
    [event] = events(client.get(reverse("bookings:host_feed", args=[key])))
    assert str(event["summary"]) == "Chez Alice"
    assert "Guest 1 ×2" in str(event["description"])


def test_a_hosts_feed_address_can_be_replaced(client, alice):
    old = services.host_feed(alice).key
    client.force_login(alice)
    page = client.get(reverse("bookings:my_feed")).content.decode()
    assert reverse("bookings:host_feed", args=[old]) in page
    client.post(reverse("bookings:my_feed"))
    new = HostFeed.objects.get(user=alice).key
    assert new != old
    client.logout()
    assert client.get(reverse("bookings:host_feed", args=[old])).status_code == 404
    assert client.get(reverse("bookings:host_feed", args=[new])).status_code == 200


def test_a_former_hosts_feed_stops(client, alice):
    key = services.host_feed(alice).key
    alice.is_staff = False
    alice.save()
    assert client.get(reverse("bookings:host_feed", args=[key])).status_code == 404
    assert client.get(reverse("bookings:host_feed", args=["guessed"])).status_code == 404
