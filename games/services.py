"""The table service: one function per action on a live table.

Every action runs in one transaction that locks the table row (select_for_update
on PostgreSQL; SQLite serialises writers with BEGIN IMMEDIATE), checks who asks
and, for moves, the version the client saw, applies the engine, appends one
``Action`` row per new version, saves the state, and broadcasts only once the
transaction has committed. Views (HTTP API), consumers (WebSocket), the worker's
bots and timers all come through here; nothing else writes a table.

The group message of a broadcast carries only the table id, its version and the
kind of event. Each socket then reads the table and sends the view of *its own*
seat (``snapshot``): a view of one seat never travels to a group.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hmac
import logging
import operator
import os
import threading
import unicodedata
import weakref
from collections import OrderedDict
from collections.abc import Callable, Iterable
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from asgiref.sync import SyncToAsync
from channels.layers import get_channel_layer
from channels_redis.pubsub import RedisPubSubChannelLayer
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connection, connections, transaction
from django.db.models import Count, Max, Min
from django.db.models.base import ModelState
from django.utils import timezone

from games import engines
from games.engines.base import IllegalMove, OptionError, Outcome, Rules
from games.models import Action, ChatMessage, Connection, ModerationLog, Seat, Table
from games.protocol import MAX_CHAT_CHARS, TableError

log = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"
RESYNC_EVENTS = 20  # a client at most this many versions behind gets the events it missed
CHAT_BACKLOG = 50
BOT_LEVELS = ("easy", "medium", "hard")
DEFAULT_BOT_LEVEL = "easy"
# Kinds of Action rows that change the engine state (a replay plays exactly these).
MOVE_KINDS = ("move", "timeout", "countdown")
MAX_CLOCK_SECONDS = 60 * 86400


def bot_think_seconds() -> float:
    """Pause before a bot moves, so that a person can follow the game."""
    return float(getattr(settings, "LUDO_BOT_THINK_SECONDS", 1.0))


# -- who is asking ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Who:
    """The person behind a request or a socket: an account, a guest session
    (with or without a display name), or nobody in particular."""

    user_id: int | None = None
    guest_key: str = ""
    name: str = ""
    is_staff: bool = False

    @property
    def can_sit(self) -> bool:
        return self.user_id is not None or bool(self.guest_key and self.name)

    def holds(self, seat: Seat | Connection | ChatMessage | None) -> bool:
        if seat is None:
            return False
        if self.user_id is not None:
            return seat.user_id == self.user_id
        return bool(self.guest_key) and seat.guest_key == self.guest_key and seat.user_id is None

    @classmethod
    def from_user_and_session(cls, user: Any, session: Any) -> Who:
        from ludo.accounts import GUEST_NAME_KEY

        if user is not None and getattr(user, "is_authenticated", False):
            return cls(user_id=user.pk, name=user.get_username(), is_staff=bool(user.is_staff))
        if session is None:
            return cls()
        name = session.get(GUEST_NAME_KEY) or ""
        return cls(guest_key=session.session_key or "", name=name if session.session_key else "")

    @classmethod
    def from_request(cls, request: Any) -> Who:
        return cls.from_user_and_session(getattr(request, "user", None), getattr(request, "session", None))

    @classmethod
    def from_scope(cls, scope: Any) -> Who:
        """Reads the session: call it where the ORM may be used (a sync thread)."""
        return cls.from_user_and_session(scope.get("user"), scope.get("session"))


SYSTEM = Who(name="system")


# -- time controls ----------------------------------------------------------------------------

def parse_clock(raw: Any) -> dict[str, Any]:
    """A checked time control.

    ``None`` / ``{"kind": "none"}``: no clock. ``{"kind": "game", "base": s,
    "increment": s}``: a bank of time per seat, plus an increment after each turn.
    ``{"kind": "move", "seconds": s}``: a fixed time for each turn (slow games
    use days: ``{"kind": "move", "days": 2}``).
    """
    if raw in (None, {}, "none"):
        return {"kind": "none"}
    if not isinstance(raw, dict):
        raise TableError("bad_clock")

    def seconds(name: str, minimum: int, default: int | None = None) -> int:
        value = raw.get(name, default)
        if isinstance(value, bool) or not isinstance(value, int) or not minimum <= value <= MAX_CLOCK_SECONDS:
            raise TableError("bad_clock", f"{name} must be a whole number of seconds")
        return value

    kind = raw.get("kind")
    if kind == "none":
        return {"kind": "none"}
    if kind == "game":
        return {"kind": "game", "base": seconds("base", 1), "increment": seconds("increment", 0, 0)}
    if kind == "move":
        if "days" in raw:
            days = raw["days"]
            if isinstance(days, bool) or not isinstance(days, int) or not 1 <= days <= 60:
                raise TableError("bad_clock", "days must be a whole number from 1 to 60")
            return {"kind": "move", "seconds": days * 86400}
        return {"kind": "move", "seconds": seconds("seconds", 1)}
    raise TableError("bad_clock", "kind must be none, game or move")


def _ms(delta: timedelta) -> int:
    return int(delta.total_seconds() * 1000)


def _update_clocks(table: Table, seats: list[Seat], before: set[int], after: set[int], now: datetime,
                   mover: int | None = None) -> None:
    """Stop the clocks of seats whose turn ended, start those whose turn began,
    and set each running seat's deadline and the table's nearest one.

    The seat that just moved has its time settled; if it must act again (a
    chained step, the next phase) a new turn starts for it now. A seat that
    was waiting and still is (simultaneous choices) keeps its clock running.
    The increment is earned when a seat's turn ends.
    """
    kind = (table.clock or {}).get("kind", "none")
    if kind == "none":
        table.clock_deadline = None
        return
    increment_ms = int(table.clock.get("increment", 0)) * 1000
    deadlines = []
    for seat in seats:
        was, is_ = seat.index in before, seat.index in after
        if was and (not is_ or seat.index == mover):
            if kind == "game" and seat.turn_started_at is not None:
                spent = _ms(now - seat.turn_started_at)
                seat.clock_ms = max(0, (seat.clock_ms or 0) - spent) + (0 if is_ else increment_ms)
            seat.turn_started_at = now if is_ else None
        elif is_ and (not was or seat.turn_started_at is None):
            seat.turn_started_at = now
        if not is_ or seat.is_bot or table.status != Table.Status.RUNNING:
            seat.deadline = None
            continue
        if kind == "game":
            seat.deadline = seat.turn_started_at + timedelta(milliseconds=seat.clock_ms or 0)
        else:
            seat.deadline = seat.turn_started_at + timedelta(seconds=int(table.clock["seconds"]))
        deadlines.append(seat.deadline)
    table.clock_deadline = min(deadlines) if deadlines else None


def _clock_info(table: Table, seats: list[Seat], now: datetime) -> dict[str, Any]:
    kind = (table.clock or {}).get("kind", "none")
    info: dict[str, Any] = {**(table.clock or {"kind": "none"}), "server_time": now.isoformat()}
    if kind == "none":
        return info
    running = table.status == Table.Status.RUNNING
    per_seat = []
    for seat in seats:
        ticking = running and seat.turn_started_at is not None and not seat.is_bot
        if kind == "game":
            left = seat.clock_ms if seat.clock_ms is not None else int(table.clock["base"]) * 1000
            if ticking:
                left -= _ms(now - seat.turn_started_at)
        else:
            left = int(table.clock["seconds"]) * 1000
            if ticking and seat.deadline is not None:
                left = _ms(seat.deadline - now)
        per_seat.append({"ms": max(0, left), "running": ticking})
    info["seats"] = per_seat
    return info


# -- broadcasting (after commit only) ---------------------------------------------------------------

class _LoopThread:
    """One event loop on a thread of its own, for processes that have none of
    their own (the worker, management commands, WSGI).

    ``async_to_sync`` from such a thread makes a new event loop for every call,
    and the Redis channel layers keep their connections per event loop: every
    broadcast of the worker opened (and closed) a Redis connection, ~15 ms
    each. Sending from this one long-lived loop keeps one connection for the
    life of the process.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._pid = 0

    def loop(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if self._loop is None or self._pid != os.getpid() or not self._loop.is_running():
                loop = asyncio.new_event_loop()
                started = threading.Event()

                def run() -> None:
                    asyncio.set_event_loop(loop)
                    loop.call_soon(started.set)
                    loop.run_forever()

                threading.Thread(target=run, name="ludo-broadcast-loop", daemon=True).start()
                started.wait(5)
                self._loop, self._pid = loop, os.getpid()
            return self._loop

    def run(self, make: Callable[[], Any], timeout: float = 10.0) -> Any:
        return asyncio.run_coroutine_threadsafe(make(), self.loop()).result(timeout)


_loop_thread = _LoopThread()


def broadcast_loop() -> asyncio.AbstractEventLoop:
    """The long-lived event loop of a process without one (the worker)."""
    return _loop_thread.loop()


def _server_loop() -> asyncio.AbstractEventLoop | None:
    """In a thread of ``sync_to_async`` (daphne's consumers and views), the
    server's own running event loop, which has its own channel-layer connection."""
    loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    if (loop is not None and loop.is_running()
            and getattr(SyncToAsync.threadlocal, "main_event_loop_pid", None) == os.getpid()):
        return loop
    return None


def _sent(task: asyncio.Task) -> None:
    if not task.cancelled() and task.exception() is not None:
        # The state is committed; sockets that miss this catch up on their next
        # update or resync (the protocol's versions exist for exactly this).
        log.error("broadcast failed", exc_info=task.exception())


def _send_on(layer: Any, group: str, message: dict[str, Any]) -> None:
    """Broadcast from the running event loop, without waiting."""
    publisher = _publisher(layer)
    if publisher is not None:
        publisher.add(group, message)
    else:
        asyncio.ensure_future(layer.group_send(group, message)).add_done_callback(_sent)


class _Publisher:
    """An event loop's broadcasts on the Redis pub/sub layer, sent in pipelines.

    The layer's ``group_send`` makes one round trip per message, one message at
    a time behind its connection's lock, each through redis-py's whole command
    path. Here every broadcast made while a pipeline waits for Redis goes into
    the next one: the same PUBLISH commands to the same channels (the layer's
    names, serializer and shards; its subscribers cannot tell), in the order
    they were made, one round trip for all of them.
    """

    def __init__(self, layer: Any) -> None:
        self.layer = layer
        self.queue: list[tuple[str, dict[str, Any]]] = []
        self.task: asyncio.Future | None = None

    def add(self, group: str, message: dict[str, Any]) -> None:
        self.queue.append((group, message))
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
        loop_layer = self.layer._get_layer()
        shards: dict[Any, list[tuple[str, bytes]]] = {}
        for group, message in batch:
            channel = loop_layer._get_group_channel_name(group)
            shards.setdefault(loop_layer._get_shard(channel), []).append((channel, self.layer.serialize(message)))
        for shard, items in shards.items():
            async with shard._lock:
                shard._ensure_redis()
                pipe = shard._redis.pipeline(transaction=False)
                for channel, data in items:
                    pipe.publish(channel, data)
                await pipe.execute()


# Per event loop, forgotten with it (a process's tests make many loops).
_publishers: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Publisher] = weakref.WeakKeyDictionary()


def _publisher(layer: Any) -> _Publisher | None:
    """The running loop's publisher for ``layer``, if it is the Redis pub/sub layer."""
    if not isinstance(layer, RedisPubSubChannelLayer):
        return None
    loop = asyncio.get_running_loop()
    found = _publishers.get(loop)
    if found is None or found.layer is not layer:
        found = _publishers[loop] = _Publisher(layer)
    return found


def _on_a_loop() -> bool:
    """Whether this thread is running an event loop (without asyncio's private helper)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def _group_send(group: str, message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        if _on_a_loop():
            # On the server's loop already (a socket's move, see play_move_async).
            _send_on(layer, group, message)
            return
        server_loop = _server_loop()
        if server_loop is not None:
            # Hand the send to the server's loop without waiting for it: the
            # database thread goes back to work at once (sends keep their order).
            server_loop.call_soon_threadsafe(_send_on, layer, group, message)
        else:
            _loop_thread.run(lambda: layer.group_send(group, message))
    except Exception:
        log.exception("broadcast to %s failed", group)


def _after_commit(send: Callable[[], None]) -> None:
    batch = _writes.get()
    if batch is not None:
        batch.after.append(send)
    else:
        transaction.on_commit(send)


# The worker listens here (games.jobs): a bot's turn wakes it at once instead
# of at its next look at the database.
WORKER_GROUP = "tables.worker"


def _broadcast(table: Table, kind: str, seats: list[Seat] | None = None, lobby: bool = True) -> None:
    """Tell every socket on the table that version ``table.version`` exists, and
    the lobby what the table now looks like (public tables only)."""
    message = {"type": "table.update", "table": table.pk, "v": table.version, "event": kind}
    group = table.group_name
    _after_commit(lambda: _group_send(group, message))
    if table.bot_due is not None:
        _after_commit(lambda: _group_send(WORKER_GROUP, {"type": "worker.wake", "table": table.pk}))
    if lobby and not table.private:
        entry = lobby_entry(table, seats if seats is not None else list(table.seats.all()))
        lobby_message = {"type": "lobby.update", "table": table.pk, "entry": entry}
        _after_commit(lambda: _group_send(LOBBY_GROUP, lobby_message))


def chat_group(table_id: int, channel: str) -> str:
    return f"table.{table_id}.{channel}"


# -- reading ----------------------------------------------------------------------------------

def rules_for(table: Table) -> Rules:
    try:
        return engines.get(table.game)
    except KeyError:
        raise TableError("unknown_game", table.game) from None


def _get(table_id: Any) -> Table:
    try:
        return Table.objects.get(pk=int(table_id))
    except (Table.DoesNotExist, TypeError, ValueError):
        raise TableError("not_found") from None


def _lock(table_id: Any) -> Table:
    try:
        pk = int(table_id)
    except (TypeError, ValueError):
        raise TableError("not_found") from None
    # select_for_update().get() in raw SQL: every action starts here, and the
    # ORM spent more CPU building the query than the database running it.
    # (SQLite has no FOR UPDATE: _transaction serialises its writers.)
    sql = _LOCK_SQL if connection.features.has_select_for_update else _GET_SQL
    return _locked(_fetch(Table, sql, [pk]))


def _locked(found: list[Table]) -> Table:
    if not found:
        raise TableError("not_found")
    table = found[0]
    table._as_loaded = _table_values(table)  # to write back only the columns that changed
    return table


_GET_SQL = "SELECT * FROM games_table WHERE id = %s"
_LOCK_SQL = _GET_SQL + " FOR UPDATE"


@functools.cache
def _table_fields() -> dict[str, str]:
    """attname -> field name of the table's columns (the primary key aside)."""
    return {f.attname: f.name for f in Table._meta.concrete_fields if not f.primary_key}


@functools.cache
def _table_getter() -> Callable[[Table], tuple]:
    return operator.attrgetter(*_table_fields())


def _table_values(table: Table) -> tuple:
    """The table's column values, in the order of ``_table_fields``."""
    return _table_getter()(table)


_SEAT_FIELDS = ("user_id", "guest_key", "name", "bot_level", "resigned", "clock_ms", "turn_started_at", "deadline",
                "absent_since")
_seat_values: Callable[[Seat], tuple] = operator.attrgetter(*_SEAT_FIELDS)


# A raw query: the same rows for a third of the ORM's CPU (it runs on every action and read).
_SEATS_SQL = 'SELECT * FROM games_seat WHERE table_id = %s ORDER BY "index"'


@functools.cache
def _row_plan(model: type, columns: tuple[str, ...], vendor: str) -> tuple[tuple[int, ...], tuple, list[str]]:
    """How to turn a row of ``SELECT *`` into ``model.from_db`` values: the
    position of each concrete field's column, and the converters the ORM would
    apply to it (the backend's, then the field's: JSON arrives as text)."""
    fields = model._meta.concrete_fields
    order = tuple(columns.index(f.column) for f in fields)
    convert = []
    for i, f in enumerate(fields):
        col = f.get_col(model._meta.db_table)
        found = [*connection.ops.get_db_converters(col), *col.get_db_converters(connection)]
        if found:
            convert.append((i, col, tuple(found)))
    return order, tuple(convert), [f.attname for f in fields]


def _models(model: type, columns: Iterable[str], rows: Iterable[tuple]) -> list[Any]:
    """Model instances from plain ``SELECT *`` rows (what ``Model.objects.raw``
    does, without its per-query machinery: these reads start every action)."""
    db = _prep_db()
    order, convert, names = _row_plan(model, tuple(columns), db.vendor)
    found = []
    for row in rows:
        values = [row[i] for i in order]
        for i, col, converters in convert:
            for converter in converters:
                values[i] = converter(values[i], col, db)
        found.append(model.from_db(DEFAULT_DB_ALIAS, names, values))
    return found


def _fetch(model: type, sql: str, params: list) -> list[Any]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
        return _models(model, [c[0] for c in cursor.description], rows)


def _seat_rows(table_id: int) -> list[Seat]:
    return _fetch(Seat, _SEATS_SQL, [table_id])


def _seats(table: Table) -> list[Seat]:
    return _loaded_seats(_seat_rows(table.pk))


def _loaded_seats(seats: list[Seat]) -> list[Seat]:
    for seat in seats:
        seat._loaded = _seat_values(seat)  # to write back only the seats that changed
    return seats


def _seat_of(seats: Iterable[Seat], who: Who) -> Seat | None:
    for seat in seats:
        if not seat.is_bot and who.holds(seat):
            return seat
    return None


def _is_host(table: Table, seats: list[Seat], who: Who) -> bool:
    """The creator hosts the table; if they left, the first seated person does."""
    if who.user_id is not None and table.created_by_id == who.user_id:
        return True
    if who.user_id is None and who.guest_key and table.creator_key == who.guest_key:
        return True
    creator_seated = any(
        s.is_human and ((table.created_by_id and s.user_id == table.created_by_id)
                        or (table.creator_key and s.guest_key == table.creator_key))
        for s in seats
    )
    if creator_seated:
        return False
    humans = [s for s in seats if s.is_human]
    return bool(humans) and who.holds(humans[0])


def _can_watch(table: Table, seats: list[Seat], who: Who, invite: str | None) -> bool:
    if not table.private or who.is_staff or _seat_of(seats, who) is not None or _is_host(table, seats, who):
        return True
    return bool(invite) and hmac.compare_digest(str(invite), table.invite_token)


def _state(table: Table, rules: Rules) -> Any:
    return rules.load(table.state)


def seat_public(seat: Seat) -> dict[str, Any]:
    return {
        "index": seat.index,
        "name": seat.name,
        "bot": seat.bot_level or None,
        "empty": seat.is_empty,
        "account": seat.user_id is not None,
        "resigned": seat.resigned,
    }


def lobby_entry(table: Table, seats: list[Seat]) -> dict[str, Any] | None:
    """What the lobby shows of a public table; None once it is no longer listed."""
    if table.private or table.is_over:
        return None
    return {
        "id": table.pk,
        "game": table.game,
        "status": table.status,
        "v": table.version,
        "seat_count": table.seat_count,
        "free": sum(1 for s in seats if s.is_empty),
        "seats": [seat_public(s) for s in seats],
        "options": table.options,
        "rated": table.rated,
        "clock": table.clock or {"kind": "none"},
        "host": table.creator_name,
        "created_at": table.created_at.isoformat() if table.created_at else None,
    }


def lobby_tables(who: Who | None = None, include_private: bool = False) -> list[dict[str, Any]]:
    """Public tables that are open or being played, newest first."""
    tables = Table.objects.filter(status__in=[Table.Status.OPEN, Table.Status.RUNNING])
    if not include_private:
        tables = tables.filter(private=False)
    tables = list(tables.order_by("-created_at")[:200])
    seats_by_table: dict[int, list[Seat]] = {}
    for seat in Seat.objects.filter(table__in=tables).order_by("table_id", "index"):
        seats_by_table.setdefault(seat.table_id, []).append(seat)
    entries = []
    for table in tables:
        entry = lobby_entry(table, seats_by_table.get(table.pk, []))
        if entry is None and include_private:
            entry = {**lobby_entry_unchecked(table, seats_by_table.get(table.pk, [])), "private": True}
        if entry is not None:
            entries.append(entry)
    return entries


def lobby_entry_unchecked(table: Table, seats: list[Seat]) -> dict[str, Any]:
    private, table.private = table.private, False
    try:
        return lobby_entry(table, seats) or {}
    finally:
        table.private = private


def current_version(table_id: int) -> int | None:
    return Table.objects.filter(pk=table_id).values_list("version", flat=True).first()


def lobby_stamp() -> tuple[int, Any]:
    """Changes whenever the lobby's list may have changed (for polling sockets)."""
    found = Table.objects.aggregate(n=Count("id"), last=Max("updated_at"))
    return found["n"], found["last"]


def presence(table_id: int) -> dict[str, Any]:
    rows = Connection.objects.filter(table_id=table_id).values("seat").annotate(n=Count("id"))
    seated = sorted(r["seat"] for r in rows if r["seat"] is not None)
    spectators = sum(r["n"] for r in rows if r["seat"] is None)
    return {"seats": seated, "spectators": spectators}


def _event(action: Action, seat: int | None) -> dict[str, Any]:
    event = {
        "v": action.version,
        "kind": action.kind,
        "seat": action.seat,
        "at": action.created_at.isoformat() if action.created_at else None,
    }
    if action.payload:
        event["data"] = action.payload
    # A move may be a secret (a card chosen face down): only its author sees it.
    if action.move and action.seat is not None and action.seat == seat:
        event["move"] = action.move
    return event


def open_table(table_id: Any, who: Who, invite: str | None = None) -> tuple[Table, int | None]:
    """Check that ``who`` may watch the table; return it and the seat they hold."""
    table = _get(table_id)
    seats = _seats(table)
    if not _can_watch(table, seats, who, invite):
        raise TableError("private_table")
    seat = _seat_of(seats, who)
    return table, (seat.index if seat else None)


@dataclass
class _Frozen:
    """A table exactly as it was at one version, with what its sockets need.

    Read once per version and process: every socket of the table then builds
    its own frame from it (its seat's view is computed once per seat), instead
    of each reading the database again for the same version.
    """

    table: Table
    seats: list[Seat]
    actions: list[Action]  # the last RESYNC_EVENTS actions up to this version
    rules: Rules | None = None
    state: Any = None
    to_act: list[int] = field(default_factory=list)
    views: dict[int | None, Any] = field(default_factory=dict)
    legal: dict[int, list[str]] = field(default_factory=dict)
    _common: dict[str, Any] | None = field(default=None, repr=False)

    def common(self) -> dict[str, Any]:
        """The fields of a snapshot that are the same for every socket, built
        once per version (each socket's frame shares them; nobody changes them)."""
        if self._common is None:
            table = self.table
            self._common = {
                "table": table.pk,
                "game": table.game,
                "status": table.status,
                "v": table.version,
                "seats": [seat_public(s) for s in self.seats],
                "options": table.options,
                "rated": table.rated,
                "private": table.private,
                "draw_offers": list(table.draw_offers),
                "rematch_offers": list(table.rematch_offers),
                "rematch": table.rematch_id,
                "outcome": table.outcome,
                "to_act": list(self.to_act),
                "countdown": table.countdown_deadline.isoformat() if table.countdown_deadline else None,
            }
        return self._common

    def view(self, seat: int | None) -> Any:
        if seat not in self.views:
            self.views[seat] = self.rules.view(self.state, seat)
        return self.views[seat]

    def legal_moves(self, seat: int) -> list[str]:
        if seat not in self.legal:
            self.legal[seat] = self.rules.legal_moves(self.state, seat)
        return self.legal[seat]


FROZEN_MAX = 1024
_frozen: OrderedDict[tuple[int, int], _Frozen] = OrderedDict()
_frozen_lock = threading.Lock()


def _cached(key: tuple[int, int]) -> _Frozen | None:
    with _frozen_lock:
        found = _frozen.get(key)
        if found is not None:
            _frozen.move_to_end(key)
        return found


def forget_table(sender: Any = None, instance: Table | None = None, created: bool = False, **kwargs: Any) -> None:
    """Drop what this process remembers of a table id. Connected to Table's
    post_save for new rows: a test database that rolls back may hand out an id
    again, and a cached version of the old table must not answer for the new one."""
    if instance is None or not created:
        return
    with _frozen_lock:
        for key in [k for k in _frozen if k[0] == instance.pk]:
            del _frozen[key]


def _freeze(table_id: Any, version: int | None = None) -> _Frozen:
    """The table at ``version`` if this process already read it, else as it is now."""
    if version is not None:
        try:
            found = _cached((int(table_id), int(version)))
        except (TypeError, ValueError):
            found = None
        if found is not None:
            return found
    try:
        pk = int(table_id)
    except (TypeError, ValueError):
        raise TableError("not_found") from None
    # Every change a frame shows appends an action and bumps the version in the
    # same transaction. Read the last actions first and the table row last: if
    # the table is still at the last action's version, nothing was committed
    # in between, and the three reads saw one and the same version.
    for _attempt in range(3):
        actions = list(Action.objects.filter(table_id=pk).order_by("-version")[:RESYNC_EVENTS])
        actions.reverse()
        seats = _seat_rows(pk)
        table = _get(pk)
        if actions and actions[-1].version == table.version:
            break
    found = _cached((table.pk, table.version))
    if found is not None:
        return found
    consistent = bool(actions) and actions[-1].version == table.version
    for seat in seats:
        seat._loaded = _seat_values(seat)
    frozen = _Frozen(table, seats, actions)
    if table.state is not None:
        frozen.rules = rules_for(table)
        frozen.state = _state(table, frozen.rules)
        if table.status == Table.Status.RUNNING:
            frozen.to_act = list(frozen.rules.to_act(frozen.state))
    if consistent:
        _store(frozen)
    return frozen


def _store(frozen: _Frozen) -> None:
    with _frozen_lock:
        _frozen[(frozen.table.pk, frozen.table.version)] = frozen
        while len(_frozen) > FROZEN_MAX:
            _frozen.popitem(last=False)


def _remember(table: Table, seats: list[Seat], rules: Rules, state: Any) -> None:
    """Once the transaction commits, keep the table as this process just wrote
    it for its own sockets (they would read back exactly this): the version a
    player's move made needs no read on the process that took the move.

    Only when this process holds the version before (for the last actions);
    call it before ``_broadcast`` so the version is there when sockets ask.
    """
    recorded = list(getattr(table, "_recorded", ()))
    if not recorded:
        return

    def keep() -> None:
        before = _cached((table.pk, recorded[0].version - 1))
        if before is None:
            return
        frozen = _Frozen(table, seats, (before.actions + recorded)[-RESYNC_EVENTS:], rules, state)
        if table.status == Table.Status.RUNNING:
            frozen.to_act = list(rules.to_act(state))
        _store(frozen)

    _after_commit(keep)


def snapshot(table_id: Any, who: Who, since: int | None = None, now: datetime | None = None,
             version: int | None = None) -> dict[str, Any]:
    """Everything one socket may know of the table now, for the seat ``who`` holds.

    ``view`` is ``rules.view(state, seat)`` for that seat (``None``: the spectator
    view); ``legal`` lists that seat's legal moves. With ``since``, ``events``
    lists what happened after that version (up to RESYNC_EVENTS of them; further
    behind, ``events`` is None and ``full`` is true: the view is all there is).
    ``version`` (the one a broadcast announced) lets a socket use what this
    process already read for it. Permission to watch is checked once, when the
    socket opens the table.
    """
    return _snapshot_of(_freeze(table_id, version), who, since, now or timezone.now())


def cached_snapshot(table_id: int, who: Who, since: int | None, version: int) -> dict[str, Any] | None:
    """``snapshot`` at ``version`` if this process holds that version already
    (no database access: a socket may call it from the event loop), else None."""
    frozen = _cached((table_id, version))
    return None if frozen is None else _snapshot_of(frozen, who, since, timezone.now())


def _snapshot_of(frozen: _Frozen, who: Who, since: int | None, now: datetime) -> dict[str, Any]:
    table, seats = frozen.table, frozen.seats
    mine = _seat_of(seats, who)
    seat = mine.index if mine else None
    data: dict[str, Any] = {
        **frozen.common(),
        "seat": seat,
        "host": _is_host(table, seats, who),
        "clock": _clock_info(table, seats, now),
        "view": None,
        "legal": [],
    }
    if table.private and (seat is not None or data["host"] or who.is_staff):
        data["invite"] = table.invite_token
    if frozen.state is not None:
        data["view"] = frozen.view(seat)
        if seat is not None and seat in frozen.to_act:
            data["legal"] = frozen.legal_moves(seat)
    if since is None or since > table.version or table.version - since > RESYNC_EVENTS:
        data["events"] = None
        data["full"] = True
    else:
        data["events"] = [_event(a, seat) for a in frozen.actions if a.version > since]
        data["full"] = False
    return data


def chat_backlog(table_id: int, channel: str) -> list[dict[str, Any]]:
    messages = ChatMessage.objects.filter(table_id=table_id, channel=channel).order_by("-id")[:CHAT_BACKLOG]
    return [m.to_dict() for m in reversed(list(messages))]


# -- the engine, applied under the lock -------------------------------------------------------------

def _record(table: Table, kind: str, seat: int | None = None, move: str = "", payload: dict | None = None) -> Action:
    """Append the action that makes the next version (the row has no ``pk`` in
    memory: nothing needs it, and the insert is one plain statement)."""
    table.version += 1
    # Positional, in the fields' order: the model's quick path (keywords cost
    # twice as much; the service tests read every column back).
    action = Action(None, table.pk, table.version, seat, kind, move, payload or {}, None)
    _insert(action)
    table.__dict__.setdefault("_recorded", []).append(action)
    return action


# Plain SQL for the statements every action runs, with the values prepared by
# the fields themselves as the ORM does (JSON, dates): building the queries
# through the ORM cost more CPU than the database spent running them.

@functools.cache
def _insert_sql(model: type) -> tuple[str, list]:
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    quote = connection.ops.quote_name
    columns = ", ".join(quote(f.column) for f in fields)
    marks = ", ".join(["%s"] * len(fields))
    return f"INSERT INTO {quote(model._meta.db_table)} ({columns}) VALUES ({marks})", fields


@dataclass
class _Writes:
    """The statements of an action and what to do once they are committed,
    collected instead of run (play_move_async sends them in one round trip).

    ``guard``: the version the table must still be at (a move applied to the
    version this process holds, without a read under lock: see
    ``_move_on_held``). The writes are then kept apart (``table``, ``rows``)
    to be sent as one statement (``guarded``)."""

    statements: list[tuple[str, list]] = field(default_factory=list)
    after: list[Callable[[], None]] = field(default_factory=list)
    guard: int | None = None
    table: tuple[tuple[str, ...], list, int] | None = None  # columns, values, pk
    rows: list[tuple[str, type, tuple[str, ...], list]] = field(default_factory=list)

    def sql(self) -> tuple[str, list]:
        """Every statement, then COMMIT, as one query (in an open transaction)."""
        text = "; ".join([*(sql for sql, _ in self.statements), "COMMIT"])
        return text, [value for _, values in self.statements for value in values]

    def guarded(self) -> tuple[str, list]:
        """One statement that writes everything only if the table's row is
        still at ``guard``; it returns how many tables it updated (1, or 0
        with nothing written). The table's UPDATE takes the row lock; the log
        row and the seats depend on its result, so they are written after it
        and only with it (a statement's data-modifying WITH parts otherwise
        run in no set order)."""
        names, values, pk = self.table
        parts = [("t", _guarded_update_sql(names))]
        params = [*values, pk, self.guard]
        for i, (kind, model, columns, row) in enumerate(self.rows):
            parts.append((f"w{i}", _dependent_sql(kind, model, columns)))
            params.extend(row)
        body = ", ".join(f"{name} AS ({sql})" for name, sql in parts)
        return f"WITH {body} SELECT count(*) FROM t", params


@functools.cache
def _guarded_update_sql(names: tuple[str, ...]) -> str:
    sql, _fields = _update_sql(Table, names)
    return f'{sql} AND "version" = %s RETURNING 1'


@functools.cache
def _dependent_sql(kind: str, model: type, names: tuple[str, ...]) -> str:
    """A log row inserted, or a row updated, only if ``t`` (the table's
    guarded UPDATE) returned its row. Values bound on the server: the
    inserted ones carry their columns' types (``INSERT ... SELECT`` does not
    infer them as ``VALUES`` does)."""
    if kind == "update":
        sql, _fields = _update_sql(model, names)
        return f"{sql} AND EXISTS (SELECT FROM t)"
    db = _prep_db()
    fields = [model._meta.get_field(name) for name in names]
    quote = db.ops.quote_name
    columns = ", ".join(quote(f.column) for f in fields)
    # Text, not varchar(n), for strings: a cast to varchar(n) cuts a long value
    # short where the insert itself refuses it.
    casts = ", ".join(f"%s::{'text' if f.get_internal_type() == 'CharField' else f.cast_db_type(db)}"
                      for f in fields)
    return f"INSERT INTO {quote(model._meta.db_table)} ({columns}) SELECT {casts} FROM t"


_writes: ContextVar[_Writes | None] = ContextVar("ludo_table_writes", default=None)


def _execute(sql: str, values: list) -> None:
    batch = _writes.get()
    if batch is not None:
        batch.statements.append((sql, values))
        return
    with connection.cursor() as cursor:
        cursor.execute(sql, values)


@functools.cache
def _prep_db() -> Any:
    """A database wrapper of this process's own for turning values into query
    parameters and rows into values (the fields' and the backend's adapters);
    it never opens a connection. On an event loop, Django's ``connection``
    is a new wrapper in every task (asgiref's Local is per context): looking
    it up made one (and its garbage) at every move."""
    return connections.create_connection(DEFAULT_DB_ALIAS)


def _insert(obj: Any) -> None:
    sql, fields = _insert_sql(type(obj))
    db = _prep_db()
    values = [f.get_db_prep_save(f.pre_save(obj, True), db) for f in fields]
    batch = _writes.get()
    if batch is not None and batch.guard is not None:
        batch.rows.append(("insert", type(obj), tuple(f.name for f in fields), values))
        return
    _execute(sql, values)


@functools.cache
def _update_sql(model: type, names: tuple[str, ...]) -> tuple[str, list]:
    meta = model._meta
    fields = [meta.get_field(name) for name in names]
    quote = connection.ops.quote_name
    sets = ", ".join(f"{quote(f.column)} = %s" for f in fields)
    return f"UPDATE {quote(meta.db_table)} SET {sets} WHERE {quote(meta.pk.column)} = %s", fields


def _update(obj: Any, names: Iterable[str]) -> None:
    """UPDATE these columns of ``obj`` (auto_now fields get the time, as save() does)."""
    names = tuple(names)
    sql, fields = _update_sql(type(obj), names)
    db = _prep_db()
    values = [f.get_db_prep_save(f.pre_save(obj, False), db) for f in fields]
    batch = _writes.get()
    if batch is not None and batch.guard is not None:
        if isinstance(obj, Table):
            batch.table = (names, values, obj.pk)
        else:
            batch.rows.append(("update", type(obj), names, [*values, obj.pk]))
        return
    _execute(sql, [*values, obj.pk])


def _save(table: Table, seats: list[Seat] | None = None) -> None:
    loaded = getattr(table, "_as_loaded", None)
    if loaded is None:
        table.save()
    else:
        # A move changes a few columns; encoding and sending the others (options,
        # clock, offers...) again was a good share of a move's cost.
        values = _table_values(table)
        changed = {name for name, was, now in zip(_table_fields().values(), loaded, values, strict=True)
                   if was != now}
        batch = _writes.get()
        if changed and batch is not None and batch.guard is not None:
            # The worker writes these without a new version (its lease on a bot's
            # turn; a deadline it found already passed): the row may differ
            # there from the version held in memory, so they are always written.
            changed |= {"bot_due", "clock_deadline", "countdown_deadline"}
        if changed:
            _update(table, sorted(changed | {"updated_at"}))
            table._as_loaded = _table_values(table)  # updated_at has the time now
    for seat in seats or ():
        # Only the columns that changed: presence (absent_since) is written
        # without the table's lock, and must not be put back as it was.
        loaded, values = getattr(seat, "_loaded", None), _seat_values(seat)
        if loaded != values:
            _update(seat, [name for i, name in enumerate(_SEAT_FIELDS) if loaded is None or loaded[i] != values[i]])
            seat._loaded = values


def _loss(num_players: int, loser: int, reason: str) -> dict[str, Any]:
    winners = tuple(s for s in range(num_players) if s != loser)
    scores = tuple(0.0 if s == loser else 1.0 for s in range(num_players))
    return Outcome(winners, scores, reason).to_dict()


def _finish(table: Table, seats: list[Seat], outcome: dict[str, Any] | None, now: datetime,
            status: str = Table.Status.FINISHED) -> None:
    if table.status == Table.Status.RUNNING:
        # Stop the clocks where they stand, so the final clocks are meaningful.
        running = {s.index for s in seats if s.turn_started_at is not None}
        _update_clocks(table, seats, running, set(), now)
    table.status = status
    table.outcome = outcome
    table.finished_at = now
    table.clock_deadline = table.countdown_deadline = table.bot_due = None
    table.draw_offers = []
    for seat in seats:
        seat.deadline = None
        seat.turn_started_at = None


def _schedule(table: Table, seats: list[Seat], rules: Rules, state: Any, now: datetime) -> None:
    """Set when the worker should look at this table next for a bot move."""
    if table.status != Table.Status.RUNNING:
        table.bot_due = None
        return
    to_act = set(rules.to_act(state))
    if any(s.is_bot and s.index in to_act for s in seats):
        table.bot_due = now + timedelta(seconds=bot_think_seconds())
    else:
        table.bot_due = None


def _advance(table: Table, seats: list[Seat], rules: Rules, old: Any, new: Any, now: datetime,
             mover: int | None = None) -> None:
    """Store the state after a move and everything that follows from it: the
    outcome, the clocks, the rules' countdown, the next bot move."""
    table.state = rules.dump(new)
    table.draw_offers = []
    outcome = rules.outcome(new)
    if outcome is not None:
        _finish(table, seats, outcome.to_dict(), now)
        return
    before = set(rules.to_act(old)) if old is not None else set()
    _update_clocks(table, seats, before, set(rules.to_act(new)), now, mover)
    countdown = rules.countdown(new)
    table.countdown_deadline = now + timedelta(seconds=countdown.seconds) if countdown else None
    _schedule(table, seats, rules, new, now)


def _play(table: Table, seats: list[Seat], rules: Rules, seat: int, move: str, kind: str, now: datetime,
          state: Any = None) -> Any:
    """``state``: the table's state as already loaded, if it is (engines never
    change a state they are given)."""
    if state is None:
        state = _state(table, rules)
    # The rules' countdown move may belong to a seat that is waiting (the high bidder).
    if kind != "countdown" and seat not in rules.to_act(state):
        raise TableError("not_your_turn", v=table.version)
    try:
        new = rules.play(state, seat, move)
    except IllegalMove as exc:
        raise TableError("illegal_move", str(exc), v=table.version) from None
    _record(table, kind, seat, move)
    _advance(table, seats, rules, state, new, now, seat)
    return new


def _hand_to_bot(table: Table, seats: list[Seat], seat: Seat, level: str, now: datetime) -> None:
    seat.user = None
    seat.guest_key = ""
    seat.bot_level = level
    seat.absent_since = None
    Connection.objects.filter(table=table, seat=seat.index).update(seat=None)
    if table.status == Table.Status.RUNNING:
        rules = rules_for(table)
        state = _state(table, rules)
        _update_clocks(table, seats, set(rules.to_act(state)), set(rules.to_act(state)), now)
        _schedule(table, seats, rules, state, now)


def _replacement_level(table: Table) -> str:
    return table.absent_bot or DEFAULT_BOT_LEVEL


def _check_level(level: Any) -> str:
    if level not in BOT_LEVELS:
        raise TableError("bad_level")
    return level


# SQLite has one writer at a time anyway; inside one process, taking turns on a
# lock is cheaper than spinning on the busy timeout, and it also serialises
# threads on a shared-cache in-memory database (the test suite's), which does
# not honour the busy timeout at all. Other processes still wait on BEGIN IMMEDIATE.
_sqlite_writer = threading.RLock()


def _transaction(func):
    """Run a service in a transaction; broadcasts queued with on_commit leave after it."""
    atomic = transaction.atomic(func)

    @functools.wraps(func)
    def run(*args, **kwargs):
        if connection.vendor != "sqlite":
            return atomic(*args, **kwargs)
        with _sqlite_writer:
            return atomic(*args, **kwargs)

    return run


# -- creating and filling a table ------------------------------------------------------------

@_transaction
def create_table(
    who: Who,
    game: str,
    seats: int | None = None,
    options: dict[str, Any] | None = None,
    *,
    rated: bool = False,
    private: bool = False,
    clock: Any = None,
    sit: bool = True,
    absent_bot: str = "",
    absent_grace: int = 120,
    now: datetime | None = None,
) -> Table:
    """A new table, open for players; its creator hosts it and (by default) takes seat 0."""
    if not who.can_sit:
        raise TableError("name_required")
    if rated and who.user_id is None:
        raise TableError("account_required")
    try:
        rules = engines.get(game) if isinstance(game, str) else None
    except KeyError:
        rules = None
    if rules is None:
        raise TableError("unknown_game")
    count = rules.min_players if seats is None else seats
    try:
        rules.check_players(count)
    except OptionError as exc:
        raise TableError("bad_seats", str(exc)) from None
    if options is not None and not isinstance(options, dict):
        raise TableError("bad_options")
    try:
        checked = rules.validate_options(options or {})
    except OptionError as exc:
        raise TableError("bad_options", str(exc)) from None
    if absent_bot:
        _check_level(absent_bot)
    if isinstance(absent_grace, bool) or not isinstance(absent_grace, int) or not 10 <= absent_grace <= 86400 * 30:
        raise TableError("bad_options", "absent_grace must be 10 s to 30 days")
    table = Table.objects.create(
        game=rules.slug,
        options=checked,
        seat_count=count,
        rated=bool(rated),
        private=bool(private),
        clock=parse_clock(clock),
        created_by_id=who.user_id,
        creator_key="" if who.user_id else who.guest_key,
        creator_name=who.name,
        absent_bot=absent_bot,
        absent_grace=absent_grace,
    )
    seat_rows = [Seat(table=table, index=i) for i in range(count)]
    if sit:
        seat_rows[0].user_id = who.user_id
        seat_rows[0].guest_key = "" if who.user_id else who.guest_key
        seat_rows[0].name = who.name
    Seat.objects.bulk_create(seat_rows)
    _record(table, "create", 0 if sit else None, payload={"name": who.name} if sit else {})
    table.save()
    _broadcast(table, "create", seat_rows)
    return table


@_transaction
def join_table(table_id: Any, who: Who, seat: int | None = None, invite: str | None = None) -> int:
    """Take a seat (the first free one unless ``seat`` says which) before the start."""
    table = _lock(table_id)
    seats = _seats(table)
    if not _can_watch(table, seats, who, invite):
        raise TableError("private_table")
    if table.status != Table.Status.OPEN:
        raise TableError("not_open")
    if not who.can_sit:
        raise TableError("name_required")
    if table.rated and who.user_id is None:
        raise TableError("account_required")
    if _seat_of(seats, who) is not None:
        raise TableError("already_seated")
    if seat is None:
        free = [s for s in seats if s.is_empty]
        if not free:
            raise TableError("table_full")
        target = free[0]
    else:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(seats):
            raise TableError("bad_seat")
        target = seats[seat]
        if not target.is_empty:
            raise TableError("table_full" if all(not s.is_empty for s in seats) else "seat_taken")
    target.user_id = who.user_id
    target.guest_key = "" if who.user_id else who.guest_key
    target.name = who.name
    _record(table, "join", target.index, payload={"name": who.name})
    _save(table, seats)
    _broadcast(table, "join", seats)
    return target.index


@_transaction
def leave_table(table_id: Any, who: Who) -> None:
    """Give one's seat back before the start; the last person leaving aborts the table."""
    table = _lock(table_id)
    seats = _seats(table)
    mine = _seat_of(seats, who)
    if mine is None:
        raise TableError("not_seated")
    if table.status != Table.Status.OPEN:
        raise TableError("not_open")
    mine.user_id = None
    mine.guest_key = ""
    mine.name = ""
    Connection.objects.filter(table=table, seat=mine.index).update(seat=None)
    _record(table, "leave", mine.index)
    if not any(s.is_human for s in seats):
        _finish(table, seats, None, timezone.now(), status=Table.Status.ABORTED)
        _record(table, "abort", None, payload={"reason": "empty"})
    _save(table, seats)
    _broadcast(table, "leave", seats)


@_transaction
def add_bots(table_id: Any, who: Who, level: str, seats: list[int] | None = None) -> list[int]:
    """The host fills empty seats (all of them, or the ones listed) with bots."""
    _check_level(level)
    table = _lock(table_id)
    rows = _seats(table)
    if not _is_host(table, rows, who) and not who.is_staff:
        raise TableError("not_host")
    if table.status != Table.Status.OPEN:
        raise TableError("not_open")
    if seats is None:
        targets = [s for s in rows if s.is_empty]
    else:
        if any(isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < len(rows) for i in seats):
            raise TableError("bad_seat")
        targets = [rows[i] for i in sorted(set(seats))]
        if any(not s.is_empty for s in targets):
            raise TableError("seat_taken")
    if not targets:
        raise TableError("table_full")
    for seat in targets:
        seat.bot_level = level
        seat.name = ""
    _record(table, "bots", None, payload={"level": level, "seats": [s.index for s in targets]})
    _save(table, rows)
    _broadcast(table, "bots", rows)
    return [s.index for s in targets]


@_transaction
def remove_bot(table_id: Any, who: Who, seat: int) -> None:
    table = _lock(table_id)
    rows = _seats(table)
    if not _is_host(table, rows, who) and not who.is_staff:
        raise TableError("not_host")
    if table.status != Table.Status.OPEN:
        raise TableError("not_open")
    if not 0 <= seat < len(rows):
        raise TableError("bad_seat")
    if not rows[seat].is_bot:
        raise TableError("not_a_bot")
    rows[seat].bot_level = ""
    _record(table, "unbot", seat)
    _save(table, rows)
    _broadcast(table, "unbot", rows)


def _start(table: Table, seats: list[Seat], now: datetime) -> None:
    rules = rules_for(table)
    state = rules.new_game(table.seat_count, seed=table.seed, options=table.options)
    table.status = Table.Status.RUNNING
    table.started_at = now
    kind = (table.clock or {}).get("kind", "none")
    connected = set(
        Connection.objects.filter(table=table, seat__isnull=False).values_list("seat", flat=True)
    )
    for seat in seats:
        seat.clock_ms = int(table.clock["base"]) * 1000 if kind == "game" else None
        seat.turn_started_at = None
        seat.absent_since = None if (seat.is_bot or seat.index in connected) else now
    _record(table, "start")
    _advance(table, seats, rules, None, state, now)


@_transaction
def start_table(table_id: Any, who: Who, now: datetime | None = None) -> None:
    """The host starts the game once every seat is taken (by a person or a bot)."""
    now = now or timezone.now()
    table = _lock(table_id)
    seats = _seats(table)
    if not _is_host(table, seats, who) and not who.is_staff:
        raise TableError("not_host")
    if table.status != Table.Status.OPEN:
        raise TableError("not_open")
    if any(s.is_empty for s in seats):
        raise TableError("seats_empty")
    _start(table, seats, now)
    _save(table, seats)
    _broadcast(table, "start", seats)


@_transaction
def quick_game(who: Who, game: str, level: str = DEFAULT_BOT_LEVEL, seats: int | None = None,
               options: dict[str, Any] | None = None, clock: Any = None) -> Table:
    """"Play against a bot now": a table with ``who`` on seat 0, bots everywhere else, started."""
    _check_level(level)
    table = create_table(who, game, seats, options, clock=clock, absent_bot=level)
    add_bots(table.pk, who, level)
    start_table(table.pk, who)
    table.refresh_from_db()
    return table


# -- playing -------------------------------------------------------------------------------

def _running_seat(table: Table, seats: list[Seat], who: Who) -> Seat:
    if table.status != Table.Status.RUNNING:
        raise TableError("game_over" if table.is_over else "not_running")
    mine = _seat_of(seats, who)
    if mine is None:
        raise TableError("not_seated")
    return mine


@_transaction
def play_move(table_id: Any, who: Who, move: str, expected_version: int, seat: int | None = None,
              now: datetime | None = None) -> int:
    """Play ``move`` for the seat ``who`` holds, if the table is still at
    ``expected_version``. Returns the new version."""
    table = _lock(table_id)
    return _move(table, _seats(table), who, move, expected_version, seat, now or timezone.now())


def _move(table: Table, seats: list[Seat], who: Who, move: str, expected_version: int, seat: int | None,
          now: datetime, state: Any = None) -> int:
    """play_move on the locked table and its seats (shared by both drivers)."""
    mine = _running_seat(table, seats, who)
    if seat is not None and seat != mine.index:
        raise TableError("not_your_seat")
    if expected_version != table.version:
        raise TableError("stale_version", v=table.version)
    if not isinstance(move, str) or not move:
        raise TableError("illegal_move", "a move is a non-empty string", v=table.version)
    rules = rules_for(table)
    state = _play(table, seats, rules, mine.index, move, "move", now, state)
    _save(table, seats)
    _remember(table, seats, rules, state)
    _broadcast(table, "move", seats, lobby=table.is_over)
    return table.version


# -- a socket's move on the server's event loop (PostgreSQL) ----------------------------------------
#
# A player's move is most of what a live table's server does. On PostgreSQL a
# socket plays it without leaving the event loop: its own connections (psycopg's
# async ones, with Django's adapters), two round trips (BEGIN, lock, seats in
# one query; the log row, the table's and seats' changes and COMMIT in the
# other) and the same checks and writes as play_move (``_move``, with its
# statements collected by ``_writes``). No database thread, no hand-over of the
# GIL between threads at every query. Broadcasts leave after the COMMIT, as
# with on_commit. (psycopg's pipeline mode would do the same round trips, but
# it polls a writable socket in a loop while it waits: more CPU, not less.)

@functools.cache
def async_moves() -> bool:
    """Whether sockets play moves with play_move_async (PostgreSQL, and
    LUDO_MOVE_CONNECTIONS above 0). Settings of the process: asked once."""
    return connection.vendor == "postgresql" and int(getattr(settings, "LUDO_MOVE_CONNECTIONS", 0)) > 0


def _async_params() -> dict[str, Any]:
    params = connection.get_connection_params()  # Django's, with its adapters (JSON as text, time zone)
    params.pop("cursor_factory", None)  # Django's is a sync cursor
    params["autocommit"] = True  # BEGIN and COMMIT are sent with the statements
    return params


class _MoveConnections:
    """The PostgreSQL connections of one event loop for play_move_async."""

    def __init__(self, loop: asyncio.AbstractEventLoop, size: int) -> None:
        self.loop = loop
        self.free: list[Any] = []
        self.open: dict[Any, Any] = {}  # connection -> its two cursors (made once: a fresh one per move cost 2%)
        self.gate = asyncio.Semaphore(size)
        self.params = _async_params()

    async def get(self) -> Any:
        import psycopg

        await self.gate.acquire()
        try:
            while self.free:
                conn = self.free.pop()
                if not conn.closed:
                    return conn
                self.open.pop(conn, None)
            conn = await psycopg.AsyncConnection.connect(**self.params)
            self.open[conn] = (psycopg.AsyncClientCursor(conn), psycopg.AsyncCursor(conn))
            return conn
        except BaseException:
            self.gate.release()
            raise

    def cursor(self, conn: Any) -> Any:
        """Values bound on the client: several statements in one query."""
        return self.open[conn][0]

    def prepared_cursor(self, conn: Any) -> Any:
        """Values bound on the server: one statement, which may be prepared."""
        return self.open[conn][1]

    def put(self, conn: Any) -> None:
        from psycopg.pq import TransactionStatus

        if not conn.closed and conn.pgconn.transaction_status == TransactionStatus.IDLE:
            self.free.append(conn)
        else:  # broken, or left inside a transaction: never hand it out again
            self.open.pop(conn, None)
            conn.pgconn.finish()
        self.gate.release()

    def finish(self) -> None:
        """Close every connection (synchronously: the loop may be gone)."""
        for conn in self.open:
            conn.pgconn.finish()
        self.open.clear()
        self.free.clear()


_move_connections: dict[int, _MoveConnections] = {}


def _connections_of_loop() -> _MoveConnections:
    loop = asyncio.get_running_loop()
    found = _move_connections.get(id(loop))
    if found is None or found.loop is not loop:
        # A new loop (tests run one per test): close what other loops left.
        for key, other in list(_move_connections.items()):
            if other.loop is not loop and (other.loop.is_closed() or key == id(loop)):
                other.finish()
                del _move_connections[key]
        found = _move_connections[id(loop)] = _MoveConnections(loop, int(settings.LUDO_MOVE_CONNECTIONS))
    return found


def close_move_connections() -> None:
    """Close the connections play_move_async opened, on every loop."""
    for pool in _move_connections.values():
        pool.finish()
    _move_connections.clear()


def _columns(cursor: Any) -> tuple[str, ...]:
    # The names straight from the result (cursor.description makes an object per column).
    result = cursor.pgresult
    return tuple(result.fname(i).decode() for i in range(result.nfields))


async def play_move_async(table_id: Any, who: Who, move: str, expected_version: int,
                          seat: int | None = None) -> int:
    """play_move from the server's event loop (see async_moves). Shielded: a
    socket closing while its move is under way does not cut the move (nor its
    broadcast) in half."""
    task = asyncio.get_running_loop().create_task(_play_move_async(table_id, who, move, expected_version, seat))
    task.add_done_callback(_retrieved)
    return await asyncio.shield(task)


def _retrieved(task: asyncio.Task) -> None:
    # Whoever awaited the move may be gone (its socket closed): its refusal then
    # goes nowhere, on purpose; a bug is still logged by the consumer or here.
    if not task.cancelled() and task.exception() is not None and not isinstance(task.exception(), TableError):
        log.debug("a move ended with %r", task.exception())


async def _play_move_async(table_id: Any, who: Who, move: str, expected_version: int, seat: int | None) -> int:
    try:
        pk = int(table_id)
    except (TypeError, ValueError):
        raise TableError("not_found") from None
    pool = _connections_of_loop()
    conn = await pool.get()
    try:
        held = _cached((pk, expected_version)) if type(expected_version) is int else None
        if held is not None and held.state is not None:
            version = await _move_on_held(conn, pool, held, who, move, expected_version, seat)
            if version is not None:
                return version
        return await _move_under_lock(conn, pool, pk, who, move, expected_version, seat)
    finally:
        pool.put(conn)


async def _rollback(conn: Any) -> None:
    if not conn.closed and not conn.broken:
        with contextlib.suppress(Exception):
            await conn.execute("ROLLBACK")


async def _move_under_lock(conn: Any, pool: _MoveConnections, pk: int, who: Who, move: str,
                           expected_version: int, seat: int | None) -> int:
    """Two round trips: BEGIN, the row lock and the seats; then the writes and COMMIT."""
    batch = _Writes()
    try:
        # Multi-statement queries, values bound on the client as Django does.
        cursor = pool.cursor(conn)
        await cursor.execute(f"BEGIN; {_LOCK_SQL}; {_SEATS_SQL}", [pk, pk])
        cursor.nextset()
        tables = _models(Table, _columns(cursor), await cursor.fetchall())
        cursor.nextset()
        seats = _models(Seat, _columns(cursor), await cursor.fetchall())
        table = _locked(tables)
        token = _writes.set(batch)
        try:
            version = _move(table, _loaded_seats(seats), who, move, expected_version, seat, timezone.now())
        finally:
            _writes.reset(token)
        await cursor.execute(*batch.sql())
    except BaseException:
        await _rollback(conn)
        raise
    for after in batch.after:
        after()
    return version


def _thaw(frozen: _Frozen) -> tuple[Table, list[Seat]]:
    """Copies of a held version's table and seats to apply an action to (the
    held ones stay as they are: sockets build their frames from them)."""
    table = _copy_model(frozen.table)
    table.__dict__.pop("_recorded", None)
    table._as_loaded = _table_values(table)
    return table, _loaded_seats([_copy_model(s) for s in frozen.seats])


def _copy_model(obj: Any) -> Any:
    """A shallow copy of a model instance (what copy.copy makes, for a fifth of
    the time): its own attributes and ModelState, the values shared; the
    actions replace values, they never change one in place."""
    new = obj.__class__.__new__(obj.__class__)
    new.__dict__.update(obj.__dict__)
    state = new._state = ModelState()
    state.db, state.adding = obj._state.db, obj._state.adding
    state.fields_cache = dict(obj._state.fields_cache)
    return new


async def _move_on_held(conn: Any, pool: _MoveConnections, held: _Frozen, who: Who, move: str,
                        expected_version: int, seat: int | None) -> int | None:
    """The move applied to the version this process holds in memory (the one
    the player saw, usually: this process sent it), written as one statement
    with no read (``_Writes.guarded``): the table's UPDATE takes the row lock
    and goes through only if the row is still at that version; the log row and
    the seats are written after it and only with it.

    Every change to what a move reads (seats, clocks, state, status) makes a
    new version, so a row still at the version held is the row held; the
    columns changed without one (presence, the worker's lease) are not read
    here and not written back. Returns None, having written nothing, when the
    move is refused or the table has moved on: the locked path then answers
    (with the table as it is now, and the exact refusal)."""
    import psycopg

    table, seats = _thaw(held)
    batch = _Writes(guard=expected_version)
    token = _writes.set(batch)
    try:
        version = _move(table, seats, who, move, expected_version, seat, timezone.now(), held.state)
    except TableError:
        return None
    finally:
        _writes.reset(token)
    if batch.table is None or batch.statements:
        return None  # not writes this path knows how to guard
    sql, values = batch.guarded()
    cursor = pool.prepared_cursor(conn)
    try:
        # One statement in autocommit: its own transaction. Prepared once per
        # connection (a move's statement varies only with the columns it changes).
        await cursor.execute(sql, values, prepare=True)
        written = (await cursor.fetchone())[0]
    except psycopg.errors.UniqueViolation:
        return None  # not expected (a new version always logs a row): the locked path will answer
    if not written:
        return None
    for after in batch.after:
        after()
    return version


@_transaction
def bot_move(table_id: Any, seat: int, move: str, expected_version: int, now: datetime | None = None) -> int:
    """A bot's move, played by the worker for a bot seat."""
    now = now or timezone.now()
    table = _lock(table_id)
    seats = _seats(table)
    if table.status != Table.Status.RUNNING:
        raise TableError("not_running")
    if expected_version != table.version:
        raise TableError("stale_version", v=table.version)
    if not 0 <= seat < len(seats) or not seats[seat].is_bot:
        raise TableError("not_a_bot")
    _play(table, seats, rules_for(table), seat, move, "move", now)
    _save(table, seats)
    _broadcast(table, "move", seats, lobby=table.is_over)
    return table.version


def _active_seats(seats: list[Seat]) -> list[Seat]:
    return [s for s in seats if not s.resigned]


@_transaction
def draw(table_id: Any, who: Who, action: str) -> None:
    """Offer a draw, accept the one on the table, or decline it. The game ends
    drawn when every player has agreed; any move withdraws the offers."""
    table = _lock(table_id)
    seats = _seats(table)
    mine = _running_seat(table, seats, who)
    offers = set(table.draw_offers)
    if action == "decline":
        if not offers - {mine.index}:
            raise TableError("no_draw_offer")
        table.draw_offers = []
        _record(table, "draw_decline", mine.index)
    else:
        if any(s.is_bot for s in seats):
            raise TableError("draw_with_bots")
        if action == "accept" and not offers - {mine.index}:
            raise TableError("no_draw_offer")
        if mine.index in offers:
            raise TableError("already_offered")
        offers.add(mine.index)
        table.draw_offers = sorted(offers)
        if offers >= {s.index for s in _active_seats(seats)}:
            _record(table, "draw", mine.index)
            n = table.seat_count
            _finish(table, seats, Outcome((), tuple(0.5 for _ in range(n)), "agreement").to_dict(), timezone.now())
        else:
            _record(table, "draw_offer", mine.index)
    _save(table, seats)
    _broadcast(table, "draw", seats, lobby=table.is_over)


@_transaction
def resign(table_id: Any, who: Who, now: datetime | None = None) -> None:
    """Give up. With two players the other wins; with more, a bot plays on for
    the seat so the others can finish their game."""
    now = now or timezone.now()
    table = _lock(table_id)
    seats = _seats(table)
    mine = _running_seat(table, seats, who)
    _record(table, "resign", mine.index)
    if len(_active_seats(seats)) <= 2:
        mine.resigned = True
        _finish(table, seats, _loss(table.seat_count, mine.index, "resign"), now)
    else:
        mine.resigned = True
        _hand_to_bot(table, seats, mine, _replacement_level(table), now)
    _save(table, seats)
    _broadcast(table, "resign", seats)


@_transaction
def abort(table_id: Any, who: Who) -> None:
    """Call a game off without a result: the host before the start, any player
    while someone has yet to make a first move."""
    table = _lock(table_id)
    seats = _seats(table)
    if table.status == Table.Status.OPEN:
        if not _is_host(table, seats, who) and not who.is_staff:
            raise TableError("not_host")
    else:
        mine = _running_seat(table, seats, who)
        movers = set(Action.objects.filter(table=table, kind="move").values_list("seat", flat=True))
        if all(s.index in movers for s in seats if s.is_human) and mine is not None:
            raise TableError("too_late_to_abort")
    _record(table, "abort", _seat_of(seats, who).index if _seat_of(seats, who) else None)
    _finish(table, seats, None, timezone.now(), status=Table.Status.ABORTED)
    _save(table, seats)
    _broadcast(table, "abort", seats)


@_transaction
def rematch(table_id: Any, who: Who) -> int | None:
    """Offer (or accept) a rematch after the end. Once every person at the table
    agreed (bots always do), a new table starts with the seats turned by one;
    returns its id (None while offers are missing)."""
    table = _lock(table_id)
    seats = _seats(table)
    if table.status != Table.Status.FINISHED:
        raise TableError("not_finished")
    mine = _seat_of(seats, who)
    if mine is None:
        raise TableError("not_seated")
    if table.rematch_id:
        return table.rematch_id
    offers = set(table.rematch_offers)
    if mine.index in offers:
        raise TableError("already_offered")
    offers.add(mine.index)
    table.rematch_offers = sorted(offers)
    if not offers >= {s.index for s in seats if s.is_human}:
        _record(table, "rematch_offer", mine.index)
        _save(table, seats)
        _broadcast(table, "rematch_offer", seats, lobby=False)
        return None
    new = Table.objects.create(
        game=table.game, options=table.options, seat_count=table.seat_count, rated=table.rated,
        private=table.private, clock=table.clock, created_by_id=table.created_by_id,
        creator_key=table.creator_key, creator_name=table.creator_name, absent_bot=table.absent_bot,
        absent_grace=table.absent_grace,
    )
    n = table.seat_count
    new_seats = []
    for old in seats:
        new_seats.append(Seat(
            table=new, index=(old.index + 1) % n, user_id=old.user_id, guest_key=old.guest_key,
            name=old.name, bot_level=old.bot_level,
        ))
    new_seats.sort(key=lambda s: s.index)
    Seat.objects.bulk_create(new_seats)
    _record(new, "create", None, payload={"rematch_of": table.pk})
    _start(new, new_seats, timezone.now())
    _save(new, new_seats)
    table.rematch = new
    _record(table, "rematch", mine.index, payload={"table": new.pk})
    _save(table, seats)
    _broadcast(new, "start", new_seats)
    _broadcast(table, "rematch", seats, lobby=False)
    return new.pk


@_transaction
def kick_absent(table_id: Any, who: Who, seat: int, now: datetime | None = None) -> None:
    """A player hands the seat of someone who has been away longer than the
    table's grace period to a bot, so the game can go on."""
    now = now or timezone.now()
    table = _lock(table_id)
    seats = _seats(table)
    mine = _running_seat(table, seats, who)
    if not 0 <= seat < len(seats) or seat == mine.index:
        raise TableError("bad_seat")
    target = seats[seat]
    if not target.is_human:
        raise TableError("not_a_person")
    if not _is_absent(table, target, now):
        raise TableError("not_absent")
    level = _replacement_level(table)
    _record(table, "kick", seat, payload={"by": mine.index, "bot": level})
    _hand_to_bot(table, seats, target, level, now)
    _save(table, seats)
    _broadcast(table, "kick", seats)


def _is_absent(table: Table, seat: Seat, now: datetime) -> bool:
    if seat.absent_since is None or seat.absent_since > now - timedelta(seconds=table.absent_grace):
        return False
    return not Connection.objects.filter(table=table, seat=seat.index).exists()


# -- what the worker calls -----------------------------------------------------------------------

@_transaction
def time_out(table_id: Any, now: datetime | None = None) -> int:
    """Play the engine's timeout move for every seat whose time has run out (or
    end the game against it where the rules have none). Returns how many seats
    ran out. Safe to call at any time: it checks the deadlines under the lock."""
    now = now or timezone.now()
    table = _lock(table_id)
    if table.status != Table.Status.RUNNING:
        if table.clock_deadline is not None:
            table.clock_deadline = None
            table.save(update_fields=["clock_deadline"])
        return 0
    seats = _seats(table)
    rules = rules_for(table)
    ran_out = 0
    done: set[int] = set()
    # One timeout per seat and call: a seat with an empty bank keeps timing
    # out on each of its turns, one worker pass at a time, visibly.
    while table.status == Table.Status.RUNNING:
        state = _state(table, rules)
        to_act = set(rules.to_act(state))
        late = sorted(
            (s for s in seats
             if s.index in to_act and s.index not in done and s.deadline is not None and s.deadline <= now),
            key=lambda s: (s.deadline, s.index),
        )
        if not late:
            break
        seat = late[0]
        done.add(seat.index)
        ran_out += 1
        move = rules.timeout_move(state, seat.index)
        if move is None:
            _record(table, "flag", seat.index)
            _finish(table, seats, _loss(table.seat_count, seat.index, "timeout"), now)
            break
        _play(table, seats, rules, seat.index, move, "timeout", now)
    if not ran_out:
        # Nothing is due (a move came first): just store the right deadline.
        waiting = set(rules.to_act(_state(table, rules)))
        _update_clocks(table, seats, waiting, waiting, now)
        _save(table, seats)
        return 0
    _save(table, seats)
    _broadcast(table, "timeout", seats, lobby=table.is_over)
    return ran_out


@_transaction
def fire_countdown(table_id: Any, now: datetime | None = None) -> bool:
    """Play the rules' countdown move (Drekki's live auction closing) if it is due."""
    now = now or timezone.now()
    table = _lock(table_id)
    if table.status != Table.Status.RUNNING or table.countdown_deadline is None:
        if table.countdown_deadline is not None:
            table.countdown_deadline = None
            table.save(update_fields=["countdown_deadline"])
        return False
    if table.countdown_deadline > now:
        return False
    seats = _seats(table)
    rules = rules_for(table)
    countdown = rules.countdown(_state(table, rules))
    if countdown is None:
        table.countdown_deadline = None
        table.save(update_fields=["countdown_deadline"])
        return False
    _play(table, seats, rules, countdown.seat, countdown.move, "countdown", now)
    _save(table, seats)
    _broadcast(table, "countdown", seats, lobby=table.is_over)
    return True


@dataclass(frozen=True)
class BotTurn:
    """What a bot may know to choose its move: its seat's view, nothing more."""

    table: int
    game: str
    version: int
    seat: int
    level: str
    view: dict[str, Any]
    seed: tuple[int, int, int]


@_transaction
def claim_bot_turn(table_id: Any, lease_seconds: float | None = None, now: datetime | None = None) -> BotTurn | None:
    """Reserve the next bot move of a table for this worker.

    Returns the bot's turn to think about (outside any transaction), or None
    when nothing is due or another worker holds the table. The lease (bot_due
    pushed forward, LUDO_BOT_LEASE_SECONDS) makes a crashed worker's claim
    expire by itself.
    """
    now = now or timezone.now()
    if lease_seconds is None:
        lease_seconds = float(getattr(settings, "LUDO_BOT_LEASE_SECONDS", 10.0))
    query = Table.objects.select_for_update(skip_locked=True).filter(
        pk=table_id, status=Table.Status.RUNNING, bot_due__lte=now
    )
    table = query.first()
    if table is None:
        return None
    seats = _seats(table)
    rules = rules_for(table)
    state = _state(table, rules)
    to_act = rules.to_act(state)
    bots = [s for s in seats if s.is_bot and s.index in to_act]
    if not bots:
        table.bot_due = None
        table.save(update_fields=["bot_due"])
        return None
    seat = bots[0]
    table.bot_due = now + timedelta(seconds=lease_seconds)
    table.save(update_fields=["bot_due"])
    # Only what this seat may see leaves the table: a bot cannot cheat.
    return BotTurn(table.pk, table.game, table.version, seat.index, seat.bot_level,
                   rules.view(state, seat.index), (table.seed, seat.index, table.version))


def legal_moves_for_bot(table_id: Any, seat: int) -> list[str]:
    """The legal moves of a bot seat, for when a bot fails to answer."""
    table = _get(table_id)
    rules = rules_for(table)
    return rules.legal_moves(_state(table, rules), seat)


def release_bot_turn(table_id: Any) -> None:
    """Make a claimed bot turn due again at once (the bot failed to answer in time)."""
    Table.objects.filter(pk=table_id, status=Table.Status.RUNNING).update(bot_due=timezone.now())


@_transaction
def replace_absent(now: datetime | None = None) -> int:
    """Hand the seats of players away longer than their table's grace period to
    bots, at tables that asked for it. Returns how many seats changed."""
    now = now or timezone.now()
    candidates = (
        Seat.objects.filter(table__status=Table.Status.RUNNING, absent_since__isnull=False, bot_level="")
        .exclude(table__absent_bot="")
        .values_list("table_id", flat=True)
        .distinct()
    )
    changed = 0
    for table_id in list(candidates):
        table = _lock(table_id)
        if table.status != Table.Status.RUNNING:
            continue
        seats = _seats(table)
        for seat in seats:
            if seat.is_human and _is_absent(table, seat, now):
                _record(table, "replace", seat.index, payload={"bot": table.absent_bot})
                _hand_to_bot(table, seats, seat, table.absent_bot, now)
                changed += 1
        _save(table, seats)
        _broadcast(table, "replace", seats)
    return changed


@_transaction
def abandon_stale_open_tables(older_than: timedelta, now: datetime | None = None) -> int:
    """Abort open tables nobody touched for a long time."""
    now = now or timezone.now()
    ids = list(Table.objects.filter(status=Table.Status.OPEN, updated_at__lt=now - older_than)
               .values_list("id", flat=True)[:100])
    for table_id in ids:
        table = _lock(table_id)
        if table.status != Table.Status.OPEN:
            continue
        seats = _seats(table)
        _record(table, "abort", None, payload={"reason": "stale"})
        _finish(table, seats, None, now, status=Table.Status.ABORTED)
        _save(table, seats)
        _broadcast(table, "abort", seats)
    return len(ids)


def next_deadline() -> datetime | None:
    """The earliest moment any table needs the worker (bots, clocks, countdowns)."""
    found = Table.objects.filter(status=Table.Status.RUNNING).aggregate(
        bot=Min("bot_due"), clock=Min("clock_deadline"), countdown=Min("countdown_deadline")
    )
    moments = [m for m in found.values() if m is not None]
    return min(moments) if moments else None


# -- presence ----------------------------------------------------------------------------------

def _presence_broadcast(table_id: int) -> None:
    info = presence(table_id)
    message = {"type": "table.presence", "table": table_id, **info}
    _after_commit(lambda: _group_send(f"table.{table_id}", message))


@_transaction
def connect(table_id: int, channel_name: str, who: Who, seat: int | None, now: datetime | None = None) -> None:
    """Record an open socket on the table (presence)."""
    now = now or timezone.now()
    Connection.objects.update_or_create(
        channel_name=channel_name,
        defaults={"table_id": table_id, "seat": seat, "user_id": who.user_id,
                  "guest_key": "" if who.user_id else who.guest_key, "name": who.name, "last_seen": now},
    )
    if seat is not None:
        Seat.objects.filter(table_id=table_id, index=seat).update(absent_since=None)
    _presence_broadcast(table_id)


@_transaction
def disconnect(channel_name: str, now: datetime | None = None) -> None:
    now = now or timezone.now()
    row = Connection.objects.filter(channel_name=channel_name).first()
    if row is None:
        return
    row.delete()
    _mark_absent(row.table_id, row.seat, now)
    _presence_broadcast(row.table_id)


def _mark_absent(table_id: int, seat: int | None, now: datetime) -> None:
    if seat is None or Connection.objects.filter(table_id=table_id, seat=seat).exists():
        return
    Seat.objects.filter(
        table_id=table_id, index=seat, table__status=Table.Status.RUNNING, absent_since__isnull=True
    ).update(absent_since=now)


def touch_many(sockets: dict[str, int], now: datetime | None = None) -> dict[int, int]:
    """Refresh the presence of these sockets (channel name -> table id) in one
    statement; return the version of each of their tables, so that a socket
    that missed a broadcast (a lost pub/sub message) notices and catches up.
    A server process gathers its sockets' pings and calls this every few
    seconds (games.consumers), instead of one database call per ping."""
    if not sockets:
        return {}
    Connection.objects.filter(channel_name__in=list(sockets)).update(last_seen=now or timezone.now())
    return dict(Table.objects.filter(pk__in=set(sockets.values())).values_list("id", "version"))


@_transaction
def prune_connections(older_than: timedelta, now: datetime | None = None) -> int:
    """Forget sockets that stopped refreshing (their server process died)."""
    now = now or timezone.now()
    stale = list(Connection.objects.filter(last_seen__lt=now - older_than))
    for row in stale:
        row.delete()
    for table_id, seat in {(r.table_id, r.seat) for r in stale}:
        _mark_absent(table_id, seat, now)
    for table_id in {r.table_id for r in stale}:
        _presence_broadcast(table_id)
    return len(stale)


def seat_now(table_id: int, who: Who) -> int | None:
    seat = _seat_of(_seats(_get(table_id)), who)
    return seat.index if seat else None


# -- chat ------------------------------------------------------------------------------------

def clean_chat(text: Any) -> str:
    if not isinstance(text, str):
        raise TableError("bad_chat")
    # Drop control and format characters, keep line breaks out: one line per message.
    kept = "".join(
        ch for ch in text if unicodedata.category(ch)[0] != "C" or ch == " "
    )
    kept = " ".join(kept.split())
    if not 1 <= len(kept) <= MAX_CHAT_CHARS:
        raise TableError("bad_chat")
    return kept


@_transaction
def post_chat(table_id: Any, who: Who, text: Any, invite: str | None = None) -> dict[str, Any]:
    """Players talk among themselves; spectators have their own chat, which the
    players do not see."""
    text = clean_chat(text)
    table = _get(table_id)
    seats = _seats(table)
    if not _can_watch(table, seats, who, invite):
        raise TableError("private_table")
    if not who.name:
        raise TableError("name_required")
    mine = _seat_of(seats, who)
    channel = ChatMessage.Channel.PLAYERS if mine is not None else ChatMessage.Channel.SPECTATORS
    message = ChatMessage.objects.create(
        table=table, channel=channel, seat=mine.index if mine else None, user_id=who.user_id,
        guest_key="" if who.user_id else who.guest_key, name=who.name, text=text,
    )
    data = message.to_dict()
    group = chat_group(table.pk, channel)
    _after_commit(lambda: _group_send(group, {"type": "chat.message", "message": data}))
    return data


# -- the hosts of the house (staff) ------------------------------------------------------------------

def _staff(who: Who) -> None:
    if not who.is_staff:
        raise TableError("staff_only")


def _moderation(table: Table | None, who: Who, kind: str, **detail: Any) -> None:
    ModerationLog.objects.create(table=table, staff_id=who.user_id, kind=kind, detail=detail)


@_transaction
def staff_end(table_id: Any, who: Who, reason: str = "") -> None:
    """A host ends an abandoned table (no result)."""
    _staff(who)
    table = _lock(table_id)
    if table.is_over:
        raise TableError("game_over")
    seats = _seats(table)
    _record(table, "staff_end", None, payload={"by": who.name})
    _finish(table, seats, None, timezone.now(), status=Table.Status.ABORTED)
    _save(table, seats)
    _moderation(table, who, "end", reason=reason[:200])
    _broadcast(table, "staff_end", seats)


@_transaction
def staff_remove(table_id: Any, who: Who, seat: int, reason: str = "") -> None:
    """A host removes a player: before the start the seat is freed, during the
    game a bot takes it over."""
    _staff(who)
    table = _lock(table_id)
    if table.is_over:
        raise TableError("game_over")
    seats = _seats(table)
    if not isinstance(seat, int) or not 0 <= seat < len(seats):
        raise TableError("bad_seat")
    target = seats[seat]
    if not target.is_human:
        raise TableError("not_a_person")
    removed = target.name
    if table.status == Table.Status.OPEN:
        target.user_id = None
        target.guest_key = ""
        target.name = ""
        Connection.objects.filter(table=table, seat=seat).update(seat=None)
        _record(table, "staff_remove", seat)
    else:
        level = _replacement_level(table)
        _record(table, "staff_remove", seat, payload={"bot": level})
        _hand_to_bot(table, seats, target, level, timezone.now())
    _save(table, seats)
    _moderation(table, who, "remove", seat=seat, name=removed, reason=reason[:200])
    _broadcast(table, "staff_remove", seats)


@_transaction
def staff_hide_chat(message_id: Any, who: Who) -> dict[str, Any]:
    _staff(who)
    try:
        message = ChatMessage.objects.select_related("table").get(pk=int(message_id))
    except (ChatMessage.DoesNotExist, TypeError, ValueError):
        raise TableError("no_such_message") from None
    message.hidden = True
    message.save(update_fields=["hidden"])
    _moderation(message.table, who, "hide_chat", message=message.pk, name=message.name, text=message.text)
    data = message.to_dict()
    group = chat_group(message.table_id, message.channel)
    _after_commit(lambda: _group_send(group, {"type": "chat.message", "message": data}))
    return data


# -- replay and export -------------------------------------------------------------------------------

def _check_replay_access(table: Table, seats: list[Seat], who: Who, invite: str | None) -> None:
    if not _can_watch(table, seats, who, invite):
        raise TableError("private_table")


def replay(table_id: Any, who: Who, invite: str | None = None) -> dict[str, Any]:
    """The game move by move from its log: after each step, the spectator view.

    Moves themselves are listed only once the game is over (while it runs, a
    move may be a secret, such as a card chosen face down).
    """
    table = _get(table_id)
    seats = _seats(table)
    _check_replay_access(table, seats, who, invite)
    rules = rules_for(table)
    over = table.is_over
    steps: list[dict[str, Any]] = []
    state = None
    for action in Action.objects.filter(table=table).order_by("version"):
        if action.kind == "start":
            state = rules.new_game(table.seat_count, seed=table.seed, options=table.options)
        elif action.kind in MOVE_KINDS and state is not None:
            state = rules.play(state, action.seat, action.move)
        else:
            continue
        step = {"v": action.version, "kind": action.kind, "seat": action.seat,
                "at": action.created_at.isoformat(), "view": rules.view(state, None)}
        if over and action.kind in MOVE_KINDS:
            step["move"] = action.move
        steps.append(step)
    if state is not None and table.state is not None and rules.dump(state) != table.state:
        log.error("table %s: the log does not replay to the stored state", table.pk)
    return {
        "table": table.pk,
        "game": table.game,
        "status": table.status,
        "v": table.version,
        "options": table.options,
        "seats": [seat_public(s) for s in seats],
        "outcome": table.outcome,
        "steps": steps,
    }


def export(table_id: Any, who: Who, invite: str | None = None) -> dict[str, Any]:
    """The table as one JSON document: settings, players, the whole action log
    (moves only once the game is over) and the final spectator view."""
    table = _get(table_id)
    seats = _seats(table)
    _check_replay_access(table, seats, who, invite)
    over = table.is_over
    actions = []
    for action in Action.objects.filter(table=table).order_by("version"):
        item = {"v": action.version, "kind": action.kind, "seat": action.seat,
                "at": action.created_at.isoformat()}
        if action.payload:
            item["data"] = action.payload
        if over and action.move:
            item["move"] = action.move
        actions.append(item)
    view = None
    if table.state is not None:
        rules = rules_for(table)
        view = rules.view(_state(table, rules), None)
    return {
        "format": "ludo-table/1",
        "table": table.pk,
        "game": table.game,
        "options": table.options,
        "seat_count": table.seat_count,
        "rated": table.rated,
        "clock": table.clock or {"kind": "none"},
        "status": table.status,
        "created_at": table.created_at.isoformat(),
        "started_at": table.started_at.isoformat() if table.started_at else None,
        "finished_at": table.finished_at.isoformat() if table.finished_at else None,
        "seats": [seat_public(s) for s in seats],
        "outcome": table.outcome,
        "actions": actions,
        "final_view": view,
    }


def tables_for_staff() -> list[dict[str, Any]]:
    """Every table that is not over, private ones included, for the hosts."""
    return lobby_tables(include_private=True)


__all__ = [
    "Who", "TableError", "create_table", "join_table", "leave_table", "add_bots", "remove_bot", "start_table",
    "quick_game", "play_move", "bot_move", "draw", "resign", "abort", "rematch", "kick_absent", "time_out",
    "fire_countdown", "claim_bot_turn", "replace_absent", "post_chat", "staff_end", "staff_remove",
    "staff_hide_chat", "replay", "export", "snapshot", "open_table", "connect", "disconnect", "touch_many",
    "prune_connections", "lobby_tables", "presence",
]
