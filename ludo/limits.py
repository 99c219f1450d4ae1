"""Rate limits for every part of the site: HTTP views and sockets alike.

One question, ``allow(scope, key, rate)``: may ``key`` (a person or an address)
do one more ``scope`` thing ("chat", "table-create", ...), given at most
``rate = (limit, seconds)`` of them in any sliding window of that many seconds?
The answer (a :class:`Verdict`) says when to try again if not.

Where the counts live:

- with ``REDIS_URL`` set, in Redis (one sorted set per scope and key, updated
  by one Lua script on Redis's own clock), so every server process counts the
  same hits;
- otherwise in this process's memory (the embedded default has one process).

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
import logging
import math
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

# One sorted set per scope and key: members are hits, scores Redis's time. Atomic,
# and one clock for every process.
_SCRIPT = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local period = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - period)
if redis.call('ZCARD', KEYS[1]) >= limit then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return {0, tostring(tonumber(oldest[2]) + period - now)}
end
redis.call('ZADD', KEYS[1], now, ARGV[3])
redis.call('PEXPIRE', KEYS[1], math.ceil(period * 1000))
return {1, '0'}
"""

_memory: dict[tuple[str, int, float], KeyedLimits] = {}
_sync_script: Any = None
_async_scripts: dict[int, tuple[Any, Any]] = {}  # id(event loop) -> (loop, script)


def enabled() -> bool:
    return bool(getattr(settings, "LUDO_RATE_LIMITS_ENABLED", True))


def _redis_url() -> str:
    return getattr(settings, "REDIS_URL", "") or ""


def _redis_key(scope: str, key: str) -> str:
    return f"{getattr(settings, 'CHANNELS_PREFIX', 'ludo')}:limit:{scope}:{key}"


def _verdict(answer: Any) -> Verdict:
    allowed, wait = answer
    return ALLOWED if int(allowed) else Verdict(False, max(0.0, float(wait)))


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


def allow(scope: str, key: str, rate: Rate | None) -> Verdict:
    """Count one ``scope`` hit for ``key`` unless it is over ``rate``; None: no limit."""
    checked = _checked(rate)
    if checked is None or not key:
        return ALLOWED
    limit, period = checked
    url = _redis_url()
    if not url:
        return _memory_allow(scope, key, limit, period)
    global _sync_script
    try:
        if _sync_script is None:
            import redis

            _sync_script = redis.Redis.from_url(url, socket_connect_timeout=5, socket_timeout=5).register_script(_SCRIPT)
        return _verdict(_sync_script(keys=[_redis_key(scope, key)], args=[period, limit, secrets.token_hex(8)]))
    except Exception:
        # A limiter must not take the site down with Redis: let the request through.
        log.warning("rate limit %s not checked: Redis failed", scope, exc_info=True)
        return ALLOWED


async def aallow(scope: str, key: str, rate: Rate | None) -> Verdict:
    """:func:`allow` for the event loop (sockets): no thread hop, Redis's asyncio client."""
    checked = _checked(rate)
    if checked is None or not key:
        return ALLOWED
    limit, period = checked
    url = _redis_url()
    if not url:
        return _memory_allow(scope, key, limit, period)
    loop = asyncio.get_running_loop()
    try:
        entry = _async_scripts.get(id(loop))
        if entry is None or entry[0] is not loop:
            from redis import asyncio as aioredis

            client = aioredis.Redis.from_url(url, socket_connect_timeout=5, socket_timeout=5)
            entry = _async_scripts[id(loop)] = (loop, client.register_script(_SCRIPT))
        answer = await entry[1](keys=[_redis_key(scope, key)], args=[period, limit, secrets.token_hex(8)])
        return _verdict(answer)
    except Exception:
        log.warning("rate limit %s not checked: Redis failed", scope, exc_info=True)
        return ALLOWED


def reset() -> None:
    """Forget every count (tests): this process's memory, and this prefix's Redis keys."""
    global _sync_script
    _memory.clear()
    _async_scripts.clear()
    _sync_script = None
    url = _redis_url()
    if url:
        import redis

        client = redis.Redis.from_url(url)
        keys = list(client.scan_iter(match=_redis_key("*", "*"), count=1000))
        if keys:
            client.delete(*keys)
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
