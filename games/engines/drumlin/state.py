"""The Drumlin game state: an immutable tuple, plus a private memo (legal moves, evaluation)."""

from __future__ import annotations

from typing import NamedTuple

from games.engines.base import Outcome

from .board import Board

# What the player to move has to do now.
TURN = 0  # an ordinary turn: move, exchange, free departure, or meet the obligation at 5
PLACE = 1  # place the Drumlin on an empty square (first placement, forced departure)
CHAIN = 2  # a free departure just made an egg on the opponent's first row: go on or stop
WON = 3  # the Drumlin reached a base line; ``side`` is the winner

Key = tuple[int, Board]  # (seat to move, board): what the repetition rule compares


class _Fields(NamedTuple):
    board: Board
    side: int
    step: int
    clou: bool
    # Positions recorded at the start of each turn since the last change that can
    # never be undone (a departure, a placement, a pick-up, a removal); the current
    # position is the last one when ``step`` is TURN. Earlier positions cannot come
    # back, so they are dropped.
    seen: tuple[Key, ...]
    fives: tuple[int, ...]  # squares worth 5, sorted
    herd: tuple[int, int]  # elephants and eggs of each seat
    result: Outcome | None  # set when an action ended the game (not the no-move loss)
    last: str | None  # the last move played, for views; not part of the position text


class State(_Fields):
    """One Drumlin position. Never changed after it is built; ``play`` makes a new one.

    Instances carry a ``__dict__`` (the subclass adds no ``__slots__``) used only to
    memoise the legal moves, the evaluation and the filter of the repetition record
    (rules.py); it takes no part in equality or in the dump.
    """

    @property
    def key(self) -> Key:
        return (self.side, self.board)
