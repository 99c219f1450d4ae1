"""Which open tables the lobby leaves out: those whose creator left more than
ABANDONED_AFTER ago (nobody is there to start the game).

The creator "is there" while a socket of theirs is open on the table (a Connection
row). Once none is, they left at their seat's ``absent_since`` when that is recorded,
otherwise at the table's last change (a table created through the API and never
opened, or one whose creator's last socket closed before presence was tracked for
open tables). Tables in play are always listed, as are private ones' absence (they
are not listed anyway).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from django.db.models import Q
from django.utils import timezone

from games.models import Connection, Seat, Table

ABANDONED_AFTER = timedelta(minutes=10)


def abandoned_ids(table_ids: Iterable[int], now: datetime | None = None) -> set[int]:
    """The ids among ``table_ids`` of open tables whose creator left more than ABANDONED_AFTER ago."""
    now = now or timezone.now()
    cutoff = now - ABANDONED_AFTER
    tables = list(
        Table.objects.filter(pk__in=list(table_ids), status=Table.Status.OPEN)
        .only("pk", "created_by_id", "creator_key", "updated_at")
    )
    if not tables:
        return set()
    present: set[int] = set()
    for row in Connection.objects.filter(table__in=tables).values("table_id", "user_id", "guest_key"):
        present.add((row["table_id"], row["user_id"], row["guest_key"]))
    seats: dict[int, list[Seat]] = {}
    for seat in Seat.objects.filter(table__in=tables).filter(Q(user__isnull=False) | ~Q(guest_key="")):
        seats.setdefault(seat.table_id, []).append(seat)
    found = set()
    for table in tables:
        if _creator_here(table, present):
            continue
        mine = [s for s in seats.get(table.pk, []) if _is_creator(table, s.user_id, s.guest_key)]
        left_at = next((s.absent_since for s in mine if s.absent_since is not None), None) or table.updated_at
        if left_at is not None and left_at < cutoff:
            found.add(table.pk)
    return found


def _is_creator(table: Table, user_id: int | None, guest_key: str) -> bool:
    if table.created_by_id is not None:
        return user_id == table.created_by_id
    return bool(table.creator_key) and user_id is None and guest_key == table.creator_key


def _creator_here(table: Table, present: set[tuple[int, Any, str]]) -> bool:
    return any(tid == table.pk and _is_creator(table, uid, key) for tid, uid, key in present)


def visible(entries: list[dict[str, Any]], now: datetime | None = None) -> list[dict[str, Any]]:
    """The lobby entries (services.lobby_tables) without the abandoned open tables."""
    hidden = abandoned_ids([e["id"] for e in entries if e.get("status") == Table.Status.OPEN], now)
    return [e for e in entries if e["id"] not in hidden]
