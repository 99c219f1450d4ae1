"""A copy of the game set aside for a session: only a copy of a game on
offer, not one lent or in quarantine, never for two sessions at once; while
the session runs the copy is "in use", and it goes back on the shelf after."""

from __future__ import annotations

from datetime import timedelta

import pytest

from catalog.collection.models import Game
from catalog.shelves import services as shelves
from catalog.shelves.models import Copy
from games.bookings import services
from games.bookings.errors import BookingError
from games.bookings.models import CopyReservation


@pytest.fixture
def azul(db):
    return Game.objects.create(title="Azul")


@pytest.fixture
def copy(azul):
    return shelves.add_copy(azul, "B3")


def reserve(session, copy, alice):
    return services.reserve_copy(session.pk, copy.pk, alice)


def test_a_copy_is_set_aside_and_shown(make_session, azul, copy, alice, client):
    session = make_session(games=[azul])
    reservation = reserve(session, copy, alice)
    assert reservation.copy == copy
    page = client.get(session.get_absolute_url()).content.decode()
    assert "étagère B3" in page


def test_only_a_copy_of_a_game_on_offer(make_session, copy, alice):
    other = Game.objects.create(title="Other")
    session = make_session(games=[other])
    with pytest.raises(BookingError) as exc:
        reserve(session, copy, alice)
    assert exc.value.code == "copy_wrong_game"


@pytest.mark.parametrize("status", [Copy.Status.LENT, Copy.Status.QUARANTINE])
def test_not_a_copy_lent_out_or_in_quarantine(make_session, azul, copy, alice, status):
    shelves.set_copy_status(copy, status)
    with pytest.raises(BookingError) as exc:
        reserve(make_session(games=[azul]), copy, alice)
    assert exc.value.code == "copy_unavailable"
    assert not CopyReservation.objects.exists()


def test_never_for_two_overlapping_sessions(make_session, azul, copy, alice):
    first = make_session(games=[azul])
    overlapping = make_session(games=[azul], starts_at=first.starts_at + timedelta(hours=1))
    later = make_session(games=[azul], starts_at=first.ends_at)
    reserve(first, copy, alice)
    with pytest.raises(BookingError) as exc:
        reserve(overlapping, copy, alice)
    assert exc.value.code == "copy_taken"
    assert reserve(later, copy, alice)
    with pytest.raises(BookingError) as exc:
        reserve(first, copy, alice)
    assert exc.value.code == "copy_already_reserved"


def test_the_copy_is_in_use_while_the_session_runs(make_session, azul, copy, alice):
    session = make_session(games=[azul])
    reserve(session, copy, alice)
    assert services.sync_copies(now=session.starts_at - timedelta(minutes=1)) == 0
    services.sync_copies(now=session.starts_at)
    copy.refresh_from_db()
    assert copy.status == Copy.Status.IN_USE
    services.sync_copies(now=session.ends_at)
    copy.refresh_from_db()
    assert copy.status == Copy.Status.AVAILABLE
    reservation = CopyReservation.objects.get()
    assert reservation.taken_at == session.starts_at and reservation.returned_at == session.ends_at


def test_a_status_a_host_set_meanwhile_is_left_alone(make_session, azul, copy, alice):
    session = make_session(games=[azul])
    reserve(session, copy, alice)
    services.sync_copies(now=session.starts_at)
    shelves.set_copy_status(copy, Copy.Status.QUARANTINE)  # found damaged during the game
    services.sync_copies(now=session.ends_at)
    copy.refresh_from_db()
    assert copy.status == Copy.Status.QUARANTINE


def test_releasing_puts_a_taken_copy_back(make_session, azul, copy, alice):
    session = make_session(games=[azul])
    reservation = reserve(session, copy, alice)
    services.sync_copies(now=session.starts_at)
    services.release_copy(reservation.pk, alice)
    copy.refresh_from_db()
    assert copy.status == Copy.Status.AVAILABLE and not CopyReservation.objects.exists()


def test_a_cancelled_session_gives_its_copy_back(make_session, azul, copy, alice, now):
    session = make_session(games=[azul])
    reserve(session, copy, alice)
    services.sync_copies(now=session.starts_at)
    services.cancel_session(session.pk, alice, now=session.starts_at)
    services.sync_copies(now=session.starts_at + timedelta(minutes=1))
    copy.refresh_from_db()
    assert copy.status == Copy.Status.AVAILABLE


def test_hosts_reserve_from_the_session_page(client, alice, make_session, azul, copy):
    session = make_session(games=[azul])
    client.force_login(alice)
    page = client.get(session.staff_url()).content.decode()
    assert f'value="{copy.pk}"' in page
    client.post(f"{session.staff_url()}exemplaire/", {"copy": copy.pk})
    assert CopyReservation.objects.filter(session=session, copy=copy).exists()
