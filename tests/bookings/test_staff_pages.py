"""The hosts' pages: calendar by week and month, a session's bookings with
approve / decline / who came, the CSV export, and who may see them."""

from __future__ import annotations

import csv
import io
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.bookings import services
from games.bookings.models import Booking
from tests.bookings.conftest import guest


@pytest.fixture
def host(client, alice):
    client.force_login(alice)
    return client


def test_guests_and_players_do_not_get_in(client, bob, soon):
    session = soon()
    pages = [reverse("bookings:calendar"), reverse("bookings:staff_session", args=[session.pk]),
             reverse("bookings:export_csv", args=[session.pk]), reverse("bookings:proposals"),
             reverse("bookings:new_session"), reverse("bookings:my_feed")]
    for page in pages:
        assert client.get(page).status_code == 302  # to the login page
    client.force_login(bob)
    for page in pages:
        assert client.get(page).status_code == 302
    booking = services.book(session.pk, seats=1, **guest(1))
    client.post(reverse("bookings:staff_booking", args=[booking.pk, "cancel"]))
    booking.refresh_from_db()
    assert booking.status == "confirmed"


def test_staff_outside_the_hosts_group_are_refused(client, django_user_model, soon):
    outsider = django_user_model.objects.create_user("eve", "eve@example.org", "x", is_staff=True)
    client.force_login(outsider)
    assert client.get(reverse("bookings:calendar")).status_code == 403


def test_the_week_calendar_lists_the_sessions_with_their_counts(host, soon):
    session = soon(title="Vendredi Drumlin", capacity=8, requires_approval=True)
    services.book(session.pk, seats=3, **guest(1))
    day = timezone.localtime(session.starts_at).date()
    response = host.get(reverse("bookings:calendar"), {"date": day.isoformat()})
    text = response.content.decode()
    assert response.status_code == 200
    assert "Vendredi Drumlin" in text and "3/8" in text and "1 à accepter" in text
    assert session.staff_url() in text


def test_the_month_calendar_and_a_week_without_it(host, soon):
    session = soon(title="Soirée du mois")
    day = timezone.localtime(session.starts_at).date()
    month = host.get(reverse("bookings:calendar"), {"view": "month", "date": day.isoformat()})
    assert month.status_code == 200 and "Soirée du mois" in month.content.decode()
    far = host.get(reverse("bookings:calendar"), {"date": (day + timedelta(weeks=3)).isoformat()})
    assert "Soirée du mois" not in far.content.decode()
    assert host.get(reverse("bookings:calendar"), {"date": "not-a-date"}).status_code == 400  # ludo.params


def test_approve_and_decline_from_the_session_page(host, soon):
    session = soon(requires_approval=True)
    one = services.book(session.pk, seats=1, **guest(1))
    two = services.book(session.pk, seats=1, **guest(2))
    page = host.get(session.staff_url()).content.decode()
    assert reverse("bookings:staff_booking", args=[one.pk, "approve"]) in page
    host.post(reverse("bookings:staff_booking", args=[one.pk, "approve"]))
    host.post(reverse("bookings:staff_booking", args=[two.pk, "decline"]))
    one.refresh_from_db()
    two.refresh_from_db()
    assert (one.status, two.status) == ("confirmed", "declined")
    response = host.post(reverse("bookings:staff_booking", args=[two.pk, "approve"]), follow=True)
    assert "n’attend pas d’accord" in response.content.decode()


def test_marking_who_came(host, soon):
    session = soon(starts_at=timezone.now() + timedelta(hours=1))
    came = services.book(session.pk, seats=2, **guest(1))
    absent = services.book(session.pk, seats=1, **guest(2))
    host.post(reverse("bookings:staff_booking", args=[came.pk, "came"]))
    host.post(reverse("bookings:staff_booking", args=[absent.pk, "absent"]))
    came.refresh_from_db()
    absent.refresh_from_db()
    assert (came.attended, absent.attended) == (True, False)
    host.post(reverse("bookings:staff_booking", args=[absent.pk, "unknown"]))
    absent.refresh_from_db()
    assert absent.attended is None


def test_attendance_waits_for_the_day(host, soon):
    session = soon()  # in two days
    booking = services.book(session.pk, seats=1, **guest(1))
    response = host.post(reverse("bookings:staff_booking", args=[booking.pk, "came"]), follow=True)
    booking.refresh_from_db()
    assert booking.attended is None and "deux heures avant" in response.content.decode()


def test_an_unknown_action_is_not_found(host, soon):
    booking = services.book(soon().pk, seats=1, **guest(1))
    assert host.post(reverse("bookings:staff_booking", args=[booking.pk, "explode"])).status_code == 404
    assert host.get(reverse("bookings:staff_booking", args=[booking.pk, "approve"])).status_code == 405


def test_the_csv_export(host, soon):
    session = soon(capacity=2)
    services.book(session.pk, seats=2, note="=HYPERLINK(\"http://evil\")", **guest(1))
    services.book(session.pk, seats=1, name="Zoë", email="zoe@example.org")
    response = host.get(reverse("bookings:export_csv", args=[session.pk]))
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    assert f"session-{session.pk}-" in response["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0] == ["Nom", "Adresse électronique", "Places", "État", "Venu", "Réservé le", "Message"]
    assert rows[1][:4] == ["Guest 1", "guest1@example.org", "2", "confirmée"]
    assert rows[1][6].startswith("'=")  # no formula for the spreadsheet to run
    assert rows[2][:4] == ["Zoë", "zoe@example.org", "1", "sur liste d’attente"]


def test_editing_a_session(host, soon):
    session = soon(capacity=4)
    services.book(session.pk, seats=3, **guest(1))
    data = {"title": "Nouveau titre", "capacity": 2, "visibility": "public", "waiting_list_size": 5,
            "offer_minutes": 60, "cancel_notice_hours": 12, "max_changes": 2}
    response = host.post(session.staff_url(), data)
    assert response.status_code == 400 and "3 places sont déjà réservées" in response.content.decode()
    response = host.post(session.staff_url(), {**data, "capacity": 6})
    assert response.status_code == 302
    session.refresh_from_db()
    assert (session.title, session.capacity, session.seats_taken) == ("Nouveau titre", 6, 3)


def test_cancelling_a_session_from_its_page(host, soon):
    session = soon()
    services.book(session.pk, seats=1, **guest(1))
    host.post(reverse("bookings:staff_cancel_session", args=[session.pk]), {"reason": "Travaux"})
    session.refresh_from_db()
    assert session.status == "cancelled"
    assert not Booking.objects.filter(status__in=Booking.ACTIVE).exists()


def test_creating_a_session_with_games(host, alice):
    from catalog.collection.models import Game

    Game.objects.create(title="Drumlin", engine_slug="drumlin")
    day = (timezone.localdate() + timedelta(days=5)).isoformat()
    response = host.post(reverse("bookings:new_session"), {
        "day": day, "start": "20:00", "end": "23:00", "ambiguous": "raise", "capacity": 6, "games": "drumlin\n",
        "waiting_list_size": 10, "offer_minutes": 60, "cancel_notice_hours": 24, "max_changes": 3,
        "visibility": "public",
    })
    assert response.status_code == 302
    from games.bookings.models import Session

    session = Session.objects.get()
    assert session.title == "Drumlin" and session.host == alice
    assert timezone.localtime(session.starts_at).strftime("%H:%M") == "20:00"
    unknown = host.post(reverse("bookings:new_session"), {
        "day": day, "start": "20:00", "end": "23:00", "ambiguous": "raise", "capacity": 6,
        "games": "No Such Game", "waiting_list_size": 10, "offer_minutes": 60, "cancel_notice_hours": 24,
        "max_changes": 3, "visibility": "public",
    })
    assert unknown.status_code == 400 and Session.objects.count() == 1
