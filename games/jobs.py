"""Background jobs for live tables, run by the worker (``manage.py worker``).

Bots think and play here, never inside a request or a consumer; clocks and the
rules' countdowns run out here. Each job reads deadlines from indexed columns,
so a worker can be restarted at any moment and several can run side by side:
every action goes through the table service, which locks the table and checks
versions and deadlines again.

Each table is handled in a guarded step of its own (ludo.bulkheads.guard): a
table a job fails on (its state cannot be loaded, its end cannot be rated) is
tried again later, after the others, and set aside for a host after a few
failures; every other table still gets its bot moves, timeouts and countdowns.
"""

from __future__ import annotations

import asyncio
import logging
import time
from datetime import datetime, timedelta

from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.conf import settings
from django.utils import timezone

from games import engines, services
from games.models import Table
from games.protocol import TableError
from ludo.bulkheads.guard import Bulkhead

log = logging.getLogger(__name__)

BATCH = 20  # tables handled per pass of one job, so the other jobs get their turn
PRESENCE_EVERY = 5.0  # seconds between two presence passes
STALE_SOCKET = timedelta(seconds=90)  # sockets refresh every 20 s (their pings)
STALE_OPEN_TABLE = timedelta(hours=6)
IDLE = 1.0
# Without wake-ups (the in-memory layer of the embedded configuration cannot
# reach the worker's process), look at the database more often: a person
# playing a bot waits for this, on top of the bot's think delay (setting
# LUDO_WORKER_POLL_SECONDS, from LUDO_WORKER_POLL_MS).
IDLE_WITHOUT_WAKEUPS = 0.25

_last_presence = 0.0
BOTS = Bulkhead("tables.bots")
CLOCKS = Bulkhead("tables.clocks")
COUNTDOWNS = Bulkhead("tables.countdowns")
ABSENT = Bulkhead("tables.absent")
STALE = Bulkhead("tables.stale")
_woken = False  # the channel layer wakes this worker when a bot becomes due


GUARDED = ((BOTS, "bot_due"), (CLOCKS, "clock_deadline"), (COUNTDOWNS, "countdown_deadline"))


def _until_next(earliest: dict[str, datetime | None] | None = None) -> float:
    """Seconds until the next bot move, clock or countdown is due (at most IDLE)."""
    idle = IDLE if _woken else float(getattr(settings, "LUDO_WORKER_POLL_SECONDS", IDLE_WITHOUT_WAKEUPS))
    due = min((m for m in (earliest or _earliest()).values() if m is not None), default=None)
    if due is None:
        return idle
    return max(0.0, min(idle, (due - timezone.now()).total_seconds()))


def _earliest() -> dict[str, datetime | None]:
    """The earliest deadline of each kind (column) the play lane must serve. A table
    a guard holds back (set aside, or waiting before its next try) would make the
    lane spin on that guard's deadline, long past: each deadline leaves out the
    tables its own guard holds, and only those (a table whose clock step failed
    still gets its bot moves on time)."""
    return services.earliest_deadlines({column: guard.held(Table) for guard, column in GUARDED})


def _idle(earliest: dict[str, datetime | None], guard: Bulkhead, column: str, now: datetime) -> bool:
    """Nothing for ``guard`` to do now: no deadline of ``column`` has come, and no
    failure record waits (a record is retried, or forgotten, by the guard's pick)."""
    due = earliest[column]
    return (due is None or due > now) and not guard.has_records(Table)


def play_bot_turn(table_id: int) -> bool:
    """Let the bot whose move is due at this table choose and play; True if it played."""
    from games import bots  # the bots load their game modules lazily

    turn = services.claim_bot_turn(table_id)
    if turn is None:
        return False
    rules = engines.get(turn.game)
    move: str | None = None
    try:
        bot = bots.make(turn.level, rules, seed=turn.seed)
        # The bot gets what its seat may see, exactly what a person there gets.
        move = bot.choose(turn.view, turn.seat)
    except Exception:
        log.exception("bot %s failed at table %s (seat %s)", turn.level, turn.table, turn.seat)
    try:
        if move is None:
            raise TableError("illegal_move", "the bot gave no move")
        services.bot_move(turn.table, turn.seat, move, turn.version)
        return True
    except TableError as exc:
        if exc.code == "stale_version":
            return False  # somebody moved meanwhile; the service rescheduled the bot
        if exc.code != "illegal_move":
            services.release_bot_turn(turn.table)
            return False
        log.error("bot %s at table %s offered %r: %s", turn.level, turn.table, move, exc.detail)
    # A bot must never stall a table: fall back on the first legal move.
    legal = services.legal_moves_for_bot(turn.table, turn.seat)
    if not legal:
        return False
    try:
        services.bot_move(turn.table, turn.seat, legal[0], turn.version)
        return True
    except TableError:
        return False


_listening = False


async def _listen_for_wakeups() -> None:
    """Wake the worker whenever a table makes a bot due (services.WORKER_GROUP).

    Best effort: a lost message only means the bot moves at the worker's next
    look at the database (within a second).
    """
    from ludo import worker

    layer = get_channel_layer()
    while True:
        try:
            channel = await layer.new_channel("worker.")
            await layer.group_add(services.WORKER_GROUP, channel)
            while True:
                try:
                    await asyncio.wait_for(layer.receive(channel), timeout=600)
                except TimeoutError:
                    await layer.group_add(services.WORKER_GROUP, channel)  # keep the membership fresh
                else:
                    worker.wake()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.warning("the worker stopped hearing wake-ups; listening again in 5 s", exc_info=True)
            await asyncio.sleep(5)


def listen_for_wakeups() -> None:
    """Start listening (once per process) when the channel layer crosses
    processes; the in-memory layer cannot reach the worker."""
    from ludo import worker

    global _listening, _woken
    if _listening or not worker.running_forever():
        return
    _listening = True
    layer = get_channel_layer()
    if layer is None or isinstance(layer, InMemoryChannelLayer):
        return
    _woken = True
    asyncio.run_coroutine_threadsafe(_listen_for_wakeups(), services.broadcast_loop())


# An idle play lane polls several times a second (four times without wake-ups):
# each job first reads the earliest deadlines (one query) and looks for due rows
# only when one has come.


def run_bots() -> float:
    listen_for_wakeups()
    now = timezone.now()
    earliest = _earliest()
    if _idle(earliest, BOTS, "bot_due", now):
        return _until_next(earliest)
    due = Table.objects.filter(status=Table.Status.RUNNING, bot_due__lte=now).order_by("bot_due")
    pending = Table.objects.filter(status=Table.Status.RUNNING, bot_due__isnull=False)
    BOTS.each(due, play_bot_turn, limit=BATCH, pending=pending)
    return _until_next()


def run_clocks() -> float:
    now = timezone.now()
    earliest = _earliest()
    if _idle(earliest, CLOCKS, "clock_deadline", now) and _idle(earliest, COUNTDOWNS, "countdown_deadline", now):
        return _until_next(earliest)
    running = Table.objects.filter(status=Table.Status.RUNNING)
    CLOCKS.each(running.filter(clock_deadline__lte=now).order_by("clock_deadline"), services.time_out,
                limit=BATCH, pending=running.filter(clock_deadline__isnull=False))
    COUNTDOWNS.each(running.filter(countdown_deadline__lte=now).order_by("countdown_deadline"),
                    services.fire_countdown, limit=BATCH,
                    pending=running.filter(countdown_deadline__isnull=False))
    return _until_next()


def run_presence(force: bool = False) -> float:
    """Forget dead sockets, give long-absent players' seats to bots where the
    table asks for it, and abort open tables nobody touched for hours."""
    global _last_presence
    now = time.monotonic()
    if not force and now - _last_presence < PRESENCE_EVERY:
        return PRESENCE_EVERY - (now - _last_presence)
    _last_presence = now
    services.prune_connections(STALE_SOCKET)  # one statement over every table: nothing to guard per row
    ABSENT.each(services.tables_with_absent_players().order_by("id"), services.replace_absent_at, limit=100)
    STALE.each(services.stale_open_tables(STALE_OPEN_TABLE).order_by("updated_at"),
               services.abandon_open_table, limit=100, pending=Table.objects.filter(status=Table.Status.OPEN))
    return PRESENCE_EVERY


def register() -> None:
    from ludo import worker

    worker.register("tables.bots", run_bots, lane=worker.PLAY)
    worker.register("tables.clocks", run_clocks, lane=worker.PLAY)
    worker.register("tables.presence", run_presence, lane=worker.PLAY)
