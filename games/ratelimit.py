"""Message rate limits for sockets: per socket, and per person across their sockets.

One socket's window lives in its server process's memory (a socket is served
by one process). A person's messages over all their sockets are counted by the
site's limiter (ludo.limits): in Redis when it is configured, so every process
counts the same hits. The person is the account, else the guest identity, else
the client address: an anonymous visitor opening socket after socket shares one
budget. lichess allows a player 100 messages in 20 seconds: our default too.
"""

from __future__ import annotations

from django.conf import settings

from ludo import limits
from ludo.limits import KeyedLimits, SlidingWindow

__all__ = ["KeyedLimits", "SlidingWindow", "person_limit", "person_over", "socket_limit"]


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
