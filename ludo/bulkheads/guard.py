"""A bulkhead per worker job: each row in a guarded step of its own.

A worker job goes through rows (tables whose clock ran out, finished games to
rate, emails to send, scans to read). One row it cannot handle, because its
stored state cannot be loaded (a disk or migration fault) or because the job's
own code fails on it (a bug), must not stop the job for every other row, nor
fill the log round after round. So a job hands its rows to a :class:`Bulkhead`:

    CLOCKS = Bulkhead("tables.clocks")

    def run_clocks():
        due = Table.objects.filter(status="running", clock_deadline__lte=now).order_by("clock_deadline")
        CLOCKS.each(due, services.time_out, limit=20)

``each`` picks up to ``limit`` rows of ``due`` and runs the step once per row;
a step that raises is caught there and recorded (``JobFailure``: job, row,
count, last error and traceback), and the job goes on with the next row:

- the log gets one line per failure, with the traceback only the first time;
- a failed row waits before its next try (``LUDO_WORKER_ROW_RETRY_SECONDS``,
  doubled after each failure), and is tried after the rows that never failed,
  so it cannot take the whole batch round after round;
- after ``LUDO_WORKER_ROW_FAILURES`` failures (3) the row is set aside: no job
  picks it again until a host, in the admin ("failed rows of background jobs"),
  tries it again (or deletes the record, which does the same);
- a row that succeeds, or no longer waits for the job at all (``pending``: a
  host ended the table, the booking was deleted), is forgotten.

A step runs in whatever transaction it opens itself (the services' own);
where the caller already holds one, the step gets a savepoint, so its failure
cannot spoil the caller's transaction. The worker's lanes (ludo.worker) guard
each job as a whole as well, for what fails outside any row (the database away).

Inside one round of a lane (:func:`one_round`, which ``ludo.worker`` opens), the
failure records are read once, for every bulkhead of the round, instead of once
per bulkhead and query: an idle play lane polls several times a second, and
most rounds find no record at all. A failure or success recorded in the round
makes the next reader read them again.
"""

from __future__ import annotations

import logging
import threading
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Model, QuerySet
from django.utils import timezone

log = logging.getLogger("ludo.worker")

FAILURES = 3  # defaults of the settings below
RETRY_SECONDS = 10


def failures_before_set_aside() -> int:
    return int(getattr(settings, "LUDO_WORKER_ROW_FAILURES", FAILURES))


def retry_pause(failures: int) -> timedelta:
    """The pause before the next try of a row that failed ``failures`` times."""
    base = float(getattr(settings, "LUDO_WORKER_ROW_RETRY_SECONDS", RETRY_SECONDS))
    return timedelta(seconds=base * 2 ** max(0, failures - 1))


def label_of(model: type[Model]) -> str:
    return model._meta.label_lower


_round = threading.local()  # per lane thread: ``records`` while a round is open


@contextmanager
def one_round() -> Iterator[None]:
    """Within it, this thread reads the failure records once (see the module's doc)."""
    _round.open, _round.records = True, None
    try:
        yield
    finally:
        _round.open, _round.records = False, None


def _forget_round() -> None:
    _round.records = None


def _records(job: str, model: str) -> dict[str, Any]:
    """The failure records of ``job`` on rows of ``model``, by row."""
    from ludo.bulkheads.models import JobFailure

    columns = ("job", "model", "row", "set_aside", "retry_at")
    if not getattr(_round, "open", False):
        return {f.row: f for f in JobFailure.objects.filter(job=job, model=model).only(*columns)}
    if _round.records is None:
        everything: dict[tuple[str, str], dict[str, Any]] = {}
        for f in JobFailure.objects.only(*columns):
            everything.setdefault((f.job, f.model), {})[f.row] = f
        _round.records = everything
    return _round.records.get((job, model), {})


class Bulkhead:
    """The guard of one job (or of one kind of step inside a job): ``name`` is
    what the admin shows, e.g. ``"tables.clocks"``."""

    def __init__(self, name: str) -> None:
        self.name = name

    def each(self, due: QuerySet, step: Callable[[Any], Any], *, limit: int, pending: QuerySet | None = None,
             now: datetime | None = None) -> int:
        """Run ``step(pk)`` for up to ``limit`` rows of ``due`` (in its order),
        each in a guarded step; returns how many steps returned something true.
        ``pending``: the rows still waiting for this job (default ``due``); a
        failed row outside it is forgotten."""
        done = 0
        for pk in self.pick(due, limit, pending=pending, now=now):
            done += bool(self.run(due.model, pk, step))
        return done

    def pick(self, due: QuerySet, limit: int, *, pending: QuerySet | None = None,
             now: datetime | None = None) -> list[Any]:
        """The primary keys of the rows of ``due`` to handle now: first those
        that never failed, then those whose next try has come; never one set aside."""
        from ludo.bulkheads.models import JobFailure

        now = now or timezone.now()
        model = due.model
        failed = _records(self.name, label_of(model))
        if not failed:
            return list(due.values_list("pk", flat=True)[:limit])
        to_pk = model._meta.pk.to_python
        keys = [to_pk(row) for row in failed]
        waiting = {str(pk) for pk in (due if pending is None else pending).filter(pk__in=keys)
                   .values_list("pk", flat=True)}
        gone = [row for row in failed if row not in waiting]
        if gone:
            JobFailure.objects.filter(job=self.name, model=label_of(model), row__in=gone).delete()
            _forget_round()
        picked = list(due.exclude(pk__in=keys).values_list("pk", flat=True)[:limit])
        again = [to_pk(row) for row, f in failed.items()
                 if row in waiting and not f.set_aside and (f.retry_at is None or f.retry_at <= now)]
        if again:
            # At least one retry a round, so a busy job still gets to set a bad row aside.
            room = max(1, limit - len(picked))
            picked += list(due.filter(pk__in=again).values_list("pk", flat=True)[:room])
        return picked

    def has_records(self, model: type[Model]) -> bool:
        """Whether any row of ``model`` has a failure record of this job (waiting, due or set aside)."""
        return bool(_records(self.name, label_of(model)))

    def held(self, model: type[Model], now: datetime | None = None) -> list[Any]:
        """The rows this bulkhead keeps from its job now (set aside, or waiting
        for their next try): a job leaves them out of when it wakes next."""
        now = now or timezone.now()
        to_pk = model._meta.pk.to_python
        return [to_pk(row) for row, f in _records(self.name, label_of(model)).items()
                if f.set_aside or (f.retry_at is not None and f.retry_at > now)]

    def run(self, model: type[Model], pk: Any, step: Callable[[Any], Any]) -> Any:
        """``step(pk)``, guarded: its result, or None if it raised (recorded)."""
        try:
            if connection.in_atomic_block:
                with transaction.atomic():
                    result = step(pk)
            else:
                result = step(pk)
        except Exception as exc:
            self.failed(model, pk, exc)
            return None
        self.succeeded(model, pk)
        return result

    def succeeded(self, model: type[Model], pk: Any) -> None:
        from ludo.bulkheads.models import JobFailure

        if JobFailure.objects.filter(job=self.name, model=label_of(model), row=str(pk)).delete()[0]:
            _forget_round()

    def failed(self, model: type[Model], pk: Any, exc: BaseException, now: datetime | None = None) -> None:
        """Count a failure of ``pk``; log it (the traceback the first time);
        set the row aside after the allowed number of failures."""
        from ludo.bulkheads.models import JobFailure

        now = now or timezone.now()
        label, row = label_of(model), str(pk)
        error = f"{type(exc).__name__}: {exc}"[:2000]
        trace = "".join(traceback.format_exception(exc))[-20000:]
        with transaction.atomic():
            record, first = JobFailure.objects.select_for_update().get_or_create(
                job=self.name, model=label, row=row,
                defaults={"first_failed_at": now, "last_failed_at": now},
            )
            record.failures += 1
            record.error, record.traceback, record.last_failed_at = error, trace, now
            limit = failures_before_set_aside()
            record.set_aside = record.failures >= limit
            record.retry_at = None if record.set_aside else now + retry_pause(record.failures)
            record.save()
        _forget_round()
        where = f"worker job {self.name}: {label} {row}"
        if first:
            log.error("%s failed (%d of %d): %s", where, record.failures, limit, error, exc_info=exc)
        else:
            log.warning("%s failed again (%d of %d): %s", where, record.failures, limit, error)
        if record.set_aside:
            log.error("%s set aside after %d failures; it needs a host "
                      "(admin: failed rows of background jobs)", where, record.failures)


def try_again(records: QuerySet) -> int:
    """A host's retry: the rows go back to their jobs, counted afresh."""
    return records.update(set_aside=False, failures=0, retry_at=None)
