"""Rate limits for every part of the site: HTTP views and sockets alike.

One question, ``allow(scope, key, rate)``: may ``key`` (a person or an address)
do one more ``scope`` thing ("chat", "table-create", ...), given at most
``rate = (limit, seconds)`` of them in any sliding window of that many seconds?
The answer (a :class:`Verdict`) says when to try again if not.

Where the counts live:

- with ``REDIS_URL`` set, in Redis (one sorted set per scope and key, updated
  by one Lua script on Redis's own clock), so every server process counts the
  same hits, and never more than a budget: every hit is counted in Redis before
  it is allowed. The sockets' checks (:func:`aallow`) cost almost nothing: a
  check leases a few slots of a large budget at once (:func:`lease_terms`: 10 of
  the 200 messages per 20 s) and the next checks of that person in this process
  spend them without a round trip; and the round trips of a process's sockets
  are shared: all the checks asked while one is under way go in the next, as
  one call of the script on one connection (a burst of 500 moves costs a few
  round trips, not 500). A refusal is remembered until its wait is over and
  answered without Redis. Pools are bounded and wait for a connection instead of failing.
  When Redis fails, each process counts in its own memory (neither open nor
  closed: see :class:`_Outage`), and says so at most once a minute;
- otherwise in this process's memory (the embedded default has one process).

Every address is counted under its budget key (ludo.client_ip: an IPv6 address
with its whole /64): :func:`client_address` and :func:`scope_address` give it.

For views, :func:`rate_limited` checks a scope per person and per address and
answers 429 with ``Retry-After`` (JSON under /api/, an HTML page elsewhere):

    @rate_limited("booking", per_person=(5, 600), per_address=(20, 600))
    def book(request): ...

or, inside a view that knows more, ``refusal = check(request, "chat", ...)``
(None, or the 429 response). The person of a request is its account, else its
guest identity (``g:`` session guests, ``t:`` token guests), else its address:
opening another socket or dropping the session cookie never buys a fresh budget
beyond the address's. ``LUDO_RATE_LIMITS`` in the settings overrides a scope's
rates (``{"chat": {"person": (20, 60), "address": None}}``, None: no limit
there); ``LUDO_RATE_LIMITS_ENABLED = False`` lifts every limit (benchmarks).
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import math
import os
import secrets
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ludo.client_ip import budget_ip, scope_budget_ip

log = logging.getLogger(__name__)
Clock = Callable[[], float]
Rate = tuple[int, float]


# -- the windows, in memory ------------------------------------------------------------------

class SlidingWindow:
    """At most ``limit`` hits in any ``period`` seconds."""

    __slots__ = ("limit", "period", "clock", "hits")

    def __init__(self, limit: int, period: float, clock: Clock = time.monotonic) -> None:
        if limit < 1 or period <= 0:
            raise ValueError("a rate limit needs a positive limit and period")
        self.limit = limit
        self.period = period
        self.clock = clock
        self.hits: deque[float] = deque()

    def hit(self) -> bool:
        """Count one hit; False (and not counted) when over the limit."""
        now = self.clock()
        horizon = now - self.period
        hits = self.hits
        while hits and hits[0] <= horizon:
            hits.popleft()
        if len(hits) >= self.limit:
            return False
        hits.append(now)
        return True

    def retry_after(self) -> float:
        """Seconds until the window takes a hit again (0: it would now)."""
        if len(self.hits) < self.limit:
            return 0.0
        return max(0.0, self.hits[0] + self.period - self.clock())

    def idle(self) -> bool:
        return not self.hits or self.hits[-1] <= self.clock() - self.period


class KeyedLimits:
    """One sliding window per key, forgetting the idle ones."""

    def __init__(self, limit: int, period: float, clock: Clock = time.monotonic, max_keys: int = 50_000) -> None:
        self.limit = limit
        self.period = period
        self.clock = clock
        self.max_keys = max_keys
        self.windows: OrderedDict[str, SlidingWindow] = OrderedDict()

    def hit(self, key: str) -> bool:
        window = self.windows.get(key)
        if window is None:
            window = self.windows[key] = SlidingWindow(self.limit, self.period, self.clock)
            if len(self.windows) > self.max_keys:
                self._forget()
        else:
            self.windows.move_to_end(key)
        return window.hit()

    def retry_after(self, key: str) -> float:
        window = self.windows.get(key)
        return 0.0 if window is None else window.retry_after()

    def _forget(self) -> None:
        # Oldest first: drop idle windows; if all are busy, drop the oldest anyway.
        for key in list(self.windows)[: len(self.windows) // 2 + 1]:
            if self.windows[key].idle() or len(self.windows) > self.max_keys:
                del self.windows[key]


# -- the verdict, from memory or Redis --------------------------------------------------------

@dataclass(frozen=True)
class Verdict:
    allowed: bool
    retry_after: float = 0.0  # seconds until a hit would be taken again

    def __bool__(self) -> bool:
        return self.allowed

    @property
    def retry_seconds(self) -> int:
        """``Retry-After`` in whole seconds, at least 1."""
        return max(1, math.ceil(self.retry_after))


ALLOWED = Verdict(True)

# Any number of checks in one atomic call, on Redis's own clock (one clock for every
# process): for each key, one sorted set of hits (unique members, scored by time).
# ARGV holds (period, limit, wanted, lease, member) for each key, in order: up to
# ``wanted`` slots are granted at once (never past the limit), each scored ``lease``
# seconds ahead, at the latest moment it may be used (see _Leases). The answer holds
# (granted, wait) for each key. A key asked twice in one call is counted twice, in turn.
_SCRIPT = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local out = {}
for i, key in ipairs(KEYS) do
  local base = 5 * (i - 1)
  local period = tonumber(ARGV[base + 1])
  local limit = tonumber(ARGV[base + 2])
  local wanted = tonumber(ARGV[base + 3])
  local lease = tonumber(ARGV[base + 4])
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - period)
  local free = limit - redis.call('ZCARD', key)
  if free <= 0 then
    local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
    out[2 * i - 1] = 0
    out[2 * i] = tostring(tonumber(oldest[2]) + period - now)
  else
    local granted = math.min(wanted, free)
    for j = 1, granted do
      redis.call('ZADD', key, now + lease, ARGV[base + 5] .. ':' .. j)
    end
    redis.call('PEXPIRE', key, math.ceil((period + lease) * 1000))
    out[2 * i - 1] = granted
    out[2 * i] = '0'
  end
end
return out
"""

# Redis clients: bounded pools that wait for a free connection instead of failing
# (redis-py's default raises "Too many connections" past 100, and the limiter then let
# everything through). Sockets need one connection per event loop (see _Batcher).
POOL_SIZE = 16  # sync checks (HTTP views) waiting at once per process
POOL_WAIT = 2.0  # seconds a check waits for a connection before Redis counts as down
SOCKET_TIMEOUT = 2.0
OUTAGE_RETRY = 1.0  # seconds after a Redis failure before Redis is asked again
OUTAGE_LOG_INTERVAL = 60.0  # at most one warning per this many seconds while Redis is down

_memory: dict[tuple[str, int, float], KeyedLimits] = {}
_sync_script: Any = None
_batchers: dict[int, _Batcher] = {}  # id(event loop) -> its batcher
_denied: dict[str, float] = {}  # Redis key -> monotonic time until which Redis refuses it
_leases: dict[str, list[float]] = {}  # Redis key -> [slots left, monotonic time they lapse]
_members = itertools.count()
_PROCESS = secrets.token_hex(4)


def enabled() -> bool:
    return bool(getattr(settings, "LUDO_RATE_LIMITS_ENABLED", True))


def _redis_url() -> str:
    return getattr(settings, "REDIS_URL", "") or ""


def _redis_key(scope: str, key: str) -> str:
    return f"{getattr(settings, 'CHANNELS_PREFIX', 'ludo')}:limit:{scope}:{key}"


def _member() -> str:
    return f"{_PROCESS}:{next(_members)}"


def _memory_allow(scope: str, key: str, limit: int, period: float) -> Verdict:
    limits = _memory.get((scope, limit, period))
    if limits is None:
        limits = _memory[(scope, limit, period)] = KeyedLimits(limit, period)
    if limits.hit(key):
        return ALLOWED
    return Verdict(False, limits.retry_after(key))


def _checked(rate: Rate | None) -> tuple[int, float] | None:
    if rate is None or not enabled():
        return None
    limit, period = int(rate[0]), float(rate[1])
    if limit < 1 or period <= 0:
        raise ValueError("a rate limit needs a positive limit and period")
    return limit, period


# -- when Redis is down -----------------------------------------------------------------------

class _Outage:
    """Redis down or unreachable: the choice is neither "fail open" (a flood passes
    while Redis is away: that is how the limiter let bursts through) nor "fail
    closed" (a Redis restart would refuse every player's move). Each process counts
    in its own memory instead: every budget still holds per process (a site of N
    processes lets through at most N times a budget while Redis is away). Redis is
    asked again every ``OUTAGE_RETRY`` seconds, not on every check; one warning per
    ``OUTAGE_LOG_INTERVAL`` says so, with the checks counted locally since."""

    def __init__(self) -> None:
        self.retry_at = 0.0
        self.logged_at = -math.inf
        self.local_checks = 0
        self.down = False

    def redis_usable(self) -> bool:
        return not self.down or time.monotonic() >= self.retry_at

    def failed(self, error: BaseException) -> None:
        now = time.monotonic()
        self.retry_at = now + OUTAGE_RETRY
        self.down = True
        if now - self.logged_at >= OUTAGE_LOG_INTERVAL:
            log.warning("rate limits counted in this process's memory: Redis failed (%s: %s); %d checks "
                        "counted locally since the last warning", type(error).__name__, error, self.local_checks)
            self.logged_at = now
            self.local_checks = 0

    def recovered(self) -> None:
        if self.down:
            self.down = False
            log.warning("rate limits counted in Redis again")

    def local(self, scope: str, key: str, limit: int, period: float) -> Verdict:
        self.local_checks += 1
        return _memory_allow(scope, key, limit, period)


_outage = _Outage()


def _denied_for(redis_key: str) -> Verdict | None:
    """A refusal Redis gave lately still stands until its wait is over: answered here,
    with no round trip (a flood from one key costs Redis one check per wait)."""
    until = _denied.get(redis_key)
    if until is None:
        return None
    wait = until - time.monotonic()
    if wait > 0:
        return Verdict(False, wait)
    _denied.pop(redis_key, None)  # another thread may have dropped it first
    return None


def _remember(redis_key: str, verdict: Verdict) -> Verdict:
    if not verdict.allowed:
        if len(_denied) > 50_000:
            _denied.clear()
        _denied[redis_key] = time.monotonic() + verdict.retry_after
    return verdict


def _granted(answer: Any) -> list[tuple[int, float]]:
    """The script's answer as (slots granted, seconds to wait when none) per key."""
    return [(int(answer[i]), max(0.0, float(answer[i + 1]))) for i in range(0, len(answer), 2)]


# -- leases: the sockets' checks without a round trip -----------------------------------------

LEASE_SLOTS = 10  # at most this many slots per lease, and at most a twentieth of the budget


def lease_terms(limit: int, period: float) -> tuple[int, float]:
    """How many slots a socket check asks Redis for at once, and for how long they
    may be spent (seconds): a twentieth of the budget (at most ``LEASE_SLOTS``; 1,
    no lease, for small budgets such as chat's 20), for half its period.

    Exact across processes, never over: Redis counts a leased slot from the moment
    it is granted and scores it at the last moment it may be spent (``lease``
    seconds ahead), so it stays in every window that could hold its real use. The
    price is the other way: slots leased and not spent before they lapse are lost
    for the rest of the window (at most ``slots - 1`` per process and key: 9 of the
    sockets' 200 per 20 s)."""
    slots = max(1, min(LEASE_SLOTS, limit // 20))
    return slots, (period if slots > 1 else 0.0)


def _spend_lease(redis_key: str) -> bool:
    """One slot of this process's lease on ``redis_key``, if it holds one. A spent or
    lapsed lease stays as [0, ...]: the key was seen lately, its next check leases."""
    lease = _leases.get(redis_key)
    if lease is None or lease[0] < 1:
        return False
    if time.monotonic() < lease[1]:
        lease[0] -= 1
        return True
    lease[0] = 0
    return False


def _slots_wanted(redis_key: str, limit: int, period: float) -> tuple[int, float]:
    """:func:`lease_terms`, for a key this process checked lately; a key seen for the
    first time asks for its one slot only (most keys send one message and go)."""
    if redis_key not in _leases:
        if len(_leases) > 50_000:
            _leases.clear()
        _leases[redis_key] = [0, 0.0]
        return 1, 0.0
    return lease_terms(limit, period)


def _keep_lease(redis_key: str, slots: int, lapses_at: float) -> None:
    if slots <= 0:
        return
    lease = _leases.get(redis_key)
    if lease is not None and lease[0] >= 1 and time.monotonic() < lease[1]:
        lease[0] += slots
        lease[1] = min(lease[1], lapses_at)
    else:
        _leases[redis_key] = [slots, lapses_at]


# -- the checks -------------------------------------------------------------------------------

def allow(scope: str, key: str, rate: Rate | None) -> Verdict:
    """Count one ``scope`` hit for ``key`` unless it is over ``rate``; None: no limit.
    From a thread (HTTP views): one round trip to Redis (when it is configured)."""
    checked = _checked(rate)
    if checked is None or not key:
        return ALLOWED
    limit, period = checked
    url = _redis_url()
    if not url or not _outage.redis_usable():
        return _outage.local(scope, key, limit, period) if url else _memory_allow(scope, key, limit, period)
    redis_key = _redis_key(scope, key)
    refused = _denied_for(redis_key)
    if refused is not None:
        return refused
    global _sync_script
    try:
        if _sync_script is None:
            import redis

            pool = redis.BlockingConnectionPool.from_url(url, max_connections=POOL_SIZE, timeout=POOL_WAIT,
                                                         socket_connect_timeout=SOCKET_TIMEOUT,
                                                         socket_timeout=SOCKET_TIMEOUT, client_name=client_name())
            _sync_script = redis.Redis(connection_pool=pool).register_script(_SCRIPT)
        granted, wait = _granted(_sync_script(keys=[redis_key], args=[period, limit, 1, 0, _member()]))[0]
        verdict = ALLOWED if granted else Verdict(False, wait)
    except Exception as error:
        _outage.failed(error)
        return _outage.local(scope, key, limit, period)
    _outage.recovered()
    return _remember(redis_key, verdict)


def client_name() -> str:
    """The name of the limiter's Redis connections (CLIENT LIST): the process's, so
    that whoever looks at Redis sees which server holds which connection."""
    return f"ludo-limits-{os.getpid()}"


Check = tuple[str, str, str, int, float]  # scope, key, Redis key, limit, period


class _Batcher:
    """The checks of one event loop (a server process's sockets), sent to Redis
    together: a check asked while no round trip is under way goes at once, in the
    asker's own task; every check asked while one is under way waits for the next
    round trip, and that one carries them all in one call of the script. A burst of
    N messages costs a few round trips, not N, on one connection, and every hit is
    still counted in Redis before it is allowed (the budgets hold across processes)."""

    def __init__(self, loop: asyncio.AbstractEventLoop, url: str) -> None:
        from redis import asyncio as aioredis

        self.loop = loop
        pool = aioredis.BlockingConnectionPool.from_url(url, max_connections=2, timeout=POOL_WAIT,
                                                        socket_connect_timeout=SOCKET_TIMEOUT,
                                                        socket_timeout=SOCKET_TIMEOUT, client_name=client_name())
        self.script = aioredis.Redis(connection_pool=pool).register_script(_SCRIPT)
        self.waiting: list[tuple[Check, asyncio.Future[Verdict]]] = []
        self.sending = False

    async def check(self, check: Check) -> Verdict:
        """The verdict; the hit is counted in Redis (with a lease, see
        :func:`lease_terms`) before it says allowed."""
        if self.sending:
            future: asyncio.Future[Verdict] = self.loop.create_future()
            self.waiting.append((check, future))
            return await future
        self.sending = True
        try:
            return (await self._round_trip([check]))[0]
        finally:
            if self.waiting:
                self.loop.create_task(self._send_waiting())
            else:
                self.sending = False

    async def _send_waiting(self) -> None:
        try:
            while self.waiting:
                batch, self.waiting = self.waiting, []
                verdicts = await self._round_trip([check for check, _future in batch])
                for (_check, future), verdict in zip(batch, verdicts):
                    if not future.done():
                        future.set_result(verdict)
        finally:
            self.sending = False

    async def _round_trip(self, batch: list[Check]) -> list[Verdict]:
        args: list[Any] = []
        lapses: list[float] = []
        sent_at = time.monotonic()
        for _scope, _key, redis_key, limit, period in batch:
            slots, lease = _slots_wanted(redis_key, limit, period)
            args += (period, limit, slots, lease, _member())
            lapses.append(sent_at + lease)
        try:
            if not _outage.redis_usable():
                raise ConnectionError("waiting before asking Redis again")
            answers = _granted(await self.script(keys=[check[2] for check in batch], args=args))
            _outage.recovered()
        except Exception as error:
            if _outage.redis_usable():
                _outage.failed(error)
            return [_outage.local(scope, key, limit, period) for scope, key, _redis_key, limit, period in batch]
        verdicts = []
        for (_scope, _key, redis_key, _limit, _period), (granted, wait), lapses_at in zip(batch, answers, lapses):
            if granted:
                _keep_lease(redis_key, granted - 1, lapses_at)
                verdicts.append(ALLOWED)
            elif _spend_lease(redis_key):  # an earlier check of this batch leased enough for both
                verdicts.append(ALLOWED)
            else:
                verdicts.append(_remember(redis_key, Verdict(False, wait)))
        return verdicts


def _batcher(url: str) -> _Batcher:
    loop = asyncio.get_running_loop()
    batcher = _batchers.get(id(loop))
    if batcher is None or batcher.loop is not loop:
        for ident, old in list(_batchers.items()):
            if old.loop.is_closed():
                del _batchers[ident]
        batcher = _batchers[id(loop)] = _Batcher(loop, url)
    return batcher


async def aallow(scope: str, key: str, rate: Rate | None) -> Verdict:
    """:func:`allow` for the event loop (sockets): no thread hop; the checks of a
    process's sockets share their round trips to Redis (:class:`_Batcher`)."""
    checked = _checked(rate)
    if checked is None or not key:
        return ALLOWED
    limit, period = checked
    url = _redis_url()
    if not url:
        return _memory_allow(scope, key, limit, period)
    redis_key = _redis_key(scope, key)
    if _spend_lease(redis_key):
        return ALLOWED
    refused = _denied_for(redis_key)
    if refused is not None:
        return refused
    return await _batcher(url).check((scope, key, redis_key, limit, period))


def reset() -> None:
    """Forget every count (tests): this process's memory, and this prefix's Redis keys."""
    global _sync_script, _outage
    _memory.clear()
    _batchers.clear()
    _denied.clear()
    _leases.clear()
    _sync_script = None
    _outage = _Outage()
    url = _redis_url()
    if url:
        import redis

        client = redis.Redis.from_url(url, socket_connect_timeout=SOCKET_TIMEOUT, socket_timeout=SOCKET_TIMEOUT)
        try:
            keys = list(client.scan_iter(match=_redis_key("*", "*"), count=1000))
            if keys:
                client.delete(*keys)
        except redis.ConnectionError:
            pass  # Redis down: nothing there to forget
        finally:
            client.close()


# -- who and where ----------------------------------------------------------------------------

def client_address(request: HttpRequest) -> str:
    """The address a request is counted under (ludo.client_ip: trusted proxies only;
    an IPv6 address as its whole /64, see ``budget_key``). Every per-address budget
    keys on this, never on the raw address."""
    return budget_ip(request)


def scope_address(scope: dict[str, Any]) -> str:
    """The address a socket is counted under (as :func:`client_address`, from its ASGI scope)."""
    return scope_budget_ip(scope)


def person_key(user_id: int | None, guest_key: str, address: str) -> str:
    """An account, else a guest identity, else the address (never a session key);
    "" (nobody to count) when there is none of them."""
    if user_id is not None:
        return f"u:{user_id}"
    if guest_key:
        return guest_key
    return f"a:{address}" if address else ""


def request_person(request: HttpRequest) -> str:
    """The person of a request, read from its token, account or session."""
    bearer = getattr(request, "bearer", None)
    if bearer is not None:
        who = bearer.who()
        return person_key(who.user_id, who.guest_key, client_address(request))
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return person_key(user.pk, "", "")
    from ludo.guests import GUEST_ID_KEY

    session = getattr(request, "session", None)
    guest = session.get(GUEST_ID_KEY, "") if session is not None else ""
    return person_key(None, guest, client_address(request))


# -- HTTP: rates from the settings, the check, the 429 ----------------------------------------

_UNSET: Any = object()


def rate_for(scope: str, kind: str, default: Rate | None) -> Rate | None:
    """The rate of ``scope`` per ``kind`` ("person" or "address"): the settings' override or ``default``."""
    configured = getattr(settings, "LUDO_RATE_LIMITS", {}).get(scope, {})
    found = configured.get(kind, _UNSET)
    return default if found is _UNSET else found


def check(request: HttpRequest, scope: str, *, per_person: Rate | None = None, per_address: Rate | None = None,
          person: str | None = None) -> HttpResponse | None:
    """Count one ``scope`` hit for the request's person and its address; None when
    allowed, else the 429 answer. ``person`` overrides :func:`request_person`."""
    person_rate = rate_for(scope, "person", per_person)
    address_rate = rate_for(scope, "address", per_address)
    address = client_address(request)
    person = person or request_person(request)
    verdict = allow(f"{scope}:address", address, address_rate)
    if verdict and person != person_key(None, "", address):
        # Nobody known: the address's budget is the visitor's (counted just above).
        verdict = allow(f"{scope}:person", person, person_rate)
    return None if verdict else too_many(request, verdict)


def too_many(request: HttpRequest, verdict: Verdict) -> HttpResponse:
    """429 with Retry-After: JSON for the API, a page for people."""
    seconds = verdict.retry_seconds
    message = ngettext(
        "Too many requests: please wait %(seconds)d second and try again.",
        "Too many requests: please wait %(seconds)d seconds and try again.",
        seconds,
    ) % {"seconds": seconds}
    wants_json = "/api/" in request.path or "application/json" in request.headers.get("Accept", "")
    if wants_json:
        response: HttpResponse = JsonResponse(
            {"t": "error", "code": "rate_limited", "message": message, "retry_after": seconds},
            status=429, json_dumps_params={"ensure_ascii": False},
        )
    else:
        response = render(request, "429.html", {"message": message, "title": _("Too many requests")}, status=429)
    response["Retry-After"] = str(seconds)
    return response


def rate_limited(scope: str, *, per_person: Rate | None = None, per_address: Rate | None = None,
                 methods: tuple[str, ...] = ("POST",)) -> Callable:
    """A view decorator: :func:`check` on the requests of ``methods`` (writes)."""

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if request.method in methods:
                refusal = check(request, scope, per_person=per_person, per_address=per_address)
                if refusal is not None:
                    return refusal
            return view(request, *args, **kwargs)

        return wrapper

    return decorate
