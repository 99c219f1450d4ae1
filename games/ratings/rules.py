"""Who a finished game rates, and against whom. Pure: no database.

The decisions (docs/ratings.md says the same for players):

* Only accounts are rated. Guests never are (they cannot sit at a rated table,
  and a guest's seat is left out if one is there all the same).
* A bot seated from the start is an opponent with a fixed rating per level
  (``BOT_ANCHORS``), never updated: a newcomer's first games against bots
  give a rating that means something.
* A person who left (their seat went to a bot: resigned among several, away
  past the grace period, removed by a host) ranks below everyone who stayed:
  a loss against each of them. The bot that took the seat over is nobody's
  opponent.
* Games of more than two: every pair of participants is one result from the
  final ranking (the rules' ``utility``: higher is better; equal is a draw),
  and all of a player's pairs form one Glicko-2 rating period, computed from
  the ratings everyone had before the game.
* A game where someone seated at the start made fewer than ``MIN_MOVES``
  moves (before leaving, for those who left) is not rated: it ended in its
  first moves, as an aborted one.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.ratings import glicko2

MIN_MOVES = 2
BOT_ANCHORS: dict[str, glicko2.Rating] = {
    "easy": glicko2.Rating(1200.0, 60.0, glicko2.DEFAULT_VOLATILITY),
    "medium": glicko2.Rating(1500.0, 60.0, glicko2.DEFAULT_VOLATILITY),
    "hard": glicko2.Rating(1800.0, 60.0, glicko2.DEFAULT_VOLATILITY),
}


@dataclass(frozen=True)
class Participant:
    seat: int
    rating: glicko2.Rating
    standing: float  # higher is better: the rules' utility, -1 for those who left
    user_id: int | None = None  # None: a bot (an anchor)
    left: bool = False
    moves: int = 0


def score(mine: Participant, other: Participant) -> float:
    """1, 0.5 or 0: ``mine`` against ``other`` by the final ranking."""
    if mine.standing > other.standing:
        return 1.0
    if mine.standing < other.standing:
        return 0.0
    return 0.5


def why_not_rated(participants: list[Participant]) -> str:
    """Empty if the game is rated, else the reason it is not."""
    people = [p for p in participants if p.user_id is not None]
    if not people:
        return "no_accounts"
    if len(participants) < 2:
        return "alone"
    if any(p.moves < MIN_MOVES for p in people):
        return "too_short"
    return ""


@dataclass(frozen=True)
class Change:
    participant: Participant
    after: glicko2.Rating
    result: str  # "win", "loss" or "draw": more pairs won than lost is a win


def rate(participants: list[Participant]) -> list[Change]:
    """The new rating of each person (bots are never updated)."""
    changes = []
    for mine in participants:
        if mine.user_id is None:
            continue
        results = [glicko2.Result(o.rating, score(mine, o)) for o in participants if o is not mine]
        total = sum(r.score for r in results)
        half = len(results) / 2
        result = "win" if total > half else "loss" if total < half else "draw"
        changes.append(Change(mine, glicko2.update(mine.rating, results), result))
    return changes
