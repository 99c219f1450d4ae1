"""Reading a table: its rules and state, who sits where, who may watch, who hosts."""

from __future__ import annotations

import hmac
from collections.abc import Iterable
from typing import Any

from games import engines
from games.engines.base import Rules
from games.models import Seat, Table
from games.protocol import TableError
from games.services.store import _get, _seats
from games.services.who import Who


def rules_for(table: Table) -> Rules:
    try:
        return engines.get(table.game)
    except KeyError:
        raise TableError("unknown_game", table.game) from None


def _seat_of(seats: Iterable[Seat], who: Who) -> Seat | None:
    # A person holding several seats (pass-and-play) acts as the one their
    # socket chose (games.services.living.AsSeat), or as none of them.
    wanted = getattr(who, "as_seat", None)
    for seat in seats:
        if not seat.is_bot and who.holds(seat) and (wanted is None or seat.index == wanted):
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


def open_table(table_id: Any, who: Who, invite: str | None = None) -> tuple[Table, int | None]:
    """Check that ``who`` may watch the table; return it and the seat they hold."""
    table = _get(table_id)
    seats = _seats(table)
    if not _can_watch(table, seats, who, invite):
        raise TableError("private_table")
    seat = _seat_of(seats, who)
    return table, (seat.index if seat else None)
