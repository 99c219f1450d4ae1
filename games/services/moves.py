"""Moves: a player's (``play_move``) and a bot's (``bot_move``). The checks and
writes of a player's move (``_move``) are shared with the driver on the event
loop (games.services.loop_moves)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.utils import timezone

from games.models import Seat, Table
from games.protocol import TableError
from games.services.broadcasts import _broadcast
from games.services.play import _play
from games.services.snapshots import _remember
from games.services.store import _lock, _save, _seats, _transaction
from games.services.tables import _seat_of, rules_for
from games.services.who import Who


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
    if table.is_over and expected_version != table.version and _seat_of(seats, who) is not None:
        # A move that lost the race with the one that ended the game: what the
        # player needs to know is that the table moved on (its update follows).
        raise TableError("stale_version", v=table.version)
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
