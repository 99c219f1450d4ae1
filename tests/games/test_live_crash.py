"""Crashes: daphne and the worker killed with SIGKILL in the middle of games
(one of them while a bot thinks), started again; the players reconnect.

Runs on the suite's stack: a SQLite file with the in-memory layer, or
PostgreSQL with Redis."""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime

import pytest
from websockets.exceptions import ConnectionClosed

from games import bots, engines
from tests.games.live_helpers import (
    Client,
    Guest,
    ServerDB,
    Stack,
    Worker,
    assert_clean_logs,
    autoplay,
    final_checks,
    live_stack,  # noqa: F401  (fixture)
)
from tests.servers import DaphneServer

LEASE_MS = 3000  # a killed worker's claim on a bot turn expires after this


def as_utc(value) -> datetime:
    """A datetime read by plain SQL: aware from PostgreSQL, naive UTC text from SQLite."""
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


async def step(clients: dict[int, Client], choosers: dict[int, bots.Bot]) -> None:
    """The seat to act plays one move (chosen from its view); everyone sees it."""
    frame = next(iter(clients.values())).latest
    seat = frame["to_act"][0]
    mine = clients[seat].latest
    answer = await clients[seat].move(choosers[seat].choose(mine["view"], seat), mine["v"])
    assert answer["t"] == "ack", answer
    for client in clients.values():
        await client.until_version(answer["v"])


def claimed(db: ServerDB, table_id: int) -> bool:
    """True once a worker holds the bot's turn (bot_due pushed forward by the lease)."""
    table = db.table(table_id)
    if table["bot_due"] is None:
        return False
    last = db.rows("SELECT MAX(created_at) FROM games_action WHERE table_id = ?", table_id)[0][0]
    return (as_utc(table["bot_due"]) - as_utc(last)).total_seconds() > LEASE_MS / 2000


async def test_killed_server_and_worker_lose_no_accepted_move(live_stack: Stack):  # noqa: F811
    env = live_stack.env(LUDO_BOT_THINK_MS="0", LUDO_BOT_LEASE_MS=str(LEASE_MS))
    db = ServerDB(live_stack.database_url)
    server, worker = DaphneServer(env).start(), Worker(env).start()
    try:
        zoe, max_ = Guest(server, "Zoé"), Guest(server, "Max")
        # Table B: two people, a game clock.
        b = zoe.create("quatre-en-ligne", clock={"kind": "game", "base": 600, "increment": 2})["table"]
        b_clients = {0: zoe.client(b), 1: max_.client(b)}
        for client in b_clients.values():
            await client.open()
        assert (await b_clients[1].request("sit", seat=1))["t"] == "ack"
        assert (await b_clients[0].request("start"))["t"] == "ack"
        for client in b_clients.values():
            while client.latest["status"] != "running":
                await client.recv()
        rules = engines.get("quatre-en-ligne")
        choosers = {seat: bots.make("easy", rules, seed=seat) for seat in (0, 1)}
        for _ in range(5):
            await step(b_clients, choosers)
        # Table A: Zoé against the hard bot (it thinks for about a second).
        a_table = zoe.quick("drumlin", level="hard")
        a = a_table["table"]
        a_client = await zoe.client(a).connect()
        frame = await a_client.open()
        drumlin = engines.get("drumlin")
        zoe_bot = bots.make("easy", drumlin, seed=3)
        if 0 not in frame["to_act"]:  # the bot opens: let it
            frame = await a_client.until_version(frame["v"] + 1)
        answer = await a_client.move(zoe_bot.choose(frame["view"], 0), frame["v"])
        assert answer["t"] == "ack", answer
        deadline = time.monotonic() + 30
        while not claimed(db, a) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert claimed(db, a), "the worker never took the bot's turn"

        # The crash: both processes, no warning, while the bot thinks and B's clock runs.
        server.kill()
        worker.kill()
        a_version = answer["v"]
        b_before = db.table(b)
        b_deadlines = db.seat_deadlines(b)
        b_last = b_clients[0].latest
        running = [i for i, s in enumerate(b_last["clock"]["seats"]) if s["running"]]
        assert len(running) == 1 and b_deadlines[running[0]] is not None
        assert db.table(a)["version"] == a_version
        for client in (a_client, *b_clients.values()):
            with pytest.raises(ConnectionClosed):
                while True:
                    await client.recv(10)
        accepted = [ack for client in (a_client, *b_clients.values()) for ack in client.acked]

        # Up again, on the same port.
        server2 = DaphneServer(env, port=server.port).start()
        worker2 = Worker(env).start()
        try:
            # Every move acknowledged before the kill is in the log, at its version.
            for table_id, clients in ((a, [a_client]), (b, b_clients.values())):
                log = {version: (seat, move) for version, seat, kind, move in db.actions(table_id) if kind == "move"}
                for client in clients:
                    for version, seat, move in client.acked:
                        assert log.get(version) == (seat, move), (table_id, version)
            assert len(accepted) == 6
            # B goes on at the version it had, its clock counted from the deadline kept in the database.
            again = {seat: zoe.client(b) if seat == 0 else max_.client(b) for seat in (0, 1)}
            for seat, client in again.items():
                state = await client.open(since=b_clients[seat].v)
                assert state["v"] == b_before["version"] and state["events"] == []
            assert db.seat_deadlines(b) == b_deadlines
            clock = again[0].latest["clock"]
            seat = running[0]
            assert clock["seats"][seat]["running"]
            left_ms = clock["seats"][seat]["ms"]
            server_time = datetime.fromisoformat(clock["server_time"])
            drift = (as_utc(server_time) - as_utc(b_deadlines[seat])).total_seconds() * 1000 + left_ms
            assert abs(drift) <= 2, drift  # time left = deadline - now: it ran while the server was down
            assert left_ms < b_last["clock"]["seats"][seat]["ms"]
            # A: the bot whose thinking was cut off plays its turn once the lease runs out.
            a_again = zoe.client(a)
            state = await a_again.open(since=a_version)
            assert state["v"] in (a_version, a_version + 1)
            frame = await a_again.until_version(a_version + 1)
            bot_event = [e for e in frame["events"] if e["v"] == a_version + 1]
            assert bot_event and bot_event[0]["kind"] == "move" and bot_event[0]["seat"] == 1
            if frame["status"] == "running":
                answer = await a_again.move(zoe_bot.choose(frame["view"], 0), frame["v"])
                assert answer["t"] == "ack", answer
                await a_again.until_version(answer["v"] + 1, timeout=60)  # and the bot answers again
            # B is played to its end.
            for seat, client in again.items():
                client.acked = list(b_clients[seat].acked)
            await asyncio.gather(*(autoplay(client, seed=10 + seat) for seat, client in again.items()))
            final_checks(db, b, list(again.values()))
            for client in (a_again, *again.values()):
                await client.close()
            assert_clean_logs(server2, worker2)
        finally:
            worker2.stop()
            server2.stop()
    finally:
        worker.kill()
        server.kill()
