"""The worker's sweep: finished rated tables nobody rated yet (their last
move was played on the server's event loop, which cannot rate them), rated
in a transaction of their own, with a ``rated`` event so the players' result
card shows the change."""

from __future__ import annotations

import time
from typing import Any

from django.utils import timezone

from games.models import Table
from ludo.bulkheads.guard import Bulkhead

BATCH = 20
SWEEP_EVERY = 2.0  # seconds between two sweeps (a game to rate here is rare: most are rated at their end)
_last_sweep = 0.0
SWEEP = Bulkhead("ratings.sweep")


def pending():
    """Finished rated tables without a rating verdict, oldest first."""
    from games.ratings.models import RatedGame

    return (Table.objects.filter(status=Table.Status.FINISHED, rated=True)
            .exclude(pk__in=RatedGame.objects.values("table_id")).order_by("finished_at", "id"))


def rate_pending() -> int:
    """Rate up to BATCH finished rated tables without a rating verdict; returns how many were rated."""
    return SWEEP.each(pending(), rate_later, limit=BATCH)


def rate_later(table_id: Any) -> bool:
    from games.ratings.service import rate_table
    from games.services.broadcasts import _broadcast
    from games.services.store import _lock, _record, _save, _seats, _transaction

    @_transaction
    def run() -> bool:
        table = _lock(table_id)
        if table.status != Table.Status.FINISHED or not table.rated:
            return False
        seats = _seats(table)
        summary = rate_table(table, seats, timezone.now())
        if summary is None:
            return False
        _record(table, "rated", None, payload={"ratings": summary})
        _save(table, seats)
        _broadcast(table, "rated", seats, lobby=False)
        return True

    return run()


def run_sweep() -> float | None:
    global _last_sweep
    now = time.monotonic()
    if now - _last_sweep < SWEEP_EVERY:
        return SWEEP_EVERY - (now - _last_sweep)
    _last_sweep = now
    rate_pending()
    return SWEEP_EVERY


def register() -> None:
    from ludo import worker

    worker.register("ratings.sweep", run_sweep)
