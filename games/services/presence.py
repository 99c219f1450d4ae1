"""Presence: which sockets are open on a table, and for which seats. Written
without the table's lock and without a new version (it changes no game)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db.models import Count
from django.utils import timezone

from games.models import Connection, Seat, Table
from games.protocol import TableError
from games.services.broadcasts import _send_after_commit
from games.services.store import _get, _seats, _transaction
from games.services.tables import _seat_of
from games.services.who import Who


def presence(table_id: int) -> dict[str, Any]:
    rows = Connection.objects.filter(table_id=table_id).values("seat").annotate(n=Count("id"))
    seated = sorted(r["seat"] for r in rows if r["seat"] is not None)
    spectators = sum(r["n"] for r in rows if r["seat"] is None)
    return {"seats": seated, "spectators": spectators}


def _presence_broadcast(table_id: int) -> None:
    info = presence(table_id)
    message = {"type": "table.presence", "table": table_id, **info}
    _send_after_commit(f"table.{table_id}", message)


@_transaction
def connect(table_id: int, channel_name: str, who: Who, seat: int | None, now: datetime | None = None) -> None:
    """Record an open socket on the table (presence)."""
    now = now or timezone.now()
    try:
        who = who.current()  # never a deleted account's old name
    except TableError:
        return  # a deleted or deactivated account: no presence (its sockets are being closed)
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
        table_id=table_id, index=seat, table__status__in=[Table.Status.OPEN, Table.Status.RUNNING],
        absent_since__isnull=True,
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
