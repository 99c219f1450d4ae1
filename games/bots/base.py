"""What every bot is: a seat player that sees only its seat's view.

A bot is built once per seat at a table, with a seed, and asked for a move each
time its seat is to act. It receives the JSON view that seat is allowed to see
(exactly what a human at that seat receives) and never the full state: to
search, it asks ``rules.state_from_view(view, seat, rng)`` for a state
consistent with that view (exact for games of perfect information, a sampled
determinisation where information is hidden).
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Any, ClassVar

from games.engines.base import Rules, Seat, make_rng


class Bot(ABC):
    kind: ClassVar[str]

    def __init__(self, rules: Rules, seed: Any = 0) -> None:
        self.rules = rules
        self.rng: random.Random = make_rng(seed, "bot", self.kind)

    @abstractmethod
    def choose(self, view: Mapping[str, Any], seat: Seat) -> str:
        """A legal move for ``seat``, in the game's notation, from its view only."""


def check_budget(iterations: int | None, seconds: float | None, what: str) -> None:
    """A searching bot's budget: an iteration count, a time in seconds, or both."""
    if iterations is None and seconds is None:
        raise ValueError(f"{what} needs an iteration budget, a time budget or both")
    if iterations is not None and iterations < 1:
        raise ValueError(f"iterations must be at least 1, not {iterations}")
    if seconds is not None and seconds <= 0:
        raise ValueError(f"seconds must be positive, not {seconds}")
