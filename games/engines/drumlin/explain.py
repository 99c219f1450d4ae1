"""Why a move is refused, in plain words. Only used on the error path of ``play``."""

from __future__ import annotations

from . import board as B
from . import notation as N
from .board import DRAGON, DRAGON_FLIES_OVER, EGG_OWNER, ELEPHANT, EMPTY, LONE, POINTS, VALUE
from .state import CHAIN, PLACE, TURN, WON, State

_EXAMPLES = "Ea3-a5, Dc3-c7, EEc3=De5, Oc3-e5, Oc10-base, *e5, xc5, stop"


def _name(seat: int) -> str:
    return B.SEAT_NAMES[seat]


def _sq(sq: int) -> str:
    return B.SQUARE_NAMES[sq]


def _describe(stack: int) -> str:
    if stack == LONE:
        return "the lone Drumlin"
    pieces = B.stack_pieces(stack)
    if len(pieces) == 1:
        seat, kind = pieces[0]
        return f"a {_name(seat)} {B.KIND_NAMES[kind]}"
    return f"a stack of {len(pieces)} pieces"


def why_illegal(state: State, seat: int, move: str) -> str:
    action = N.DECODE.get(move) if isinstance(move, str) else None
    if action is None:
        return f"{move!r} is not a Drumlin move (moves look like {_EXAMPLES})"
    if state.result is not None or state.step == WON:
        return "the game is over"
    if seat not in (0, 1):
        return f"Drumlin has seats 0 and 1, not {seat!r}"
    if seat != state.side:
        return f"it is {_name(state.side)}'s turn, not {_name(seat)}'s"
    kind = action[0]
    if state.step == PLACE:
        if kind != N.PLACE_AT:
            return f"{_name(seat)} must first place the Drumlin on an empty square (like *e5)"
        where = action[1]
        return f"the Drumlin goes to an empty square, and {_sq(where)} holds {_describe(state.board[where])}"
    if state.step == CHAIN:
        return f"{_name(seat)} must now either send the Drumlin on to the base line or stop"
    if kind == N.PLACE_AT:
        return "the Drumlin is only placed at the start of the game or after a forced departure"
    if kind == N.STOP:
        return "there is no chained departure to stop"
    obligation = _obligation(state, seat, action)
    if obligation:
        return obligation
    if kind == N.MOVE:
        return _why_piece_move(state, seat, action[1], action[2], action[3])
    if kind == N.SWAP:
        return _why_swap(state, seat, action[1], action[2])
    if kind == N.DEPART:
        return _why_departure(state, seat, action[1], action[2])
    if kind == N.REMOVE:
        where = action[1]
        return (
            "pieces are only removed from a square worth 5 that cannot be left, "
            f"and {_sq(where)} is worth {VALUE[state.board[where]]}"
        )
    return "that move is not legal here"


def _obligation(state: State, seat: int, action: tuple[int, ...]) -> str:
    """The reason when the obligation at 5 forbids the action, or ''."""
    assert state.step == TURN
    board = state.board
    mine = [sq for sq in state.fives if POINTS[seat][board[sq]]]
    if not mine:
        return ""
    squares = " or ".join(_sq(sq) for sq in mine)
    from .rules import _legal

    can_leave = not _legal(state)[0].startswith("x")
    if action[0] == N.REMOVE:
        if action[1] not in mine:
            return f"{_sq(action[1])} is not a square worth 5 with {_name(seat)} pieces on it"
        if can_leave:
            return f"a piece can still leave {squares}, so nothing is removed"
        return ""
    if action[0] == N.MOVE and action[2] in mine:
        return ""
    if not can_leave:
        return f"no piece can leave {squares}: {_name(seat)} must remove their pieces (like x{_sq(mine[0])})"
    return f"{squares} is worth 5: {_name(seat)} must first move an elephant or a dragon off it"


def _why_piece_move(state: State, seat: int, kind: int, frm: int, to: int) -> str:
    board = state.board
    piece = B.KIND_NAMES[kind]
    have = (B.ELEPHANTS if kind == ELEPHANT else B.DRAGONS)[seat][board[frm]]
    if not have:
        if kind == ELEPHANT and EGG_OWNER[board[frm]] == seat:
            return f"the egg on {_sq(frm)} cannot move; only the Drumlin may leave it"
        return f"there is no {_name(seat)} {piece} on {_sq(frm)}"
    step = _step(frm, to)
    sq = frm + step
    while sq != to:
        stack = board[sq]
        if kind == ELEPHANT and stack > LONE:
            return f"the elephant on {_sq(frm)} cannot pass {_describe(stack)} on {_sq(sq)}"
        if kind == DRAGON and not DRAGON_FLIES_OVER[stack]:
            what = "a dragon" if B.DRAGONS[0][stack] + B.DRAGONS[1][stack] else "two or more pieces"
            return f"the dragon on {_sq(frm)} cannot fly over {what} on {_sq(sq)}"
        sq += step
    dest = board[to]
    if kind == DRAGON and dest == LONE:
        return f"a dragon may not land on the lone Drumlin on {_sq(to)}"
    gain = 1 if kind == ELEPHANT else 2
    if dest not in (EMPTY, LONE) and VALUE[dest] + gain > B.MAX_VALUE:
        worth = VALUE[dest]
        return f"rule of 4: {_sq(to)} is worth {worth} and the {piece} would bring it to {worth + gain}"
    return "that move is not legal here"


def _step(frm: int, to: int) -> int:
    if B.rank_of(frm) == B.rank_of(to):
        return 1 if to > frm else -1
    return B.NUM_FILES if to > frm else -B.NUM_FILES


def _why_swap(state: State, seat: int, a: int, d: int) -> str:
    board = state.board
    if B.ELEPHANTS[seat][board[a]] < 2:
        return f"an exchange needs two {_name(seat)} elephants on {_sq(a)}"
    if not B.DRAGONS[seat][board[d]]:
        return f"an exchange needs a {_name(seat)} dragon on {_sq(d)}"
    return "that exchange is not legal here"


def _why_departure(state: State, seat: int, egg: int, to: int) -> str:
    board = state.board
    stack = board[egg]
    if EGG_OWNER[stack] != seat:
        return f"{_name(seat)} has no egg on {_sq(egg)}"
    mine, theirs = POINTS[seat][stack], POINTS[1 - seat][stack]
    if 2 * mine <= VALUE[stack]:
        who, where = _name(seat), _sq(egg)
        return f"{who} needs the majority on {where} to let the Drumlin go ({mine} against {theirs})"
    if to == N.BASE:
        row = B.target_row(seat) + 1
        return f"the Drumlin reaches the base line only from an egg on rank {row}, the opponent's first row"
    dest = board[to]
    if B.ELEPHANTS[seat][dest] == 0:
        return (
            f"the Drumlin goes to an empty square or onto a {_name(seat)} elephant, "
            f"and {_sq(to)} holds {_describe(dest)}"
        )
    if 2 * POINTS[seat][dest] <= VALUE[dest]:
        return f"{_name(seat)} needs the majority on {_sq(to)} to send the Drumlin there"
    if state.clou and VALUE[dest] > 1:
        return (
            "Clou 1986 rules: the Drumlin goes only onto an elephant standing alone, "
            f"and {_sq(to)} is worth {VALUE[dest]}"
        )
    if VALUE[dest] >= B.MAX_VALUE:
        return f"the Drumlin goes only onto a square worth less than 4, and {_sq(to)} is worth {VALUE[dest]}"
    return "that departure is not legal here"
