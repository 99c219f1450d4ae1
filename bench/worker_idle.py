"""What the worker's play lane costs when nothing is due (issue 28, session 11).

    .venv/bin/python bench/worker_idle.py [--sqlite] [--postgres URL] [--rounds 300] [--blocks 6]

The play lane (bots, clocks, countdowns, presence, tournaments) looks at the database
several times a second: every 50 ms in the test servers, every 250 ms on the embedded
configuration (no wake-ups cross its processes), every second with Redis. On a fresh
database (a new SQLite file; PostgreSQL: --postgres URL, default ludo_worker_bench,
dropped and created again) holding an evening's tables (40 running two-player tables
whose clocks run out in minutes, 200 finished ones), it times rounds of the lane in
CPU time (``time.process_time``) as it is now (``worker.run_once(lane="play")``) and as
it was (bench/worker_idle_before.py: a connection opened per job on SQLite, as the
worker did), in alternated blocks, with a clock that moves 50 ms
a round (so the jobs that pace themselves, presence and tournaments, run as often as
they would at that poll), and counts the queries of a round. Nothing is due in any
round: the figures are the cost of looking.

Not a test: CPU times depend on the machine; compare the two lines of one run.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_PG = "postgres://postgres@127.0.0.1:5432/ludo_worker_bench"
POLL = 0.05  # seconds of the fake clock per round
RUNNING, FINISHED = 40, 200


class Clock:
    """A monotonic clock that moves ``POLL`` seconds a round."""

    def __init__(self) -> None:
        self.now = 1_000.0

    def monotonic(self) -> float:
        return self.now


def _evening() -> None:
    from datetime import timedelta

    from django.utils import timezone

    from games import services
    from games.models import Table
    from ludo.guests import new_guest_id

    for n in range(RUNNING + FINISHED):
        people = [services.Who(guest_key=new_guest_id(), name=f"P{n}-{seat}") for seat in range(2)]
        table = services.create_table(people[0], "drumlin", clock={"kind": "move", "seconds": 600})
        services.join_table(table.pk, people[1])
        services.start_table(table.pk, people[0])
        if n >= RUNNING:
            Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED, clock_deadline=None)
    assert not Table.objects.filter(clock_deadline__lte=timezone.now() + timedelta(minutes=5)).exists()


def run_one(rounds: int, blocks: int) -> dict:
    """Inside a child process whose DATABASE_URL names the database."""
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ludo.settings")
    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    import worker_idle_before as before
    from games import jobs
    from ludo import worker
    from tournaments import jobs as tournament_jobs

    call_command("migrate", verbosity=0)
    _evening()
    clock = Clock()
    paced = types.SimpleNamespace(monotonic=clock.monotonic)
    jobs.time = tournament_jobs.time = paced  # presence and tournaments pace themselves on it

    def now_round() -> None:
        worker.run_once(lane=worker.PLAY)

    def as_worker(label: str) -> None:
        """The worker keeps its SQLite connection between jobs now (worker.keep_connections);
        before, each job opened one."""
        connection.close()
        worker.keep_connections(label == "now")

    versions = {"now": now_round, "before": before.play_round}
    queries = {}
    for label, play in versions.items():
        as_worker(label)
        play()  # warm: presence's and tournaments' first pass
        counted = []
        for _ in range(20):
            clock.now += POLL
            with CaptureQueriesContext(connection) as captured:
                play()
            counted.append(len(captured.captured_queries))
        queries[label] = statistics.mean(counted)
    cpu: dict[str, list[float]] = {label: [] for label in versions}
    labels = list(versions)
    for block in range(blocks):
        for label in labels if block % 2 == 0 else reversed(labels):
            play = versions[label]
            as_worker(label)
            started = time.process_time()
            for _ in range(rounds):
                clock.now += POLL
                play()
            cpu[label].append((time.process_time() - started) / rounds * 1000)
    return {
        "vendor": connection.vendor, "rounds": rounds, "blocks": blocks,
        "queries": queries, "ms": {label: statistics.median(v) for label, v in cpu.items()},
        "ms_all": cpu,
    }


def report(results: list[dict]) -> None:
    print(f"{'database':<12} {'version':<8} {'queries/round':>14} {'CPU ms/round':>13} "
          f"{'core @50ms':>11} {'@250ms':>8} {'@1s':>7}")
    for r in results:
        for label in ("before", "now"):
            ms = r["ms"][label]
            print(f"{r['vendor']:<12} {label:<8} {r['queries'][label]:>14.1f} {ms:>13.2f} "
                  f"{ms / 50:>10.1%} {ms / 250:>8.1%} {ms / 1000:>7.2%}")
        print(f"{r['vendor']:<12} now/before CPU: {r['ms']['now'] / r['ms']['before']:.2f} "
              f"(median of {r['blocks']} blocks of {r['rounds']} rounds each; blocks: "
              + ", ".join(f"{label} " + "/".join(f"{x:.2f}" for x in r["ms_all"][label]) for label in r["ms_all"])
              + ")")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=300)
    parser.add_argument("--blocks", type=int, default=6)
    parser.add_argument("--sqlite", action="store_true", help="only SQLite")
    parser.add_argument("--postgres", nargs="?", const=DEFAULT_PG, default=None, help="only PostgreSQL (URL)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    sys.path.append(str(ROOT / "bench"))
    if args.child:
        print(json.dumps(run_one(max(1, args.rounds), max(2, args.blocks))))
        return
    from benchdb import on_each_database, run_child

    results = on_each_database(args.sqlite, args.postgres, DEFAULT_PG, lambda url: run_child(
        __file__, url, "--rounds", str(args.rounds), "--blocks", str(args.blocks)))
    report(results)


if __name__ == "__main__":
    main()
