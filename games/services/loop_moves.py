"""A socket's move on the server's event loop (PostgreSQL).

A player's move is most of what a live table's server does. On PostgreSQL a
socket plays it without leaving the event loop: its own connections (psycopg's
async ones, with Django's adapters), two round trips (BEGIN, lock, seats in
one query; the log row, the table's and seats' changes and COMMIT in the
other) and the same checks and writes as play_move (``_move``, with its
statements collected by ``_writes``). No database thread, no hand-over of the
GIL between threads at every query. Broadcasts leave after the COMMIT, as
with on_commit. (psycopg's pipeline mode would do the same round trips, but
it polls a writable socket in a loop while it waits: more CPU, not less.)
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from typing import Any

from django.conf import settings
from django.db import connection
from django.utils import timezone

from games.protocol import TableError
from games.services import store
from games.services.moves import _move
from games.services.snapshots import _cached, _Frozen
from games.services.who import Who

log = logging.getLogger(__name__)


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
    try:
        # Multi-statement queries, values bound on the client as Django does.
        cursor = pool.cursor(conn)
        await cursor.execute(store.LOCKED_READ_SQL, [pk, pk])
        cursor.nextset()
        table_rows = _columns(cursor), await cursor.fetchall()
        cursor.nextset()
        table, seats = store.locked_from_rows(*table_rows, _columns(cursor), await cursor.fetchall())
        with store.collected() as batch:
            version = _move(table, seats, who, move, expected_version, seat, timezone.now())
        await cursor.execute(*batch.sql())
    except BaseException:
        await _rollback(conn)
        raise
    for after in batch.after:
        after()
    return version


async def _move_on_held(conn: Any, pool: _MoveConnections, held: _Frozen, who: Who, move: str,
                        expected_version: int, seat: int | None) -> int | None:
    """The move applied to the version this process holds in memory (the one
    the player saw, usually: this process sent it), written as one statement
    with no read (``store.collected`` with a guard): the table's UPDATE takes the row lock
    and goes through only if the row is still at that version; the log row and
    the seats are written after it and only with it.

    Every change to what a move reads (seats, clocks, state, status) makes a
    new version, so a row still at the version held is the row held; the
    columns changed without one (presence, the worker's lease) are not read
    here and not written back. Returns None, having written nothing, when the
    move is refused or the table has moved on: the locked path then answers
    (with the table as it is now, and the exact refusal)."""
    import psycopg

    table, seats = store.thawed(held.table, held.seats)
    try:
        with store.collected(guard=expected_version) as batch:
            version = _move(table, seats, who, move, expected_version, seat, timezone.now(), held.state)
    except TableError:
        return None
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
