"""Arena, after lichess's: for a fixed time, whoever finishes a game is paired
again at once with someone waiting, of a close score.

Scoring (lichess's arena rules): a win is 2 points, a draw 1, a loss 0.
After two wins in a row a player is "on fire": every game is worth double
(a win 4, a draw 2) until a game that is not a win ends the streak (that
game still counts double). Berserk (optional): a player who halved their own
clock gets one point more for a win.

Pairing: the players waiting are ranked by points (then rating); the top one
meets the closest-ranked player below who was not their last opponent; an
immediate rematch is allowed only after both have waited ``rematch_after``
seconds (so two players left alone are not kept waiting for good).
Standings: points, then performance (the mean of the opponents' ratings,
plus 500 per win and minus 500 per loss over the games).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from tournaments.pairing.types import PlayerId

WIN, DRAW = 2, 1
DEFAULT_RATING = 1500.0


@dataclass(frozen=True)
class Waiting:
    id: PlayerId
    points: int
    rating: float = DEFAULT_RATING
    waiting_since: float = 0.0  # seconds on any clock the caller keeps (pure code reads none)
    last_opponent: PlayerId | None = None
    firsts: int = 0  # games in which the player moved first
    games: int = 0


@dataclass(frozen=True)
class Scored:
    total: int
    on_fire: bool
    per_game: tuple[int, ...]


def score(results: Iterable[tuple[float, bool]]) -> Scored:
    """Arena points from a player's games in order: (result 1/0.5/0, berserk)."""
    total, streak, per_game = 0, 0, []
    for result, berserk in results:
        fire = streak >= 2
        if result == 1:
            pts = WIN * (2 if fire else 1) + (1 if berserk else 0)
            streak += 1
        elif result == 0.5:
            pts = DRAW * (2 if fire else 1)
            streak = 0
        else:
            pts = 0
            streak = 0
        total += pts
        per_game.append(pts)
    return Scored(total, streak >= 2, tuple(per_game))


def performance(results: Iterable[tuple[float, float]]) -> float | None:
    """lichess's performance: mean of (opponent's rating + 500 x (2 x result - 1))
    over (result, opponent's rating) pairs; None without games."""
    values = [rating + 500 * (2 * result - 1) for result, rating in results]
    return sum(values) / len(values) if values else None


def pair_waiting(waiting: Sequence[Waiting], now: float, rematch_after: float = 10.0) -> list[tuple[PlayerId, PlayerId]]:
    """The games to start now among ``waiting`` (first mover first); whoever is
    left waits for the next finished game."""
    ranked = sorted(waiting, key=lambda w: (-w.points, -w.rating, str(w.id)))
    left = list(ranked)
    games = []
    while len(left) >= 2:
        p = left.pop(0)
        mate = None
        # The closest-ranked first: the players below p in the ranking.
        for q in left:
            if not _rematch(p, q) or (now - p.waiting_since >= rematch_after
                                       and now - q.waiting_since >= rematch_after):
                mate = q
                break
        if mate is None:
            continue  # p waits; the others may still meet each other
        left.remove(mate)
        games.append(_seat(p, mate))
    return games


def _rematch(a: Waiting, b: Waiting) -> bool:
    return a.last_opponent == b.id or b.last_opponent == a.id


def _seat(a: Waiting, b: Waiting) -> tuple[PlayerId, PlayerId]:
    """Who has moved first less often (relative to their games) moves first."""
    ka = (a.firsts - (a.games - a.firsts), -a.points)
    kb = (b.firsts - (b.games - b.firsts), -b.points)
    return (a.id, b.id) if ka <= kb else (b.id, a.id)
