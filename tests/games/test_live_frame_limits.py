"""The documented frame limits, on a real daphne started as the project
starts it: up to 16 KiB a frame is read; above, up to 1 MiB, it is refused
with frame_too_large and the socket stays open; above 1 MiB the server closes
the connection (close code 1009, message too big), as docs/protocol.md says."""

from __future__ import annotations

import json
import pathlib
import re

import pytest
from websockets.exceptions import ConnectionClosed

from games.protocol import MAX_FRAME_BYTES, MAX_SOCKET_MESSAGE_BYTES
from tests.games.live_helpers import Guest
from tests.servers import DAPHNE_LIMITS, DaphneServer

ROOT = pathlib.Path(__file__).resolve().parents[2]


def padded(size: int) -> str:
    """A chat frame of exactly ``size`` bytes."""
    frame = json.dumps({"t": "chat", "text": ""})
    return json.dumps({"t": "chat", "text": "x" * (size - len(frame))})


async def test_frames_over_16_kib_are_refused_and_over_1_mib_close_the_socket(daphne_server: DaphneServer):
    zoe = Guest(daphne_server, "Zoé")
    client = zoe.client(zoe.create("drumlin")["table"])
    await client.open()
    for size in (MAX_FRAME_BYTES + 1, MAX_SOCKET_MESSAGE_BYTES):
        text = padded(size)
        assert len(text.encode()) == size
        await client.ws.send(text)
        error = await client.until("error")
        assert error["code"] == "frame_too_large", error
        await client.send(t="ping", id=f"after-{size}")
        assert (await client.until("pong"))["id"] == f"after-{size}"  # the socket is still open
    accepted = padded(MAX_FRAME_BYTES)
    await client.ws.send(accepted)
    assert (await client.until("error"))["code"] == "bad_message"  # read, and judged on its content (too long a text)
    await client.ws.send(padded(MAX_SOCKET_MESSAGE_BYTES + 1))
    with pytest.raises(ConnectionClosed):
        while True:
            await client.recv(timeout=20)
    # The server fails the connection with 1009; a client still writing the
    # rest of its message may see the connection cut first (1006).
    assert client.ws.close_code in (1009, 1006)


def test_every_place_that_starts_daphne_passes_the_documented_limit():
    limit = str(MAX_SOCKET_MESSAGE_BYTES)
    assert DAPHNE_LIMITS == ("--websocket-max-message-size", limit, "--websocket-max-frame-size", limit)
    assert f"--websocket-max-message-size {limit}" in (ROOT / "Makefile").read_text()
    readme = (ROOT / "README.md").read_text()
    assert all(f"--websocket-max-message-size {limit}" in line for line in readme.splitlines()
               if re.match(r"\s+daphne ", line))
    assert f'"--websocket-max-message-size", "{limit}"' in (ROOT / "bench" / "tables.py").read_text()
