"""Idle tables over Redis (required: the test fails in CI without it): two
players connected through the Redis channel layer say nothing for two
minutes, then one moves and the other sees it. PERF-NOTES.md: with redis-py's
default 5 s socket timeout, sockets idle for more than about 5 s were closed
with 1011. CI waits 30 s (six times that timeout, past daphne's first 20 s
ping); `make bench` (LUDO_SOAK=full) the two minutes."""

from __future__ import annotations

import asyncio

import pytest

from games import bots, engines
from tests.conftest import soak
from tests.games.live_helpers import (
    Guest,
    Stack,
    assert_clean_logs,
    live_stack,  # noqa: F401  (fixture)
    require_redis,
)
from tests.servers import DaphneServer

IDLE_SECONDS = soak(120, 30)


@pytest.mark.slow
async def test_two_silent_minutes_then_a_move_arrives(live_stack: Stack):  # noqa: F811
    require_redis()
    env = live_stack.with_redis().env()
    with DaphneServer(env) as server:
        zoe, max_ = Guest(server, "Zoé"), Guest(server, "Max")
        table_id = zoe.create("eclaircissement")["table"]
        # No client-side WebSocket pings either: nothing at all from the clients.
        clients = [zoe.client(table_id), max_.client(table_id)]
        for client in clients:
            client.ping_interval = None
            await client.open()
        assert (await clients[1].request("sit", seat=1))["t"] == "ack"
        assert (await clients[0].request("start"))["t"] == "ack"
        for client in clients:
            while client.latest["status"] != "running":
                await client.recv()

        await asyncio.sleep(IDLE_SECONDS)

        for client in clients:
            assert client.ws.close_code is None, f"socket closed with {client.ws.close_code}"
        frame = clients[0].latest
        mover = frame["to_act"][0]
        rules = engines.get("eclaircissement")
        view = clients[mover].latest["view"]
        answer = await clients[mover].move(bots.make("easy", rules, seed=1).choose(view, mover), frame["v"])
        assert answer["t"] == "ack", answer
        other = clients[1 - mover]
        update = await other.until("update", timeout=10)  # presence frames of the sit may come first
        assert update["v"] == answer["v"], update
        for client in clients:
            assert client.ws.close_code is None
            await client.close()
    assert_clean_logs(server)
