"""Sockets on the real ASGI application (origin check, sessions, tokens, the
consumers' gate), as a page or an outside client opens them, from a chosen
client address. Not a test module."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

from channels.testing import WebsocketCommunicator

ADDRESS = "203.0.113.7"


async def open_socket(path: str, *, session: str | None = None, token: str | None = None,
                      address: str = ADDRESS) -> WebsocketCommunicator:
    """A connected socket: a page's (session cookie, the site's origin) or an
    outside client's (``Authorization: Bearer``)."""
    from ludo.asgi import application

    headers = [(b"host", b"testserver")]
    if token is not None:
        headers.append((b"authorization", f"Bearer {token}".encode()))
    else:
        headers.append((b"origin", b"http://testserver"))
    if session is not None:
        headers.append((b"cookie", f"sessionid={session}".encode()))
    comm = WebsocketCommunicator(application, path, headers=headers)
    comm.scope["client"] = (address, 50000)
    connected, _ = await comm.connect()
    assert connected, path
    return comm


async def send(comm: WebsocketCommunicator, **message: Any) -> None:
    await comm.send_to(text_data=json.dumps(message))


async def answer(comm: WebsocketCommunicator, msg_id: Any, timeout: float = 10) -> dict[str, Any]:
    """The frame answering the request ``msg_id`` (other frames on the way are skipped)."""
    while True:
        output = await comm.receive_output(timeout)
        assert output["type"] == "websocket.send", output
        frame = json.loads(output["text"])
        if frame.get("id") == msg_id:
            return frame


async def close_code(comm: WebsocketCommunicator, timeout: float = 10) -> int | None:
    """Wait for the server to close the socket (frames on the way are skipped); its close code."""
    deadline = time.monotonic() + timeout
    while True:
        output = await comm.receive_output(max(0.1, deadline - time.monotonic()))
        if output["type"] == "websocket.close":
            return output.get("code")


async def still_open(comm: WebsocketCommunicator, msg_id: Any = "alive") -> bool:
    """Whether the server still answers on this socket (a ping answered by a pong,
    or by ``hello_first`` on a table socket without its table)."""
    await send(comm, t="ping", id=msg_id)
    while True:
        try:
            output = await comm.receive_output(10)
        except asyncio.TimeoutError:
            return False
        if output["type"] == "websocket.close":
            return False
        if json.loads(output["text"]).get("id") == msg_id:
            return True


async def finish(comm: WebsocketCommunicator, code: int = 1000) -> None:
    """After the server closed the socket: the disconnect an ASGI server then sends, and
    the application's end (a consumer runs until its disconnect comes; waiting without
    it only ran out the timeout)."""
    await comm.send_input({"type": "websocket.disconnect", "code": code})
    await comm.wait(5)
