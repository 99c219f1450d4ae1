"""A finished table's outcome as tournament points: pure, no Django.

Each player gets the share of the other players they did better than (a tie
counting half): 1, 0.5 or 0 at a two-player table, and 1, 2/3, 1/3, 0 at a
table of four, by the engine's final scores. A table ended without an
outcome (aborted: nobody played, a host called it off) gives everyone 0 (a
double forfeit) unless a host adjudicates it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


def points_from_scores(scores: Sequence[float]) -> tuple[float, ...]:
    n = len(scores)
    if n < 2:
        raise ValueError("a game has two players or more")
    out = []
    for s in scores:
        better = sum(1 for t in scores if s > t)
        tied = sum(1 for t in scores if s == t) - 1
        out.append(round((better + 0.5 * tied) / (n - 1), 6))
    return tuple(out)


def points_from_outcome(outcome: Mapping[str, Any] | None, seats: int) -> tuple[float, ...]:
    """Tournament points per seat for a table's ``outcome`` (games.engines.Outcome.to_dict)."""
    if not outcome:
        return tuple(0.0 for _ in range(seats))
    scores = list(outcome.get("scores") or [])
    winners = set(outcome.get("winners") or [])
    if len(scores) != seats:
        scores = [1.0 if i in winners else 0.0 for i in range(seats)]
    if winners and len(winners) < seats:
        # The winners first, whatever the scores say (a resignation keeps the board's score).
        scores = [(1 if i in winners else 0, scores[i]) for i in range(seats)]
        ranked = sorted(set(scores))
        scores = [ranked.index(s) for s in scores]
    return points_from_scores(scores)
