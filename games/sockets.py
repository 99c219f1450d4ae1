"""The performance plumbing of the WebSocket consumers (games.consumers):
database threads, the frame sender, the presence refreshes written together,
the version poll of the embedded configuration.

Every ORM access of a socket happens inside ``database_sync_to_async`` (through
:func:`db`); that is why the consumers may skip Channels' ``aclose_old_connections``
thread hop before each handler (``FastSocket.dispatch``; PERF-NOTES.md: a large
share of the per-message cost).

Database threads: by default Channels runs every ``database_sync_to_async``
call of a process on one single thread, so the sockets of a server process wait
for each other's queries, one round trip at a time. On PostgreSQL, :func:`db`
runs them on a pool of threads instead (each with a pooled connection): the
table row lock serialises what must be, the rest overlaps. SQLite keeps the
one thread (one writer anyway). A move, most of what a table socket does, skips
the threads altogether on PostgreSQL (``services.play_move_async``: psycopg's
async connections on the event loop, no ORM), and the presence refreshes of a
process's sockets are written together (:class:`Touches`).
"""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import ujson
from autobahn.exception import Disconnected
from channels.consumer import AsyncConsumer, get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from channels.layers import InMemoryChannelLayer, get_channel_layer
from channels.sessions import InstanceSessionWrapper
from django.conf import settings
from django.db import connection
from django.utils import timezone

from games import services

log = logging.getLogger(__name__)

TOUCH_EVERY = 20.0  # seconds between presence refreshes of one socket (its pings)
TOUCH_FLUSH = 2.0  # a process writes the refreshes it gathered this often

_db_executor: ThreadPoolExecutor | None = None
_wrapped: dict[Any, Any] = {}


def encode_frame(content: Any) -> str:
    """A frame's JSON: compact, UTF-8 as is (updates are the bulk of what a
    server sends). A 3 KB update took 140 us with json, 40 with ujson (the same
    text but for spacing and float digits)."""
    return ujson.dumps(content, ensure_ascii=False, escape_forward_slashes=False)


def db_threads() -> int:
    """How many threads run this process's database calls (PostgreSQL): as
    many as the connection pool holds (DATABASE_POOL_SIZE), at most 32."""
    pool = settings.DATABASES["default"].get("OPTIONS", {}).get("pool")
    size = pool.get("max_size", 10) if isinstance(pool, dict) else 10
    return max(1, min(32, int(size)))


def db(func: Any) -> Any:
    """``database_sync_to_async(func)``, on the database thread pool where the
    database allows parallel calls (see the module's docstring). Wrappers of
    module functions are made once (making one costs about as much as a hop)."""
    global _db_executor
    found = _wrapped.get(func)
    if found is not None:
        return found
    if _db_executor is None:
        if connection.vendor == "sqlite":
            return database_sync_to_async(func)
        _db_executor = ThreadPoolExecutor(max_workers=db_threads(), thread_name_prefix="ludo-db")
    wrapper = database_sync_to_async(func, thread_sensitive=False, executor=_db_executor)
    if not hasattr(func, "__self__"):  # not a bound method: the same function every time
        _wrapped[func] = wrapper
    return wrapper


def poll_seconds() -> float | None:
    """How often an open socket re-reads its table's version, or None (never).

    The in-memory channel layer cannot carry a broadcast from another process:
    with it, the worker's moves (bots, clocks) reach the sockets of the web
    process only through this poll (`make run` runs both processes on the
    embedded configuration). With Redis, broadcasts cross processes and the
    poll is off; lost messages are still caught by the version check on pings.
    Setting: LUDO_TABLE_POLL_SECONDS (0 turns it off).
    """
    configured = getattr(settings, "LUDO_TABLE_POLL_SECONDS", None)
    if configured is not None:
        return float(configured) or None
    return 0.5 if isinstance(get_channel_layer(), InMemoryChannelLayer) else None


class Touches:
    """The presence refreshes of one event loop's sockets, written together.

    A socket that pings asks for a refresh every TOUCH_EVERY seconds; one task
    writes all that were asked in the last TOUCH_FLUSH seconds in one database
    call (1000 sockets: one call every 2 s instead of 50 a second), and tells
    each socket whose table has a version it has not sent (a lost broadcast)
    through its own channel, so frames stay in order.
    """

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.pending: dict[str, Any] = {}
        self.task: asyncio.Task | None = None

    def add(self, consumer: Any) -> None:
        self.pending[consumer.channel_name] = consumer
        if self.task is None or self.task.done():
            self.task = self.loop.create_task(self.flush_later())

    async def flush_later(self) -> None:
        await asyncio.sleep(TOUCH_FLUSH)
        batch, self.pending = self.pending, {}
        try:
            versions = await db(services.touch_many)({name: c.table_id for name, c in batch.items()},
                                                      timezone.now())
        except Exception:
            log.exception("refreshing the presence of %d sockets failed", len(batch))
            return
        for name, consumer in batch.items():
            version = versions.get(consumer.table_id)
            if consumer.opened and version is not None and version > consumer.sent_v:
                await consumer.channel_layer.send(
                    name, {"type": "table.update", "table": consumer.table_id, "v": version})


_touches: dict[int, Touches] = {}


def touches() -> Touches:
    loop = asyncio.get_running_loop()
    found = _touches.get(id(loop))
    if found is None or found.loop is not loop:
        found = _touches[id(loop)] = Touches(loop)
    return found


class DropFramesForClosedSockets(AsyncConsumer):
    """Comes after AsyncWebsocketConsumer in the consumers' MRO, so every message it
    hands to the server passes here: a frame for a socket whose peer has closed (or is
    closing) it while the frame was on its way, such as a group broadcast already in
    the socket's channel, has nowhere to go. Daphne's WebSocket protocol (autobahn)
    raises Disconnected for it; it is dropped, and the disconnect that follows cleans up."""

    async def send(self, message: dict[str, Any]) -> None:
        await self._hand_over(super().send, message)

    @staticmethod
    async def _hand_over(send: Any, message: dict[str, Any]) -> None:
        try:
            await send(message)
        except Disconnected:
            log.debug("%s dropped: the socket is closed", message.get("type"))


def _frame_sender(send: Any) -> Any:
    """What ``send`` hands a WebSocket frame to, past the session middleware's
    wrapper (which does nothing for WebSocket frames, at the cost of two
    lookups in the lazy session per frame)."""
    wrapper = getattr(send, "__self__", None)
    if isinstance(wrapper, InstanceSessionWrapper):
        return wrapper.real_send
    return send


class FastSocket(AsyncJsonWebsocketConsumer, DropFramesForClosedSockets):
    """A JSON socket with the short paths: frames encoded with ujson and
    handed straight to the server, handlers dispatched without Channels'
    thread hop, and no ORM outside database threads (:func:`db`)."""

    @classmethod
    async def encode_json(cls, content: Any) -> str:
        return encode_frame(content)

    async def send_json(self, content: Any, close: bool = False) -> None:
        """A frame straight to the server, past Channels' layers of ``send``
        (the JSON consumer's, the WebSocket consumer's, the session
        middleware's wrapper): five coroutines a frame, about a fifth of what
        sending an update cost. The session wrapper saves a changed session on
        HTTP responses only; these sockets never change the session."""
        frame = {"type": "websocket.send", "text": encode_frame(content)}
        await self._hand_over(_frame_sender(self.base_send), frame)
        if close:
            await self.close(close)

    async def dispatch(self, message: dict[str, Any]) -> None:
        # Same as Channels' dispatch without the aclose_old_connections() hop:
        # these consumers touch the ORM only through database_sync_to_async (db),
        # which closes stale connections in its own thread.
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)


async def poll_table(consumer: Any, interval: float) -> None:
    """The embedded configuration's version poll of one table socket (see
    :func:`poll_seconds`). The new version goes through the socket's own
    channel, so frames stay in order with the other updates (versions only grow)."""
    read = db(services.current_version)
    while True:
        await asyncio.sleep(interval)
        try:
            version = await read(consumer.table_id)
        except Exception:
            log.exception("polling table %s failed", consumer.table_id)
            continue
        if version is not None and version > consumer.sent_v:
            await consumer.channel_layer.send(
                consumer.channel_name, {"type": "table.update", "table": consumer.table_id, "v": version})


async def poll_lobby(consumer: Any, interval: float) -> None:
    """The lobby socket's poll: a ``lobby.refresh`` through its own channel when tables changed."""
    read = db(services.lobby_stamp)
    while True:
        await asyncio.sleep(interval)
        try:
            stamp = await read()
        except Exception:
            log.exception("polling the lobby failed")
            continue
        if stamp != consumer.stamp:
            consumer.stamp = stamp
            await consumer.channel_layer.send(consumer.channel_name, {"type": "lobby.refresh"})
