"""The Drumlin board: squares, stacks and the precomputed tables the engine runs on.

The board is 8 files (a-h) by 10 ranks (1-10). Square ``sq`` is
``rank_index * 8 + file_index``, so a1 is 0, h1 is 7 and h10 is 79.

A square holds a *stack*: any mix of pieces of both herds. Every stack that can
occur is enumerated once at import and given a small integer id; a board is
80 bytes, one id per square (immutable, hashed once, read by ``bytes.translate``).
Everything the rules ask about a stack (its value, who has pieces there, how
many elephants, whether a dragon may fly over it) and every
change a move makes to it (a piece arrives, leaves, an egg hatches into a
dragon) is a list lookup by id. That keeps move generation and ``play`` cheap.

Pieces: an elephant is worth 1, an egg (an elephant carrying the Drumlin) 1, a
dragon 2, and the Drumlin alone 0. The Drumlin alone is a stack of its own (id
``LONE``); it never shares a square with a piece, since any elephant arriving
picks it up and a dragon may not land there.
"""

from __future__ import annotations

from itertools import product

FILES = "abcdefgh"
NUM_FILES = 8
NUM_RANKS = 10
NUM_SQUARES = NUM_FILES * NUM_RANKS

VIOLET, PINK = 0, 1
SEAT_LETTERS = ("v", "p")
SEAT_NAMES = ("violet", "pink")

ELEPHANT, DRAGON, EGG = 0, 1, 2
KIND_NAMES = ("elephant", "dragon", "egg")
LONE_LETTER = "*"  # the lone Drumlin in position text

MAX_VALUE = 4  # the rule of 4
OVERFULL = 5  # reached only by a forced departure

EMPTY = 0
LONE = 1

# -- squares ------------------------------------------------------------------------------

SQUARE_NAMES: tuple[str, ...] = tuple(
    f"{FILES[sq % NUM_FILES]}{sq // NUM_FILES + 1}" for sq in range(NUM_SQUARES)
)
SQUARE_INDEX: dict[str, int] = {name: sq for sq, name in enumerate(SQUARE_NAMES)}


def file_of(sq: int) -> int:
    return sq % NUM_FILES


def rank_of(sq: int) -> int:
    """Rank index, 0 for rank 1 up to 9 for rank 10."""
    return sq // NUM_FILES


def first_row(seat: int) -> int:
    """Rank index of a seat's own first row (rank 1 for violet, rank 10 for pink)."""
    return 0 if seat == VIOLET else NUM_RANKS - 1


def target_row(seat: int) -> int:
    """Rank index of the opponent's first row, the row a seat attacks."""
    return first_row(1 - seat)


def _ray(sq: int, dfile: int, drank: int) -> tuple[int, ...]:
    out = []
    f, r = file_of(sq) + dfile, rank_of(sq) + drank
    while 0 <= f < NUM_FILES and 0 <= r < NUM_RANKS:
        out.append(r * NUM_FILES + f)
        f, r = f + dfile, r + drank
    return tuple(out)


DIRECTIONS = ((0, 1), (0, -1), (1, 0), (-1, 0))
RAYS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(ray for ray in (_ray(sq, df, dr) for df, dr in DIRECTIONS) if ray) for sq in range(NUM_SQUARES)
)

# -- stacks ---------------------------------------------------------------------------------

# A stack is counted as (violet elephants, violet dragons, violet egg,
#                        pink elephants, pink dragons, pink egg).
Counts = tuple[int, int, int, int, int, int]


def counts_value(c: Counts) -> int:
    return c[0] + 2 * c[1] + c[2] + c[3] + 2 * c[4] + c[5]


def _all_counts() -> list[Counts]:
    found: list[Counts] = []
    for c in product(range(6), range(3), range(2), range(6), range(3), range(2)):
        if c[2] + c[5] > 1 or counts_value(c) > OVERFULL or sum(c) == 0:
            continue
        found.append(c)  # type: ignore[arg-type]
    found.sort(key=lambda c: (sum(c), counts_value(c), c))
    return found


def _text(c: Counts) -> str:
    letters = "O" * c[2] + "D" * c[1] + "E" * c[0] + "o" * c[5] + "d" * c[4] + "e" * c[3]
    return letters if len(letters) == 1 else f"({letters})"


_COUNTS: list[Counts | None] = [None, None]  # EMPTY and LONE carry no pieces
_COUNTS.extend(_all_counts())
NUM_STACKS = len(_COUNTS)
STACK_ID: dict[Counts, int] = {c: i for i, c in enumerate(_COUNTS) if c is not None}
_ZERO: Counts = (0, 0, 0, 0, 0, 0)


def counts_of(stack: int) -> Counts:
    c = _COUNTS[stack]
    return _ZERO if c is None else c


def _id(c: Counts) -> int:
    """Stack id of counts, or -1 when no legal stack has them (too heavy, two eggs)."""
    if sum(c) == 0:
        return EMPTY
    return STACK_ID.get(c, -1)


def _slot(seat: int, kind: int) -> int:
    """Index of (seat, kind) in a Counts tuple."""
    return seat * 3 + kind


def _changed(c: Counts, seat: int, kind: int, delta: int) -> Counts:
    lst = list(c)
    lst[_slot(seat, kind)] += delta
    return tuple(lst)  # type: ignore[return-value]


STACK_TEXT: tuple[str, ...] = ("", LONE_LETTER) + tuple(_text(counts_of(i)) for i in range(2, NUM_STACKS))
STACK_BY_TEXT: dict[str, int] = {t: i for i, t in enumerate(STACK_TEXT) if i >= 2}

VALUE: tuple[int, ...] = tuple(counts_value(counts_of(i)) for i in range(NUM_STACKS))
# Points each seat has on the stack (majority is counted in points).
POINTS: tuple[tuple[int, ...], tuple[int, ...]] = tuple(  # type: ignore[assignment]
    tuple(
        counts_of(i)[_slot(s, ELEPHANT)] + 2 * counts_of(i)[_slot(s, DRAGON)] + counts_of(i)[_slot(s, EGG)]
        for i in range(NUM_STACKS)
    )
    for s in (VIOLET, PINK)
)
# Plain elephants (eggs not included) and dragons of each seat.
ELEPHANTS: tuple[tuple[int, ...], tuple[int, ...]] = tuple(  # type: ignore[assignment]
    tuple(counts_of(i)[_slot(s, ELEPHANT)] for i in range(NUM_STACKS)) for s in (VIOLET, PINK)
)
DRAGONS: tuple[tuple[int, ...], tuple[int, ...]] = tuple(  # type: ignore[assignment]
    tuple(counts_of(i)[_slot(s, DRAGON)] for i in range(NUM_STACKS)) for s in (VIOLET, PINK)
)
# Owner of the egg on the stack, or -1.
EGG_OWNER: tuple[int, ...] = tuple(
    VIOLET if counts_of(i)[2] else PINK if counts_of(i)[5] else -1 for i in range(NUM_STACKS)
)
PIECE_COUNT: tuple[int, ...] = tuple(sum(counts_of(i)) for i in range(NUM_STACKS))
# "Elephants" in the sense of the no-elephant loss: plain elephants and the egg.
HERD: tuple[tuple[int, ...], tuple[int, ...]] = tuple(  # type: ignore[assignment]
    tuple(ELEPHANTS[s][i] + (EGG_OWNER[i] == s) for i in range(NUM_STACKS)) for s in (VIOLET, PINK)
)
# A dragon may fly over an empty square, the lone Drumlin and one lone elephant or egg.
DRAGON_FLIES_OVER: tuple[bool, ...] = tuple(
    i in (EMPTY, LONE) or (PIECE_COUNT[i] == 1 and VALUE[i] == 1) for i in range(NUM_STACKS)
)


def _arrive_table(seat: int, kind: int) -> tuple[int, ...]:
    """Stack after one piece of (seat, kind) arrives; -1 if the result breaks the rule of 4."""
    out = []
    for i in range(NUM_STACKS):
        if i == LONE:
            # Only an elephant may end on the lone Drumlin: it picks it up.
            out.append(STACK_ID[_changed(_ZERO, seat, EGG, 1)] if kind == ELEPHANT else -1)
            continue
        c = _changed(counts_of(i), seat, kind, 1)
        out.append(_id(c) if counts_value(c) <= MAX_VALUE else -1)
    return tuple(out)


def _leave_table(seat: int, kind: int) -> tuple[int, ...]:
    """Stack after one piece of (seat, kind) leaves; -1 if there is none."""
    out = []
    for i in range(NUM_STACKS):
        c = counts_of(i)
        out.append(_id(_changed(c, seat, kind, -1)) if c[_slot(seat, kind)] > 0 else -1)
    return tuple(out)


# ARRIVE[seat][kind][stack], LEAVE[seat][kind][stack]
ARRIVE = tuple(tuple(_arrive_table(s, k) for k in (ELEPHANT, DRAGON)) for s in (VIOLET, PINK))
LEAVE = tuple(tuple(_leave_table(s, k) for k in (ELEPHANT, DRAGON, EGG)) for s in (VIOLET, PINK))


def _hatch(i: int) -> int:
    """The egg on the stack turns into a dragon of its owner (the Drumlin has left)."""
    owner = EGG_OWNER[i]
    if owner < 0:
        return -1
    c = _changed(_changed(counts_of(i), owner, EGG, -1), owner, DRAGON, 1)
    return _id(c)


def _capture(seat: int, i: int) -> int:
    """Capture by majority: exactly the opponent's egg and two of ``seat``'s elephants.

    The Drumlin passes onto one of the two elephants (they are interchangeable, so
    there is no choice to make) and the old egg becomes a plain elephant.
    """
    other = 1 - seat
    want = [0] * 6
    want[_slot(seat, ELEPHANT)] = 2
    want[_slot(other, EGG)] = 1
    if counts_of(i) != tuple(want):
        return -1
    got = [0] * 6
    got[_slot(seat, ELEPHANT)] = 1
    got[_slot(seat, EGG)] = 1
    got[_slot(other, ELEPHANT)] = 1
    return STACK_ID[tuple(got)]  # type: ignore[index]


def _make_egg(seat: int, i: int) -> int:
    """One of ``seat``'s elephants on the stack receives the Drumlin."""
    c = counts_of(i)
    if c[_slot(seat, ELEPHANT)] == 0:
        return -1
    return _id(_changed(_changed(c, seat, ELEPHANT, -1), seat, EGG, 1))


def _strip(seat: int, i: int) -> int:
    """The stack with every piece of ``seat`` taken off the board."""
    c = list(counts_of(i))
    for kind in (ELEPHANT, DRAGON, EGG):
        c[_slot(seat, kind)] = 0
    return _id(tuple(c))  # type: ignore[arg-type]


HATCH: tuple[int, ...] = tuple(_hatch(i) for i in range(NUM_STACKS))
CAPTURE = tuple(tuple(_capture(s, i) for i in range(NUM_STACKS)) for s in (VIOLET, PINK))
MAKE_EGG = tuple(tuple(_make_egg(s, i) for i in range(NUM_STACKS)) for s in (VIOLET, PINK))
STRIP = tuple(tuple(_strip(s, i) for i in range(NUM_STACKS)) for s in (VIOLET, PINK))

# A board: 80 stack ids, one byte each, square by square (see the module docstring).
Board = bytes


def stack_pieces(stack: int) -> list[tuple[int, int]]:
    """The pieces of a stack as (seat, kind) pairs, in the canonical order of the text."""
    c = counts_of(stack)
    out: list[tuple[int, int]] = []
    for seat in (VIOLET, PINK):
        for kind in (EGG, DRAGON, ELEPHANT):
            out.extend([(seat, kind)] * c[_slot(seat, kind)])
    return out
