"""A heuristic value of a Drumlin position, for the greedy and MCTS bots.

The score adds, for one seat against the other: the herds (elephants are what a
player cannot run out of, each one worth more as the herd shrinks; dragons are
the strong movers), who holds the Drumlin and whether they may let it go, how
far the egg or the lone Drumlin is from the row each side attacks, who can pick
up a lone Drumlin next, whether the holder threatens to win at once, and pieces
stuck on a square worth 5. An egg the opponent can take next (a second elephant
of theirs captures it by majority) or hatch (one more piece of theirs brings its
square to exactly 4) is worth much less, all the more when that opponent is the
one to move. A logistic curve turns the score into [0, 1]; the two seats' values
always add up to 1.
"""

from __future__ import annotations

import math

from . import board as B
from .board import ARRIVE, Board, CAPTURE, DRAGONS, EGG_OWNER, ELEPHANTS, EMPTY, LONE, POINTS, VALUE
from .state import CHAIN, PLACE, State

ELEPHANT_WEIGHT = 0.4
DRAGON_WEIGHT = 0.25
# The n-th elephant of a herd (eggs count) is worth ELEPHANT_WEIGHT + HERD_RACE / n:
# every departure, free or forced, turns an egg into a dragon, and the herd that
# runs out first loses, so each elephant counts more as the herd shrinks.
HERD_RACE = 2.0
HOLD_WEIGHT = 0.8
MAJORITY_WEIGHT = 0.5
PROGRESS_WEIGHT = 1.6
REACH_WEIGHT = 0.6
THREAT_WEIGHT = 2.5
FIVE_WEIGHT = 0.3
# Share of what holding the egg is worth that is lost when the opponent can take
# or hatch it with their next move: when they are to move, and when the holder
# is (who may still save it, or may have to give up something else).
EXPOSED_TO_MOVE = 0.85
EXPOSED_WAITING = 0.3
SCALE = 2.5

# What a herd of n elephants is worth (a herd starts with 12).
_HERD_VALUE = tuple(sum(ELEPHANT_WEIGHT + HERD_RACE / k for k in range(1, n + 1)) for n in range(13))
_IS_DRUMLIN = tuple(stack == LONE or EGG_OWNER[stack] >= 0 for stack in range(len(VALUE)))
# A dragon may fly over an empty square, the lone Drumlin, and one lone elephant or egg.
_FLY_OVER = tuple(stack in (EMPTY, LONE) or VALUE[stack] == 1 for stack in range(len(VALUE)))
# Violet's dragons minus pink's, on a stack.
_DRAGON_BALANCE = tuple(DRAGONS[0][stack] - DRAGONS[1][stack] for stack in range(len(VALUE))).__getitem__


def _progress(seat: int, sq: int) -> float:
    """0 on the seat's own first row, 1 on the row it attacks."""
    rank = B.rank_of(sq)
    return rank / 9 if seat == B.VIOLET else (9 - rank) / 9


def _reachers(board: Board, sq: int) -> tuple[bool, bool]:
    """Which seats have an elephant that can end on ``sq`` (the lone Drumlin) in one move."""
    found = [False, False]
    for ray in B.RAYS[sq]:
        for t in ray:
            stack = board[t]
            if stack == EMPTY:
                continue
            found[0] = found[0] or ELEPHANTS[0][stack] > 0
            found[1] = found[1] or ELEPHANTS[1][stack] > 0
            break
    return found[0], found[1]


def _arrivals(board: Board, sq: int, seat: int) -> tuple[bool, bool]:
    """Whether an elephant, and whether a dragon, of ``seat`` can move onto ``sq``.

    The rule of 4 at ``sq`` is the caller's business: this only follows the rays
    (an elephant stops at the first square with pieces, a dragon flies over lone
    elephants and eggs).
    """
    elephant = dragon = False
    elephants = ELEPHANTS[seat]
    dragons = DRAGONS[seat]
    for ray in B.RAYS[sq]:
        first = True
        for t in ray:
            stack = board[t]
            if stack == EMPTY or stack == LONE:
                continue
            if first:
                elephant = elephant or elephants[stack] > 0
                first = False
            if dragons[stack]:
                dragon = True
                break
            if not _FLY_OVER[stack]:
                break
    return elephant, dragon


def _exposed(state: State, egg: int, holder: int) -> bool:
    """Whether the other seat's next move can take the egg on ``egg`` or hatch it."""
    board = state.board
    stack = board[egg]
    value = VALUE[stack]
    if value < 2:
        return False
    other = 1 - holder
    elephant, dragon = _arrivals(board, egg, other)
    if elephant:
        if value == 3:
            return True
        arrived = ARRIVE[other][B.ELEPHANT][stack]
        if arrived >= 0 and CAPTURE[other][arrived] >= 0:
            return True
    return dragon and value == 2


def _seat_score(state: State, seat: int, drumlin: int) -> float:
    """Everything but the dragons (counted once for both seats by the caller)."""
    board = state.board
    other = 1 - seat
    score = _HERD_VALUE[state.herd[seat]]
    for sq in state.fives:
        if POINTS[seat][board[sq]]:
            score -= FIVE_WEIGHT * POINTS[seat][board[sq]]
    if drumlin < 0:
        return score
    stack = board[drumlin]
    if EGG_OWNER[stack] == seat:
        held = HOLD_WEIGHT + PROGRESS_WEIGHT * _progress(seat, drumlin)
        if 2 * POINTS[seat][stack] > VALUE[stack]:
            held += MAJORITY_WEIGHT
            if _progress(seat, drumlin) == 1.0 or _can_chain(board, seat, state.clou):
                # A win this turn: nothing the opponent threatens matters then.
                if state.side == seat:
                    return score + held + THREAT_WEIGHT
                held += THREAT_WEIGHT * 0.4
        if _exposed(state, drumlin, seat):
            held *= 1.0 - (EXPOSED_TO_MOVE if state.side == other else EXPOSED_WAITING)
        score += held
    elif stack == LONE:
        reach = _reachers(board, drumlin)
        if reach[seat]:
            weight = REACH_WEIGHT * (1.5 if state.side == seat else 1.0)
            score += weight * (0.5 + _progress(seat, drumlin))
        if not reach[other]:
            score += 0.2 * _progress(seat, drumlin)
    return score


def _can_chain(board: Board, seat: int, clou: bool) -> bool:
    """An own elephant on the attacked row that a free departure may reach: a one-turn win."""
    row = B.target_row(seat) * B.NUM_FILES
    limit = 1 if clou else 3
    for sq in range(row, row + B.NUM_FILES):
        stack = board[sq]
        if ELEPHANTS[seat][stack] and EGG_OWNER[stack] < 0 and VALUE[stack] <= limit:
            if 2 * POINTS[seat][stack] > VALUE[stack]:
                return True
    return False


def evaluate(state: State, seat: int) -> float:
    # Both seats are asked about the same states (the MCTS bot scores every seat):
    # violet's value is worked out once per state and kept on it, beside the legal
    # moves the engine keeps there.
    value = state.__dict__.get("_value")
    if value is None:
        value = state.__dict__["_value"] = _violet_value(state)
    return value if seat == B.VIOLET else 1.0 - value


def _violet_value(state: State) -> float:
    if state.step == CHAIN:
        return 0.97 if state.side == B.VIOLET else 0.03
    board = state.board
    drumlin = -1
    for sq, stack in enumerate(board):
        if _IS_DRUMLIN[stack]:
            drumlin = sq
            break
    dragons = sum(map(_DRAGON_BALANCE, board))
    diff = _seat_score(state, 0, drumlin) - _seat_score(state, 1, drumlin) + DRAGON_WEIGHT * dragons
    if state.step == PLACE:
        diff += 0.3 if state.side == B.VIOLET else -0.3
    return 1.0 / (1.0 + math.exp(-diff / SCALE))
