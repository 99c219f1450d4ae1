"""The background worker: every registered job, in lanes that never wait for each other.

Work that must not happen inside a request or a consumer (bots thinking,
clocks running out, OCR of an uploaded scan, reminder emails) is kept as state
in the database (a pending status, a deadline) and picked up here. Nothing is
held only in memory, so a worker can be killed and restarted at any moment, and
several workers can run side by side (jobs claim rows with
``select_for_update(skip_locked=True)`` where the database allows it).

A job is a function that does whatever is due now and returns how many seconds
it is happy to sleep before it is called again (None: the default idle pause).
Apps register their jobs in ``AppConfig.ready()`` with :func:`register`, each in
a lane: ``play`` (bots, clocks, countdowns, presence: people wait for these),
``documents`` (text extraction of scans: minutes of work) and ``background``
(emails, reminders, bookings; the lane of a job registered without one). In
``run_forever`` each lane is a thread of its own, so a 40-page OCR or a slow
mail server never delays a bot's move; a lane whose job raises logs it and goes
on, a lane whose job hangs holds up only itself.

Inside a job, each row (a table, a booking, an email, a document) is handled
in a guarded step of its own (``ludo.bulkheads.guard.Bulkhead``): a row the job
fails on is logged once per failure, tried again later and after the others,
and set aside for a host after a few failures, while every other row goes on.
A job that fails as a whole (the database away) is logged with its traceback
the first time, then one line per round while it keeps failing the same way.

    manage.py worker            # run forever (make run starts one)
    manage.py worker --once     # run every job once and exit (tests, cron)
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from django.db import close_old_connections

log = logging.getLogger(__name__)

Job = Callable[[], float | None]
IDLE_SECONDS = 1.0
MIN_SLEEP = 0.05
PLAY, DOCUMENTS, BACKGROUND = "play", "documents", "background"
LANES = (PLAY, DOCUMENTS, BACKGROUND)
DEFAULT_LANE = BACKGROUND


@dataclass(frozen=True)
class Registered:
    job: Job
    lane: str


_jobs: dict[str, Registered] = {}
_last_error: dict[str, str] = {}  # job -> how it failed last round (to log a traceback once)


def register(name: str, job: Job, *, lane: str = DEFAULT_LANE) -> Job:
    """Register ``job`` under ``name`` in ``lane`` (registering the same name again replaces it)."""
    if lane not in LANES:
        raise ValueError(f"unknown worker lane {lane!r}; lanes: {', '.join(LANES)}")
    _jobs[name] = Registered(job, lane)
    return job


def jobs() -> dict[str, Job]:
    return {name: entry.job for name, entry in _jobs.items()}


def lane_of(name: str) -> str:
    return _jobs[name].lane


def run_once(names: list[str] | None = None, lane: str | None = None) -> float:
    """Run each job once (or only ``names``, or only ``lane``'s); return the pause
    before the next round. A job that raises is logged and does not stop the others.
    """
    from ludo.bulkheads.guard import one_round

    wait = IDLE_SECONDS
    with one_round():  # the bulkheads of the round read their failure records once
        for name, entry in list(_jobs.items()):
            if names is not None and name not in names:
                continue
            if lane is not None and entry.lane != lane:
                continue
            close_old_connections()
            try:
                asked = entry.job()
            except Exception as exc:
                _log_failure(name, exc)
                asked = None
            else:
                _last_error.pop(name, None)
            if asked is not None:
                wait = min(wait, max(MIN_SLEEP, asked))
    close_old_connections()
    return wait


def _log_failure(name: str, exc: Exception) -> None:
    error = f"{type(exc).__name__}: {exc}"
    if _last_error.get(name) == error:
        log.error("worker job %s failed again: %s", name, error)
    else:
        log.error("worker job %s failed: %s", name, error, exc_info=exc)
    _last_error[name] = error


_wakeups = {lane: threading.Event() for lane in LANES}
_forever = False


def running_forever() -> bool:
    """True in the worker process (run_forever), false under --once or in tests."""
    return _forever


def wake(lane: str = PLAY) -> None:
    """End ``lane``'s current pause now (something became due earlier than it
    planned: a job may call this from another thread, e.g. on a message)."""
    _wakeups[lane].set()


def _run_lane(lane: str, stop: threading.Event, names: list[str] | None) -> None:
    wakeup = _wakeups[lane]
    while not stop.is_set():
        try:
            pause = run_once(names, lane)
        except Exception:  # close_old_connections itself failing: the database is away
            log.exception("worker lane %s failed; trying again", lane)
            pause = IDLE_SECONDS
        if wakeup.wait(pause):
            wakeup.clear()


def keep_connections(keep: bool = True) -> None:
    """Let each lane keep its database connection from one round to the next where no
    pool does (SQLite): opening one costs about a millisecond (Django registers its SQL
    functions on each), and the play lane opened one per job several times a second.
    A connection found unusable at the start of a job is still replaced (health checks)."""
    from django.db import connections

    for conf in connections.settings.values():
        if conf["ENGINE"].endswith("sqlite3"):
            conf["CONN_MAX_AGE"] = None if keep else 0
            conf["CONN_HEALTH_CHECKS"] = keep


def run_forever(stop: threading.Event | None = None, names: list[str] | None = None) -> None:
    global _forever
    _forever = True
    keep_connections()
    stop = stop or threading.Event()
    lanes = sorted({e.lane for n, e in _jobs.items() if names is None or n in names})
    for lane in lanes:
        members = sorted(n for n, e in _jobs.items() if e.lane == lane and (names is None or n in names))
        log.info("worker lane %s started with jobs: %s", lane, ", ".join(members))
    threads = [
        threading.Thread(target=_run_lane, args=(lane, stop, names), name=f"worker-{lane}", daemon=True)
        for lane in lanes
    ]
    for thread in threads:
        thread.start()

    def end_pauses() -> None:  # a stop request ends every lane's pause
        stop.wait()
        for event in _wakeups.values():
            event.set()

    threading.Thread(target=end_pauses, name="worker-stop", daemon=True).start()
    stop.wait()
    for thread in threads:
        # A lane stuck in a job (a hung mail server) is not waited for forever:
        # its work is database state and is picked up again at the next start.
        thread.join(10)
    log.info("worker stopped")


def wait_until(condition: Callable[[], bool], timeout: float, step: float = 0.05) -> bool:
    """Poll ``condition`` until true or ``timeout``; for scripts and tests of the worker."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(step)
    return condition()
