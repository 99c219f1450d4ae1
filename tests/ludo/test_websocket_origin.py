"""WebSockets pass an origin check: the site's own hosts only."""

from __future__ import annotations

import asyncio
import json

import pytest
import websockets
from channels.testing import WebsocketCommunicator
from websockets.exceptions import InvalidStatus

pytestmark = pytest.mark.django_db(transaction=True)


async def connect(origin: bytes | None) -> tuple[bool, WebsocketCommunicator]:
    from ludo.asgi import application

    headers = [(b"host", b"localhost")] + ([(b"origin", origin)] if origin is not None else [])
    communicator = WebsocketCommunicator(application, "/ws/ping/", headers=headers)
    connected, _ = await communicator.connect()
    return connected, communicator


@pytest.mark.parametrize("origin", [b"http://evil.example", b"https://localhost.evil.example", None])
async def test_it_refuses_a_websocket_from_a_foreign_or_missing_origin(origin):
    connected, communicator = await connect(origin)
    assert not connected
    await communicator.disconnect()


async def test_it_follows_the_allowed_hosts_in_force(settings):
    settings.ALLOWED_HOSTS = ["ludo.example.org"]
    connected, communicator = await connect(b"https://ludo.example.org")
    assert connected
    await communicator.disconnect()
    connected, communicator = await connect(b"http://localhost:8000")
    assert not connected
    await communicator.disconnect()


async def test_it_accepts_a_websocket_from_the_sites_own_origin():
    connected, communicator = await connect(b"http://localhost:8000")
    try:
        assert connected
        await communicator.send_json_to({"t": "ping", "id": 7})
        answer = await communicator.receive_json_from()
        assert answer["t"] == "pong" and answer["id"] == 7
    finally:
        await communicator.disconnect()


def test_a_real_server_refuses_a_foreign_origin_and_accepts_its_own(daphne_server):
    async def scenario():
        url = daphne_server.ws_url("/ws/ping/")
        with pytest.raises(InvalidStatus) as refused:
            async with websockets.connect(url, origin="http://evil.example", open_timeout=10):
                pass
        assert refused.value.response.status_code == 403
        async with websockets.connect(url, origin=daphne_server.origin, open_timeout=10) as socket:
            await socket.send(json.dumps({"t": "ping", "id": "a"}))
            answer = json.loads(await asyncio.wait_for(socket.recv(), 10))
            assert answer["t"] == "pong" and answer["id"] == "a"

    asyncio.run(scenario())
