"""Broadcasts on the Redis pub/sub layer go out in pipelines (games.services._Publisher):
the same messages, on the layer's own channels, in order, fewer round trips."""

from __future__ import annotations

import asyncio
import uuid

import pytest
from channels_redis.pubsub import RedisPubSubChannelLayer
from redis.asyncio.client import Pipeline

from games.services import broadcasts
from tests.games.live_helpers import redis_url, require_redis

pytestmark = pytest.mark.redis


async def test_broadcasts_made_together_reach_their_groups_in_order_in_one_round_trip(monkeypatch):
    require_redis()
    layer = RedisPubSubChannelLayer(hosts=[redis_url()], prefix=f"test-pipe-{uuid.uuid4().hex[:8]}")
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
            broadcasts._send_on(layer, "table.2" if i % 5 == 0 else "table.1", {"type": "table.update", "v": i})
        got_one = [(await asyncio.wait_for(layer.receive(one), 5))["v"] for _ in range(40)]
        got_two = [(await asyncio.wait_for(layer.receive(two), 5))["v"] for _ in range(10)]
        assert got_one == [i for i in range(50) if i % 5]
        assert got_two == list(range(0, 50, 5))
        assert rounds == [50]  # made in one turn of the loop: one pipeline

        # Made while a pipeline waits for Redis, the next ones share the next one.
        broadcasts._send_on(layer, "table.1", {"type": "table.update", "v": 100})
        await asyncio.sleep(0)  # the first pipeline is on its way
        for v in (101, 102, 103):
            broadcasts._send_on(layer, "table.1", {"type": "table.update", "v": v})
        assert [(await asyncio.wait_for(layer.receive(one), 5))["v"] for _ in range(4)] == [100, 101, 102, 103]
        assert rounds[1:] == [1, 3]
    finally:
        await layer.flush()
