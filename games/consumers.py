"""WebSocket consumers. Thin: check the frame, rate-limit, call a service in a
database thread, answer. docs/protocol.md describes every message.

Secrecy: a group message only ever says "table N is at version v". Each socket
then asks ``services.snapshot`` for the view of the seat *its own person*
holds, so nothing of another seat's view can reach it.

Every ORM access happens inside ``database_sync_to_async`` (through
:func:`db`); that is why these consumers may skip Channels' ``aclose_old_connections``
thread hop before each handler (PERF-NOTES.md: a large share of the per-message
cost).

Database threads: by default Channels runs every ``database_sync_to_async``
call of a process on one single thread, so the sockets of a server process wait
for each other's queries, one round trip at a time. On PostgreSQL, :func:`db`
runs them on a pool of threads instead (each with a pooled connection): the
table row lock serialises what must be, the rest overlaps. SQLite keeps the
one thread (one writer anyway). A move, most of what a table socket does, skips
the threads altogether on PostgreSQL (``services.play_move_async``: psycopg's
async connections on the event loop, no ORM), and the presence refreshes of a
process's sockets are written together (:class:`_Touches`).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
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

from games import ratelimit, services
from games.protocol import (
    MAX_FRAME_BYTES,
    Message,
    ProtocolError,
    TableError,
    error_frame,
    frame_for,
    language_from_scope,
    parse,
)

log = logging.getLogger(__name__)

_db_executor: ThreadPoolExecutor | None = None

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


_wrapped: dict[Any, Any] = {}


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

TOUCH_EVERY = 20.0  # seconds between presence refreshes of one socket (its pings)
TOUCH_FLUSH = 2.0  # a process writes the refreshes it gathered this often
RATE_ERROR_EVERY = 1.0  # at most one rate_limited error a second per socket


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


class _Touches:
    """The presence refreshes of one event loop's sockets, written together.

    A socket that pings asks for a refresh every TOUCH_EVERY seconds; one task
    writes all that were asked in the last TOUCH_FLUSH seconds in one database
    call (1000 sockets: one call every 2 s instead of 50 a second), and tells
    each socket whose table has a version it has not sent (a lost broadcast)
    through its own channel, so frames stay in order.
    """

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.pending: dict[str, TableConsumer] = {}
        self.task: asyncio.Task | None = None

    def add(self, consumer: TableConsumer) -> None:
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


_touches: dict[int, _Touches] = {}


def touches() -> _Touches:
    loop = asyncio.get_running_loop()
    found = _touches.get(id(loop))
    if found is None or found.loop is not loop:
        found = _touches[id(loop)] = _Touches(loop)
    return found


class PingConsumer(AsyncJsonWebsocketConsumer):
    """Latency probe and keep-alive: answers {"t": "ping"} with a pong.

    Clients use it to show connection quality and to notice a dead socket
    (no pong within a few seconds) and reconnect.
    """

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any) -> None:
        if bytes_data is not None or text_data is None:
            await self.send_json({"t": "error", "code": "binary_not_supported"})
            return
        if len(text_data.encode()) > MAX_FRAME_BYTES:
            await self.send_json({"t": "error", "code": "frame_too_large"})
            return
        await super().receive(text_data=text_data, **kwargs)

    @classmethod
    async def decode_json(cls, text_data: str) -> Any:
        try:
            return json.loads(text_data)
        except ValueError:
            return None

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if not isinstance(content, dict) or content.get("t") != "ping":
            await self.send_json({"t": "error", "code": "bad_message"})
            return
        await self.send_json({"t": "pong", "server_time": time.time(), "echo": content.get("id")})


class _DropFramesForClosedSockets(AsyncConsumer):
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


class _Guarded(AsyncJsonWebsocketConsumer, _DropFramesForClosedSockets):
    """Shared by the table and lobby sockets: frame checks, rate limits,
    translated errors, and no ORM outside database threads."""

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

    async def websocket_connect(self, message: dict[str, Any]) -> None:
        self.language = language_from_scope(self.scope)
        limit, period = ratelimit.socket_limit()
        self.limit = ratelimit.SlidingWindow(limit, period)
        self.last_rate_error = 0.0
        self.person_key = ""
        await super().websocket_connect(message)

    async def error(self, code: str, msg_id: Any = None, detail: str = "", **data: Any) -> None:
        await self.send_json(error_frame(code, detail, msg_id, self.language, **data))

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any) -> None:
        if not self._allowed():
            now = time.monotonic()
            if now - self.last_rate_error >= RATE_ERROR_EVERY:
                self.last_rate_error = now
                await self.error("rate_limited")
            return
        if text_data is None:
            await self.error("binary_not_supported")
            return
        try:
            message = parse(text_data)
        except ProtocolError as exc:
            await self.send_json(exc.frame(self.language))
            return
        try:
            await self.handle(message)
        except TableError as exc:
            await self.send_json(frame_for(exc, message.id, self.language))
        except Exception:
            # A bug must not close the socket nor disturb the other players.
            log.exception("table socket failed on a %s message", message.type)
            await self.error("server_error", message.id)

    def _allowed(self) -> bool:
        if not self.limit.hit():
            return False
        return not self.person_key or ratelimit.people().hit(self.person_key)

    async def handle(self, message: Message) -> None:
        raise NotImplementedError

    async def pong(self, message: Message) -> None:
        await self.send_json({"t": "pong", "id": message.id, "server_time": time.time()})


def _person_key(who: services.Who, channel_name: str) -> str:
    if who.user_id is not None:
        return f"u{who.user_id}"
    if who.guest_key:
        return f"g{who.guest_key}"
    return f"c{channel_name}"


class TableConsumer(_Guarded):
    """One live table: ``ws/tables/<id>/``. Open it with ``hello``; then every
    version of the table arrives as an ``update`` with this seat's view."""

    async def connect(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.opened = False
        self.seat: int | None = None
        self.sent_v = -1
        self.invite: str | None = None
        self.chat_channel: str | None = None
        self.last_touch = 0.0
        self.poller: asyncio.Task | None = None
        self.acks_in_update = False
        self.who = await db(services.Who.from_scope)(self.scope)
        self.person_key = _person_key(self.who, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        poller = getattr(self, "poller", None)
        if poller is not None:
            poller.cancel()
        if not getattr(self, "opened", False):
            return
        await self.channel_layer.group_discard(f"table.{self.table_id}", self.channel_name)
        if self.chat_channel:
            await self.channel_layer.group_discard(self.chat_channel, self.channel_name)
        await db(services.disconnect)(self.channel_name)

    # -- from the client -------------------------------------------------------------------

    async def handle(self, message: Message) -> None:
        kind, f, msg_id = message.type, message.fields, message.id
        if kind == "ping":
            await self.pong(message)
            self._touch()
            return
        if kind == "hello":
            self.acks_in_update = f.get("acks") == "update"
            await self.open(f.get("since"), f.get("invite"))
            return
        if not self.opened:
            await self.error("hello_first", msg_id)
            return
        call = db
        t, who = self.table_id, self.who
        if kind == "sync":
            await self.send_state("state", f.get("since"))
            return
        if kind == "move":
            if services.async_moves():
                version = await services.play_move_async(t, who, f["move"], f["v"], f.get("seat"))
            else:
                version = await call(services.play_move)(t, who, f["move"], f["v"], f.get("seat"))
            if self.acks_in_update and version > self.sent_v:
                # The update of the version the move made answers it: one frame
                # instead of two, sent at once rather than after the broadcast's
                # round trip through the channel layer.
                try:
                    await self.send_state("update", self.sent_v, version=version, ack={"id": msg_id, "v": version})
                    return
                except Exception:
                    # The move is committed: whatever failed in reading it back,
                    # the player is told it was accepted (the update follows
                    # with the broadcast).
                    log.exception("the update answering a move on table %s failed", t)
            await self.ack(msg_id, v=version)
            return
        if kind == "chat":
            said = await call(services.post_chat)(t, who, f["text"], self.invite)
            await self.ack(msg_id, message=said["id"])
            return
        if kind == "sit":
            # The guest may have chosen a name in another tab since the socket opened.
            self.who = await call(services.Who.from_scope)(self.scope)
            invite = f.get("invite") or self.invite
            seat = await call(services.join_table)(t, self.who, f.get("seat"), invite)
            await self.ack(msg_id, seat=seat)
            return
        result: Any = None
        if kind == "leave":
            await call(services.leave_table)(t, who)
        elif kind == "bots":
            result = await call(services.add_bots)(t, who, f["level"], f.get("seats"))
        elif kind == "unbot":
            await call(services.remove_bot)(t, who, f["seat"])
        elif kind == "start":
            await call(services.start_table)(t, who)
        elif kind == "draw":
            await call(services.draw)(t, who, f["action"])
        elif kind == "resign":
            await call(services.resign)(t, who)
        elif kind == "abort":
            await call(services.abort)(t, who)
        elif kind == "rematch":
            result = await call(services.rematch)(t, who)
        elif kind == "kick":
            await call(services.kick_absent)(t, who, f["seat"])
        elif kind == "end":
            await call(services.staff_end)(t, who)
        elif kind == "remove":
            await call(services.staff_remove)(t, who, f["seat"])
        elif kind == "hide_chat":
            await call(services.staff_hide_chat)(f["message"], who)
        else:  # a schema without a handler: a bug, reported as such
            raise RuntimeError(f"no handler for {kind}")
        await self.ack(msg_id, result=result)

    async def ack(self, msg_id: Any, **data: Any) -> None:
        await self.send_json({"t": "ack", "id": msg_id, **{k: v for k, v in data.items() if v is not None}})

    async def open(self, since: int | None, invite: str | None) -> None:
        if not self.opened:
            self.who = await db(services.Who.from_scope)(self.scope)
            self.person_key = _person_key(self.who, self.channel_name)
            table, seat = await db(services.open_table)(self.table_id, self.who, invite)
            self.invite = invite
            # Join the group before reading the state: no version can fall between.
            await self.channel_layer.group_add(f"table.{self.table_id}", self.channel_name)
            await self._set_seat(seat)
            await db(services.connect)(self.table_id, self.channel_name, self.who, seat)
            self.opened = True
            interval = poll_seconds()
            if interval:
                self.poller = asyncio.create_task(self._poll(interval))
        await self.send_state("state", since, welcome=True)

    async def _poll(self, interval: float) -> None:
        # The new version goes through this socket's own channel, so frames
        # stay in order with the other updates (versions only grow).
        read = db(services.current_version)
        while True:
            await asyncio.sleep(interval)
            try:
                version = await read(self.table_id)
            except Exception:
                log.exception("polling table %s failed", self.table_id)
                continue
            if version is not None and version > self.sent_v:
                await self.channel_layer.send(
                    self.channel_name, {"type": "table.update", "table": self.table_id, "v": version}
                )

    async def send_state(self, frame: str, since: int | None, welcome: bool = False,
                         version: int | None = None, ack: dict[str, Any] | None = None) -> None:
        snap = None
        if version is not None and not welcome:
            snap = services.cached_snapshot(self.table_id, self.who, since, version)
        if snap is None:
            snap = await db(self._read)(since, welcome, version)
        await self._set_seat(snap["seat"])
        self.sent_v = max(self.sent_v, snap["v"])
        if ack is not None:
            snap["ack"] = ack
        await self.send_json({"t": frame, **snap})

    def _read(self, since: int | None, welcome: bool, version: int | None) -> dict[str, Any]:
        snap = services.snapshot(self.table_id, self.who, since, version=version)
        if welcome:
            snap["presence"] = services.presence(self.table_id)
            channel = "players" if snap["seat"] is not None else "spectators"
            snap["chat"] = services.chat_backlog(self.table_id, channel)
        return snap

    async def _set_seat(self, seat: int | None) -> None:
        """Follow the seat this person holds now: it decides which chat they hear."""
        self.seat = seat
        wanted = services.chat_group(self.table_id, "players" if seat is not None else "spectators")
        if wanted != self.chat_channel:
            if self.chat_channel:
                await self.channel_layer.group_discard(self.chat_channel, self.channel_name)
            await self.channel_layer.group_add(wanted, self.channel_name)
            self.chat_channel = wanted
            if self.opened:
                await db(services.connect)(self.table_id, self.channel_name, self.who, seat)

    def _touch(self) -> None:
        now = time.monotonic()
        if self.opened and now - self.last_touch >= TOUCH_EVERY:
            self.last_touch = now
            touches().add(self)

    # -- from the channel layer ----------------------------------------------------------------

    async def table_update(self, event: dict[str, Any]) -> None:
        if not self.opened or event.get("v", 0) <= self.sent_v:
            return
        await self.send_state("update", self.sent_v, version=event["v"])

    async def table_presence(self, event: dict[str, Any]) -> None:
        if self.opened:
            await self.send_json({"t": "presence", "seats": event["seats"], "spectators": event["spectators"]})

    async def chat_message(self, event: dict[str, Any]) -> None:
        if self.opened:
            await self.send_json({"t": "chat", "message": event["message"]})


class LobbyConsumer(_Guarded):
    """The lobby: ``ws/lobby/``. The list of public tables, then one
    ``lobby_update`` per change."""

    async def connect(self) -> None:
        await self.accept()
        self.person_key = f"c{self.channel_name}"
        await self.channel_layer.group_add(services.LOBBY_GROUP, self.channel_name)
        self.stamp = await db(services.lobby_stamp)()
        tables = await db(services.lobby_tables)()
        await self.send_json({"t": "lobby", "tables": tables})
        interval = poll_seconds()
        self.poller = asyncio.create_task(self._poll(interval * 2)) if interval else None

    async def disconnect(self, code: int) -> None:
        if getattr(self, "poller", None) is not None:
            self.poller.cancel()
        await self.channel_layer.group_discard(services.LOBBY_GROUP, self.channel_name)

    async def _poll(self, interval: float) -> None:
        read = db(services.lobby_stamp)
        while True:
            await asyncio.sleep(interval)
            try:
                stamp = await read()
            except Exception:
                log.exception("polling the lobby failed")
                continue
            if stamp != self.stamp:
                self.stamp = stamp
                await self.channel_layer.send(self.channel_name, {"type": "lobby.refresh"})

    async def lobby_refresh(self, event: dict[str, Any]) -> None:
        tables = await db(services.lobby_tables)()
        await self.send_json({"t": "lobby", "tables": tables})

    async def handle(self, message: Message) -> None:
        if message.type == "ping":
            await self.pong(message)
        elif message.type in ("hello", "sync"):
            tables = await db(services.lobby_tables)()
            await self.send_json({"t": "lobby", "tables": tables})
        else:
            await self.error("unknown_type", message.id, field="t")

    async def lobby_update(self, event: dict[str, Any]) -> None:
        await self.send_json({"t": "lobby_update", "table": event["table"], "entry": event["entry"]})
