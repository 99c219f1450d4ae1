"""Message rate limits for sockets: per socket, and per person across their sockets.

One socket's window lives in its server process's memory (a socket is served
by one process). A person's messages over all their sockets are counted by the
site's limiter (ludo.limits): in Redis when it is configured, so every process
counts the same hits. The person is the account, else the guest identity, else
the client address: an anonymous visitor opening socket after socket shares one
budget. lichess allows a player 100 messages in 20 seconds: our default too.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings

from ludo import limits
from ludo.limits import KeyedLimits, SlidingWindow

__all__ = ["WRITES", "KeyedLimits", "SlidingWindow", "person_limit", "person_over", "scope_over", "socket_limit"]

# Writes to tables per person and per address, over HTTP (games/api.py, games/pages.py)
# and sockets alike, as (count, seconds); LUDO_RATE_LIMITS overrides them. Every
# API write counts against "api"; some against their own scope too. An address may
# be a whole house behind one box: its budgets hold a few people's.
WRITES: dict[str, dict[str, limits.Rate]] = {
    "api": {"person": (300, 60.0), "address": (1200, 60.0)},
    "table-create": {"person": (10, 300.0), "address": (20, 300.0)},
    "join": {"person": (30, 60.0), "address": (120, 60.0)},
    "chat": {"person": (20, 60.0), "address": (60, 60.0)},
}


def socket_limit() -> tuple[int, float]:
    limit, period = getattr(settings, "LUDO_WS_RATE_LIMIT", (100, 20.0))
    return int(limit), float(period)


def person_limit() -> tuple[int, float]:
    limit, period = getattr(settings, "LUDO_WS_PERSON_RATE_LIMIT", (200, 20.0))
    return int(limit), float(period)


async def person_over(person_key: str) -> float | None:
    """None when ``person_key`` may send one more message; else the seconds to wait."""
    verdict = await limits.aallow("ws", person_key, person_limit())
    return None if verdict else verdict.retry_after


def http_over(request: Any, who: Any, scope: str = "api") -> Any:
    """An HTTP write of ``scope`` by ``who`` (a services.Who): None when allowed
    (counted against "api" and ``scope``), else the 429 answer."""
    person = limits.person_key(who.user_id, who.guest_key, limits.client_address(request))
    for name in dict.fromkeys(("api", scope)):
        rates = WRITES[name]
        refusal = limits.check(request, name, per_person=rates["person"], per_address=rates["address"], person=person)
        if refusal is not None:
            return refusal
    return None


async def scope_over(scope: str, person_key: str, address: str) -> float | None:
    """A socket's write of ``scope`` (chat, join), counted as over HTTP: None when
    allowed, else the seconds to wait."""
    rates = WRITES[scope]
    for kind, key in (("address", address), ("person", person_key)):
        verdict = await limits.aallow(f"{scope}:{kind}", key, limits.rate_for(scope, kind, rates[kind]))
        if not verdict:
            return verdict.retry_after
    return None
