"""WebSockets pass an origin check: the site's own origin, scheme, host and port
(issue 18, finding 9: Channels' check compared the host only)."""

from __future__ import annotations

import asyncio
import json

import pytest
import websockets
from channels.testing import WebsocketCommunicator
from websockets.exceptions import InvalidStatus

pytestmark = pytest.mark.django_db(transaction=True)


async def connect(origin: bytes | None, host: bytes = b"localhost:8000", scheme: str = "ws",
                  client: str = "127.0.0.1", extra=()) -> tuple[bool, WebsocketCommunicator]:
    from ludo.asgi import application

    headers = [(b"host", host), *extra] + ([(b"origin", origin)] if origin is not None else [])
    communicator = WebsocketCommunicator(application, "/ws/ping/", headers=headers)
    # What daphne puts in the scope; read by the application when the handshake starts.
    communicator.scope.update(scheme=scheme, client=[client, 50000])
    connected, _ = await communicator.connect()
    return connected, communicator


async def accepted(*args, **kwargs) -> bool:
    connected, communicator = await connect(*args, **kwargs)
    await communicator.disconnect()
    return connected


@pytest.mark.parametrize("origin", [b"http://evil.example", b"https://localhost.evil.example", None])
async def test_it_refuses_a_websocket_from_a_foreign_or_missing_origin(origin):
    connected, communicator = await connect(origin)
    assert not connected
    await communicator.disconnect()


async def test_it_follows_the_allowed_hosts_in_force(settings):
    settings.ALLOWED_HOSTS = ["ludo.example.org"]
    assert await accepted(b"https://ludo.example.org", host=b"ludo.example.org", scheme="wss")
    assert not await accepted(b"http://localhost:8000")


async def test_the_scheme_and_the_port_count_not_only_the_host(settings):
    settings.ALLOWED_HOSTS = ["ludo.example.org"]
    settings.SITE_URL = "https://ludo.example.org"
    settings.CSRF_TRUSTED_ORIGINS = []
    own = dict(host=b"ludo.example.org", scheme="wss")
    assert await accepted(b"https://ludo.example.org", **own)
    assert await accepted(b"https://ludo.example.org:443", **own)
    assert not await accepted(b"http://ludo.example.org", **own)        # plain http page
    assert not await accepted(b"https://ludo.example.org:8443", **own)  # another port, another site
    assert not await accepted(b"http://ludo.example.org:443", **own)
    # The handshake's own origin: an http page on port 8080 may open ws:// on 8080 only.
    assert await accepted(b"http://ludo.example.org:8080", host=b"ludo.example.org:8080")
    assert not await accepted(b"http://ludo.example.org:8080", host=b"ludo.example.org:8081")


async def test_trusted_origins_and_the_proxys_scheme(settings):
    settings.ALLOWED_HOSTS = ["ludo.example.org"]
    settings.SITE_URL = "https://ludo.example.org"
    settings.CSRF_TRUSTED_ORIGINS = ["https://*.ludo.example.org", "https://partner.example:8443"]
    assert await accepted(b"https://tables.ludo.example.org", host=b"ludo.example.org")
    assert not await accepted(b"http://tables.ludo.example.org", host=b"ludo.example.org")
    assert await accepted(b"https://partner.example:8443", host=b"ludo.example.org")
    assert not await accepted(b"https://partner.example", host=b"ludo.example.org")
    # Behind the proxy: its X-Forwarded-Proto says the page was https (SECURE_PROXY_SSL_HEADER).
    settings.SITE_URL = "https://elsewhere.example"
    assert not await accepted(b"https://ludo.example.org", host=b"ludo.example.org")
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    proto = [(b"x-forwarded-proto", b"https")]
    assert await accepted(b"https://ludo.example.org", host=b"ludo.example.org", extra=proto)
    assert not await accepted(b"http://ludo.example.org", host=b"ludo.example.org", extra=proto)


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
