"""How many sockets one person holds open, over every server process.

A person (an account, whatever the sessions and tokens it uses; a guest identity,
a session's or a guest token's; else, for an anonymous visitor, the address,
IPv6 grouped as ``ludo.limits`` groups it) may hold at most LUDO_WS_MAX_SOCKETS
(20) sockets at once; an anonymous address, LUDO_WS_MAX_ANONYMOUS_SOCKETS (60: a
house of visitors behind one box). One more is accepted and closed at once with
:data:`CLOSE_TOO_MANY` (docs/protocol.md, "Close codes").

Where the count lives: with REDIS_URL, one sorted set per person in Redis (its
members the sockets' channel names, scored by when their lease ends), taken and
let go by one Lua script each on Redis's clock; a process renews the leases of
all its sockets in one round trip every LEASE / 3 seconds, so the slots of a
process that died free themselves within LEASE seconds. Without Redis, in this
process's memory (one process). If Redis fails, the socket is let in (logged at
most once a minute): a cap must not take the tables down with Redis.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from django.conf import settings

log = logging.getLogger(__name__)

CLOSE_TOO_MANY = 4429
LEASE = 90.0  # seconds a slot is held without renewal

_TAKE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local lease = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) and redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then
  return 0
end
redis.call('ZADD', KEYS[1], now + lease, ARGV[1])
redis.call('PEXPIRE', KEYS[1], math.ceil(lease * 1000))
return 1
"""

_RENEW = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local lease = tonumber(ARGV[1])
for i, key in ipairs(KEYS) do
  redis.call('ZADD', key, 'XX', now + lease, ARGV[i + 1])
  redis.call('PEXPIRE', key, math.ceil(lease * 1000))
end
return #KEYS
"""


def cap_for(person_key: str) -> int:
    """The most sockets ``person_key`` may hold (an address's: anonymous visitors)."""
    if person_key.startswith("a:"):
        return int(getattr(settings, "LUDO_WS_MAX_ANONYMOUS_SOCKETS", 60))
    return int(getattr(settings, "LUDO_WS_MAX_SOCKETS", 20))


class Slots:
    """The slots taken by one event loop's sockets (channel name -> person key)."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.held: dict[str, str] = {}
        self.scripts: tuple[Any, Any] | None = None
        self.renewer: asyncio.Task | None = None
        self.warned_at = -3600.0

    def _redis(self) -> tuple[Any, Any] | None:
        url = getattr(settings, "REDIS_URL", "") or ""
        if not url:
            return None
        if self.scripts is None:
            from redis import asyncio as aioredis

            client = aioredis.Redis.from_url(url, socket_connect_timeout=5, socket_timeout=5)
            self.scripts = (client.register_script(_TAKE), client.register_script(_RENEW))
        return self.scripts

    def _key(self, person_key: str) -> str:
        return f"{getattr(settings, 'CHANNELS_PREFIX', 'ludo')}:sockets:{person_key}"

    def _warn(self, what: str) -> None:
        now = time.monotonic()
        if now - self.warned_at >= 60:
            self.warned_at = now
            log.warning("socket slots not %s: Redis failed", what, exc_info=True)

    async def take(self, person_key: str, channel: str) -> bool:
        """Hold a slot for ``channel``; False when ``person_key`` holds all theirs."""
        if not person_key:
            return True
        cap = cap_for(person_key)
        scripts = self._redis()
        if scripts is None:
            if sum(1 for k in _memory.values() if k == person_key) >= cap:
                return False
            _memory[channel] = person_key
        else:
            try:
                if not await scripts[0](keys=[self._key(person_key)], args=[channel, cap, LEASE]):
                    return False
            except Exception:
                self._warn("counted")
        self.held[channel] = person_key
        if self.renewer is None or self.renewer.done():
            self.renewer = self.loop.create_task(self._renew_forever())
        return True

    async def release(self, channel: str) -> None:
        person_key = self.held.pop(channel, None)
        _memory.pop(channel, None)
        scripts = self._redis() if person_key else None
        if scripts is not None:
            client = scripts[0].registered_client
            try:
                await client.zrem(self._key(person_key), channel)
            except Exception:
                self._warn("given back")

    async def _renew_forever(self) -> None:
        while self.held:
            await asyncio.sleep(LEASE / 3)
            scripts = self._redis()
            if scripts is None or not self.held:
                continue
            pairs = list(self.held.items())
            try:
                await scripts[1](keys=[self._key(p) for _, p in pairs], args=[LEASE, *(c for c, _ in pairs)])
            except Exception:
                self._warn("renewed")


_memory: dict[str, str] = {}  # without Redis: channel name -> person key, for the process
_slots: dict[int, Slots] = {}


def slots() -> Slots:
    loop = asyncio.get_running_loop()
    found = _slots.get(id(loop))
    if found is None or found.loop is not loop:
        found = _slots[id(loop)] = Slots(loop)
    return found
