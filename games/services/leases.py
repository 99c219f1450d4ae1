"""The worker's leases on bot turns: claim the next bot move of a table (so
that two workers never think about the same turn), release it, and when the
worker should look next."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import Min
from django.utils import timezone

from games.models import Table
from games.services.store import _get, _seats, _transaction
from games.services.tables import _state, rules_for


@dataclass(frozen=True)
class BotTurn:
    """What a bot may know to choose its move: its seat's view, nothing more."""

    table: int
    game: str
    version: int
    seat: int
    level: str
    view: dict[str, Any]
    seed: tuple[int, int, int]


@_transaction
def claim_bot_turn(table_id: Any, lease_seconds: float | None = None, now: datetime | None = None) -> BotTurn | None:
    """Reserve the next bot move of a table for this worker.

    Returns the bot's turn to think about (outside any transaction), or None
    when nothing is due or another worker holds the table. The lease (bot_due
    pushed forward, LUDO_BOT_LEASE_SECONDS) makes a crashed worker's claim
    expire by itself.
    """
    now = now or timezone.now()
    if lease_seconds is None:
        lease_seconds = float(getattr(settings, "LUDO_BOT_LEASE_SECONDS", 10.0))
    query = Table.objects.select_for_update(skip_locked=True).filter(
        pk=table_id, status=Table.Status.RUNNING, bot_due__lte=now
    )
    table = query.first()
    if table is None:
        return None
    seats = _seats(table)
    rules = rules_for(table)
    state = _state(table, rules)
    to_act = rules.to_act(state)
    bots = [s for s in seats if s.is_bot and s.index in to_act]
    if not bots:
        table.bot_due = None
        table.save(update_fields=["bot_due"])
        return None
    seat = bots[0]
    table.bot_due = now + timedelta(seconds=lease_seconds)
    table.save(update_fields=["bot_due"])
    # Only what this seat may see leaves the table: a bot cannot cheat.
    return BotTurn(table.pk, table.game, table.version, seat.index, seat.bot_level,
                   rules.view(state, seat.index), (table.seed, seat.index, table.version))


def legal_moves_for_bot(table_id: Any, seat: int) -> list[str]:
    """The legal moves of a bot seat, for when a bot fails to answer."""
    table = _get(table_id)
    rules = rules_for(table)
    return rules.legal_moves(_state(table, rules), seat)


def release_bot_turn(table_id: Any) -> None:
    """Make a claimed bot turn due again at once (the bot failed to answer in time)."""
    Table.objects.filter(pk=table_id, status=Table.Status.RUNNING).update(bot_due=timezone.now())


DEADLINES = ("bot_due", "clock_deadline", "countdown_deadline")  # what the worker serves, by column


def earliest_deadlines(held: dict[str, Collection[Any]] | None = None) -> dict[str, datetime | None]:
    """The earliest bot move, clock and countdown of the running tables, by column
    (one query); ``held`` leaves out, per column, the tables the worker's bulkheads
    hold back for that kind of step (then one query per column)."""
    running = Table.objects.filter(status=Table.Status.RUNNING)
    if not held or not any(held.values()):
        return running.aggregate(**{column: Min(column) for column in DEADLINES})
    return {column: running.exclude(pk__in=held.get(column, ())).aggregate(due=Min(column))["due"]
            for column in DEADLINES}


def next_deadline(exclude: Collection[Any] = ()) -> datetime | None:
    """The earliest moment any table needs the worker (bots, clocks, countdowns),
    leaving out the tables in ``exclude``."""
    moments = [m for m in earliest_deadlines(dict.fromkeys(DEADLINES, exclude)).values() if m is not None]
    return min(moments) if moments else None
