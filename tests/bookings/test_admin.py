"""The admin lists sessions and bookings for the hosts; seats change only
through the services (its actions call them)."""

from __future__ import annotations

from django.urls import reverse

from games.bookings import services
from games.bookings.models import Booking
from tests.bookings.conftest import guest


def test_hosts_browse_every_sessions_model(client, alice, soon):
    session = soon()
    booking = services.book(session.pk, seats=1, **guest(1))
    client.force_login(alice)
    for name in ("session", "booking", "sessionseries", "proposal", "copyreservation", "hostfeed",
                 "outgoingemail", "verifiedaddress"):
        assert client.get(reverse(f"admin:bookings_{name}_changelist")).status_code == 200, name
    assert client.get(reverse("admin:bookings_session_change", args=[session.pk])).status_code == 200
    assert client.get(reverse("admin:bookings_booking_change", args=[booking.pk])).status_code == 200
    assert client.get(reverse("admin:bookings_booking_add")).status_code == 403


def test_the_admin_cancel_action_goes_through_the_service(client, alice, soon, mailoutbox, on_commit):
    session = soon(capacity=1)
    first = services.book(session.pk, seats=1, **guest(1))
    second = services.book(session.pk, seats=1, **guest(2))
    client.force_login(alice)
    with on_commit():
        client.post(reverse("admin:bookings_booking_changelist"),
                    {"action": "cancel", "_selected_action": [first.pk]})
    assert Booking.objects.get(pk=first.pk).status == "cancelled"
    assert Booking.objects.get(pk=second.pk).status == "offered"
    assert {m.to[0] for m in mailoutbox} == {"guest1@example.org", "guest2@example.org"}


def test_the_admin_will_not_shrink_a_session_below_its_bookings(client, alice, soon):
    session = soon(capacity=4)
    services.book(session.pk, seats=3, **guest(1))
    client.force_login(alice)
    page = client.get(reverse("admin:bookings_session_change", args=[session.pk]))
    form = page.context["adminform"].form
    data = {k: v for k, v in form.initial.items() if v is not None and k not in ("games",)}
    local = session.starts_at.astimezone(session.local_start.tzinfo)
    end = session.ends_at.astimezone(session.local_start.tzinfo)
    data.update({
        "starts_at_0": local.strftime("%Y-%m-%d"), "starts_at_1": local.strftime("%H:%M:%S"),
        "ends_at_0": end.strftime("%Y-%m-%d"), "ends_at_1": end.strftime("%H:%M:%S"),
        "capacity": 2, "host": alice.pk,
        "bookings-TOTAL_FORMS": 1, "bookings-INITIAL_FORMS": 1, "bookings-MIN_NUM_FORMS": 0,
        "bookings-MAX_NUM_FORMS": 1000, "bookings-0-id": Booking.objects.get().pk, "bookings-0-session": session.pk,
    })
    response = client.post(reverse("admin:bookings_session_change", args=[session.pk]), data)
    assert response.status_code == 200
    assert "3 places sont déjà réservées" in response.content.decode()
    session.refresh_from_db()
    assert session.capacity == 4
