"""Actions before the game: creating a table, taking and leaving seats,
bots on empty seats, the start."""

from __future__ import annotations

import zlib
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import connection
from django.db.models import Q
from django.utils import timezone

from games import engines
from games.bots.names import bot_name
from games.engines.base import OptionError
from games.models import Connection, Seat, Table
from games.protocol import TableError
from games.ratings.eligibility import check_rated_player
from games.services.broadcasts import _broadcast
from games.services.clocks import parse_clock
from games.services.play import DEFAULT_BOT_LEVEL, _advance, _check_level, _finish
from games.services.store import _lock, _record, _save, _seats, _transaction
from games.services.tables import _can_watch, _is_host, _seat_of, check_one_seat, rules_for, seat_person
from games.services.who import Who


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
    waiting: bool = True,
    pass_and_play: bool = False,
) -> Table:
    """A new table, open for players; its creator hosts it and (by default) takes seat 0.
    A person may have LUDO_MAX_OPEN_TABLES tables waiting (``waiting=False``: one
    that starts at once, as quick play's), their live pass-and-play tables
    included (``pass_and_play``: games.living seats every person of it on the
    creator's device)."""
    who = who.current()  # never a deleted account's old name
    if not who.can_sit:
        raise TableError("name_required")
    if rated:
        check_rated_player(who)
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
    if waiting:  # a table that will wait for players (quick play starts at once)
        _check_open_tables(who)
    if isinstance(absent_grace, bool) or not isinstance(absent_grace, int) or not 10 <= absent_grace <= 86400 * 30:
        raise TableError("bad_options", "absent_grace must be 10 s to 30 days")
    table = Table.objects.create(
        game=rules.slug,
        options=checked,
        seat_count=count,
        rated=bool(rated),
        private=bool(private),
        pass_and_play=bool(pass_and_play),
        clock=parse_clock(clock),
        created_by_id=who.user_id,
        creator_key="" if who.user_id else who.guest_key,
        creator_name=who.name,
        absent_bot=absent_bot,
        absent_grace=absent_grace,
    )
    seat_rows = [Seat(table=table, index=i) for i in range(count)]
    if sit:
        seat_person(table, seat_rows, seat_rows[0], who)
    Seat.objects.bulk_create(seat_rows)
    _record(table, "create", 0 if sit else None, payload={"name": who.name} if sit else {})
    table.save()
    _broadcast(table, "create", seat_rows)
    return table


def max_open_tables() -> int:
    return int(getattr(settings, "LUDO_MAX_OPEN_TABLES", 3))


# A pass-and-play table nobody has played at for this long no longer counts as
# one of its creator's tables (the worker gives up open tables after as long).
PASS_TABLE_IDLE = timedelta(hours=6)
# pg_advisory_xact_lock's first key: this lock's namespace (the second is the person's).
_OPEN_TABLES_LOCK = 0x4C55444F  # "LUDO"


def open_tables_of(who: Who, now: datetime | None = None) -> int:
    """How many of LUDO_MAX_OPEN_TABLES the person behind ``who`` uses: their
    tables waiting for players, and their pass-and-play tables in play (started
    at once, their bots work for that one person) touched in the last
    PASS_TABLE_IDLE."""
    now = now or timezone.now()
    person = who.person
    mine = (Table.objects.filter(created_by_id=person.user_id) if person.user_id is not None
            else Table.objects.filter(created_by__isnull=True, creator_key=person.guest_key))
    counted = Q(status=Table.Status.OPEN) | Q(
        status=Table.Status.RUNNING, pass_and_play=True, updated_at__gte=now - PASS_TABLE_IDLE)
    return mine.filter(counted).count()


def _check_open_tables(who: Who) -> None:
    """At most LUDO_MAX_OPEN_TABLES tables per person (hosts of the house
    excepted), as ``open_tables_of`` counts them: one person cannot fill the
    lobby, nor start bots without end. Creations by the same person take turns
    (a lock held until the transaction ends), so that racing ones cannot all see
    the same count."""
    if who.is_staff:
        return
    person = who.person
    if person.user_id is None and not person.guest_key:
        return  # nobody to count: create_table refuses them anyway (name_required)
    _lock_person(f"u:{person.user_id}" if person.user_id is not None else person.guest_key)
    if open_tables_of(who) >= max_open_tables():
        raise TableError("too_many_tables", max=max_open_tables())


def _lock_person(key: str) -> None:
    """Make the creations of one person take turns until their transactions end.
    PostgreSQL: a transaction-level advisory lock on the person (two people whose
    keys hash alike merely wait for each other). SQLite: its writers already take
    turns (BEGIN IMMEDIATE, games.services.store._transaction)."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)",
                       [_OPEN_TABLES_LOCK, zlib.crc32(key.encode()) - 2**31])


@_transaction
def join_table(table_id: Any, who: Who, seat: int | None = None, invite: str | None = None) -> int:
    """Take a seat (the first free one unless ``seat`` says which) before the start."""
    who = who.current()  # never a deleted account's old name
    table = _lock(table_id)
    seats = _seats(table)
    if not _can_watch(table, seats, who, invite):
        raise TableError("private_table")
    if table.status != Table.Status.OPEN:
        raise TableError("not_open")
    if not who.can_sit:
        raise TableError("name_required")
    if table.rated:
        check_rated_player(who)
    check_one_seat(table, seats, who)  # before "full" or "taken": say what matters
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
            raise TableError("seat_taken")
    seat_person(table, seats, target, who)
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
        seat.name = bot_name(level, seat.index)
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
    rows[seat].name = ""
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
    table = create_table(who, game, seats, options, clock=clock, absent_bot=level, waiting=False)
    add_bots(table.pk, who, level)
    start_table(table.pk, who)
    table.refresh_from_db()
    return table
