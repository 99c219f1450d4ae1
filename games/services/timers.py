"""What the worker plays on a table when time passes: timeouts (and the idle
limit of rated tables without a clock), the rules' countdown, absent players
replaced, forgotten open tables aborted."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone

from games.models import Table
from games.services.broadcasts import _broadcast
from games.services.clocks import _update_clocks, idle_seconds
from games.services.endings import _active_seats, _is_absent
from games.services.play import _finish, _hand_to_bot, _loss, _play, _replacement_level
from games.services.store import _lock, _record, _save, _seats, _transaction
from games.services.tables import _state, rules_for


@_transaction
def time_out(table_id: Any, now: datetime | None = None) -> int:
    """Play the engine's timeout move for every seat whose time has run out (or
    end the game against it where the rules have none). Returns how many seats
    ran out. Safe to call at any time: it checks the deadlines under the lock."""
    now = now or timezone.now()
    table = _lock(table_id)
    if table.status != Table.Status.RUNNING:
        if table.clock_deadline is not None:
            table.clock_deadline = None
            table.save(update_fields=["clock_deadline"])
        return 0
    seats = _seats(table)
    rules = rules_for(table)
    ran_out = 0
    done: set[int] = set()
    # One timeout per seat and call: a seat with an empty bank keeps timing
    # out on each of its turns, one worker pass at a time, visibly.
    while table.status == Table.Status.RUNNING:
        state = _state(table, rules)
        to_act = set(rules.to_act(state))
        late = sorted(
            (s for s in seats
             if s.index in to_act and s.index not in done and s.deadline is not None and s.deadline <= now),
            key=lambda s: (s.deadline, s.index),
        )
        if not late:
            break
        seat = late[0]
        done.add(seat.index)
        ran_out += 1
        idle = idle_seconds(table)
        if idle is not None:
            _idle_loss(table, seats, seat, idle, now)
            continue
        move = rules.timeout_move(state, seat.index)
        if move is None:
            _record(table, "flag", seat.index)
            _finish(table, seats, _loss(table.seat_count, seat.index, "timeout"), now)
            break
        _play(table, seats, rules, seat.index, move, "timeout", now)
    if not ran_out:
        # Nothing is due (a move came first): just store the right deadline.
        waiting = set(rules.to_act(_state(table, rules)))
        _update_clocks(table, seats, waiting, waiting, now)
        _save(table, seats)
        return 0
    _save(table, seats)
    _broadcast(table, "timeout", seats, lobby=table.is_over)
    return ran_out


def _idle_loss(table: Table, seats: list[Seat], seat: Seat, idle: int, now: datetime) -> None:
    """A seat idle past the limit of a rated table without a clock has walked
    away: it loses, as if it had resigned (with two players the other wins;
    with more, a bot plays on for the seat and its player ranks last)."""
    _record(table, "flag", seat.index, payload={"idle": idle})
    if len(_active_seats(seats)) <= 2:
        seat.resigned = True
        _finish(table, seats, _loss(table.seat_count, seat.index, "timeout"), now)
    else:
        seat.resigned = True
        _hand_to_bot(table, seats, seat, _replacement_level(table), now)


@_transaction
def fire_countdown(table_id: Any, now: datetime | None = None) -> bool:
    """Play the rules' countdown move (Drekki's live auction closing) if it is due."""
    now = now or timezone.now()
    table = _lock(table_id)
    if table.status != Table.Status.RUNNING or table.countdown_deadline is None:
        if table.countdown_deadline is not None:
            table.countdown_deadline = None
            table.save(update_fields=["countdown_deadline"])
        return False
    if table.countdown_deadline > now:
        return False
    seats = _seats(table)
    rules = rules_for(table)
    countdown = rules.countdown(_state(table, rules))
    if countdown is None:
        table.countdown_deadline = None
        table.save(update_fields=["countdown_deadline"])
        return False
    _play(table, seats, rules, countdown.seat, countdown.move, "countdown", now)
    _save(table, seats)
    _broadcast(table, "countdown", seats, lobby=table.is_over)
    return True


def replace_absent(now: datetime | None = None) -> int:
    """Hand the seats of players away longer than their table's grace period to
    bots, at tables that asked for it. Returns how many seats changed."""
    now = now or timezone.now()
    ids = list(tables_with_absent_players().values_list("id", flat=True))
    return sum(replace_absent_at(table_id, now) for table_id in ids)


def tables_with_absent_players():
    """The running tables where a person is away and a bot may take their seat."""
    return (
        Table.objects.filter(status=Table.Status.RUNNING, seats__absent_since__isnull=False,
                             seats__bot_level="")
        .exclude(absent_bot="")
        .distinct()
    )


@_transaction
def replace_absent_at(table_id: Any, now: datetime | None = None) -> int:
    """``replace_absent`` at one table (each table in a transaction of its own)."""
    now = now or timezone.now()
    table = _lock(table_id)
    if table.status != Table.Status.RUNNING:
        return 0
    seats = _seats(table)
    changed = 0
    for seat in seats:
        if seat.is_human and _is_absent(table, seat, now):
            _record(table, "replace", seat.index, payload={"bot": table.absent_bot})
            _hand_to_bot(table, seats, seat, table.absent_bot, now)
            changed += 1
    _save(table, seats)
    _broadcast(table, "replace", seats)
    return changed


def stale_open_tables(older_than: timedelta, now: datetime | None = None):
    """Open tables nobody touched for ``older_than``."""
    now = now or timezone.now()
    return Table.objects.filter(status=Table.Status.OPEN, updated_at__lt=now - older_than)


def abandon_stale_open_tables(older_than: timedelta, now: datetime | None = None) -> int:
    """Abort open tables nobody touched for a long time."""
    now = now or timezone.now()
    ids = list(stale_open_tables(older_than, now).values_list("id", flat=True)[:100])
    for table_id in ids:
        abandon_open_table(table_id, now)
    return len(ids)


@_transaction
def abandon_open_table(table_id: Any, now: datetime | None = None) -> bool:
    """Abort one open table (nobody touched it for long): each in a transaction of its own."""
    now = now or timezone.now()
    table = _lock(table_id)
    if table.status != Table.Status.OPEN:
        return False
    seats = _seats(table)
    _record(table, "abort", None, payload={"reason": "stale"})
    _finish(table, seats, None, now, status=Table.Status.ABORTED)
    _save(table, seats)
    _broadcast(table, "abort", seats)
    return True
