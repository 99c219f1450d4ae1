"""Tokens on the sockets: the handshake's token says who is asking (header, or
the ``ludo.bearer.<token>`` subprotocol for browsers), with no Origin check;
a bad token is refused at the handshake."""

from __future__ import annotations

import asyncio
import json

import pytest
import websockets
from channels.db import database_sync_to_async as db
from channels.testing import WebsocketCommunicator
from websockets.exceptions import InvalidStatus

from games import services
from ludo.tokens import services as tokens
from tests.games.socket_helpers import finish
from tests.games.tables_helpers import move_connections  # noqa: F401  (an autouse fixture)

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def quick_bots(settings):
    settings.LUDO_BOT_THINK_SECONDS = 0
    settings.LUDO_TABLE_POLL_SECONDS = 0


async def socket(path: str, token: str | None = None, origin: bytes | None = None, subprotocols=None,
                 cookie: str | None = None) -> tuple[bool, object, WebsocketCommunicator]:
    from ludo.asgi import application

    headers = [(b"host", b"localhost")]
    if token is not None:
        headers.append((b"authorization", f"Bearer {token}".encode()))
    if origin is not None:
        headers.append((b"origin", origin))
    if cookie is not None:
        headers.append((b"cookie", cookie.encode()))
    comm = WebsocketCommunicator(application, path, headers=headers, subprotocols=subprotocols)
    connected, detail = await comm.connect()
    return connected, detail, comm


async def request(comm: WebsocketCommunicator, **message) -> dict:
    await comm.send_to(text_data=json.dumps(message))
    while True:
        frame = json.loads(await comm.receive_from(10))
        if frame.get("t") not in ("presence", "update", "chat"):
            return frame


async def quick_table(token: str) -> dict:
    who = (await db(tokens.authenticate)(token)).who()
    table = await db(services.quick_game)(who, "quatre-en-ligne", "easy", None, {"first_player": "0"}, None)
    return await db(services.snapshot)(table.pk, who)


@pytest.mark.parametrize("origin", [None, b"http://elsewhere.example"])
async def test_a_guest_token_opens_its_table_from_any_origin_and_plays(origin):
    _, token = await db(tokens.create_guest_token)("Zoé")
    table = await quick_table(token)
    connected, _, comm = await socket(f"/ws/tables/{table['table']}/", token, origin)
    try:
        assert connected
        state = await request(comm, t="hello", id="h1")
        assert state["t"] == "state" and state["seat"] == 0 and state["seats"][0]["name"] == "Zoé"
        assert 0 in state["to_act"] and state["legal"]
        ack = await request(comm, t="move", move=state["legal"][0], v=state["v"], id="m1")
        assert ack["t"] == "ack" and ack["id"] == "m1" and ack["v"] == state["v"] + 1
    finally:
        await comm.disconnect()


async def test_an_account_token_is_the_account_on_the_socket(bob):
    _, token = await db(tokens.create_personal_token)(bob, "bot")
    table = await quick_table(token)
    connected, _, comm = await socket(f"/ws/tables/{table['table']}/", token)
    try:
        assert connected
        state = await request(comm, t="hello")
        assert state["seat"] == 0 and state["seats"][0]["name"] == "bob" and state["seats"][0]["account"] is True
    finally:
        await comm.disconnect()


async def test_a_guest_token_cannot_play_another_seat_on_the_socket():
    _, zoe = await db(tokens.create_guest_token)("Zoé")
    _, max_ = await db(tokens.create_guest_token)("Max")
    table = await quick_table(zoe)
    connected, _, comm = await socket(f"/ws/tables/{table['table']}/", max_)
    try:
        assert connected
        state = await request(comm, t="hello")
        assert state["seat"] is None and state["legal"] == []
        refused = await request(comm, t="move", move=table["legal"][0], v=table["v"], seat=0, id=3)
        assert refused["t"] == "error" and refused["code"] in ("not_your_seat", "not_seated") and refused["id"] == 3
        taken = await request(comm, t="sit", id=4)
        assert taken["t"] == "error" and taken["id"] == 4  # both seats are held (Zoé and the bot)
    finally:
        await comm.disconnect()


async def test_the_subprotocol_carries_the_token_for_browsers_and_is_never_echoed():
    _, token = await db(tokens.create_guest_token)("Zoé")
    connected, chosen, comm = await socket("/ws/ping/", subprotocols=["ludo", f"ludo.bearer.{token}"])
    assert connected and chosen == "ludo"
    assert (await request(comm, t="ping", id=1))["t"] == "pong"
    await comm.disconnect()
    connected, chosen, comm = await socket("/ws/ping/", subprotocols=[f"ludo.bearer.{token}"])
    assert connected and chosen is None
    await comm.disconnect()


@pytest.mark.parametrize("kind", ["unknown", "revoked", "malformed", "empty", "subprotocol"])
async def test_a_bad_token_is_refused_at_the_handshake_even_from_the_sites_origin(bob, kind):
    row, token = await db(tokens.create_personal_token)(bob, "bot")
    if kind == "revoked":
        await db(tokens.revoke_personal_token)(bob, row.pk)
    bad = {"unknown": "ludo_pat_" + "Z" * 40, "revoked": token, "malformed": "ludo_pat_short", "empty": ""}
    if kind == "subprotocol":
        connected, _, comm = await socket("/ws/ping/", origin=b"http://localhost",
                                          subprotocols=["ludo", "ludo.bearer.ludo_gst_" + "Z" * 40])
    else:
        connected, _, comm = await socket("/ws/lobby/", bad[kind], origin=b"http://localhost")
    assert not connected
    await comm.disconnect()


async def test_without_a_token_the_session_and_the_origin_check_still_apply():
    connected, _, comm = await socket("/ws/ping/")
    assert not connected
    await comm.disconnect()
    connected, _, comm = await socket("/ws/ping/", origin=b"http://localhost", cookie="sessionid=nothing")
    assert connected
    await comm.disconnect()


def test_a_real_server_takes_tokens_in_the_header_and_the_subprotocol_and_refuses_bad_ones(daphne_server):
    import httpx

    token = httpx.post(daphne_server.url("/api/guest"), json={"name": "Zoé"}, timeout=10).json()["token"]

    async def scenario():
        url = daphne_server.ws_url("/ws/ping/")
        async with websockets.connect(url, additional_headers={"Authorization": f"Bearer {token}"},
                                      open_timeout=10) as ws:
            await ws.send(json.dumps({"t": "ping", "id": 1}))
            assert json.loads(await asyncio.wait_for(ws.recv(), 10))["t"] == "pong"
        async with websockets.connect(url, subprotocols=["ludo", f"ludo.bearer.{token}"], open_timeout=10) as ws:
            assert ws.subprotocol == "ludo"
        with pytest.raises(InvalidStatus) as refused:
            async with websockets.connect(url, additional_headers={"Authorization": "Bearer ludo_gst_" + "Z" * 40},
                                          open_timeout=10):
                pass
        assert refused.value.response.status_code == 403

    asyncio.run(scenario())


@pytest.mark.parametrize("how", ["revoked", "deactivated"])
async def test_an_open_socket_is_closed_once_its_token_no_longer_stands(bob, settings, how):
    from django.contrib.auth import get_user_model

    settings.LUDO_WS_CREDENTIALS_SECONDS = 0
    row, token = await db(tokens.create_personal_token)(bob, "bot")
    connected, _, comm = await socket("/ws/ping/", token)
    assert connected
    assert (await request(comm, t="ping", id=1))["t"] == "pong"
    if how == "revoked":
        await db(tokens.revoke_personal_token)(bob, row.pk)
    else:
        await db(get_user_model().objects.filter(pk=bob.pk).update)(is_active=False)
    await comm.send_to(text_data=json.dumps({"t": "ping", "id": 2}))
    assert await comm.receive_output(5) == {"type": "websocket.close", "code": 4401}
    await finish(comm)


async def test_an_open_socket_with_a_good_token_stays_open_and_marks_it_used(settings):
    settings.LUDO_WS_CREDENTIALS_SECONDS = 0
    row, token = await db(tokens.create_guest_token)("Zoé")
    connected, _, comm = await socket("/ws/ping/", token)
    assert connected
    for n in range(3):
        assert (await request(comm, t="ping", id=n))["t"] == "pong"
    await db(row.refresh_from_db)()
    assert row.last_used_at is not None
    await comm.disconnect()
