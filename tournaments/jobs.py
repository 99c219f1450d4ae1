"""The worker's tournament jobs (``manage.py worker``, the play lane):

- record the result of every tournament table that has ended;
- pair the next round (or end the tournament) once its time has come;
- pair whoever waits in an arena (and end it after its time);
- start the tournaments whose start time has come;
- log the games of a finished tournament in the play log (once).

Results are read from the tables themselves (their status and outcome), so
nothing is lost if a process dies between a table's end and its recording:
the next pass records it. Each row is a guarded step (ludo.bulkheads): one
that fails is retried later and set aside after a few failures, while every
other tournament goes on.
"""

from __future__ import annotations

import logging
import time

from django.utils import timezone

from games.models import Table
from ludo.bulkheads.guard import Bulkhead
from tournaments.errors import TournamentError
from tournaments.models import Pairing, Tournament

log = logging.getLogger(__name__)

BATCH = 50
RESULTS = Bulkhead("tournaments.results")
ROUNDS = Bulkhead("tournaments.rounds")
STARTS = Bulkhead("tournaments.starts")
ARENAS = Bulkhead("tournaments.arenas")
PLAYLOG = Bulkhead("tournaments.playlog")
ENDED = (Table.Status.FINISHED, Table.Status.ABORTED)


def _quietly(step):
    """A refusal (the round was paired meanwhile by a host) is not a failure of the job."""
    def run(pk):
        try:
            return step(pk)
        except TournamentError as exc:
            log.info("tournament step on %s refused: %s", pk, exc.code)
            return None
    return run


def _start(pk: int):
    """Start at the announced time; with too few players, leave it to the
    host (the start time is cleared, so the job does not try every second)."""
    from tournaments.services import start
    from tournaments.services.seating import host_of

    tournament = Tournament.objects.get(pk=pk)
    try:
        return start(pk, host_of(tournament))
    except TournamentError as exc:
        Tournament.objects.filter(pk=pk, status=Tournament.Status.OPEN).update(starts_at=None)
        log.info("tournament %s not started at its time: %s", pk, exc.code)
        return None


def run() -> float:
    from tournaments import services

    pending = Pairing.objects.filter(recorded_at__isnull=True, bye=False, table__isnull=False)
    RESULTS.each(pending.filter(table__status__in=ENDED).order_by("pk"), services.record_result, limit=BATCH,
                 pending=pending)
    now = timezone.now()  # after the results: a round they completed is paired in this pass
    running = Tournament.objects.filter(status=Tournament.Status.RUNNING)
    ROUNDS.each(running.filter(next_round_at__lte=now).order_by("next_round_at"), _quietly(services.advance),
                limit=BATCH, pending=running.filter(next_round_at__isnull=False))
    arenas = running.filter(format=Tournament.Format.ARENA)
    ARENAS.each(arenas.order_by("pk"), _quietly(services.pair_arena), limit=BATCH)
    waiting = Tournament.objects.filter(status=Tournament.Status.OPEN, starts_at__isnull=False)
    STARTS.each(waiting.filter(starts_at__lte=now).order_by("starts_at"), _start, limit=BATCH,
                pending=waiting)
    from tournaments.playlog import log_games

    unlogged = Tournament.objects.filter(status=Tournament.Status.FINISHED, logged_at__isnull=True)
    PLAYLOG.each(unlogged.order_by("finished_at"), log_games, limit=BATCH)
    return 1.0


EVERY = 0.5  # seconds between two passes in the worker (the play lane polls more often)
_last_pass = float("-inf")


def run_in_worker() -> float:
    """:func:`run`, at most every ``EVERY`` seconds: a result is recorded and the
    next pairing made within half a second, and an idle play lane, which looks
    for due bots and clocks several times a second, does not query the
    tournaments each time."""
    global _last_pass
    now = time.monotonic()
    if now - _last_pass < EVERY:
        return EVERY - (now - _last_pass)
    _last_pass = now
    run()
    return EVERY


def register() -> None:
    from ludo import worker

    worker.register("tournaments", run_in_worker, lane=worker.PLAY)
