"""The table socket: every message and every error, through the real ASGI stack
(origin check, sessions, auth) with WebsocketCommunicator."""

from __future__ import annotations

import asyncio
import json

import pytest
from channels.db import database_sync_to_async as db
from django.contrib.auth import get_user_model

from games import engines, services
from games.models import Action, Table
from games.services import broadcasts
from tests.games.tables_helpers import (
    Sock,
    guest_session,
    move_connections,  # noqa: F401  (an autouse fixture)
    replayed_state,
    short_game,
    user_session,
    who_of,
)

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def quick_bots(settings):
    settings.LUDO_BOT_THINK_SECONDS = 0
    settings.LUDO_TABLE_POLL_SECONDS = 0  # broadcasts only (one test below turns polling on)


async def people(*names: str | None):
    keys = [await db(guest_session)(name) for name in names]
    return keys, [await db(who_of)(key) for key in keys]


async def version(table_id: int) -> int:
    return (await db(Table.objects.get)(pk=table_id)).version


async def opened(table_id: int, key: str | None, **kwargs) -> tuple[Sock, dict]:
    sock = await Sock(f"/ws/tables/{table_id}/", key, **kwargs).connect()
    return sock, await sock.open()


async def started_table(slug: str = "eclaircissement"):
    (zoe_key, max_key), (zoe, max_) = await people("Zoé", "Max")
    table = await db(services.create_table)(zoe, slug)
    await db(services.join_table)(table.pk, max_)
    await db(services.start_table)(table.pk, zoe)
    table = await db(Table.objects.get)(pk=table.pk)
    zoe_sock, _ = await opened(table.pk, zoe_key)
    max_sock, _ = await opened(table.pk, max_key)
    return table, {0: zoe_sock, 1: max_sock}, {0: zoe, 1: max_}


async def close_all(*socks: Sock) -> None:
    for sock in socks:
        await sock.close()


# -- opening a table ------------------------------------------------------------------------------

async def test_hello_gives_the_seat_its_own_view_presence_and_chat():
    table, socks, _ = await started_table("rampants-sauteurs")
    rules = engines.get(table.game)
    state = rules.load(table.state)
    watcher, frame = await opened(table.pk, None)
    assert frame["t"] == "state" and frame["seat"] is None and frame["v"] == table.version
    assert frame["view"] == rules.view(state, None) and frame["legal"] == []
    assert frame["chat"] == [] and frame["presence"]["seats"] == [0, 1]
    zoe_again, frame = await opened(table.pk, socks[0].comm.scope["headers"][1][1].decode().split("=")[1])
    assert frame["seat"] == 0 and frame["view"] == rules.view(state, 0)
    assert frame["legal"] == (rules.legal_moves(state, 0) if 0 in rules.to_act(state) else [])
    assert "seed" not in frame and "state" not in frame
    await close_all(watcher, zoe_again, *socks.values())


async def test_the_lobby_and_tables_refuse_a_foreign_origin():
    from channels.testing import WebsocketCommunicator

    from ludo.asgi import application

    comm = WebsocketCommunicator(application, "/ws/lobby/", headers=[(b"origin", b"http://evil.example")])
    connected, _ = await comm.connect()
    assert not connected


async def test_messages_before_hello_are_refused():
    table, socks, _ = await started_table()
    sock = await Sock(f"/ws/tables/{table.pk}/").connect()
    await sock.send(t="move", move="a1-a2", v=table.version, id="m1")
    error = await sock.answer()
    assert error == {**error, "t": "error", "code": "hello_first", "id": "m1"}
    await sock.send(t="ping", id=7)  # a ping too: a socket without its table must not look alive
    assert (await sock.answer()) == {**error, "code": "hello_first", "id": 7}
    await close_all(sock, *socks.values())


async def test_an_unknown_table_and_a_private_table_without_its_link_are_refused():
    (zoe_key, max_key), (zoe, _max) = await people("Zoé", "Max")
    private = await db(services.create_table)(zoe, "drumlin", private=True)
    sock = await Sock("/ws/tables/999999/", max_key).connect()
    assert (await sock.open())["code"] == "not_found"
    stranger = await Sock(f"/ws/tables/{private.pk}/", max_key).connect()
    assert (await stranger.open())["code"] == "private_table"
    assert (await stranger.open(invite="not-the-token"))["code"] == "private_table"
    await stranger.send(t="sit")
    assert (await stranger.answer())["code"] == "hello_first"
    frame = await stranger.open(invite=private.invite_token)
    assert frame["t"] == "state" and frame["seat"] is None and "invite" not in frame
    host, frame = await opened(private.pk, zoe_key)
    assert frame["invite"] == private.invite_token  # the host can share the link
    await close_all(sock, stranger, host)


async def test_errors_are_in_the_readers_language():
    table, socks, _ = await started_table()
    english = await Sock(f"/ws/tables/{table.pk}/", language="en-GB,en;q=0.8").connect()
    french = await Sock(f"/ws/tables/{table.pk}/", language="fr-FR").connect()
    await english.send(t="move", move="x", v=0)
    await french.send(t="move", move="x", v=0)
    en, fr = await english.answer(), await french.answer()
    assert en["code"] == fr["code"] == "hello_first"
    assert en["message"] == "Open the table first (send hello)."
    assert fr["message"] != en["message"] and fr["message"]
    await close_all(english, french, *socks.values())


# -- seats, bots, start ----------------------------------------------------------------------------

async def test_sit_bots_start_through_the_socket_and_everyone_hears_of_it():
    (zoe_key, max_key, nameless_key), (zoe, _max, _n) = await people("Zoé", "Max", None)
    table = await db(services.create_table)(zoe, "drekki", 3)
    host, _ = await opened(table.pk, zoe_key)
    max_sock, frame = await opened(table.pk, max_key)
    nameless, _ = await opened(table.pk, nameless_key)
    assert frame["seat"] is None and frame["status"] == "open"
    await nameless.send(t="sit", id=1)
    assert (await nameless.answer())["code"] == "name_required"
    await max_sock.send(t="sit", seat=0, id=2)
    assert (await max_sock.answer())["code"] == "seat_taken"
    await max_sock.send(t="sit", seat=1, id=3)
    assert (await max_sock.answer()) == {"t": "ack", "id": 3, "seat": 1}
    update = await max_sock.until("update")
    assert update["seat"] == 1 and update["seats"][1]["name"] == "Max"
    await host.until("update", v=update["v"])
    await max_sock.send(t="bots", level="easy", id=4)
    assert (await max_sock.answer())["code"] == "not_host"
    await host.send(t="start", id=5)
    assert (await host.answer())["code"] == "seats_empty"
    await host.send(t="bots", level="easy", id=6)
    assert (await host.answer())["result"] == [2]
    await host.send(t="start", id=7)
    assert (await host.answer())["t"] == "ack"
    started = await max_sock.until("update", status="running")
    rules = engines.get("drekki")
    state = rules.load((await db(Table.objects.get)(pk=table.pk)).state)
    assert started["view"] == rules.view(state, 1) and started["legal"] == rules.legal_moves(state, 1)
    await nameless.until("update", status="running")
    await nameless.send(t="sit", id=8)
    assert (await nameless.answer())["code"] == "not_open"
    await close_all(host, max_sock, nameless)


async def test_a_full_table_refuses_one_more_player():
    (zoe_key, max_key, eve_key), (zoe, max_, _eve) = await people("Zoé", "Max", "Eve")
    table = await db(services.create_table)(zoe, "drumlin")
    await db(services.join_table)(table.pk, max_)
    eve, _ = await opened(table.pk, eve_key)
    before = await version(table.pk)
    await eve.send(t="sit", id="s")
    assert (await eve.answer())["code"] == "table_full"
    assert await version(table.pk) == before
    await eve.send(t="leave")
    assert (await eve.answer())["code"] == "not_seated"
    await close_all(eve)


async def test_leave_and_unbot_before_the_start():
    (zoe_key, max_key), (zoe, max_) = await people("Zoé", "Max")
    table = await db(services.create_table)(zoe, "drekki", 3)
    await db(services.join_table)(table.pk, max_)
    host, _ = await opened(table.pk, zoe_key)
    max_sock, _ = await opened(table.pk, max_key)
    await max_sock.send(t="leave", id=1)
    assert (await max_sock.answer())["t"] == "ack"
    assert (await max_sock.until("update"))["seat"] is None
    await host.send(t="bots", level="medium", seats=[2], id=2)
    assert (await host.answer())["result"] == [2]
    await host.send(t="unbot", seat=2, id=3)
    assert (await host.answer())["t"] == "ack"
    await host.send(t="unbot", seat=2, id=4)
    assert (await host.answer())["code"] == "not_a_bot"
    await close_all(host, max_sock)


# -- moves -------------------------------------------------------------------------------------------

async def test_a_move_is_acked_and_every_socket_gets_its_own_view():
    table, socks, _ = await started_table("rampants-sauteurs")
    rules = engines.get(table.game)
    watcher, _ = await opened(table.pk, None)
    state = rules.load(table.state)
    seat = rules.to_act(state)[0]
    move = rules.legal_moves(state, seat)[0]
    await socks[seat].send(t="move", move=move, v=table.version, id="m")
    assert await socks[seat].answer() == {"t": "ack", "id": "m", "v": table.version + 1}
    after = rules.play(state, seat, move)
    for s, sock in [(0, socks[0]), (1, socks[1]), (None, watcher)]:
        update = await sock.until("update", v=table.version + 1)
        assert update["view"] == rules.view(after, s)
        assert update["events"][-1]["kind"] == "move" and ("move" in update["events"][-1]) == (s == seat)
    await close_all(watcher, *socks.values())


async def test_a_socket_that_asks_for_it_gets_its_moves_ack_inside_the_update():
    table, socks, _ = await started_table("eclaircissement")
    rules = engines.get(table.game)
    state = rules.load(table.state)
    seat = rules.to_act(state)[0]
    mover, other = socks[seat], socks[1 - seat]
    assert (await mover.open(acks="update"))["t"] == "state"
    # Refusals are error frames as before.
    await mover.send(t="move", move="zz-top", v=table.version, id="bad")
    error = await mover.answer()
    assert (error["t"], error["code"], error["id"]) == ("error", "illegal_move", "bad")
    move = rules.legal_moves(state, seat)[0]
    await mover.send(t="move", move=move, v=table.version, id="m")
    update = await mover.until("update")
    assert update["v"] == table.version + 1 and update["ack"] == {"id": "m", "v": table.version + 1}
    after = rules.play(state, seat, move)
    assert update["view"] == rules.view(after, seat)
    theirs = await other.until("update", v=table.version + 1)
    assert "ack" not in theirs and theirs["view"] == rules.view(after, 1 - seat)
    # One frame answered the move: no ack frame, and no second update for that version.
    await mover.send(t="ping", id="p")
    assert (await mover.answer())["t"] == "pong"
    assert not [f for f in mover.frames if f["t"] == "ack"]
    assert [f["v"] for f in mover.frames if f["t"] == "update"] == [table.version + 1]
    # A new hello without it (or with "frame") brings the ack frames back.
    await other.open(acks="frame")
    reply = rules.legal_moves(after, 1 - seat)[0]
    await other.send(t="move", move=reply, v=table.version + 1, id="r")
    assert await other.answer() == {"t": "ack", "id": "r", "v": table.version + 2}
    await other.send(t="hello", acks="sometimes")
    assert (await other.answer())["code"] == "bad_message"
    await close_all(*socks.values())


async def test_a_move_whose_update_cannot_be_built_is_still_acked(monkeypatch, caplog):
    # The move is committed before its update is built: if building it fails, the
    # player is still told the move was accepted, and the update comes with the broadcast.
    from games.consumers import TableConsumer

    send_state = TableConsumer.send_state

    async def failing(self, *args, ack=None, **kwargs):
        if ack is not None:
            raise RuntimeError("the snapshot could not be read")
        return await send_state(self, *args, **kwargs)

    monkeypatch.setattr(TableConsumer, "send_state", failing)
    table, socks, _ = await started_table("eclaircissement")
    rules = engines.get(table.game)
    state = rules.load(table.state)
    seat = rules.to_act(state)[0]
    mover = socks[seat]
    await mover.open(acks="update")
    await mover.send(t="move", move=rules.legal_moves(state, seat)[0], v=table.version, id="m")
    assert await mover.answer() == {"t": "ack", "id": "m", "v": table.version + 1}
    assert (await mover.until("update"))["v"] == table.version + 1
    assert "the update answering a move" in caplog.text
    await close_all(*socks.values())


async def test_stale_illegal_out_of_turn_and_foreign_seat_moves_change_nothing():
    table, socks, _ = await started_table("eclaircissement")
    rules = engines.get(table.game)
    state = rules.load(table.state)
    seat = rules.to_act(state)[0]
    other = 1 - seat
    move = rules.legal_moves(state, seat)[0]
    watcher, _ = await opened(table.pk, None)
    attempts = [
        (socks[seat], {"move": move, "v": table.version - 1}, "stale_version"),
        (socks[seat], {"move": move, "v": table.version + 3}, "stale_version"),
        (socks[seat], {"move": "zz-top", "v": table.version}, "illegal_move"),
        (socks[other], {"move": move, "v": table.version}, "not_your_turn"),
        (socks[seat], {"move": move, "v": table.version, "seat": other}, "not_your_seat"),
        (watcher, {"move": move, "v": table.version}, "not_seated"),
    ]
    for sock, fields, code in attempts:
        await sock.send(t="move", id=code, **fields)
        error = await sock.answer()
        assert (error["t"], error["code"], error["id"]) == ("error", code, code)
        assert error["message"]
        assert await version(table.pk) == table.version
    stale = [f for f in socks[seat].frames if f.get("code") == "stale_version"]
    assert all(f["v"] == table.version for f in stale)  # the error names the current version
    illegal = next(f for f in socks[seat].frames if f.get("code") == "illegal_move")
    assert illegal["detail"]  # the engine's reason
    # The sockets still work, and nobody got a stray update (presence refreshes may come
    # before the pong: the worker's presence job runs on its own schedule).
    for sock in (*socks.values(), watcher):
        await sock.send(t="ping", id="p")
        assert (await sock.answer())["t"] == "pong"
        assert not [f for f in sock.frames if f.get("t") == "update"]
    await socks[seat].send(t="move", move=move, v=table.version)
    assert (await socks[seat].answer())["t"] == "ack"
    await close_all(watcher, *socks.values())


async def test_reconnecting_with_the_last_version_gets_the_missed_events():
    table, socks, people_ = await started_table("drekki")
    moves = short_game("drekki", 2, table.seed)
    seen = table.version
    await socks[1].close()
    for seat, move in moves[:3]:
        await db(services.play_move)(table.pk, people_[seat], move, await version(table.pk))
    back = await Sock(f"/ws/tables/{table.pk}/", socks[1].comm.scope["headers"][1][1].decode().split("=")[1]).connect()
    frame = await back.open(since=seen)
    assert frame["full"] is False and [e["v"] for e in frame["events"]] == [seen + 1, seen + 2, seen + 3]
    assert all(("move" in e) == (e["seat"] == 1) for e in frame["events"])
    await back.send(t="sync", since=0)
    from_start = await back.answer()
    assert [e["v"] for e in from_start["events"]] == list(range(1, seen + 4))
    await back.send(t="sync")
    resync = await back.answer()
    assert resync["t"] == "state" and resync["full"] and resync["v"] == seen + 3
    await close_all(back, socks[0])


# -- draws, resignation, abort, rematch, kick ---------------------------------------------------------

async def test_draw_offer_decline_and_accept():
    table, socks, _ = await started_table("drumlin")
    await socks[1].send(t="draw", action="accept", id=1)
    assert (await socks[1].answer())["code"] == "no_draw_offer"
    await socks[0].send(t="draw", action="offer", id=2)
    assert (await socks[0].answer())["t"] == "ack"
    offered = await socks[1].until("update", v=table.version + 1)
    assert offered["draw_offers"] == [0]
    await socks[1].send(t="draw", action="decline", id=3)
    assert (await socks[1].answer())["t"] == "ack"
    assert (await socks[0].until("update", v=table.version + 2))["draw_offers"] == []
    # Two sockets, no order between them: the offer is in before the accept is sent.
    await socks[0].send(t="draw", action="offer", id=5)
    assert (await socks[0].answer())["t"] == "ack"
    await socks[1].send(t="draw", action="accept", id=4)
    assert (await socks[1].answer())["t"] == "ack"
    done = await socks[0].until("update", status="finished")
    assert done["outcome"]["reason"] == "agreement"
    await close_all(*socks.values())


async def test_resign_then_rematch_which_spectators_follow():
    table, socks, _ = await started_table("drumlin")
    watcher, _ = await opened(table.pk, None)
    await socks[0].send(t="rematch", id=1)
    assert (await socks[0].answer())["code"] == "not_finished"
    await socks[0].send(t="resign", id=2)
    assert (await socks[0].answer())["t"] == "ack"
    over = await watcher.until("update", status="finished")
    assert over["outcome"]["winners"] == [1] and over["outcome"]["reason"] == "resign"
    await socks[0].send(t="rematch", id=3)
    assert (await socks[0].answer()) == {"t": "ack", "id": 3}
    assert (await watcher.until("update"))["rematch_offers"] == [0]
    await socks[1].send(t="rematch", id=4)
    new_id = (await socks[1].answer())["result"]
    follow = await watcher.until("update", rematch=new_id)
    assert follow["status"] == "finished"
    # Spectators follow: they open the new table.
    next_table = await Sock(f"/ws/tables/{new_id}/").connect()
    frame = await next_table.open()
    assert frame["status"] == "running" and [s["name"] for s in frame["seats"]] == ["Max", "Zoé"]
    await close_all(next_table, watcher, *socks.values())


async def test_abort_at_the_start():
    table, socks, _ = await started_table("drumlin")
    await socks[1].send(t="abort", id=1)
    assert (await socks[1].answer())["t"] == "ack"
    assert (await socks[0].until("update"))["status"] == "aborted"
    await socks[0].send(t="resign", id=2)
    assert (await socks[0].answer())["code"] == "game_over"
    await close_all(*socks.values())


async def test_kick_refuses_a_present_player():
    table, socks, _ = await started_table("drumlin")
    await socks[0].send(t="kick", seat=1, id=1)
    assert (await socks[0].answer())["code"] == "not_absent"
    await socks[0].send(t="kick", seat=0, id=2)
    assert (await socks[0].answer())["code"] == "bad_seat"
    await close_all(*socks.values())


# -- presence and chat -----------------------------------------------------------------------------

async def test_presence_follows_sockets():
    table, socks, _ = await started_table("drumlin")
    watcher, frame = await opened(table.pk, None)
    assert frame["presence"] == {"seats": [0, 1], "spectators": 1}
    await socks[1].close()
    assert await watcher.until("presence", seats=[0]) == {"t": "presence", "seats": [0], "spectators": 1}
    await close_all(watcher, socks[0])


async def test_a_presence_event_older_than_the_state_never_reaches_the_socket():
    """A presence broadcast may reach Redis after a new socket subscribed (it is sent
    on a connection of its own): the socket says the presence as it is, not as the
    event carried it."""
    from channels.layers import get_channel_layer

    table, socks, _ = await started_table("drumlin")
    watcher, frame = await opened(table.pk, None)
    assert frame["presence"] == {"seats": [0, 1], "spectators": 1}
    stale = {"type": "table.presence", "table": table.pk, "seats": [0], "spectators": 0}
    await get_channel_layer().group_send(f"table.{table.pk}", stale)
    await socks[1].close()
    assert await watcher.until("presence") == {"t": "presence", "seats": [0], "spectators": 1}
    await close_all(watcher, socks[0])


async def test_players_and_spectators_chat_apart():
    table, socks, _ = await started_table("drumlin")
    (fan_key,), _ = await people("Fan")
    fan, _ = await opened(table.pk, fan_key)
    anonymous, _ = await opened(table.pk, None)
    await socks[0].send(t="chat", text="bonne chance", id=1)
    assert (await socks[0].answer())["t"] == "ack"
    heard = await socks[1].until("chat")
    assert heard["message"]["text"] == "bonne chance" and heard["message"]["channel"] == "players"
    await fan.send(t="chat", text="allez Zoé", id=2)
    assert (await fan.answer())["t"] == "ack"
    assert (await anonymous.until("chat"))["message"]["text"] == "allez Zoé"
    await anonymous.send(t="chat", text="hello", id=3)
    assert (await anonymous.answer())["code"] == "name_required"
    await socks[0].send(t="chat", text="", id=4)
    assert (await socks[0].answer())["code"] == "bad_chat"
    # The players never heard the spectators, and the reverse.
    await socks[1].send(t="ping")
    await socks[1].until("pong")
    assert not any(f.get("t") == "chat" and f["message"]["channel"] == "spectators" for f in socks[1].frames)
    await fan.send(t="ping")
    await fan.until("pong")
    assert not any(f.get("t") == "chat" and f["message"]["channel"] == "players" for f in fan.frames)
    await close_all(fan, anonymous, *socks.values())


async def test_staff_moderate_from_the_socket_and_others_cannot():
    table, socks, _ = await started_table("drumlin")
    User = get_user_model()
    staff = await db(User.objects.create_user)("hote", "h@example.org", "pw-hote-12345", is_staff=True)
    staff_key = await db(user_session)(staff)
    host, _ = await opened(table.pk, staff_key)
    await socks[1].send(t="chat", text="vilain mot", id=1)
    message_id = (await socks[1].answer())["message"]
    await socks[0].send(t="hide_chat", message=message_id, id=2)
    assert (await socks[0].answer())["code"] == "staff_only"
    await host.send(t="hide_chat", message=message_id, id=3)
    assert (await host.answer())["t"] == "ack"
    hidden = await socks[0].until("chat", )
    while not hidden["message"]["hidden"]:
        hidden = await socks[0].until("chat")
    assert hidden["message"]["text"] == ""
    await host.send(t="remove", seat=1, id=4)
    assert (await host.answer())["t"] == "ack"
    assert (await socks[1].until("update"))["seat"] is None  # Max now only watches
    await host.send(t="end", id=5)
    assert (await host.answer())["t"] == "ack"
    assert (await socks[0].until("update", status="aborted"))["outcome"] is None
    await close_all(host, *socks.values())


# -- the lobby ----------------------------------------------------------------------------------------

async def test_the_lobby_lists_public_tables_and_follows_them_live():
    (zoe_key, max_key), (zoe, max_) = await people("Zoé", "Max")
    lobby = await Sock("/ws/lobby/").connect()
    assert (await lobby.recv()) == {"t": "lobby", "tables": []}
    table = await db(services.create_table)(zoe, "drumlin")
    created = await lobby.until("lobby_update")
    assert created["table"] == table.pk and created["entry"]["free"] == 1
    await db(services.create_table)(zoe, "drumlin", private=True)
    await db(services.join_table)(table.pk, max_)
    joined = await lobby.until("lobby_update")
    assert joined["table"] == table.pk and joined["entry"]["free"] == 0  # the private one never showed
    await db(services.start_table)(table.pk, zoe)
    assert (await lobby.until("lobby_update"))["entry"]["status"] == "running"
    await db(services.resign)(table.pk, max_)
    assert (await lobby.until("lobby_update"))["entry"] is None
    await lobby.send(t="move", move="x", v=1)
    assert (await lobby.recv())["code"] == "unknown_type"
    await lobby.send(t="sync")
    assert (await lobby.recv()) == {"t": "lobby", "tables": []}
    await lobby.close()


# -- whole games --------------------------------------------------------------------------------------

async def play_whole_game(slug: str, count: int) -> dict[int | None, list[str]]:
    """Play a short game between ``count`` sockets with a spectator watching;
    return the raw frames each of them received, by seat."""
    rules = engines.get(slug)
    names = ["Zoé", "Max", "Léa", "Ugo", "Eve", "Noé"][:count]
    keys, who = await people(*names)
    table = await db(services.create_table)(who[0], slug, count)
    socks = [(await opened(table.pk, key))[0] for key in keys]
    watcher, _ = await opened(table.pk, None)
    for seat in range(1, count):
        await socks[seat].send(t="sit", seat=seat)
        assert (await socks[seat].answer())["t"] == "ack"
    await socks[0].send(t="start")
    assert (await socks[0].answer())["t"] == "ack"
    table = await db(Table.objects.get)(pk=table.pk)
    for sock in (*socks, watcher):
        await sock.until("update", v=table.version)
    for seat, move in short_game(slug, count, table.seed):
        sock = socks[seat]
        assert seat in sock.latest["to_act"] and move in sock.latest["legal"]
        await sock.send(t="move", move=move, v=sock.v)
        ack = await sock.answer()
        assert ack["t"] == "ack", ack
        for other in (*socks, watcher):
            await other.until("update", v=ack["v"])
    final = await db(Table.objects.get)(pk=table.pk)
    assert final.status == "finished"
    for sock in (*socks, watcher):
        assert sock.latest["status"] == "finished" and sock.latest["outcome"] == final.outcome
    # Every frame anyone got holds exactly its own seat's view at that version.
    states = {}
    for sock in (*socks, watcher):
        for frame in sock.frames:
            if frame.get("t") in ("state", "update") and frame["view"] is not None:
                if frame["v"] not in states:
                    states[frame["v"]] = await db(replayed_state)(final, frame["v"])
                assert frame["view"] == rules.view(states[frame["v"]], frame["seat"])
                for event in frame["events"] or []:
                    assert "move" not in event or event["seat"] == frame["seat"]
    await close_all(watcher, *socks)
    return {**{seat: sock.raw for seat, sock in enumerate(socks)}, None: watcher.raw}


@pytest.mark.parametrize("slug", engines.slugs())
async def test_a_whole_game_of_every_engine_between_sockets(slug):
    await play_whole_game(slug, engines.get(slug).min_players)


async def test_at_a_four_player_drekki_table_nobody_sees_another_seats_card():
    """Four players and a spectator: no frame anyone receives holds another
    seat's hand or laid card before the reveal (checked on the raw frames)."""
    raw = await play_whole_game("drekki", 4)
    laid_seen = 0
    for seat, frames in raw.items():
        for text in frames:
            frame = json.loads(text)
            if frame.get("t") not in ("state", "update") or frame["view"] is None:
                continue
            view = frame["view"]
            for mage in view["mages"]:
                if mage["owner"] == seat:
                    laid_seen += mage.get("card") is not None
                else:
                    assert "card" not in mage and "hand" not in mage, (seat, mage)
            if view["phase"] in ("cards", "bidding"):
                assert view["revealed"] is None
            if seat is None:
                assert '"hand"' not in text and '"card"' not in text
    assert laid_seen > 0  # each player did see their own laid card


async def test_actions_log_one_row_per_version():
    table, socks, _ = await started_table("eclaircissement")
    rules = engines.get(table.game)
    state = rules.load(table.state)
    seat = rules.to_act(state)[0]
    await socks[seat].send(t="move", move=rules.legal_moves(state, seat)[0], v=table.version)
    await socks[seat].answer()
    versions = await db(lambda: list(Action.objects.filter(table_id=table.pk).values_list("version", flat=True)))()
    assert versions == list(range(1, table.version + 2))
    await close_all(*socks.values())


# -- lost broadcasts -------------------------------------------------------------------------------

async def test_a_lost_broadcast_is_caught_up_by_polling(settings, monkeypatch):
    # The worker runs in another process: with the in-memory layer its
    # broadcasts never arrive (and pub/sub may lose one across a reconnect).
    settings.LUDO_TABLE_POLL_SECONDS = 0.05
    table, socks, people_ = await started_table("eclaircissement")
    lobby = await Sock("/ws/lobby/").connect()
    await lobby.until("lobby")
    monkeypatch.setattr(broadcasts, "_group_send", lambda group, message: None)
    rules = engines.get(table.game)
    state = rules.load(table.state)
    seat = rules.to_act(state)[0]
    await db(services.play_move)(table.pk, people_[seat], rules.legal_moves(state, seat)[0], table.version)
    for sock in socks.values():
        update = await sock.until("update", v=table.version + 1)
        assert update["view"] == rules.view(rules.play(state, seat, rules.legal_moves(state, seat)[0]), sock.seat)
    await db(services.resign)(table.pk, people_[0])
    refreshed = await lobby.until("lobby", tables=[])  # the finished table left the list
    assert refreshed["tables"] == []
    await close_all(lobby, *socks.values())


async def test_a_ping_notices_a_missed_version(settings, monkeypatch):
    from games import sockets

    monkeypatch.setattr(sockets, "TOUCH_FLUSH", 0.05)  # the process writes its sockets' pings together
    table, socks, people_ = await started_table("eclaircissement")
    monkeypatch.setattr(broadcasts, "_group_send", lambda group, message: None)
    rules = engines.get(table.game)
    state = rules.load(table.state)
    seat = rules.to_act(state)[0]
    await db(services.play_move)(table.pk, people_[seat], rules.legal_moves(state, seat)[0], table.version)
    sock = socks[1 - seat]
    await sock.send(t="ping")
    assert (await sock.until("update"))["v"] == table.version + 1
    await close_all(*socks.values())


async def test_pings_refresh_presence_together(monkeypatch):
    from datetime import timedelta

    from django.utils import timezone

    from games import sockets
    from games.models import Connection

    monkeypatch.setattr(sockets, "TOUCH_FLUSH", 0.05)
    table, socks, _ = await started_table("eclaircissement")
    long_ago = timezone.now() - timedelta(minutes=5)
    await db(lambda: Connection.objects.filter(table_id=table.pk).update(last_seen=long_ago))()
    for sock in socks.values():
        await sock.send(t="ping")
        await sock.until("pong")
    for _ in range(100):
        seen = await db(lambda: list(Connection.objects.filter(table_id=table.pk).values_list("last_seen", flat=True)))()
        if all(s > long_ago for s in seen):
            break
        await asyncio.sleep(0.02)
    assert len(seen) == 2 and all(s > long_ago for s in seen)
    await close_all(*socks.values())



async def test_any_message_keeps_a_socket_present_not_only_pings(monkeypatch):
    """A client busy playing (moves, chat, sync) without pinging is not forgotten."""
    from datetime import timedelta

    from django.utils import timezone

    from games import sockets
    from games.models import Connection

    monkeypatch.setattr(sockets, "TOUCH_FLUSH", 0.05)
    table, socks, _ = await started_table("eclaircissement")
    long_ago = timezone.now() - timedelta(minutes=5)
    await db(lambda: Connection.objects.filter(table_id=table.pk).update(last_seen=long_ago))()
    await socks[0].send(t="sync", id="s")
    await socks[0].until("state")
    for _ in range(100):
        seen = await db(lambda: Connection.objects.get(table_id=table.pk, seat=0).last_seen)()
        if seen > long_ago:
            break
        await asyncio.sleep(0.02)
    assert seen > long_ago
    await close_all(*socks.values())
