"""The stack's ceiling for bench/tables.py: a bare Channels consumer that
relays every text frame to a group of two, on the site's channel layer.

Served by daphne in its own process (``daphne bench.bare_broadcast:application``
from the project's root, with the same environment as the site, so the same
channel layer settings). ``ws/pair/<n>/`` joins the group ``pair.<n>``; each
frame a socket sends is broadcast to both sockets of its pair. No session, no
database, no origin check: Channels, daphne and the layer only.

Like the site's table sockets (games.consumers), the consumer skips the thread
hop Channels makes before every handler to close stale database connections
(it has none): the ceiling is what the same stack can do at best. With
``BARE_CHANNELS_DISPATCH=1`` it keeps Channels' own dispatch, hop included
(how the ceiling was measured before 2026-11-22).
"""

from __future__ import annotations

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ludo.settings")
django.setup()

from channels.consumer import get_handler_name  # noqa: E402
from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import path  # noqa: E402


CHANNELS_DISPATCH = os.environ.get("BARE_CHANNELS_DISPATCH", "") == "1"


class PairConsumer(AsyncWebsocketConsumer):
    async def dispatch(self, message: dict) -> None:
        if CHANNELS_DISPATCH:
            await super().dispatch(message)
            return
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def connect(self) -> None:
        self.group = f"pair.{self.scope['url_route']['kwargs']['pair']}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        await self.channel_layer.group_send(self.group, {"type": "relay", "text": text_data})

    async def relay(self, event: dict) -> None:
        await self.send(text_data=event["text"])


async def healthz(scope, receive, send) -> None:
    """200 on /healthz (what the bench waits for), 404 elsewhere."""
    if scope["type"] != "http":
        return
    await receive()
    ok = scope["path"] == "/healthz"
    await send({"type": "http.response.start", "status": 200 if ok else 404,
                "headers": [(b"content-type", b"text/plain")]})
    await send({"type": "http.response.body", "body": b"ok" if ok else b""})


application = ProtocolTypeRouter({
    "http": healthz,
    "websocket": URLRouter([path("ws/pair/<int:pair>/", PairConsumer.as_asgi())]),
})
