"""Broadcasts on Redis pub/sub, sent in pipelines.

channels-redis's ``RedisPubSubChannelLayer.group_send`` makes one round trip
per message, one message at a time behind its connection's lock. A server
process broadcasting a move for each table it serves spends most of that time
waiting. ``Publisher`` sends every broadcast made while a pipeline is waiting
for Redis in the next pipeline: one round trip for all of them, in the order
they were made.

It speaks the stock layer's wire format, so that the layer's subscribers (every
socket, on every process) cannot tell the difference:

- a group's messages are published on the Redis channel ``<prefix>__group__<group>``,
  a specific channel's on its own name;
- with several Redis hosts, a name goes to host number ``crc32(name) & 0xFFF``
  scaled to the number of hosts (the stock layer's consistent hash);
- the bytes are the layer's own serialisation (``layer.serialize``, a public
  method: msgpack, with the layer's encryption if it has any).

Built on redis-py's public API only, with a connection of its own per event
loop (redis-py's asyncio connections belong to the loop that opened them).
tests/games/test_broadcast_pipeline.py runs it side by side with the stock
layer, both ways.
"""

from __future__ import annotations

import asyncio
import binascii
import logging
import weakref
from collections.abc import Callable
from typing import Any

from redis import asyncio as aioredis

log = logging.getLogger(__name__)

GROUP_INFIX = "__group__"


def shard_of(name: str, shards: int) -> int:
    """The host a channel name lives on, as channels-redis places it."""
    if shards == 1:
        return 0
    return int((binascii.crc32(name.encode("utf8")) & 0xFFF) / (4096 / float(shards)))


def _client(host: Any) -> aioredis.Redis:
    """A client for one entry of the layer's ``hosts`` setting (a URL, a
    ``(host, port)`` pair, or a dict of connection arguments with an
    optional ``address`` URL), as the layer reads it."""
    if isinstance(host, str):
        return aioredis.Redis(connection_pool=aioredis.ConnectionPool.from_url(host))
    if isinstance(host, (tuple, list)):
        return aioredis.Redis(connection_pool=aioredis.ConnectionPool(host=host[0], port=host[1]))
    options = dict(host)
    if "master_name" in options:
        raise ValueError("the pipelined publisher does not support Redis Sentinel hosts")
    address = options.pop("address", None)
    if address is not None:
        return aioredis.Redis(connection_pool=aioredis.ConnectionPool.from_url(address, **options))
    return aioredis.Redis(connection_pool=aioredis.ConnectionPool(**options))


class Publisher:
    """One event loop's broadcasts to a Redis pub/sub channel layer, sent in
    pipelines. ``group_send`` and ``send`` never wait: they queue the message
    and a task of the loop sends what is queued."""

    def __init__(self, hosts: list[Any], prefix: str, serialize: Callable[[dict[str, Any]], bytes]) -> None:
        if not hosts:
            hosts = ["redis://localhost:6379"]
        if isinstance(hosts, (str, bytes)):
            raise ValueError("hosts is a list of Redis hosts")
        self.hosts = list(hosts)
        self.prefix = prefix
        self.serialize = serialize
        self.clients: list[aioredis.Redis | None] = [None] * len(self.hosts)
        self.queue: list[tuple[str, dict[str, Any]]] = []
        self.task: asyncio.Future | None = None

    def group_channel(self, group: str) -> str:
        return f"{self.prefix}{GROUP_INFIX}{group}"

    def group_send(self, group: str, message: dict[str, Any]) -> None:
        self.send(self.group_channel(group), message)

    def send(self, channel: str, message: dict[str, Any]) -> None:
        self.queue.append((channel, message))
        if self.task is None:
            self.task = asyncio.ensure_future(self._run())

    async def _run(self) -> None:
        try:
            while self.queue:
                batch, self.queue = self.queue, []
                try:
                    await self._publish(batch)
                except Exception:
                    # Committed already; sockets that miss these catch up on their
                    # next update or resync, as with any lost broadcast.
                    log.exception("broadcast of %d messages failed", len(batch))
        finally:
            self.task = None

    async def _publish(self, batch: list[tuple[str, dict[str, Any]]]) -> None:
        by_shard: dict[int, list[tuple[str, bytes]]] = {}
        for channel, message in batch:
            by_shard.setdefault(shard_of(channel, len(self.hosts)), []).append((channel, self.serialize(message)))
        for index, items in by_shard.items():
            client = self.clients[index]
            if client is None:
                client = self.clients[index] = _client(self.hosts[index])
            pipe = client.pipeline(transaction=False)
            for channel, data in items:
                pipe.publish(channel, data)
            await pipe.execute()

    async def aclose(self) -> None:
        """Close the connections (they open again on the next broadcast)."""
        clients, self.clients = self.clients, [None] * len(self.hosts)
        for client in clients:
            if client is not None:
                await client.aclose(close_connection_pool=True)


# Per event loop, forgotten with it (a process's tests make many loops).
_publishers: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Publisher] = weakref.WeakKeyDictionary()


def publisher(config: dict[str, Any], serialize: Callable[[dict[str, Any]], bytes]) -> Publisher:
    """The running loop's publisher for a layer with this ``CONFIG``."""
    loop = asyncio.get_running_loop()
    found = _publishers.get(loop)
    hosts, prefix = config.get("hosts") or [], config.get("prefix", "asgi")
    if found is None or found.hosts != list(hosts) or found.prefix != prefix or found.serialize != serialize:
        found = _publishers[loop] = Publisher(hosts, prefix, serialize)
    return found
