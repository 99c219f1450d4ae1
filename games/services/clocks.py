"""Time controls: the clock a table was created with (or the idle limit of a
rated table without one), each seat's time, and what a socket shows of them.
The worker plays the timeouts (games.services.timers)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings

from games.models import Seat, Table
from games.protocol import TableError

MAX_CLOCK_SECONDS = 60 * 86400


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


def idle_seconds(table: Table) -> int | None:
    """The idle limit of a rated table without a clock: a seat whose turn lasts
    longer loses (games.services.timers), so nobody can stall a rated game by
    walking away. None for every other table (a clock already ends it)."""
    if not table.rated or (table.clock or {}).get("kind", "none") != "none":
        return None
    return int(getattr(settings, "LUDO_RATED_IDLE_SECONDS", 600))


def _per_turn_seconds(table: Table) -> int | None:
    """The fixed time of each turn: a per-move clock's, or the idle limit."""
    if (table.clock or {}).get("kind") == "move":
        return int(table.clock["seconds"])
    return idle_seconds(table)


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
    per_turn = _per_turn_seconds(table)
    if kind == "none" and per_turn is None:
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
            seat.deadline = seat.turn_started_at + timedelta(seconds=per_turn)
        deadlines.append(seat.deadline)
    table.clock_deadline = min(deadlines) if deadlines else None


def _clock_info(table: Table, seats: list[Seat], now: datetime) -> dict[str, Any]:
    kind = (table.clock or {}).get("kind", "none")
    info: dict[str, Any] = {**(table.clock or {"kind": "none"}), "server_time": now.isoformat()}
    per_turn = _per_turn_seconds(table)
    if kind == "none":
        if per_turn is None:
            return info
        info["idle"] = per_turn
    running = table.status == Table.Status.RUNNING
    per_seat = []
    for seat in seats:
        ticking = running and seat.turn_started_at is not None and not seat.is_bot
        if kind == "game":
            left = seat.clock_ms if seat.clock_ms is not None else int(table.clock["base"]) * 1000
            if ticking:
                left -= _ms(now - seat.turn_started_at)
        else:
            left = per_turn * 1000
            if ticking and seat.deadline is not None:
                left = _ms(seat.deadline - now)
        per_seat.append({"ms": max(0, left), "running": ticking})
    info["seats"] = per_seat
    return info
