"""Racing requests: callables started at the same moment, each in its own thread
and database connection (the way two people's requests meet in the server)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from django.db import connections


def race(calls: list[Callable[[], Any]], refused: type[Exception],
         told: Callable[[Any], tuple] = lambda exc: (exc.code,), timeout: float = 120) -> list[tuple]:
    """What each call returned (``("ok", value)``) or raised: ``("refused", *told(exc))``
    for the service's own refusal, ``("crashed", repr)`` for anything else (a bug the
    test must show)."""
    barrier = threading.Barrier(len(calls))
    results: list = [None] * len(calls)

    def run(i: int, call: Callable[[], Any]) -> None:
        try:
            barrier.wait()
            results[i] = ("ok", call())
        except refused as exc:
            results[i] = ("refused", *told(exc))
        except Exception as exc:
            results[i] = ("crashed", repr(exc))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, call)) for i, call in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout)
    assert not any(t.is_alive() for t in threads), "a racing thread hung"
    return results
