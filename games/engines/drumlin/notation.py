"""Drumlin text notation: positions and moves (documented in docs/notation.md).

A position is five fields separated by single spaces::

    <board> <side> <step> <rules> <history>

``board``  ranks 10 down to 1 separated by ``/``; on each rank, files a to h: a digit
           1-8 counts empty squares, ``*`` is the lone Drumlin, a letter is a single
           piece and ``(...)`` a stack of two or more. Letters: E elephant, D dragon,
           O egg, upper case violet (seat 0), lower case pink (seat 1). A stack lists
           violet before pink and, for each, egg, dragons, elephants: ``(ODe)``.
``side``   ``v`` or ``p``: the seat to act (after a base-line win, the winner).
``step``   ``-`` an ordinary turn, ``place`` the Drumlin must be placed, ``chain`` the
           mover may send the Drumlin on from the new egg to the base line,
           ``won`` the Drumlin reached the base line.
``rules``  ``std`` or ``clou`` (table option clou_1986).
``history`` ``-``, or the boards recorded at the start of the earlier turns since the
           last change that cannot be undone, oldest first, separated by ``;``.
           The seat to move alternates: the last entry had the other seat to move.

Moves (the mover is known from the seat): ``Ea3-a5`` elephant, ``Dc3-c7`` dragon,
``EEc3=De5`` two elephants on c3 swap with the dragon on e5, ``Oc3-e5`` free
departure from the egg on c3 (to an empty square or onto an own elephant),
``Oc10-base`` free departure onto the base line, ``*e5`` placing the Drumlin,
``xc5`` removing one's pieces from a square worth 5, ``stop`` ending a chained turn.
"""

from __future__ import annotations

from games.engines.base import PositionError

from .board import (
    LONE,
    LONE_LETTER,
    NUM_FILES,
    NUM_RANKS,
    NUM_SQUARES,
    SEAT_LETTERS,
    SQUARE_NAMES,
    STACK_BY_TEXT,
    STACK_TEXT,
    Board,
)
from .board import EMPTY as EMPTY_STACK
from .board import RAYS

STEP_WORDS = ("-", "place", "chain", "won")
RULES_WORDS = ("std", "clou")

# -- moves ------------------------------------------------------------------------------

MOVE, SWAP, DEPART, PLACE_AT, REMOVE, STOP = range(6)
BASE = -1  # destination of a departure onto the base line
STOP_TEXT = "stop"

Action = tuple[int, ...]

_N = SQUARE_NAMES
# Rays with the move text of each step, for elephants and dragons.
ELEPHANT_RAYS = tuple(
    tuple(tuple((t, f"E{_N[sq]}-{_N[t]}") for t in ray) for ray in RAYS[sq]) for sq in range(NUM_SQUARES)
)
DRAGON_RAYS = tuple(
    tuple(tuple((t, f"D{_N[sq]}-{_N[t]}") for t in ray) for ray in RAYS[sq]) for sq in range(NUM_SQUARES)
)
SWAP_TEXT = tuple(tuple(f"EE{_N[a]}=D{_N[d]}" for d in range(NUM_SQUARES)) for a in range(NUM_SQUARES))
DEPART_TEXT = tuple(tuple(f"O{_N[g]}-{_N[t]}" for t in range(NUM_SQUARES)) for g in range(NUM_SQUARES))
DEPART_BASE_TEXT = tuple(f"O{_N[g]}-base" for g in range(NUM_SQUARES))
PLACE_TEXT = tuple(f"*{_N[sq]}" for sq in range(NUM_SQUARES))
REMOVE_TEXT = tuple(f"x{_N[sq]}" for sq in range(NUM_SQUARES))


def _decode_table() -> dict[str, Action]:
    table: dict[str, Action] = {STOP_TEXT: (STOP,)}
    for sq in range(NUM_SQUARES):
        for kind, rays in ((0, ELEPHANT_RAYS), (1, DRAGON_RAYS)):
            for ray in rays[sq]:
                for t, text in ray:
                    table[text] = (MOVE, kind, sq, t)
        for other in range(NUM_SQUARES):
            if other != sq:
                table[SWAP_TEXT[sq][other]] = (SWAP, sq, other)
                table[DEPART_TEXT[sq][other]] = (DEPART, sq, other)
        table[DEPART_BASE_TEXT[sq]] = (DEPART, sq, BASE)
        table[PLACE_TEXT[sq]] = (PLACE_AT, sq)
        table[REMOVE_TEXT[sq]] = (REMOVE, sq)
    return table


DECODE: dict[str, Action] = _decode_table()

# -- boards -----------------------------------------------------------------------------


def format_board(board: Board) -> str:
    ranks = []
    for r in range(NUM_RANKS - 1, -1, -1):
        out: list[str] = []
        run = 0
        for f in range(NUM_FILES):
            stack = board[r * NUM_FILES + f]
            if stack == EMPTY_STACK:
                run += 1
                continue
            if run:
                out.append(str(run))
                run = 0
            out.append(STACK_TEXT[stack])
        if run:
            out.append(str(run))
        ranks.append("".join(out))
    return "/".join(ranks)


def _read_rank(text: str, rank: int) -> list[int]:
    """The 8 stacks of one rank (rank is 1-based, for messages)."""
    squares: list[int] = []
    i = 0
    previous_digit = False
    while i < len(text):
        ch = text[i]
        if ch.isdigit():
            if previous_digit:
                raise PositionError(f"rank {rank}: write a run of empty squares as one digit")
            n = int(ch)
            if not 1 <= n <= NUM_FILES:
                raise PositionError(f"rank {rank}: {ch!r} is not a count of empty squares (1 to 8)")
            squares.extend([EMPTY_STACK] * n)
            previous_digit = True
            i += 1
            continue
        previous_digit = False
        if ch == "(":
            end = text.find(")", i)
            if end < 0:
                raise PositionError(f"rank {rank}: a '(' is never closed")
            token = text[i : end + 1]
            i = end + 1
            if len(token) <= 3:
                raise PositionError(f"rank {rank}: {token} is a single piece; write it without brackets")
        else:
            token = ch
            i += 1
        if token == LONE_LETTER:
            squares.append(LONE)
            continue
        stack = STACK_BY_TEXT.get(token)
        if stack is None:
            raise PositionError(f"rank {rank}: {token!r} is not a stack ({_stack_hint(token)})")
        squares.append(stack)
    if len(squares) != NUM_FILES:
        raise PositionError(f"rank {rank} has {len(squares)} squares instead of {NUM_FILES}")
    return squares


def _stack_hint(token: str) -> str:
    letters = token.strip("()")
    bad = sorted(set(letters) - set("EDOedo"))
    if bad:
        return f"unknown letter(s) {''.join(bad)}; pieces are E D O (violet) and e d o (pink)"
    ordered = "".join(sorted(letters, key=lambda ch: "ODEode".index(ch)))
    if ordered != letters:
        return f"write it in the order violet then pink, egg, dragons, elephants: ({ordered})"
    if letters.count("O") + letters.count("o") > 1:
        return "there is only one Drumlin, so at most one egg"
    return "a square is worth at most 5"


def parse_board(text: str) -> Board:
    ranks = text.split("/")
    if len(ranks) != NUM_RANKS:
        raise PositionError(f"a board has {NUM_RANKS} ranks separated by '/', not {len(ranks)}")
    board: list[int] = []
    for r in range(NUM_RANKS):
        board.extend(_read_rank(ranks[NUM_RANKS - 1 - r], r + 1))
    return bytes(board)


def side_letter(seat: int) -> str:
    return SEAT_LETTERS[seat]


def parse_side(text: str) -> int:
    if text not in SEAT_LETTERS:
        raise PositionError(f"the side to move is 'v' (violet) or 'p' (pink), not {text!r}")
    return SEAT_LETTERS.index(text)
