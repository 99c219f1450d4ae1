"""The simplest opponent: a legal move drawn uniformly with the bot's generator.

(The module is not called ``random`` so that it never hides the standard library's.)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engines.base import Seat

from .base import Bot


class RandomBot(Bot):
    kind = "random"

    def choose(self, view: Mapping[str, Any], seat: Seat) -> str:
        state = self.rules.state_from_view(view, seat, self.rng)
        moves = self.rules.legal_moves(state, seat)
        if not moves:
            raise ValueError(f"seat {seat} has no move to play in this view")
        return self.rng.choice(moves)
