"""A session for a playable game opens a private live table for the people
booked; they find its invitation on their booking page."""

from __future__ import annotations

import pytest
from django.urls import reverse

from catalog.collection.models import Game
from games.bookings import services, tokens
from games.bookings.errors import BookingError
from games.models import Table
from tests.bookings.conftest import guest


@pytest.fixture
def drekki(db):
    return Game.objects.create(title="Drekki", engine_slug="drekki", min_players=2, max_players=6)


def test_it_opens_a_private_table_sized_for_the_people_booked(make_session, drekki, alice, now, mailoutbox, on_commit):
    session = make_session(games=[drekki], capacity=8)
    services.book(session.pk, seats=2, now=now, **guest(1))
    services.book(session.pk, seats=1, now=now, **guest(2))
    with on_commit():
        table = services.open_live_table(session.pk, alice)
    assert (table.game, table.seat_count, table.private) == ("drekki", 3, True)
    assert table.created_by == alice and not table.seats.exclude(user=None).exists()
    session.refresh_from_db()
    assert session.table == table
    assert sorted(m.to[0] for m in mailoutbox) == ["guest1@example.org", "guest2@example.org"]
    with pytest.raises(BookingError) as exc:
        services.open_live_table(session.pk, alice)
    assert exc.value.code == "table_exists"
    assert Table.objects.count() == 1


def test_the_seats_stay_within_the_games_limits(make_session, alice, now):
    drumlin = Game.objects.create(title="Drumlin", engine_slug="drumlin")
    session = make_session(games=[drumlin], capacity=8)
    services.book(session.pk, seats=5, now=now, **guest(1))
    assert services.open_live_table(session.pk, alice).seat_count == 2


def test_a_game_that_is_not_playable_has_no_table(make_session, alice, now):
    session = make_session(games=[Game.objects.create(title="Azul")])
    services.book(session.pk, seats=2, now=now, **guest(1))
    with pytest.raises(BookingError) as exc:
        services.open_live_table(session.pk, alice)
    assert exc.value.code == "not_playable"


def test_nobody_booked_no_table(make_session, drekki, alice):
    with pytest.raises(BookingError) as exc:
        services.open_live_table(make_session(games=[drekki]).pk, alice)
    assert exc.value.code == "no_one_booked"


def test_only_hosts_open_one(make_session, drekki, bob, now):
    session = make_session(games=[drekki])
    services.book(session.pk, seats=2, now=now, **guest(1))
    with pytest.raises(BookingError):
        services.open_live_table(session.pk, bob)
    assert not Table.objects.exists()


def test_the_button_and_the_booking_page(client, alice, soon, drekki):
    session = soon(games=[drekki])
    booking = services.book(session.pk, seats=2, **guest(1))
    client.force_login(alice)
    page = client.get(session.staff_url()).content.decode()
    assert reverse("bookings:staff_open_table", args=[session.pk]) in page
    client.post(reverse("bookings:staff_open_table", args=[session.pk]))
    session.refresh_from_db()
    assert session.table is not None
    client.logout()
    page = client.get(reverse("bookings:manage", args=[tokens.manage_token(booking)])).content.decode()
    # No table page exists yet: the page names the table (with the page, its invitation link).
    assert f"Une table en ligne (numéro {session.table_id})" in page or session.table.invite_token in page
