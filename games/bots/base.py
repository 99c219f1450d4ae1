"""What every bot is: a seat player that sees only its seat's view.

A bot is built once per seat at a table, with a seed, and asked for a move each
time its seat is to act. It receives the JSON view that seat is allowed to see
(exactly what a human at that seat receives) and never the full state: to
search, it asks ``rules.state_from_view(view, seat, rng)`` for a state
consistent with that view (exact for games of perfect information, a sampled
determinisation where information is hidden).

Searching bots spend a :class:`Budget`: at least ``floor`` nodes (what the level
always searches, however loaded the machine), then more until ``nodes`` or a
wall-clock cap, whichever comes first. The clock is the wall clock
(``time.monotonic``): the player waits wall time, whatever share of a core the
bot gets. Tests pass a clock of their own so that nothing depends on timing.
"""

from __future__ import annotations

import random
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from games.engines.base import Rules, Seat, make_rng

Clock = Callable[[], float]

# What the house allows a bot's move, from the moment the worker asks the bot to
# the move saved and sent (tests/games/test_live_worker_lanes.py holds a bot to
# it under load), and what a level's cap keeps aside for the rest: reading the
# view, applying, saving and broadcasting the move. Every level's cap is at most
# TABLE_SECONDS - APPLY_MARGIN (tests/games/test_bots.py checks it).
TABLE_SECONDS = 2.0
APPLY_MARGIN = 0.5


class Bot(ABC):
    kind: ClassVar[str]

    def __init__(self, rules: Rules, seed: Any = 0, *, clock: Clock = time.monotonic) -> None:
        self.rules = rules
        self.rng: random.Random = make_rng(seed, "bot", self.kind)
        self.clock = clock

    @abstractmethod
    def choose(self, view: Mapping[str, Any], seat: Seat) -> str:
        """A legal move for ``seat``, in the game's notation, from its view only."""


def check_budget(iterations: int | None, seconds: float | None, what: str, floor: int = 1) -> None:
    """A searching bot's budget: an iteration count, a time in seconds, or both, and a floor."""
    if iterations is None and seconds is None:
        raise ValueError(f"{what} needs an iteration budget, a time budget or both")
    if iterations is not None and iterations < 1:
        raise ValueError(f"iterations must be at least 1, not {iterations}")
    if seconds is not None and seconds <= 0:
        raise ValueError(f"seconds must be positive, not {seconds}")
    if floor < 1:
        raise ValueError(f"floor must be at least 1, not {floor}")
    if iterations is not None and floor > iterations:
        raise ValueError(f"floor ({floor}) must not exceed iterations ({iterations})")


class Budget:
    """When one search stops.

    It goes on while fewer than ``floor`` nodes are done, whatever the time (the
    floor is what the level always searches: on a machine so loaded that the
    floor takes longer than the cap, the move is late rather than weaker), then
    while the next ``step`` nodes stay within ``nodes`` and, at the pace of the
    nodes done so far (the time since :meth:`start` over their number), should
    end before ``seconds``: a search whose steps are long (the Drekki search's
    rounds) stops before a step it would finish late, not after. With
    ``seconds`` None the node count alone decides, so a seed fixes every choice.
    """

    __slots__ = ("nodes", "seconds", "floor", "clock", "started")

    def __init__(self, nodes: int | None, seconds: float | None, floor: int, clock: Clock) -> None:
        self.nodes = nodes
        self.seconds = seconds
        self.floor = floor
        self.clock = clock
        self.started = 0.0

    def start(self) -> None:
        self.started = self.clock()

    def more(self, done: int, step: int = 1) -> bool:
        """Whether to search ``step`` more nodes after ``done``."""
        if done < self.floor:
            return True
        if self.nodes is not None and done + step > self.nodes:
            return False
        if self.seconds is None:
            return True
        elapsed = self.clock() - self.started
        return elapsed + (elapsed / done * step if done else 0.0) < self.seconds

    def elapsed(self) -> float:
        return self.clock() - self.started
