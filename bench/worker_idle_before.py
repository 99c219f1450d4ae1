"""The play lane's jobs as they were before session 11 (games/jobs.py and the bulkhead's
reads at commit fe6dbd9), kept only so that bench/worker_idle.py can time them beside
today's in the same process: every bulkhead read its failure records on each call, the
bots and clocks jobs looked for due rows on every poll, and the tournaments job ran on
every round of the lane.
"""

from __future__ import annotations

from django.db.models import Min, Q
from django.utils import timezone

from games import jobs, services
from games.models import Table
from ludo.bulkheads.guard import Bulkhead
from tournaments import jobs as tournament_jobs


def _held(guard: Bulkhead) -> list:
    from ludo.bulkheads.models import JobFailure

    now = timezone.now()
    rows = (JobFailure.objects.filter(job=guard.name, model="games.table")
            .filter(Q(set_aside=True) | Q(retry_at__gt=now)).values_list("row", flat=True))
    return [int(row) for row in rows]


def _next_due():
    held = {column: _held(guard) for guard, column in jobs.GUARDED}
    if not any(held.values()):
        return services.next_deadline()
    running = Table.objects.filter(status=Table.Status.RUNNING)
    moments = [running.exclude(pk__in=rows).aggregate(due=Min(column))["due"] for column, rows in held.items()]
    return min((m for m in moments if m is not None), default=None)


def _until_next() -> float:
    due = _next_due()
    if due is None:
        return jobs.IDLE_WITHOUT_WAKEUPS
    return max(0.0, min(jobs.IDLE_WITHOUT_WAKEUPS, (due - timezone.now()).total_seconds()))


def run_bots() -> float:
    due = Table.objects.filter(status=Table.Status.RUNNING, bot_due__lte=timezone.now()).order_by("bot_due")
    pending = Table.objects.filter(status=Table.Status.RUNNING, bot_due__isnull=False)
    jobs.BOTS.each(due, jobs.play_bot_turn, limit=jobs.BATCH, pending=pending)
    return _until_next()


def run_clocks() -> float:
    now = timezone.now()
    running = Table.objects.filter(status=Table.Status.RUNNING)
    jobs.CLOCKS.each(running.filter(clock_deadline__lte=now).order_by("clock_deadline"), services.time_out,
                     limit=jobs.BATCH, pending=running.filter(clock_deadline__isnull=False))
    jobs.COUNTDOWNS.each(running.filter(countdown_deadline__lte=now).order_by("countdown_deadline"),
                         services.fire_countdown, limit=jobs.BATCH,
                         pending=running.filter(countdown_deadline__isnull=False))
    return _until_next()


def play_round() -> None:
    """One round of the play lane as it was (outside ``guard.one_round``: no shared reads)."""
    run_bots()
    run_clocks()
    jobs.run_presence()
    tournament_jobs.run()
