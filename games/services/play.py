"""The engine, applied under the lock: a move played, the state stored and
everything that follows from it (the outcome, the clocks, the rules'
countdown, the next bot move). Shared by the actions; no action of its own."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings

from games.engines.base import IllegalMove, Outcome, Rules
from games.models import Connection, Seat, Table
from games.protocol import TableError
from games.services.clocks import _update_clocks
from games.services.store import _record, _writes
from games.services.tables import _state, rules_for

BOT_LEVELS = ("easy", "medium", "hard")
DEFAULT_BOT_LEVEL = "easy"


def bot_think_seconds() -> float:
    """Pause before a bot moves, so that a person can follow the game."""
    return float(getattr(settings, "LUDO_BOT_THINK_SECONDS", 1.0))


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
    if table.rated:
        from games.ratings import service as ratings  # games.ratings reads the tables' models

        ratings.game_ended(table, seats, now, batched=_writes.get() is not None)


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
    if table.rated:
        from games.ratings import service as ratings

        ratings.seat_left(table, seat, now)
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
