"""Does the picker make sense to a host, and how fast is it, on the house's shelves.

    .venv/bin/python bench/picker.py [--sqlite] [--postgres URL] [--url URL] [--requests 100] [--rounds 3] [--show]

For each database (a fresh SQLite file and a fresh PostgreSQL database, as the
other catalogue benches do; or, with --url, a database that already holds the
demo catalogue) it loads the demo's catalogue (the 9,000 most-owned games of the
shared data set, a copy each on the shelves: catalog/demo.py), then asks the
picker 100 varied requests (seeded: 1 to 15 players, 20 to 240 minutes, the
youngest from 4 to adult, every mood; "something to think about" only when the
youngest is 10 or more, as a group with a small child does not ask for it) and
judges every pick with the written criteria of tests/catalog/picker_judge.py.
The picker as it was before issue #25 (bench/picker_before.py) answers the same
requests in the same process, judged the same way. A third set ("options": a
third as many) ticks one option each (co-operative, party, little to read) and is
judged the same way plus the option.

Figures: requests whose whole shortlist makes sense (N of 100), first picks that
make sense, picks that make sense among all shown, requests with at least 3 picks;
the together shortlist only (the split tables of a large group are printed apart).
Latency: ``plan()`` in process, each request's median over --rounds, then p50 and
p95 over the requests. Not a test: the figures depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

from benchdb import on_each_database, percentile, run_child  # bench/ is the script's folder

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_PG = "postgres://postgres@127.0.0.1:5432/ludo_picker_bench"
MINUTES = (20, 30, 45, 60, 90, 120, 180, 240)
YOUNGEST = (4, 5, 6, 7, 8, 9, 10, 12, 14, 16, 18, 30)


def make_requests(count: int, seed: int = 25):
    from tests.catalog.picker_judge import Request

    rng = random.Random(seed)
    requests = []
    for i in range(count):
        players = 2 + i % 5 if i % 3 else rng.randint(1, 15)  # mostly 2 to 6, a third anywhere from 1 to 15
        youngest = rng.choice(YOUNGEST)
        moods = ("anything", "light", "thinky") if youngest >= 10 else ("anything", "light")
        requests.append(Request(players, rng.choice(MINUTES), youngest, rng.choice(moods)))
    return requests


def make_option_requests(count: int, seed: int = 28):
    """Requests with one option ticked: co-operative (2 to 6 players), party (4 to
    12, youngest 8 or more), little to read (2 to 5, youngest 4 to 8)."""
    from tests.catalog.picker_judge import Request

    rng = random.Random(seed)
    requests = []
    for i in range(count):
        trait = ("coop", "party", "little-reading")[i % 3]
        if trait == "coop":
            players, youngest = rng.randint(2, 6), rng.choice(YOUNGEST)
        elif trait == "party":
            players, youngest = rng.randint(4, 12), rng.choice(YOUNGEST[4:])
        else:
            players, youngest = rng.randint(2, 5), rng.choice(YOUNGEST[:5])
        moods = ("anything", "light", "thinky") if youngest >= 10 and trait == "coop" else ("anything", "light")
        requests.append(Request(players, rng.choice(MINUTES[1:]), youngest, rng.choice(moods), frozenset({trait})))
    return requests


def run_one(url: str, count: int, rounds: int, show: bool) -> dict:
    """Inside a child process whose DATABASE_URL is ``url``."""
    import io

    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ludo.settings")
    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.utils import translation

    from catalog import demo
    from catalog.collection import picker
    from catalog.collection.models import Game

    import picker_before
    from tests.catalog.picker_judge import judge

    call_command("migrate", verbosity=0)
    if Game.objects.count() < demo.DEMO_GAMES:
        started = time.perf_counter()
        demo._data(io.StringIO())
        print(f"demo catalogue loaded in {time.perf_counter() - started:.1f} s", file=sys.stderr)
    translation.activate("fr")
    requests = make_requests(count)
    result = {"vendor": connection.vendor, "games": Game.objects.count()}
    result["now"] = measure(picker.plan, requests, rounds, show, judge)
    result["before"] = measure(picker_before.plan, requests, rounds, show, judge)
    result["options"] = measure(picker.plan, make_option_requests(max(3, count // 3)), rounds, show, judge)
    return result


def measure(plan, requests, rounds: int, show: bool, judge) -> dict:
    """Each request's answer, timed (the median of ``rounds``) and judged."""
    times, whole, first, fitting, shown, three, lines, splits = [], 0, 0, 0, 0, 0, [], []
    for request in requests:
        args = (request.players, request.minutes, request.youngest, request.mood)
        options = {"like": request.like} if request.like else {}
        spent = []
        for _round in range(rounds):
            started = time.perf_counter()
            answer = plan(*args, **options)
            spent.append(time.perf_counter() - started)
        times.append(statistics.median(spent) * 1000)
        games = [p.game for p in answer.together]
        verdict = judge(games, request)
        bad = {i: v for i, v in verdict.items() if v}
        whole += not bad
        first += bool(games) and not verdict[0]
        fitting += sum(1 for i in range(len(games)) if not verdict[i])
        shown += len(games)
        three += len(games) >= 3
        if bad or show:
            lines.append(f"{request}: " + "; ".join(
                f"{games[i].title} ({', '.join(v)})" if i >= 0 else ", ".join(v) for i, v in sorted(bad.items())
            ) + ("" if bad else "all fit: " + ", ".join(g.title for g in games)))
        for split in getattr(answer, "splits", []):
            for table in split.tables:
                at_table = type(request)(table.players, request.minutes, request.youngest, request.mood, request.like)
                table_verdict = judge([p.game for p in table.picks], at_table)
                splits.append(not any(v for i, v in table_verdict.items() if i >= 0))
    return {
        "requests": len(requests), "whole_shortlist_fits": whole, "first_pick_fits": first,
        "picks_fit": fitting, "picks_shown": shown, "at_least_3": three,
        "split_tables_fit": sum(splits), "split_tables": len(splits),
        "p50_ms": round(percentile(times, 0.5), 1), "p95_ms": round(percentile(times, 0.95), 1),
        "max_ms": round(max(times), 1), "misfits": lines,
    }


def report(results: list[dict]) -> None:
    for r in results:
        print(f"\n{r['vendor']} ({r['games']} games on the shelves)")
        print("| picker | whole shortlist fits | first pick fits | picks that fit | at least 3 picks | split tables fit | p50 | p95 | max |")
        print("|---|---|---|---|---|---|---|---|---|")
        for label in ("now", "before", "options"):
            m = r[label]
            print(f"| {label} | {m['whole_shortlist_fits']} of {m['requests']} | {m['first_pick_fits']} of {m['requests']} | "
                  f"{m['picks_fit']} of {m['picks_shown']} | {m['at_least_3']} of {m['requests']} | "
                  f"{m['split_tables_fit']} of {m['split_tables']} | {m['p50_ms']} ms | {m['p95_ms']} ms | {m['max_ms']} ms |")
        for label in ("now", "before", "options"):
            print(f"\n{r['vendor']}, {label}: requests with a pick that does not fit ({len(r[label]['misfits'])})")
            for line in r[label]["misfits"]:
                print("  - " + line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=3, help="times each request runs; its median counts")
    parser.add_argument("--sqlite", action="store_true", help="only SQLite")
    parser.add_argument("--postgres", nargs="?", const=DEFAULT_PG, default=None, help="only PostgreSQL (URL)")
    parser.add_argument("--url", help="an existing database holding the demo catalogue (not dropped)")
    parser.add_argument("--show", action="store_true", help="print every request's shortlist")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    sys.path.append(str(ROOT / "bench"))
    extra = ("--requests", str(args.requests), "--rounds", str(args.rounds), *(("--show",) if args.show else ()))
    if args.child:
        print(json.dumps(run_one(args.child, args.requests, max(1, args.rounds), args.show), ensure_ascii=False))
        return
    if args.url:
        results = [run_child(__file__, args.url, *extra)]
    else:
        results = on_each_database(args.sqlite, args.postgres, DEFAULT_PG, lambda url: run_child(__file__, url, *extra))
    report(results)


if __name__ == "__main__":
    main()
