"""One person, one seat per table, whatever the way in: the socket's `sit` (after
`as` -1 too, the narrowed identity that hid the seat held), the HTTP API's
`join` (session or token), a phone joining by a living-room code, a rematch.
Only a pass-and-play table's creator holds several seats.

As an attacker: a guest seated at someone else's public table tries to take a
second seat (and read a second hand) every way the site offers. Real services,
the real ASGI socket (WebsocketCommunicator), Django's test client; no mocks."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async as db
from django.test import Client

from games import services
from games.living.services import create_pass_table, create_screen_table
from games.models import Seat, Table
from games.protocol import TableError
from games.services.living import WATCH, AsSeat
from games.services.tables import check_one_seat, seats_of_person
from tests.games.tables_helpers import Sock, guest, guest_session, move_connections, who_of  # noqa: F401


@pytest.fixture(autouse=True)
def quiet_tables(settings):
    settings.LUDO_BOT_THINK_SECONDS = 0
    settings.LUDO_TABLE_POLL_SECONDS = 0


def seats_held(table_id: int, who: services.Who) -> list[int]:
    return [s.index for s in seats_of_person(Seat.objects.filter(table_id=table_id).order_by("index"), who)]


def api_post(client: Client, url: str, data: dict | None = None, **extra):
    return client.post(url, json.dumps(data or {}), content_type="application/json", **extra)


# -- the socket ---------------------------------------------------------------------------------

@pytest.mark.django_db(transaction=True)
async def test_a_socket_that_watches_with_as_cannot_sit_a_second_time():
    # Zoé's public Drekki table for four; Max sits, then says he only watches (`as` -1)
    # and asks for another seat, then another named one.
    zoe = guest("Zoé")
    table = await db(services.create_table)(zoe, "drekki", 4)
    key = await db(guest_session)("Max")
    max_ = await db(who_of)(key)
    sock = await Sock(f"/ws/tables/{table.pk}/", key).connect()
    await sock.open()
    await sock.send(t="sit", id="s1")
    assert (await sock.answer()) == {"t": "ack", "id": "s1", "seat": 1}
    await sock.send(t="as", seat=WATCH, id="w")
    watching = await sock.until("state", id="w")
    assert watching["seat"] is None
    await sock.send(t="sit", id="s2")
    again = await sock.answer()
    assert again["t"] == "error" and again["code"] == "already_seated" and again["id"] == "s2"
    await sock.send(t="sit", seat=3, id="s3")
    named = await sock.answer()
    assert named["t"] == "error" and named["code"] == "already_seated"
    await sock.close()
    # A fresh socket that watches from its hello fares no better.
    other = await Sock(f"/ws/tables/{table.pk}/", key).connect()
    await other.send(t="hello", id="h", **{"as": WATCH})
    assert (await other.until("state", id="h"))["seat"] is None
    await other.send(t="sit", seat=2, id="s4")
    assert (await other.answer())["code"] == "already_seated"
    await other.close()
    assert await db(seats_held)(table.pk, max_) == [1]
    assert await db(lambda: [s.is_empty for s in Seat.objects.filter(table_id=table.pk).order_by("index")])() == [
        False, False, True, True]


@pytest.mark.django_db(transaction=True)
async def test_the_seat_a_socket_watches_from_is_still_its_own_after_a_refused_sit():
    # The refusal changes nothing: the seat is kept and `as` it still works.
    zoe = guest("Zoé")
    table = await db(services.create_table)(zoe, "drekki", 3)
    key = await db(guest_session)("Max")
    sock = await Sock(f"/ws/tables/{table.pk}/", key).connect()
    await sock.open()
    await sock.send(t="sit", id="s")
    assert (await sock.answer())["seat"] == 1
    await sock.send(t="as", seat=WATCH, id="w")
    await sock.until("state", id="w")
    await sock.send(t="sit", id="again")
    assert (await sock.answer())["code"] == "already_seated"
    await sock.send(t="as", seat=1, id="back")
    assert (await sock.until("state", id="back"))["seat"] == 1
    await sock.close()
    version = await db(lambda: Table.objects.get(pk=table.pk).version)()
    assert version == 2  # create, one join: nothing else was written


# -- the service, the one place the rule lives ---------------------------------------------------

@pytest.mark.django_db
def test_join_table_sees_through_a_narrowed_identity_to_the_person():
    zoe, max_ = guest("Zoé"), guest("Max")
    table = services.create_table(zoe, "drekki", 4)
    assert services.join_table(table.pk, max_) == 1
    for narrowed in (AsSeat.of(max_, WATCH), AsSeat.of(max_, 1), AsSeat.of(max_, 3)):
        for seat in (None, 2, 3):
            with pytest.raises(TableError) as refused:
                services.join_table(table.pk, narrowed, seat)
            assert refused.value.code == "already_seated"
    with pytest.raises(TableError) as creator:
        services.join_table(table.pk, AsSeat.of(zoe, WATCH))
    assert creator.value.code == "already_seated"
    assert seats_held(table.pk, max_) == [1] and seats_held(table.pk, zoe) == [0]


@pytest.mark.django_db
def test_check_one_seat_is_the_rule_and_only_the_pass_and_play_creator_is_excepted():
    zoe, max_ = guest("Zoé"), guest("Max")
    table = services.create_table(zoe, "drekki", 4)
    seats = list(Seat.objects.filter(table=table).order_by("index"))
    check_one_seat(table, seats, max_)  # not seated: allowed
    with pytest.raises(TableError):
        check_one_seat(table, seats, AsSeat.of(zoe, WATCH))
    room = create_pass_table(zoe, "drekki", ["Zoé", "Ben", "Léa"])
    pass_table = Table.objects.get(pk=room.table_id)
    assert pass_table.pass_and_play and seats_held(pass_table.pk, zoe) == [0, 1, 2]
    check_one_seat(pass_table, list(pass_table.seats.all()), AsSeat.of(zoe, WATCH))  # its creator: allowed
    with pytest.raises(TableError):  # the creator of an ordinary table is not excepted
        check_one_seat(table, seats, zoe)


# -- the HTTP API ---------------------------------------------------------------------------------

@pytest.mark.django_db
def test_the_api_join_refuses_a_second_seat_by_session_and_by_token(bob):
    from ludo.tokens.services import create_personal_token

    host = Client()
    session = host.session
    session["guest_name"] = "Zoé"
    session.save()
    created = api_post(host, "/api/tables/", {"game": "drekki", "seats": 5})
    assert created.status_code == 201
    table_id = created.json()["table"]
    player = Client()
    player.force_login(bob)
    joined = api_post(player, f"/api/tables/{table_id}/join/")
    assert joined.status_code == 200 and joined.json()["result"] == 1
    for body in ({}, {"seat": 2}, {"seat": 4}):
        again = api_post(player, f"/api/tables/{table_id}/join/", body)
        assert again.status_code == 400 and again.json()["code"] == "already_seated", body
    _row, token = create_personal_token(bob, "bot")
    by_token = api_post(Client(), f"/api/tables/{table_id}/join/", {"seat": 3}, HTTP_AUTHORIZATION=f"Bearer {token}")
    assert by_token.status_code == 400 and by_token.json()["code"] == "already_seated"
    assert [s.index for s in Seat.objects.filter(table_id=table_id, user=bob)] == [1]


# -- the living room ------------------------------------------------------------------------------

@pytest.mark.django_db
def test_a_phone_seated_by_code_gets_no_second_seat_by_the_api_nor_the_code():
    room = create_screen_table(guest("Salon"), "drekki", 4)
    phone = Client()
    assert phone.post(f"/salon/{room.code}/", {"name": "Zoé"}).status_code == 302
    assert phone.post(f"/salon/{room.code}/", {"name": "Zoé"}).status_code == 302  # back to the same seat
    table = room.table
    again = api_post(phone, f"/api/tables/{table.pk}/join/", {"seat": 2, "invite": table.invite_token})
    assert again.status_code == 400 and again.json()["code"] == "already_seated"
    humans = [s for s in Seat.objects.filter(table=table) if s.is_human]
    assert [s.name for s in humans] == ["Zoé"]


# -- the rematch ----------------------------------------------------------------------------------

def _doubled_finished_table(who: services.Who) -> Table:
    """A finished two-player table where one person holds both seats, as the
    socket's `as` -1 then `sit` left them before the rule (the row written as it was)."""
    table = services.create_table(who, "quatre-en-ligne", 2)
    Seat.objects.filter(table=table, index=1).update(guest_key=who.guest_key, name=who.name + " bis")
    services.start_table(table.pk, who)
    services.resign(table.pk, AsSeat.of(who, 1))
    return Table.objects.get(pk=table.pk)


@pytest.mark.django_db
def test_a_rematch_does_not_copy_one_person_onto_two_seats():
    max_ = guest("Max")
    table = _doubled_finished_table(max_)
    assert table.status == "finished"
    assert services.rematch(table.pk, AsSeat.of(max_, 0)) is None  # the offer of one seat
    with pytest.raises(TableError) as refused:
        services.rematch(table.pk, AsSeat.of(max_, 1))
    assert refused.value.code == "already_seated"
    assert Table.objects.count() == 1 and Table.objects.get(pk=table.pk).rematch_id is None


@pytest.mark.django_db
def test_a_pass_and_play_rematch_keeps_every_seat_on_its_device():
    zoe = guest("Zoé")
    room = create_pass_table(zoe, "quatre-en-ligne", ["Zoé", "Ben"])
    services.resign(room.table_id, AsSeat.of(zoe, 0))
    assert services.rematch(room.table_id, AsSeat.of(zoe, 0)) is None
    new_id = services.rematch(room.table_id, AsSeat.of(zoe, 1))
    new = Table.objects.get(pk=new_id)
    assert new.pass_and_play and new.status == "running" and seats_held(new.pk, zoe) == [0, 1]
