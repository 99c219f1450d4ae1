"""The background worker: one loop that runs every registered job.

Work that must not happen inside a request or a consumer (bots thinking,
clocks running out, OCR of an uploaded scan, reminder emails) is kept as state
in the database (a pending status, a deadline) and picked up here. Nothing is
held only in memory, so a worker can be killed and restarted at any moment, and
several workers can run side by side (jobs claim rows with
``select_for_update(skip_locked=True)`` where the database allows it).

A job is a function that does whatever is due now and returns how many seconds
it is happy to sleep before it is called again (None: the default idle pause).
Apps register their jobs in ``AppConfig.ready()`` with :func:`register`.

    manage.py worker            # run forever (make run starts one)
    manage.py worker --once     # run every job once and exit (tests, cron)
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from django.db import close_old_connections

log = logging.getLogger(__name__)

Job = Callable[[], float | None]
IDLE_SECONDS = 1.0
MIN_SLEEP = 0.05

_jobs: dict[str, Job] = {}


def register(name: str, job: Job) -> Job:
    """Register ``job`` under ``name`` (registering the same name again replaces it)."""
    _jobs[name] = job
    return job


def jobs() -> dict[str, Job]:
    return dict(_jobs)


def run_once(names: list[str] | None = None) -> float:
    """Run each job once (or only ``names``); return the pause before the next round.

    A job that raises is logged and does not stop the others.
    """
    wait = IDLE_SECONDS
    for name, job in list(_jobs.items()):
        if names is not None and name not in names:
            continue
        close_old_connections()
        try:
            asked = job()
        except Exception:
            log.exception("worker job %s failed", name)
            asked = None
        if asked is not None:
            wait = min(wait, max(MIN_SLEEP, asked))
    close_old_connections()
    return wait


_wakeup = threading.Event()
_forever = False


def running_forever() -> bool:
    """True in the worker process (run_forever), false under --once or in tests."""
    return _forever


def wake() -> None:
    """End the worker's current pause now (something became due earlier than it
    planned: a job may call this from another thread, e.g. on a message)."""
    _wakeup.set()


def run_forever(stop: threading.Event | None = None, names: list[str] | None = None) -> None:
    global _forever
    _forever = True
    stop = stop or threading.Event()
    log.info("worker started with jobs: %s", ", ".join(sorted(_jobs)) or "none")
    # A stop request ends the pause too.
    threading.Thread(target=lambda: (stop.wait(), _wakeup.set()), name="worker-stop", daemon=True).start()
    while not stop.is_set():
        pause = run_once(names)
        if _wakeup.wait(pause):
            _wakeup.clear()
    log.info("worker stopped")


def wait_until(condition: Callable[[], bool], timeout: float, step: float = 0.05) -> bool:
    """Poll ``condition`` until true or ``timeout``; for scripts and tests of the worker."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(step)
    return condition()
