"""A box a count found not playable cannot be set aside for a session (issue #26):
the service refuses it under its locks, whatever the form offered; a crafted POST
and a box taken off the list between the form and the submit get the same clear
refusal, and nothing is reserved. An incomplete box the hosts said is playable
can still be set aside."""

from __future__ import annotations

import threading

import pytest
from django.db import connections, transaction
from django.test import Client
from django.urls import reverse

from boxes import contents, counting
from boxes.models import BoxState
from catalog.collection.models import Game
from catalog.shelves import services as shelves
from games.bookings import services
from games.bookings.errors import BookingError
from games.bookings.models import CopyReservation
from tests.races import race

REFUSAL = "Cette boîte ne peut pas être jouée"


@pytest.fixture
def azul(db):
    game = Game.objects.create(title="Azul")
    contents.set_game_items(game, [contents.Line("Tuiles", "tuiles", 100), contents.Line("Sac", "sac", 1, True)])
    return game


@pytest.fixture
def box(azul):
    return shelves.add_copy(azul, "B3")


def count(copy, by, **found) -> None:
    """A host's count of the box: ``found`` item -> how many were there (the rest all there)."""
    state = counting.begin(copy)
    lines = {line.label: counting.Found(found.get(line.label, line.quantity)) for line in contents.contents_of(copy)}
    counting.record_count(copy, by, state.version, lines)


def host_client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def reserve_by_post(client: Client, session, copy_id) -> str:
    answer = client.post(reverse("bookings:staff_reserve_copy", args=[session.pk]), {"copy": copy_id}, follow=True)
    assert answer.status_code == 200
    return answer.content.decode()


@pytest.mark.django_db
def test_the_service_refuses_a_box_a_count_found_not_playable(make_session, azul, box, alice):
    session = make_session(games=[azul])
    count(box, alice, sac=0)  # the only bag, an item the game cannot do without
    assert BoxState.objects.get(copy=box).unplayable
    with pytest.raises(BookingError) as refused:
        services.reserve_copy(session.pk, box.pk, alice)
    assert refused.value.code == "copy_unplayable"
    assert REFUSAL in str(refused.value.message) and "recomptez" in str(refused.value.message)
    assert not CopyReservation.objects.exists()


@pytest.mark.django_db
def test_an_incomplete_box_still_playable_can_be_set_aside(make_session, azul, box, alice):
    session = make_session(games=[azul])
    count(box, alice, tuiles=98)  # two tiles of 100 missing: the game goes on
    state = BoxState.objects.get(copy=box)
    assert state.incomplete and not state.unplayable
    assert services.reserve_copy(session.pk, box.pk, alice).copy == box


@pytest.mark.django_db
def test_a_crafted_post_gets_the_same_refusal(make_session, azul, box, alice):
    """The form does not offer the box; a request naming it anyway is told why, and nothing is set aside."""
    session = make_session(games=[azul])
    count(box, alice, sac=0)
    host = host_client(alice)
    page = host.get(reverse("bookings:staff_session", args=[session.pk])).content.decode()
    assert f'<option value="{box.pk}"' not in page
    assert REFUSAL in reserve_by_post(host, session, box.pk)
    assert not CopyReservation.objects.exists()
    for bad in ("", "abc", "-1", "999999", f"{box.pk}.0"):
        reserve_by_post(host, session, bad)
    assert not CopyReservation.objects.exists()


@pytest.mark.django_db
def test_a_box_marked_not_playable_between_the_form_and_the_submit(make_session, azul, box, alice):
    from ludo.accounts import create_staff_account

    session = make_session(games=[azul])
    host = host_client(alice)
    page = host.get(reverse("bookings:staff_session", args=[session.pk])).content.decode()
    assert f'<option value="{box.pk}"' in page  # the form offers it
    count(box, create_staff_account("hugo", "hugo@example.org", "pw-hugo-compte-2026"), sac=0)  # another host counts
    answer = reserve_by_post(host, session, box.pk)
    assert REFUSAL in answer and "Exemplaire mis de côté" not in answer
    assert not CopyReservation.objects.exists()


@pytest.mark.django_db
def test_a_reserved_box_found_not_playable_later_is_flagged_on_the_session_page(make_session, azul, box, alice):
    session = make_session(games=[azul])
    services.reserve_copy(session.pk, box.pk, alice)
    host = host_client(alice)
    url = reverse("bookings:staff_session", args=[session.pk])
    assert "data-box-unplayable" not in host.get(url).content.decode()
    count(box, alice, sac=0)
    assert "injouable depuis un comptage" in host.get(url).content.decode()


@pytest.mark.django_db
def test_only_hosts_reach_the_reserve_button(make_session, azul, box, bob):
    session = make_session(games=[azul])
    url = reverse("bookings:staff_reserve_copy", args=[session.pk])
    for client in (Client(), host_client(bob)):
        assert client.post(url, {"copy": box.pk}).status_code in (302, 403)
    assert not CopyReservation.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_a_count_in_progress_is_waited_for_then_obeyed(shared_database, make_session, azul, box, alice):
    """The count's transaction marks the box not playable and has not committed when
    the reservation starts: the reservation waits for it (the box's state is read under
    a lock), then refuses. On SQLite the writers take turns, with the same answer."""
    session = make_session(games=[azul])
    counting.begin(box)  # the count page was opened: the box has its state row
    marked, release = threading.Event(), threading.Event()

    def count_holding_its_transaction() -> None:
        try:
            with transaction.atomic():
                BoxState.objects.filter(pk=box.pk).update(incomplete=True, unplayable=True)
                marked.set()
                release.wait(10)
        finally:
            connections.close_all()

    counter = threading.Thread(target=count_holding_its_transaction)
    counter.start()
    assert marked.wait(10)
    threading.Timer(1.0, release.set).start()  # the count commits a moment later
    results = race([lambda: services.reserve_copy(session.pk, box.pk, alice)], BookingError)
    counter.join(10)
    assert results == [("refused", "copy_unplayable")]
    assert not CopyReservation.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_two_hosts_reserving_while_a_count_blocks_the_box(shared_database, make_session, azul, box, alice):
    """A count and two reservations at once, in whatever order they meet: the box is
    set aside at most once (only before the count), every other request is told why
    (already set aside, or not playable), never a crash."""
    from ludo.accounts import create_staff_account

    session = make_session(games=[azul])
    hugo = create_staff_account("hugo", "hugo@example.org", "pw-hugo-compte-2026")
    results = race([lambda: services.reserve_copy(session.pk, box.pk, alice),
                    lambda: services.reserve_copy(session.pk, box.pk, hugo),
                    lambda: count(box, alice, sac=0)], BookingError)
    assert not any(r[0] == "crashed" for r in results), results
    reserved = CopyReservation.objects.count()
    assert reserved <= 1
    refusals = [r[1] for r in results[:2] if r[0] == "refused"]
    assert len(refusals) == 2 - reserved, results
    assert set(refusals) <= {"copy_already_reserved", "copy_unplayable"}, results
    if not reserved:  # the count came first: both told the box cannot be played
        assert refusals == ["copy_unplayable", "copy_unplayable"], results
    assert BoxState.objects.get(copy=box).unplayable
