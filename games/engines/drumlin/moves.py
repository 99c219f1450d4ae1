"""Drumlin move generation: the move texts of a turn, a placement, a chained choice.

Elephants and dragons slide like rooks: each ray is walked from the nearest square,
with what a slide may do on each stack (pass over it, end on it) read from tables.
A board is 80 bytes, one stack id per square, so ``bytes.translate`` with a
256-byte table marks, in C, the squares of a kind (the mover's, the empty ones). ``itertools.compress`` picks, with such a
mask, the mover's squares out of ``range(80)``, and the free departures and the
placements out of a row of texts.

The order of the moves is the order the rules have always produced (the bots'
random choices depend on it): squares by number; on each, elephant moves then
dragon moves, rays up, down, right, left, nearest first; then the swaps, the
free departures by destination square, the departure to the base line.
"""

from __future__ import annotations

from itertools import compress

from . import notation as N
from .board import (
    DRAGON_FLIES_OVER,
    DRAGONS,
    EGG_OWNER,
    ELEPHANTS,
    EMPTY,
    LONE,
    NUM_FILES,
    NUM_SQUARES,
    NUM_STACKS,
    POINTS,
    VALUE,
    Board,
    target_row,
)

try:  # the same turn moves in C (setup.py builds it when a compiler is there)
    from . import _drumlin_moves as native
except ImportError:  # pragma: no cover - the build without a compiler
    native = None

assert NUM_STACKS <= 256, "boards are read as bytes"

# -- what a slide does on each stack ------------------------------------------------------------

# An elephant passes over empty squares and the lone Drumlin (and picks it up if it
# stops there); it may end on a square worth 3 at most and goes no further.
_ELEPHANT_LANDS = tuple(VALUE[i] <= 3 for i in range(NUM_STACKS))
# A dragon flies over empty squares, the lone Drumlin (never landing there) and single
# pieces worth 1; it may end on a square worth 2 at most.
_DRAGON_LANDS = tuple(i != LONE and VALUE[i] <= 2 for i in range(NUM_STACKS))
_DRAGON_PASSES = tuple(DRAGON_FLIES_OVER[i] for i in range(NUM_STACKS))

_SQUARES = range(NUM_SQUARES)
_IS_EMPTY = bytes(1 if i == EMPTY else 0 for i in range(256))
_MINE = tuple(bytes(1 if i < NUM_STACKS and POINTS[seat][i] else 0 for i in range(256)) for seat in (0, 1))


def _departure_onto(seat: int, limit: int) -> tuple[bool, ...]:
    """Stacks a free departure of ``seat`` may end on besides an empty square: an own
    elephant, on a square worth ``limit`` at most, where ``seat`` has the majority."""
    return tuple(
        bool(ELEPHANTS[seat][i]) and VALUE[i] <= limit and 2 * POINTS[seat][i] > VALUE[i]
        for i in range(NUM_STACKS)
    )


# _ONTO[clou][seat]: standard rules up to a square worth 3, Clou 1986 a lone elephant.
_ONTO = ((_departure_onto(0, 3), _departure_onto(1, 3)), (_departure_onto(0, 1), _departure_onto(1, 1)))

_ELEPHANT_RAYS = N.ELEPHANT_RAYS
_DRAGON_RAYS = N.DRAGON_RAYS


def _piece_moves(board: Board, seat: int, sq: int, out: list[str]) -> None:
    """Elephant, then dragon moves of ``seat`` from ``sq``, appended to ``out``.
    (turn_moves has the same loops inlined.)"""
    stack = board[sq]
    if ELEPHANTS[seat][stack]:
        for ray in _ELEPHANT_RAYS[sq]:
            for t, text in ray:
                dest = board[t]
                if dest <= LONE:
                    out.append(text)
                    continue
                if _ELEPHANT_LANDS[dest]:
                    out.append(text)
                break
    if DRAGONS[seat][stack]:
        for ray in _DRAGON_RAYS[sq]:
            for t, text in ray:
                dest = board[t]
                if dest == EMPTY:
                    out.append(text)
                    continue
                if _DRAGON_LANDS[dest]:
                    out.append(text)
                if not _DRAGON_PASSES[dest]:
                    break


# -- the moves of a state ---------------------------------------------------------------------------


def turn_moves(board: Board, seat: int, clou: bool, fives: tuple[int, ...]) -> list[str]:
    """Every action of an ordinary turn: the obligation at 5 first; otherwise moves,
    swaps and free departures."""
    points = POINTS[seat]
    out: list[str] = []
    if fives:
        held = [sq for sq in fives if points[board[sq]]]
        if held:
            for sq in held:
                _piece_moves(board, seat, sq, out)
            return out if out else [N.REMOVE_TEXT[sq] for sq in held]
    elephants = ELEPHANTS[seat]
    dragons = DRAGONS[seat]
    onto = _ONTO[clou][seat]
    pairs: list[int] = []
    dens: list[int] = []
    landing: list[int] = []  # own squares a free departure may end on
    egg = -1
    elephant_rays, elephant_lands = _ELEPHANT_RAYS, _ELEPHANT_LANDS
    dragon_rays, dragon_lands, dragon_passes = _DRAGON_RAYS, _DRAGON_LANDS, _DRAGON_PASSES
    for sq in compress(_SQUARES, board.translate(_MINE[seat])):
        # _piece_moves, inlined: this loop is most of the time of a random playout.
        stack = board[sq]
        if elephants[stack]:
            for ray in elephant_rays[sq]:
                for t, text in ray:
                    dest = board[t]
                    if dest <= LONE:  # empty, or the lone Drumlin: pass or stop
                        out.append(text)
                        continue
                    if elephant_lands[dest]:
                        out.append(text)
                    break
            if elephants[stack] >= 2:
                pairs.append(sq)
        if dragons[stack]:
            for ray in dragon_rays[sq]:
                for t, text in ray:
                    dest = board[t]
                    if dest == EMPTY:
                        out.append(text)
                        continue
                    if dragon_lands[dest]:
                        out.append(text)
                    if not dragon_passes[dest]:
                        break
            dens.append(sq)
        if EGG_OWNER[stack] == seat:
            egg = sq
        elif onto[stack]:
            landing.append(sq)
    for a in pairs:
        row = N.SWAP_TEXT[a]
        for d in dens:
            if d != a:
                out.append(row[d])
    if egg >= 0 and 2 * points[board[egg]] > VALUE[board[egg]]:
        # A free departure: to any empty square, or onto an own elephant (see _ONTO).
        chosen = bytearray(board.translate(_IS_EMPTY))
        for t in landing:
            chosen[t] = 1
        out.extend(compress(N.DEPART_TEXT[egg], chosen))
        if egg // NUM_FILES == target_row(seat):
            out.append(N.DEPART_BASE_TEXT[egg])
    return out


def _stack_table(values: tuple[int, ...] | tuple[bool, ...]) -> bytes:
    return bytes(int(v) for v in values)


def configure_native() -> None:
    """Give the C generator the tables it reads (once, at import; again after a test)."""
    assert native is not None
    native.configure(
        tuple(_stack_table(ELEPHANTS[s]) for s in (0, 1)),
        tuple(_stack_table(DRAGONS[s]) for s in (0, 1)),
        tuple(_stack_table(POINTS[s]) for s in (0, 1)),
        _stack_table(VALUE),
        bytes(o + 1 for o in EGG_OWNER),
        tuple(tuple(_stack_table(_ONTO[clou][s]) for s in (0, 1)) for clou in (0, 1)),
        (_stack_table(_ELEPHANT_LANDS), _stack_table(_DRAGON_LANDS), _stack_table(_DRAGON_PASSES)),
        (_ELEPHANT_RAYS, _DRAGON_RAYS),
        (N.SWAP_TEXT, N.DEPART_TEXT, N.DEPART_BASE_TEXT, N.REMOVE_TEXT),
        (target_row(0), target_row(1)),
    )


if native is not None:
    configure_native()
    # What the rules use: :func:`turn_moves` in C (``_drumlin_moves.c``), the same moves in
    # the same order (tests/games/test_native_moves.py), the texts being notation's own.
    generate_turn = native.turn
else:  # pragma: no cover - the build without a compiler
    generate_turn = turn_moves


def place_moves(board: Board) -> list[str]:
    """Placing the Drumlin: every empty square."""
    return list(compress(N.PLACE_TEXT, board.translate(_IS_EMPTY)))


def chain_moves(board: Board, seat: int) -> list[str]:
    """After a free departure made an egg on the opponent's first row: go on, or stop."""
    row = target_row(seat) * NUM_FILES
    for sq in range(row, row + NUM_FILES):
        if EGG_OWNER[board[sq]] == seat:
            return [N.DEPART_BASE_TEXT[sq], N.STOP_TEXT]
    raise AssertionError("a chained departure without an egg on the opponent's first row")
