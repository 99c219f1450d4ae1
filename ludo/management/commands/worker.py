"""Run the background worker (bots, clocks, OCR, emails): see ludo/worker.py."""

from __future__ import annotations

import signal
import threading

from django.core.management.base import BaseCommand, CommandError

from ludo import worker


class Command(BaseCommand):
    help = "Run the background jobs: bots' moves, clocks, OCR of scans, reminder emails."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--once", action="store_true", help="run every job once and exit")
        parser.add_argument("--job", action="append", dest="names", help="run only this job (repeatable)")

    def handle(self, *args, once: bool, names: list[str] | None, **options) -> None:
        known = worker.jobs()
        unknown = sorted(set(names or []) - set(known))
        if unknown:
            raise CommandError(f"unknown job(s): {', '.join(unknown)}; known: {', '.join(sorted(known)) or 'none'}")
        if once:
            worker.run_once(names)
            return
        stop = threading.Event()
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, lambda *_: stop.set())
        worker.run_forever(stop, names)
