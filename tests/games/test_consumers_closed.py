"""A frame for a socket its peer has just closed (a broadcast already in the
socket's channel when the client left) is dropped, not raised: daphne would log
it as an exception inside the application."""

from __future__ import annotations

import pytest
from autobahn.exception import Disconnected

from games.consumers import LobbyConsumer, TableConsumer


@pytest.mark.parametrize("consumer_class", [TableConsumer, LobbyConsumer])
async def test_a_frame_for_a_closed_socket_is_dropped(consumer_class):
    consumer = consumer_class()
    sent = []

    async def closed_send(message):
        sent.append(message)
        raise Disconnected("Attempt to send on a closed protocol")

    consumer.base_send = closed_send
    await consumer.send_json({"t": "presence", "seats": [], "spectators": 0})
    assert sent and sent[0]["type"] == "websocket.send"


async def test_other_errors_still_raise():
    consumer = TableConsumer()

    async def broken_send(message):
        raise ValueError("Socket has not been accepted, so cannot send over it")

    consumer.base_send = broken_send
    with pytest.raises(ValueError):
        await consumer.send_json({"t": "presence"})
