"""Message rate limits for sockets: per socket, and per person across their sockets.

Sliding windows kept in the server process's memory. A person's sockets that
land on different server processes are counted per process (with N processes
a person gets at most N times the limit); one socket is always counted in
full. lichess allows a player 100 messages in 20 seconds: our default too.
"""

from __future__ import annotations

import time
from collections import OrderedDict, deque
from collections.abc import Callable

from django.conf import settings

Clock = Callable[[], float]


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
        """Count one message; False (and not counted) when over the limit."""
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
    """One sliding window per key (a person), forgetting the idle ones."""

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


def socket_limit() -> tuple[int, float]:
    limit, period = getattr(settings, "LUDO_WS_RATE_LIMIT", (100, 20.0))
    return int(limit), float(period)


def person_limit() -> tuple[int, float]:
    limit, period = getattr(settings, "LUDO_WS_PERSON_RATE_LIMIT", (200, 20.0))
    return int(limit), float(period)


_people: KeyedLimits | None = None


def people() -> KeyedLimits:
    """The process-wide per-person limits (built on first use, from settings)."""
    global _people
    limit, period = person_limit()
    if _people is None or (_people.limit, _people.period) != (limit, period):
        _people = KeyedLimits(limit, period)
    return _people
