"""The table store: how an action reads and writes a table, its seats and its log.

Every action locks the table row (``_lock``), reads its seats (``_seats``),
appends one ``Action`` per new version (``_record``) and writes back only the
columns that changed (``_save``), in plain SQL with the values prepared by the
fields themselves as the ORM does: these statements run on every move, and
building them through the ORM cost more CPU than the database spent running
them. ``_transaction`` wraps an action (and serialises SQLite's writers);
``_after_commit`` queues what leaves once it has committed.

Both move drivers use this interface: the ORM's connection in a database
thread (``games.services.moves.play_move``), and psycopg's async connection on
the event loop (``games.services.loop_moves``), through the few names at the
end of this module: ``LOCKED_READ_SQL`` and ``locked_from_rows`` (the locked
read in one round trip), ``thawed`` (a held version to apply a move to) and
``collected`` (the statements gathered instead of run, to be sent in one
round trip, guarded by the version or not).
"""

from __future__ import annotations

import contextlib
import functools
import operator
import threading
from collections.abc import Callable, Iterable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connection, connections, transaction
from django.db.models.base import ModelState

from games.models import Action, Seat, Table
from games.protocol import TableError


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


def _after_commit(send: Callable[[], None]) -> None:
    batch = _writes.get()
    if batch is not None:
        batch.after.append(send)
    else:
        transaction.on_commit(send)


# -- what the event loop's move driver (games.services.loop_moves) uses ---------------------

# BEGIN, the table's row locked, its seats: one query, parameters [pk, pk].
LOCKED_READ_SQL = f"BEGIN; {_LOCK_SQL}; {_SEATS_SQL}"


def locked_from_rows(table_columns: Iterable[str], table_rows: Iterable[tuple], seat_columns: Iterable[str],
                     seat_rows: Iterable[tuple]) -> tuple[Table, list[Seat]]:
    """The table and its seats from LOCKED_READ_SQL's two results, ready for an action."""
    return _locked(_models(Table, table_columns, table_rows)), _loaded_seats(_models(Seat, seat_columns, seat_rows))


def thawed(table: Table, seats: list[Seat]) -> tuple[Table, list[Seat]]:
    """Copies of a held version's table and seats to apply an action to (the
    held ones stay as they are: sockets build their frames from them)."""
    table = _copy_model(table)
    table.__dict__.pop("_recorded", None)
    table._as_loaded = _table_values(table)
    return table, _loaded_seats([_copy_model(s) for s in seats])


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


@contextlib.contextmanager
def collected(guard: int | None = None) -> Iterator[_Writes]:
    """Inside, an action's statements are collected instead of run (and what
    follows its commit is kept in ``after``): the caller sends them. ``guard``:
    the version the table must still be at (see ``_Writes.guarded``)."""
    batch = _Writes(guard=guard)
    token = _writes.set(batch)
    try:
        yield batch
    finally:
        _writes.reset(token)
