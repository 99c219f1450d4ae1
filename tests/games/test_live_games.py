"""Whole games against a real daphne process and the real worker, played by
plain WebSocket clients that decide from the views they receive.

One server and one worker for the module, on the suite's stack (a SQLite file
and the in-memory layer, where the worker's moves reach the sockets through
their version poll; or PostgreSQL and Redis)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from games import engines
from games.engines.drekki.state import NO_CARD
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
    live_stack,  # noqa: F401  (fixture)
    watch,
)
from tests.servers import DaphneServer

NAMES = ["Zoé", "Max", "Léa", "Ugo"]


@dataclass
class Site:
    server: DaphneServer
    worker: Worker
    db: ServerDB


@pytest.fixture(scope="module")
def site(live_stack: Stack) -> Iterator[Site]:  # noqa: F811
    env = live_stack.env(LUDO_BOT_THINK_MS="50")
    with DaphneServer(env) as server, Worker(env) as worker:
        yield Site(server, worker, ServerDB(live_stack.database_url))


async def seated_table(site: Site, game: str, count: int, **fields) -> tuple[int, list[Client], list[Guest]]:
    """A table created over HTTP by the first guest; the others sit through
    their sockets; everyone holds an opened socket."""
    people = [Guest(site.server, name) for name in NAMES[:count]]
    table = people[0].create(game, seats=count, **fields)
    clients = [await person.client(table["table"]).connect() for person in people]
    for client in clients:
        await client.open()
    for seat, client in enumerate(clients[1:], start=1):
        answer = await client.request("sit", seat=seat)
        assert answer["t"] == "ack" and answer["seat"] == seat, answer
    return table["table"], clients, people


async def start(table_id: int, host: Client, clients: list[Client]) -> None:
    answer = await host.request("start")
    assert answer["t"] == "ack", answer
    for client in clients:
        while client.latest["status"] != "running":
            await client.recv()


@pytest.mark.parametrize("slug", engines.slugs())
async def test_a_whole_game_between_two_clients(site, slug):
    count = engines.get(slug).min_players
    table_id, clients, _ = await seated_table(site, slug, count)
    await start(table_id, clients[0], clients)
    await asyncio.gather(*(autoplay(client, seed=table_id * 10 + i) for i, client in enumerate(clients)))
    final_checks(site.db, table_id, clients)
    assert sum(len(c.acked) for c in clients) == sum(1 for a in site.db.actions(table_id) if a[2] == "move")
    assert check_frames_against_truth(site.db, table_id, clients) > 0
    for client in clients:
        await client.close()
    assert_clean_logs(site.server, site.worker)


async def test_a_person_against_a_bot_played_by_the_worker(site):
    zoe = Guest(site.server, "Zoé")
    table = zoe.quick("quatre-en-ligne", level="easy")
    assert table["seat"] == 0 and table["seats"][1]["bot"] == "easy" and table["status"] == "running"
    client = zoe.client(table["table"])
    await client.open()
    await autoplay(client, seed=5)
    final_checks(site.db, table["table"], [client])
    bot_moves = [a for a in site.db.actions(table["table"]) if a[2] == "move" and a[1] == 1]
    assert bot_moves, "the bot never played"
    assert check_frames_against_truth(site.db, table["table"], [client]) > 0
    await client.close()
    assert_clean_logs(site.server, site.worker)


async def test_four_player_drekki_with_two_bots_and_a_spectator(site):
    zoe, max_ = Guest(site.server, "Zoé"), Guest(site.server, "Max")
    table_id = zoe.create("drekki", seats=4, options={"live_countdown": 5})["table"]
    clients = [await zoe.client(table_id).connect(), await max_.client(table_id).connect()]
    for client in clients:
        await client.open()
    assert (await clients[1].request("sit", seat=1))["t"] == "ack"
    answer = await clients[0].request("bots", level="easy", seats=[2, 3])
    assert answer["t"] == "ack" and answer["result"] == [2, 3], answer
    spectator = await Client(site.server, table_id).connect()
    await spectator.open()
    await start(table_id, clients[0], [*clients, spectator])
    await asyncio.gather(autoplay(clients[0], seed=1), autoplay(clients[1], seed=2), watch(spectator))
    table = final_checks(site.db, table_id, [*clients, spectator])
    movers = {a[1] for a in site.db.actions(table_id) if a[2] == "move"}
    assert movers == {0, 1, 2, 3}
    assert table["outcome"]["winners"] is not None
    assert check_frames_against_truth(site.db, table_id, [*clients, spectator]) > 50
    for client in (*clients, spectator):
        await client.close()
    assert_clean_logs(site.server, site.worker)


async def test_at_a_drekki_table_no_frame_shows_another_seats_hidden_card(site):
    """Four plain clients and a spectator: nobody receives another seat's hand
    or laid card before the reveal. Checked on the raw frames, against the true
    state at each version (the seed and the log, from the database)."""
    table_id, clients, _ = await seated_table(site, "drekki", 4)
    spectator = await Client(site.server, table_id).connect()
    await spectator.open()
    await start(table_id, clients[0], [*clients, spectator])
    await asyncio.gather(*(autoplay(c, seed=20 + i) for i, c in enumerate(clients)), watch(spectator))
    final_checks(site.db, table_id, [*clients, spectator])
    states = site.db.states(table_id)
    hidden_seen = 0
    for viewer, client in [*enumerate(clients), (None, spectator)]:
        for text in client.raw:
            frame = json.loads(text)
            if frame.get("t") not in ("state", "update") or frame["view"] is None:
                assert '"hand"' not in text and '"card"' not in text
                continue
            state = states[frame["v"]]
            view = frame["view"]
            own = [m["mage"] for m in view["mages"] if m["owner"] == viewer]
            # Only the viewer's own mages carry a hand and a laid card...
            assert text.count('"hand":') == len(own) and text.count('"card":') == len(own), (viewer, frame["v"])
            for mage in view["mages"]:
                if mage["owner"] != viewer:
                    assert "hand" not in mage and "card" not in mage
            # ... and laid cards of others are known only once revealed.
            others_laid = [m for m in range(len(state.chosen))
                           if state.owner(m) != viewer and state.chosen[m] != NO_CARD]
            if view["phase"] != "colour":
                assert view["revealed"] is None
            hidden_seen += bool(others_laid) and view["phase"] in ("cards", "bidding")
            for event in frame["events"] or []:
                assert "move" not in event or event["seat"] == viewer, event
    assert hidden_seen > 20  # there were hidden cards on the table to leak
    assert check_frames_against_truth(site.db, table_id, [*clients, spectator]) > 100
    for client in (*clients, spectator):
        await client.close()
    assert_clean_logs(site.server, site.worker)
