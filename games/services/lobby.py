"""The lobby: what it shows of each public table, and how a socket knows it changed."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Max

from games import lobby_filter
from games.models import Seat, Table
from games.services.who import Who


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
    """What the lobby shows of a public table; None once it is no longer listed.

    A pass-and-play table (games.living) is never listed: its people sit at one device,
    nobody can join it, and their names are nobody else's business."""
    if table.private or table.pass_and_play or table.is_over:
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
        tables = tables.filter(private=False, pass_and_play=False)
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
    if not include_private:
        entries = lobby_filter.visible(entries)
    return entries


def lobby_entry_unchecked(table: Table, seats: list[Seat]) -> dict[str, Any]:
    """The entry of a table whatever its privacy (for the hosts' list)."""
    private, table.private = table.private, False
    pass_and_play, table.pass_and_play = table.pass_and_play, False
    try:
        return lobby_entry(table, seats) or {}
    finally:
        table.private, table.pass_and_play = private, pass_and_play


def current_version(table_id: int) -> int | None:
    return Table.objects.filter(pk=table_id).values_list("version", flat=True).first()


def lobby_stamp() -> tuple[int, Any]:
    """Changes whenever the lobby's list may have changed (for polling sockets)."""
    found = Table.objects.aggregate(n=Count("id"), last=Max("updated_at"))
    return found["n"], found["last"]


def tables_for_staff() -> list[dict[str, Any]]:
    """Every table that is not over, private ones included, for the hosts."""
    return lobby_tables(include_private=True)
