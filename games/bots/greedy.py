"""A one-ply bot: it plays the move whose result looks best right now.

Each legal move is played on a state drawn from the bot's view and the result is
scored: a finished game by ``rules.utility`` (a win beats anything, a loss is the
worst), otherwise by ``rules.evaluate``. Where the game hides information, the
scores are averaged over a few determinisations. When other seats choose at the
same time as the bot (a sealed bid), their choices are drawn at random before
scoring, so that the bot scores the revealed result.

Without ``evaluate``, the bot still takes an immediate win and avoids a move
after which the next seat to act can win at once. Ties are broken at random with
the bot's own generator. ``randomness`` is the share of moves played at random
(the "easy" level uses it).

Its floor is one look at every move on one drawn state (on a game of perfect
information, all it does); the further draws of a game with hidden information
stop at ``seconds`` (a wall-clock cap checked between draws) or at ``samples``.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from games.engines.base import Rules, Seat

from .base import Bot, Budget, Clock, check_budget
from .mcts import Determinisations

# Finished games are scored outside evaluate's [0, 1] so that a win always beats a
# good-looking position and a loss is always worse than a bad-looking one.
_WIN_BONUS = 0.5
_THREATENED = 0.1
_NEUTRAL = 0.5


class GreedyBot(Bot):
    kind = "greedy"

    def __init__(
        self,
        rules: Rules,
        seed: Any = 0,
        *,
        randomness: float = 0.0,
        samples: int = 4,
        seconds: float | None = None,
        clock: Clock = time.monotonic,
    ) -> None:
        super().__init__(rules, seed, clock=clock)
        if not 0.0 <= randomness <= 1.0:
            raise ValueError(f"randomness must be between 0 and 1, not {randomness}")
        if samples < 1:
            raise ValueError(f"samples must be at least 1, not {samples}")
        check_budget(samples, seconds, "the greedy bot")
        self.randomness = randomness
        self.samples = samples
        self.seconds = seconds
        # What the last choice did: the draws scored, and the time it took.
        self.last_iterations = 0
        self.last_seconds = 0.0

    def choose(self, view: Mapping[str, Any], seat: Seat) -> str:
        budget = Budget(self.samples, self.seconds, 1, self.clock)
        budget.start()
        self.last_iterations = 0
        try:
            return self._choose(view, seat, budget)
        finally:
            self.last_seconds = budget.elapsed()

    def _choose(self, view: Mapping[str, Any], seat: Seat, budget: Budget) -> str:
        sampler = Determinisations(self.rules, view, seat, self.rng)
        moves = self.rules.legal_moves(sampler.first, seat)
        if not moves:
            raise ValueError(f"seat {seat} has no move to play in this view")
        if len(moves) == 1:
            return moves[0]
        if self.randomness and self.rng.random() < self.randomness:
            return self.rng.choice(moves)
        totals = [0.0] * len(moves)
        draws = 0
        while budget.more(draws) and (draws == 0 or not sampler.exact):
            state = sampler.first if draws == 0 else sampler.sample()
            for j, move in enumerate(moves):
                totals[j] += self._score(state, seat, move)
            draws += 1
        self.last_iterations = draws
        best = max(totals)
        return self.rng.choice([m for m, t in zip(moves, totals) if t >= best - 1e-9])

    def _score(self, state: Any, seat: Seat, move: str) -> float:
        rules = self.rules
        partners = set(rules.to_act(state)) - {seat}
        after = self._reveal(rules.play(state, seat, move), partners)
        outcome = rules.outcome(after)
        if outcome is not None:
            return self._final(outcome, seat)
        value = rules.evaluate(after, seat)
        if value is not None:
            return value
        return _THREATENED if self._threatened(after, seat) else _NEUTRAL

    def _final(self, outcome, seat: Seat) -> float:
        utility = self.rules.utility(outcome, seat)
        return utility + (2 * utility - 1) * _WIN_BONUS

    def _reveal(self, state: Any, partners: set[Seat]) -> Any:
        """Random choices for the seats that were choosing at the same time as us."""
        rules = self.rules
        while partners:
            acting = rules.to_act(state)
            if not acting or not set(acting) <= partners:
                break
            other = min(acting)
            state = rules.play(state, other, self.rng.choice(rules.legal_moves(state, other)))
            partners.discard(other)
        return state

    def _threatened(self, state: Any, seat: Seat) -> bool:
        """Whether a seat acting next, other than ours, can end the game against us."""
        rules = self.rules
        for other in rules.to_act(state):
            if other == seat:
                continue
            for reply in rules.legal_moves(state, other):
                outcome = rules.outcome(rules.play(state, other, reply))
                if outcome is not None and rules.utility(outcome, seat) < 0.5:
                    return True
        return False
