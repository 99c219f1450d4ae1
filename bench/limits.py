"""What one rate-limit check costs, in one process: off, in memory, and in Redis.

    .venv/bin/python bench/limits.py [--checks 20000] [--burst 500] [--rounds 5]
        [--redis-url redis://127.0.0.1:6379/0] [--code DIR] [--markdown]

For each case, ``--rounds`` times in alternation (off, memory, Redis one by one,
Redis in bursts, again...: the machine's drift hits every case alike), the median
CPU time (this process's, ``time.process_time``) and wall time per check of
``ludo.limits.aallow`` (the sockets' check):

- ``off``: ``LUDO_RATE_LIMITS_ENABLED = False`` (the floor: a call that returns);
- ``memory``: no ``REDIS_URL`` (the embedded default, one process);
- ``redis, new person each``: each check awaited before the next is asked, and
  each from another person: every check is its own round trip (the worst case,
  and what every check cost before leases and shared round trips);
- ``redis, 20 a person``: the same, a person sending 20 messages (their lease,
  ``ludo.limits.lease_terms``, spares most round trips);
- ``redis, bursts``: ``--burst`` checks asked at once (as when 500 tables move in
  the same instant), 20 a person, ``--checks`` in all.

The Redis server's own CPU per check is read from INFO (any other client of that
Redis adds to it).
The budget is never reached (the steady cost of letting messages through);
``--code DIR`` imports ``ludo`` from another
checkout (before and after a change, in the same interpreter and on the same
Redis). Not a test: numbers depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PER_PERSON = 20
RATE = (10**9, 20.0)  # never reached


def redis_cpu(client) -> float:
    info = client.info("cpu")
    return float(info["used_cpu_user"]) + float(info["used_cpu_sys"])


async def one_by_one(limits, checks: int, people: int) -> None:
    for n in range(checks):
        await limits.aallow("bench", f"u:{n % people}", RATE)


async def bursts(limits, checks: int, burst: int, people: int) -> None:
    for start in range(0, checks, burst):
        await asyncio.gather(*(limits.aallow("bench", f"u:{n % people}", RATE)
                               for n in range(start, min(checks, start + burst))))


def measure(limits, settings, case: str, args, redis_client) -> tuple[float, float, float | None]:
    settings.LUDO_RATE_LIMITS_ENABLED = case != "off"
    settings.REDIS_URL = args.redis_url if case.startswith("redis") else ""
    limits.reset()
    checks = args.checks
    people = checks if case == "redis, new person each" else max(1, checks // PER_PERSON)
    body = bursts(limits, checks, args.burst, people) if case == "redis, bursts" else one_by_one(limits, checks, people)
    loop = asyncio.new_event_loop()
    try:
        loop.run_until_complete(limits.aallow("warm", "u:0", RATE))  # connections opened, script loaded
        served_before = redis_cpu(redis_client) if redis_client else 0.0
        cpu, wall = time.process_time(), time.perf_counter()
        loop.run_until_complete(body)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        served = redis_cpu(redis_client) - served_before if redis_client and case.startswith("redis") else None
    finally:
        loop.close()
    limits.reset()
    return cpu / checks * 1e6, wall / checks * 1e6, None if served is None else served / checks * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--checks", type=int, default=20000)
    parser.add_argument("--burst", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--redis-url", default=os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0")
    parser.add_argument("--code", type=Path, default=ROOT, help="the checkout whose ludo.limits is measured")
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()

    sys.path.insert(0, str(args.code.resolve()))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ludo.settings")
    os.environ["CHANNELS_PREFIX"] = f"bench-limits-{uuid.uuid4().hex[:8]}"
    import django
    import redis

    django.setup()
    from django.conf import settings

    from ludo import limits

    redis_client = redis.Redis.from_url(args.redis_url, socket_connect_timeout=2)
    cases = ["off", "memory", "redis, new person each", "redis, 20 a person", "redis, bursts"]
    try:
        redis_client.ping()
    except redis.ConnectionError:
        print(f"no Redis at {args.redis_url}: in-memory cases only")
        redis_client, cases = None, cases[:2]
    results: dict[str, list[tuple[float, float, float | None]]] = {case: [] for case in cases}
    for _round in range(args.rounds):
        for case in cases:
            results[case].append(measure(limits, settings, case, args, redis_client))

    print(f"ludo.limits from {args.code.resolve()}: {args.checks} checks per case, bursts of {args.burst}, "
          f"median of {args.rounds} alternated rounds")
    if args.markdown:
        print("\n| case | daphne-side CPU µs/check | wall µs/check | Redis CPU µs/check |\n|---|---|---|---|")
    for case in cases:
        cpu = statistics.median(r[0] for r in results[case])
        wall = statistics.median(r[1] for r in results[case])
        served = [r[2] for r in results[case] if r[2] is not None]
        redis_cost = f"{statistics.median(served):.1f}" if served else "-"
        if args.markdown:
            print(f"| {case} | {cpu:.1f} | {wall:.1f} | {redis_cost} |")
        else:
            print(f"{case:24} cpu {cpu:8.1f} µs/check   wall {wall:8.1f} µs/check   redis cpu {redis_cost} µs/check")


if __name__ == "__main__":
    main()
