"""The limiter under bursts: budgets exact across processes, a bounded number of
Redis connections, and no flood let through (nor logged per message) when Redis fails.

With redis-py's defaults (a pool of 100 that raises past it), 500 tables moving at
once made the limiter fail open and log "rate limit ws not checked: Redis failed ...
Too many connections" hundreds of times a run.
"""

from __future__ import annotations

import asyncio
import logging
import os
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import redis

from ludo import limits
from tests.games.live_helpers import redis_url, require_redis

ROOT = Path(__file__).resolve().parents[2]
BUDGET = (100, 60.0)

FLOOD_IN_A_PROCESS = """
import asyncio, django
django.setup()
from ludo import limits

async def main():
    # 400 socket messages at once, then 20 HTTP writes, all against one budget of 100.
    verdicts = await asyncio.gather(*(limits.aallow("flood", "a:203.0.113.9", (100, 60.0)) for _ in range(400)))
    http = [limits.allow("flood", "a:203.0.113.9", (100, 60.0)) for _ in range(20)]
    print(sum(map(bool, verdicts)) + sum(map(bool, http)))

asyncio.run(main())
"""


def _prefix() -> str:
    return f"{os.environ.get('CHANNELS_PREFIX', 'test')}-batches-{uuid.uuid4().hex[:8]}"


def test_two_processes_flooding_one_budget_never_let_more_than_it_through():
    require_redis()
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "ludo.settings", "REDIS_URL": redis_url(),
           "CHANNELS_PREFIX": _prefix()}
    runs = [subprocess.Popen([sys.executable, "-c", FLOOD_IN_A_PROCESS], cwd=ROOT, env=env, text=True,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(2)]
    outputs = [run.communicate(timeout=120) for run in runs]
    assert all(run.returncode == 0 for run in runs), outputs
    allowed = [int(out.strip().splitlines()[-1]) for out, _err in outputs]
    assert sum(allowed) == BUDGET[0], allowed  # exact: no overshoot, nothing lost either
    assert not any("Redis" in err for _out, err in outputs), outputs  # no warning: Redis never failed


def test_a_burst_of_socket_checks_holds_few_redis_connections(settings):
    require_redis()
    settings.REDIS_URL = redis_url()
    settings.CHANNELS_PREFIX = _prefix()
    limits.reset()
    before = redis.Redis.from_url(redis_url()).client_list()

    async def burst() -> list[dict[str, Any]]:
        verdicts = await asyncio.gather(*(limits.aallow("burst", f"u:{n % 50}", (5, 60.0)) for n in range(600)))
        assert sum(map(bool, verdicts)) == 50 * 5
        return redis.Redis.from_url(redis_url()).client_list()

    after = asyncio.run(burst())
    known = {c["id"] for c in before}
    # This process's limiter connections opened by the burst (other processes, CI's
    # other streams, share the Redis server: their connections are theirs).
    opened = [c for c in after if c["id"] not in known and c.get("name") == limits.client_name()]
    assert 1 <= len(opened) <= 2


def test_with_redis_down_each_process_keeps_counting_and_warns_once(settings, caplog):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    limits.reset()
    with caplog.at_level(logging.WARNING, logger="ludo.limits"):
        sync = [limits.allow("down", "a:203.0.113.9", (5, 60.0)) for _ in range(30)]

        async def sockets() -> list[limits.Verdict]:
            return list(await asyncio.gather(*(limits.aallow("down-ws", "g:x", (5, 60.0)) for _ in range(30))))

        socket = asyncio.run(sockets())
    assert sum(map(bool, sync)) == 5 and sum(map(bool, socket)) == 5  # never open
    assert not sync[-1] and sync[-1].retry_after > 0
    warnings = [r for r in caplog.records if r.name == "ludo.limits" and r.levelno == logging.WARNING]
    assert len(warnings) == 1, [r.getMessage() for r in warnings]


def test_a_refused_key_is_answered_without_redis_until_its_wait_is_over(settings):
    require_redis()
    settings.REDIS_URL = redis_url()
    settings.CHANNELS_PREFIX = _prefix()
    limits.reset()
    assert limits.allow("again", "g:flood", (1, 60.0))
    first = limits.allow("again", "g:flood", (1, 60.0))
    assert not first
    # Redis itself forgets the key: a refusal still stands here until its wait is over,
    # as it would have in Redis (the window's oldest hit has not expired).
    redis.Redis.from_url(redis_url()).delete(limits._redis_key("again", "g:flood"))
    later = asyncio.run(limits.aallow("again", "g:flood", (1, 60.0)))
    assert not later and 0 < later.retry_after <= first.retry_after
