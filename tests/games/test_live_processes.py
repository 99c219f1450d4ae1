"""Several server processes, as in production: two daphne processes and the
worker sharing PostgreSQL and Redis (required: the test fails in CI without
them). Players connected to different processes play together, and the
worker's bots reach both."""

from __future__ import annotations

import asyncio

from tests.games.live_helpers import (
    Client,
    Guest,
    ServerDB,
    Stack,
    Worker,
    assert_clean_logs,
    autoplay,
    check_frames_against_truth,
    final_checks,
    postgres_redis_stack,  # noqa: F401  (fixture)
    watch,
)
from tests.servers import DaphneServer


async def test_players_on_two_processes_play_one_game(postgres_redis_stack: Stack):  # noqa: F811
    env = postgres_redis_stack.env(LUDO_BOT_THINK_MS="50")
    db = ServerDB(postgres_redis_stack.database_url)
    with DaphneServer(env) as one, DaphneServer(env) as two, Worker(env) as worker:
        zoe, max_, lea = Guest(one, "Zoé"), Guest(two, "Max"), Guest(one, "Léa")
        table_id = zoe.create("drekki", seats=4, options={"live_countdown": 5})["table"]
        # Zoé and Léa on the first process, Max on the second; a bot on seat 3;
        # a spectator on each process.
        clients = [zoe.client(table_id, one), max_.client(table_id, two), lea.client(table_id, one)]
        spectators = [Client(one, table_id), Client(two, table_id)]
        for client in (*clients, *spectators):
            await client.open()
        for seat in (1, 2):
            assert (await clients[seat].request("sit", seat=seat))["t"] == "ack"
        assert (await clients[0].request("bots", level="easy"))["result"] == [3]
        assert (await clients[0].request("start"))["t"] == "ack"
        for client in (*clients, *spectators):
            while client.latest["status"] != "running":
                await client.recv()
        await asyncio.gather(*(autoplay(c, seed=30 + i) for i, c in enumerate(clients)),
                             *(watch(s) for s in spectators))
        final_checks(db, table_id, [*clients, *spectators])
        movers = {a[1] for a in db.actions(table_id) if a[2] == "move"}
        assert movers == {0, 1, 2, 3}
        # Both processes carried every version to their sockets, each its own seat's view.
        assert check_frames_against_truth(db, table_id, [*clients, *spectators]) > 100
        for spectator in spectators:
            seen = {f["v"] for f in spectator.frames if f.get("t") in ("state", "update")}
            assert max(seen) == db.table(table_id)["version"]
        for client in (*clients, *spectators):
            await client.close()
        assert_clean_logs(one, two, worker)
