"""The values the pairing code reads and returns: no Django, no clock, no I/O.

A tournament's past is a list of :class:`Round`; each holds its games (the
players in seat order: the first one moves first, "white" in chess words) and
its byes. Players are known by any hashable id (the Django layer passes its
entrant keys) and a pairing number (``rank``: 1 is the strongest at the start).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field

PlayerId = Hashable


class PairingError(ValueError):
    """The players cannot be paired as asked (too few, a bad table size...)."""


@dataclass(frozen=True)
class Player:
    id: PlayerId
    rank: int  # pairing number: 1 = the highest rated (or first drawn) at the start
    rating: float | None = None


@dataclass(frozen=True)
class Game:
    """One table of a round: ``players`` in seat order, ``points`` per seat
    (1 win, 0.5 draw, 0 loss for two players; None while it is being played).
    ``berserk`` lists the players who halved their clock (arena only)."""

    players: tuple[PlayerId, ...]
    points: tuple[float, ...] | None = None
    berserk: frozenset[PlayerId] = frozenset()

    def __post_init__(self) -> None:
        if len(self.players) < 2 or len(set(self.players)) != len(self.players):
            raise PairingError(f"a game needs two or more different players: {self.players!r}")
        if self.points is not None and len(self.points) != len(self.players):
            raise PairingError("one score per seat")

    @property
    def finished(self) -> bool:
        return self.points is not None

    def points_of(self, player: PlayerId) -> float:
        if self.points is None:
            return 0.0
        return self.points[self.players.index(player)]


@dataclass(frozen=True)
class Bye:
    """A round without a game for ``player``: a pairing bye (its points, 1 by
    default in a Swiss) or a round sat out (a late entry, a pause: 0 points)."""

    player: PlayerId
    points: float = 1.0


@dataclass(frozen=True)
class Round:
    games: tuple[Game, ...] = ()
    byes: tuple[Bye, ...] = ()

    def players(self) -> set[PlayerId]:
        return {p for g in self.games for p in g.players} | {b.player for b in self.byes}


@dataclass(frozen=True)
class Plan:
    """What a pairing function returns for the next round: the games to start
    (seat order = who moves first) and the players given a bye."""

    games: tuple[tuple[PlayerId, ...], ...]
    byes: tuple[PlayerId, ...] = ()
    notes: tuple[str, ...] = field(default=())  # why a rule had to give way (shown to hosts)

    def everyone(self) -> list[PlayerId]:
        return [p for g in self.games for p in g] + list(self.byes)


def check_players(players: Sequence[Player]) -> None:
    ids = [p.id for p in players]
    if len(set(ids)) != len(ids):
        raise PairingError("a player is listed twice")
    ranks = [p.rank for p in players]
    if len(set(ranks)) != len(ranks):
        raise PairingError("two players share a pairing number")
