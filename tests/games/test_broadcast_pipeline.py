"""Broadcasts on the Redis pub/sub layer go out in pipelines
(games.services.publisher): the same messages, on the stock layer's own
channels, in order, fewer round trips. Our publisher and channels-redis's
layer are run side by side, both ways: what one publishes, the other's
subscribers receive, byte for byte the same."""

from __future__ import annotations

import ast
import asyncio
import pathlib
import uuid

import pytest
from channels_redis.pubsub import RedisPubSubChannelLayer
from redis import asyncio as aioredis
from redis.asyncio.client import Pipeline

from games.services import broadcasts
from games.services.publisher import Publisher, shard_of
from tests.games.live_helpers import redis_url, require_redis

GAMES = pathlib.Path(__file__).resolve().parents[2] / "games"


def stock_layer(prefix: str) -> RedisPubSubChannelLayer:
    return RedisPubSubChannelLayer(hosts=[redis_url()], prefix=prefix)


@pytest.mark.redis
async def test_broadcasts_made_together_reach_their_groups_in_order_in_one_round_trip(monkeypatch):
    require_redis()
    prefix = f"test-pipe-{uuid.uuid4().hex[:8]}"
    layer = stock_layer(prefix)
    ours = Publisher([redis_url()], prefix, layer.serialize)
    rounds = []
    execute = Pipeline.execute

    async def counted(self, *args, **kwargs):
        rounds.append(len(self.command_stack))
        return await execute(self, *args, **kwargs)

    monkeypatch.setattr(Pipeline, "execute", counted)
    try:
        one, two = await layer.new_channel(), await layer.new_channel()
        await layer.group_add("table.1", one)
        await layer.group_add("table.2", two)
        for i in range(50):
            ours.group_send("table.2" if i % 5 == 0 else "table.1", {"type": "table.update", "v": i})
        got_one = [(await asyncio.wait_for(layer.receive(one), 5))["v"] for _ in range(40)]
        got_two = [(await asyncio.wait_for(layer.receive(two), 5))["v"] for _ in range(10)]
        assert got_one == [i for i in range(50) if i % 5]
        assert got_two == list(range(0, 50, 5))
        assert rounds == [50]  # made in one turn of the loop: one pipeline

        # Made while a pipeline waits for Redis, the next ones share the next one.
        ours.group_send("table.1", {"type": "table.update", "v": 100})
        await asyncio.sleep(0)  # the first pipeline is on its way
        for v in (101, 102, 103):
            ours.group_send("table.1", {"type": "table.update", "v": v})
        assert [(await asyncio.wait_for(layer.receive(one), 5))["v"] for _ in range(4)] == [100, 101, 102, 103]
        assert rounds[1:] == [1, 3]

        # A specific channel too (what a socket's own poll sends).
        ours.send(two, {"type": "table.update", "v": 7})
        assert (await asyncio.wait_for(layer.receive(two), 5))["v"] == 7
    finally:
        await ours.aclose()
        await layer.flush()


@pytest.mark.redis
async def test_our_publisher_and_the_stock_layer_put_the_same_bytes_on_the_same_channels():
    require_redis()
    prefix = f"test-wire-{uuid.uuid4().hex[:8]}"
    layer = stock_layer(prefix)
    ours = Publisher([redis_url()], prefix, layer.serialize)
    raw = aioredis.Redis.from_url(redis_url())
    listener = raw.pubsub()
    message = {"type": "table.update", "table": 3, "v": 12, "event": "move", "text": "Zoé ♞"}
    try:
        await listener.subscribe(f"{prefix}__group__table.3")
        await asyncio.wait_for(listener.get_message(timeout=5), 5)  # the subscription's confirmation

        async def next_published():
            while True:
                got = await listener.get_message(ignore_subscribe_messages=True, timeout=5)
                if got is not None:
                    return got["channel"], got["data"]

        await layer.group_send("table.3", message)
        stock = await asyncio.wait_for(next_published(), 10)
        ours.group_send("table.3", message)
        mine = await asyncio.wait_for(next_published(), 10)
        assert mine == stock
        assert layer.deserialize(mine[1]) == message
    finally:
        await listener.aclose()
        await raw.aclose()
        await ours.aclose()
        await layer.flush()


@pytest.mark.redis
async def test_the_stock_layer_and_our_publisher_reach_each_others_subscribers():
    # Two processes of one site: one publishes with the stock layer's
    # group_send (the worker does), the other with ours (a server's sockets);
    # the subscribers of each hear both.
    require_redis()
    prefix = f"test-both-{uuid.uuid4().hex[:8]}"
    here, there = stock_layer(prefix), stock_layer(prefix)
    ours = Publisher([redis_url()], prefix, here.serialize)
    try:
        mine, theirs = await here.new_channel(), await there.new_channel()
        await here.group_add("lobby", mine)
        await there.group_add("lobby", theirs)
        await there.group_send("lobby", {"type": "lobby.update", "n": 1})
        ours.group_send("lobby", {"type": "lobby.update", "n": 2})
        for layer, channel in ((here, mine), (there, theirs)):
            got = {(await asyncio.wait_for(layer.receive(channel), 5))["n"] for _ in range(2)}
            assert got == {1, 2}
    finally:
        await ours.aclose()
        await here.flush()
        await there.flush()


@pytest.mark.redis
async def test_the_sites_broadcasts_on_the_pubsub_layer_go_through_the_pipelined_publisher(monkeypatch, settings):
    """The site's own layer (whatever this pass runs on, the site is set on Redis pub/sub here)."""
    from channels.layers import get_channel_layer

    require_redis()
    settings.CHANNEL_LAYERS = {"default": {
        "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
        "CONFIG": {"hosts": [redis_url()], "prefix": f"test-site-{uuid.uuid4().hex[:8]}"},
    }}
    layer = get_channel_layer()
    assert isinstance(layer, RedisPubSubChannelLayer)
    rounds = []
    execute = Pipeline.execute

    async def counted(self, *args, **kwargs):
        rounds.append(len(self.command_stack))
        return await execute(self, *args, **kwargs)

    monkeypatch.setattr(Pipeline, "execute", counted)
    group = f"test-site-{uuid.uuid4().hex[:8]}"
    channel = await layer.new_channel()
    await layer.group_add(group, channel)
    try:
        for v in range(5):
            broadcasts._send_on(layer, group, {"type": "table.update", "v": v})
        assert [(await asyncio.wait_for(layer.receive(channel), 5))["v"] for _ in range(5)] == list(range(5))
        assert rounds == [5]
    finally:
        await layer.group_discard(group, channel)
        await layer.flush()


def test_a_name_lives_on_the_same_shard_as_the_stock_layer_puts_it():
    from channels_redis.pubsub import RedisPubSubLoopLayer

    names = [f"ludo__group__table.{i}" for i in range(200)] + [f"ludospecific.{i:032x}" for i in range(50)]
    for hosts in (1, 2, 3, 5):
        stock = RedisPubSubLoopLayer(hosts=[f"redis://127.0.0.1:{6379 + i}" for i in range(hosts)], prefix="ludo")
        shards = stock._shards  # the test may look inside the dependency; games/ may not
        assert [shard_of(name, hosts) for name in names] == [shards.index(stock._get_shard(n)) for n in names]


def _private_names_used(tree: ast.AST) -> set[str]:
    """Names starting with one underscore, read as an attribute of something,
    or imported from a module outside games (a relative import is of games' own: the
    move generators in C, _quatre_moves and _drumlin_moves, are)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
            found.add(node.attr)
        elif isinstance(node, ast.ImportFrom) and not node.level and not (node.module or "").startswith("games"):
            found.update(a.name for a in node.names if a.name.startswith("_") and not a.name.startswith("__"))
    return found


def _own_private_names(tree: ast.AST) -> set[str]:
    """Private names this code defines itself: attributes it assigns, functions,
    classes and module variables."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found.add(node.name)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            found.add(node.attr)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            found.add(node.id)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            found.add(node.target.id)
    return found


def test_games_uses_no_private_name_of_a_dependency():
    # Django documents Model._meta (the Options API) and Model._state (its
    # ModelState: adding, db), Python a named tuple's _replace, _asdict, _fields
    # and _make; anything else private belongs to someone else.
    documented = {"_meta", "_state", "_replace", "_asdict", "_fields", "_make"}
    trees = {path: ast.parse(path.read_text(), str(path)) for path in GAMES.rglob("*.py")}
    ours = set().union(*(_own_private_names(tree) for tree in trees.values()))
    borrowed = {
        name: sorted(str(p.relative_to(GAMES)) for p, tree in trees.items() if name in _private_names_used(tree))
        for name in set().union(*(_private_names_used(tree) for tree in trees.values())) - ours - documented
    }
    assert borrowed == {}
