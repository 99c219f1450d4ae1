"""WebSocket consumers. Thin: validate the message shape, call a service, answer."""

from __future__ import annotations

import time
from typing import Any

from channels.generic.websocket import AsyncJsonWebsocketConsumer

MAX_FRAME_BYTES = 16 * 1024


class PingConsumer(AsyncJsonWebsocketConsumer):
    """Latency probe and keep-alive: answers {"t": "ping"} with a pong.

    Clients use it to show connection quality and to notice a dead socket
    (no pong within a few seconds) and reconnect.
    """

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any) -> None:
        if bytes_data is not None or text_data is None:
            await self.send_json({"t": "error", "code": "binary_not_supported"})
            return
        if len(text_data.encode()) > MAX_FRAME_BYTES:
            await self.send_json({"t": "error", "code": "frame_too_large"})
            return
        await super().receive(text_data=text_data, **kwargs)

    @classmethod
    async def decode_json(cls, text_data: str) -> Any:
        import json

        try:
            return json.loads(text_data)
        except ValueError:
            return None

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if not isinstance(content, dict) or content.get("t") != "ping":
            await self.send_json({"t": "error", "code": "bad_message"})
            return
        await self.send_json({"t": "pong", "server_time": time.time(), "echo": content.get("id")})
