"""Reading the Karo games' record of positions (the repetition rule) in tests.

A stored record holds codes, not position texts (games/engines/karo/record.py);
these helpers compare it with position texts all the same.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from games.engines.karo.common import KaroRules


def recorded(rules: KaroRules, state: Any) -> Counter[str]:
    """The codes of the positions ``state`` has recorded, with their counts (from its dump)."""
    text = rules.dump(state)["record"]
    return Counter(text.split(" ")) if text else Counter()


def codes(rules: KaroRules, positions: dict[str, int]) -> Counter[str]:
    """``{position text: occurrences}`` as the codes a record holds."""
    text = rules.record_of(positions)
    return Counter(text.split(" ")) if text else Counter()


def occurrences(rules: KaroRules, state: Any, position: str) -> int:
    """How many times ``state`` has recorded the position written ``position``."""
    return recorded(rules, state)[rules.record_of({position: 1})]


def lasting_move(rules: KaroRules, state: Any, seat: int, rng: random.Random) -> str:
    """A random move that does not end the game, when there is one (so that a game lasts)."""
    moves = rules.legal_moves(state, seat)
    rng.shuffle(moves)
    for move in moves[:6]:
        if rules.outcome(rules.play(state, seat, move)) is None:
            return move
    return moves[0]


def seat_to_act(rules: KaroRules, state: Any, rng: random.Random) -> int:
    acting = rules.to_act(state)
    return acting[0] if len(acting) == 1 else rng.choice(acting)


def long_game(rules: KaroRules, plies: int, seed: int) -> list[Any]:
    """The states of a seeded game of lasting moves, one per ply (fewer if it ends)."""
    rng = random.Random(seed)
    states = [rules.new_game(2, seed=seed)]
    while len(states) <= plies and rules.outcome(states[-1]) is None:
        state = states[-1]
        seat = seat_to_act(rules, state, rng)
        states.append(rules.play(state, seat, lasting_move(rules, state, seat, rng)))
    return states
