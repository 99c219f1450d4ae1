"""Races through the real server: two clients send a move for the same
version at the same moment, 200 times; exactly one is accepted each time.

On the suite's stack: one daphne process on SQLite; on PostgreSQL with Redis,
two daphne processes, the two racing sockets on different processes (the
race is then decided by the row lock in the database)."""

from __future__ import annotations

import asyncio
import random

from tests.games.live_helpers import (
    Client,
    Guest,
    ServerDB,
    Stack,
    assert_clean_logs,
    live_stack,  # noqa: F401  (fixture)
)
from tests.servers import DaphneServer

ATTEMPTS = 200
NAMES = ["Zoé", "Max", "Léa", "Ugo"]


async def new_table(people: list[Guest], servers: list[DaphneServer]) -> tuple[int, dict[int, list[Client]]]:
    """A started four-player Drekki table; each person holds two sockets, one
    on each server (both on the one server when there is one)."""
    table_id = people[0].create("drekki", seats=4)["table"]
    sockets: dict[int, list[Client]] = {}
    for seat, person in enumerate(people):
        sockets[seat] = [person.client(table_id, servers[i % len(servers)]) for i in range(2)]
        for client in sockets[seat]:
            await client.open()
        if seat:
            assert (await sockets[seat][0].request("sit", seat=seat))["t"] == "ack"
    assert (await sockets[0][0].request("start"))["t"] == "ack"
    for clients in sockets.values():
        for client in clients:
            while client.latest["status"] != "running":
                await client.recv()
    return table_id, sockets


async def test_two_moves_for_one_version_exactly_one_is_accepted(live_stack: Stack):  # noqa: F811
    env = live_stack.env(LUDO_WS_RATE_LIMIT="100000", LUDO_WS_PERSON_RATE_LIMIT="100000")
    count = 2 if live_stack.redis and live_stack.on_postgres else 1
    servers = [DaphneServer(env).start() for _ in range(count)]
    db = ServerDB(live_stack.database_url)
    rng = random.Random(7)
    try:
        people = [Guest(servers[0], name) for name in NAMES]
        table_id, sockets = await new_table(people, servers)
        everyone = [c for clients in sockets.values() for c in clients]
        tables = [table_id]
        kinds = {"two seats": 0, "one seat, two sockets": 0}
        for _ in range(ATTEMPTS):
            if everyone[0].latest["status"] != "running":
                for client in everyone:
                    await client.close()
                table_id, sockets = await new_table(people, servers)
                everyone = [c for clients in sockets.values() for c in clients]
                tables.append(table_id)
            frame = everyone[0].latest
            version, to_act = frame["v"], frame["to_act"]
            if len(to_act) >= 2:  # simultaneous choices: two people, on different processes when there are two
                first, second = rng.sample(to_act, 2)
                racers = [sockets[first][0], sockets[second][1]]
                kinds["two seats"] += 1
            else:  # one person's two sockets (two tabs), one on each process
                racers = sockets[to_act[0]]
                kinds["one seat, two sockets"] += 1
            moves = [rng.choice(r.latest["legal"]) for r in racers]
            ids = [f"race-{version}-{i}" for i in range(2)]
            await asyncio.gather(*(r.send(t="move", move=m, v=version, id=i)
                                   for r, m, i in zip(racers, moves, ids, strict=True)))
            answers = await asyncio.gather(*(r.answer(i) for r, i in zip(racers, ids, strict=True)))
            accepted = [a for a in answers if a["t"] == "ack"]
            refused = [a for a in answers if a["t"] == "error"]
            assert len(accepted) == 1 and len(refused) == 1, answers
            assert accepted[0]["v"] == version + 1
            if refused[0]["code"] == "game_over":  # the accepted move ended the game
                assert db.table(table_id)["status"] == "finished", refused
            else:
                assert refused[0]["code"] == "stale_version" and refused[0]["v"] == version + 1, refused
            for client in everyone:
                await client.until_version(version + 1)
        assert kinds["two seats"] > 20 and kinds["one seat, two sockets"] > 20, kinds
        # One move row per accepted move, consecutive versions, and every log replays to its state.
        for table in tables:
            versions = [v for v, *_ in db.actions(table)]
            assert versions == list(range(1, len(versions) + 1))
            db.states(table)
        moves = sum(1 for table in tables for a in db.actions(table) if a[2] == "move")
        assert moves == ATTEMPTS
        for client in everyone:
            await client.close()
        assert_clean_logs(*servers)
    finally:
        for server in servers:
            server.stop()
