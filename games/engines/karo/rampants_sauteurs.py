"""Rampants et Sauteurs: crawlers and jumpers race across a 3 x 8 board (the Karo box).

A position is a string of 24 cells from a1 (file a-c, rank 1-8), one character
each: ``.`` empty, ``C``/``J`` a crawler/jumper of seat 0 (ranks 1-2 at the
start), ``c``/``j`` one of seat 1 (ranks 7-8). A crawler steps to any of the 8
neighbouring empty squares and turns into a jumper; a jumper leaps in a straight
line over one or more consecutive pieces to the first empty square behind them
and turns into a crawler. Seat 0 wins with all six pieces on ranks 7-8, seat 1
with all six on ranks 1-2.

The game opens with a secret, simultaneous setup: both seats are to act and each
plays a layout such as ``JCJ/CJC`` (its back rank then its front rank, files a to
c). A seat's layout stays hidden from the other seat and from spectators until
both have chosen; then the starting player moves.
"""

from __future__ import annotations

import itertools
import random
from functools import lru_cache
from collections.abc import Mapping
from typing import Any, ClassVar

from ..base import JSON, Outcome, PositionError, Seat
from .common import (
    EMPTY,
    EMPTY_SEEN,
    NOBODY,
    PASS,
    SEATS,
    KaroRules,
    KaroState,
    Seen,
    move_piece,
    read_grid_text,
)
from .geometry import Grid
from .record import digit_table, packed

GRID = Grid(3, 8)
CRAWLERS = ("C", "c")
JUMPERS = ("J", "j")
PIECES = ("CJ", "cj")
FLIP = {"C": "J", "J": "C", "c": "j", "j": "c"}
OWNER = {"C": 0, "J": 0, "c": 1, "j": 1}

# The six start squares of each seat, in layout order: back rank a-c, then front rank a-c.
START_SQUARES: tuple[tuple[int, ...], tuple[int, ...]] = ((0, 1, 2, 3, 4, 5), (21, 22, 23, 18, 19, 20))
# A seat wins with its six pieces on the other seat's start squares.
GOAL_SLICE = ((18, 24), (0, 6))
# Ranks left to reach the goal rows, per seat and square.
DISTANCE = tuple(
    tuple(max(0, (6 - GRID.row(i)) if seat == 0 else (GRID.row(i) - 1)) for i in range(GRID.size))
    for seat in (0, 1)
)
MAX_DISTANCE = 6 * 6

LAYOUTS: tuple[str, ...] = tuple(
    sorted(
        "/".join(("".join(cells[:3]), "".join(cells[3:])))
        for jumpers in itertools.combinations(range(6), 3)
        for cells in [["J" if k in jumpers else "C" for k in range(6)]]
    )
)
_LAYOUT_MOVES: dict[str, str] = {layout: layout for layout in LAYOUTS}

WIN_REASON = "crossing"
SETUP = "setup"
EMPTY_BOARD = EMPTY * GRID.size

# (from, to) pairs built once, shared by every move list
_PAIRS = tuple(tuple((a, b) for b in range(GRID.size)) for a in range(GRID.size))


class RampantsState(KaroState):
    """One moment of a game (see :class:`~.common.KaroState`).

    ``turn`` is the seat to move, or -1 during the secret setup, when ``first``
    holds the seat that will move first (-1 afterwards).
    """

    __slots__ = ("first",)

    def __init__(
        self,
        board: str,
        turn: int,
        first: int,
        seen: Seen,
        outcome: Outcome | None,
        last: tuple[Seat, str] | None,
    ) -> None:
        super().__init__(board, turn, seen, outcome, last)
        self.first = first

    def _identity(self) -> tuple[Any, ...]:
        return (self.board, self.turn, self.first, self.last)

    def __repr__(self) -> str:
        return f"RampantsState({format_board(self.board)!r}, turn={self.turn}, first={self.first})"


# -- the board ----------------------------------------------------------------------------


def format_board(board: str) -> str:
    return GRID.rows_text(board)


def generate(board: str, seat: Seat) -> dict[str, tuple[int, int]]:
    """Every crawler step and jumper leap of ``seat``, as ``{"a2-a3": (from, to)}``."""
    crawler, jumper = PIECES[seat]
    names = GRID.move_names
    out: dict[str, tuple[int, int]] = {}
    for i, piece in enumerate(board):
        if piece == crawler:
            for n in GRID.neighbours[i]:
                if board[n] == EMPTY:
                    out[names[i][n]] = _PAIRS[i][n]
        elif piece == jumper:
            for ray in GRID.rays[i]:
                if ray and board[ray[0]] != EMPTY:
                    for n in ray:
                        if board[n] == EMPTY:
                            out[names[i][n]] = _PAIRS[i][n]
                            break
    return out


def move_flip(board: str, start: int, end: int) -> str:
    """The board after the piece on ``start`` goes to ``end`` and flips over."""
    return move_piece(board, start, end, FLIP[board[start]])


def has_crossed(board: str, seat: Seat) -> bool:
    """All six pieces of ``seat`` stand on the other seat's two start rows."""
    lo, hi = GOAL_SLICE[seat]
    mine = PIECES[seat]
    return board.count(mine[0], lo, hi) + board.count(mine[1], lo, hi) == 6


def place_layout(board: str, seat: Seat, layout: str) -> str:
    cells = list(board)
    for square, piece in zip(START_SQUARES[seat], layout.replace("/", ""), strict=True):
        cells[square] = piece if seat == 0 else piece.lower()
    return "".join(cells)


def layout_of(board: str, seat: Seat) -> str | None:
    """The layout ``seat`` chose, read from its start squares, or None if they are empty."""
    cells = "".join(board[s] for s in START_SQUARES[seat])
    if cells == EMPTY * 6:
        return None
    return (cells[:3] + "/" + cells[3:]).upper()


def read_position(text: str) -> RampantsState:
    """The board, seat to move and setup of a position text, checked (no history, no outcome)."""
    board, fields = read_grid_text(text, GRID, ".CJcj")
    if len(fields) == 2 and fields[0] == SETUP and fields[1] in ("0", "1"):
        return _read_setup(board, int(fields[1]))
    if len(fields) != 1 or fields[0] not in ("0", "1"):
        raise PositionError(f"{text!r} must end with the seat to move (0 or 1), or 'setup' and the first seat")
    for s in (0, 1):
        count = sum(board.count(p) for p in PIECES[s])
        if count != 6:
            raise PositionError(f"seat {s} has {count} pieces on the board, not 6")
    return RampantsState(board, int(fields[0]), -1, EMPTY_SEEN, None, None)


def _read_setup(board: str, first: Seat) -> RampantsState:
    for s in (0, 1):
        start = START_SQUARES[s]
        if any(p != EMPTY and OWNER[p] == s and i not in start for i, p in enumerate(board)):
            raise PositionError(f"during the setup, seat {s} has a piece outside its start rows")
        cells = [board[i] for i in start]
        if cells.count(EMPTY) not in (0, 6) or (EMPTY not in cells and cells.count(CRAWLERS[s]) != 3):
            raise PositionError(f"seat {s}'s start rows must be empty or hold three crawlers and three jumpers")
    if layout_of(board, 0) is not None and layout_of(board, 1) is not None:
        raise PositionError("both layouts are chosen, so the game has started: give the seat to move")
    return RampantsState(board, -1, first, EMPTY_SEEN, None, None)


_DIGITS = digit_table(".CJcj")
CODE_WIDTH = 11


@lru_cache(maxsize=1 << 14)
def record_code(key: str) -> str:
    """A recorded position (board, then the seat to move) in 11 characters: the
    24 squares as a number in base 5 (``.CJcj``), times 2, plus the seat, in 8 bytes of base64."""
    return packed(key[:-1], _DIGITS, key[-1], 8)


# -- the rules ----------------------------------------------------------------------------


class RampantsEtSauteurs(KaroRules):
    slug: ClassVar[str] = "rampants-sauteurs"
    title: ClassVar[str] = "Rampants et Sauteurs"
    win_reason: ClassVar[str] = WIN_REASON
    _read = staticmethod(read_position)
    _code = staticmethod(record_code)
    _code_width = CODE_WIDTH
    _has_won = staticmethod(has_crossed)

    def new_game(self, num_players: int, seed: JSON = 0, options: Mapping[str, JSON] | None = None) -> RampantsState:
        first = self._first_seat(num_players, seed, options)
        return RampantsState(EMPTY_BOARD, -1, first, EMPTY_SEEN, None, None)

    def to_act(self, state: RampantsState) -> tuple[Seat, ...]:
        if state.outcome is not None:
            return NOBODY
        if state.turn >= 0:
            return SEATS[state.turn]
        return tuple(s for s in (0, 1) if layout_of(state.board, s) is None)

    def _generate(self, state: RampantsState, seat: Seat) -> dict[str, Any]:
        if state.turn < 0:
            return _LAYOUT_MOVES  # the same for both seats
        return generate(state.board, seat)

    def _apply(self, state: RampantsState, seat: Seat, move: str, detail: Any) -> RampantsState:
        if state.turn < 0:
            return self._choose_layout(state, seat, move)
        board = state.board if detail == PASS else move_flip(state.board, *detail)
        return self._close(board, seat, state.seen, (seat, move))

    def _choose_layout(self, state: RampantsState, seat: Seat, layout: str) -> RampantsState:
        board = place_layout(state.board, seat, layout)
        if layout_of(board, 1 - seat) is None:
            return RampantsState(board, -1, state.first, EMPTY_SEEN, None, (seat, layout))
        # Both layouts are now known: reveal them, and the starting player moves.
        return self._close(board, 1 - state.first, EMPTY_SEEN, (seat, layout))

    def _close(self, board: str, mover: Seat, seen: Seen, last: tuple[Seat, str]) -> RampantsState:
        """The state that ends ``mover``'s turn, with the checks RULES.md orders."""
        new = RampantsState(board, 1 - mover, -1, seen, None, last)
        return self._end_turn(new, mover, has_crossed(board, mover))

    def _why_illegal(self, state: RampantsState, seat: Seat, move: Any) -> str:
        if not isinstance(move, str):
            return f"a move is text, not {move!r}"
        if state.turn < 0:
            return (
                f"{move!r} is not a layout: write your back rank then your front rank, files a to c, "
                "with three crawlers (C) and three jumpers (J), e.g. JCJ/CJC"
            )
        if move == PASS:
            return "you may pass only when you have no legal move"
        start_name, sep, end_name = move.partition("-")
        if not sep or start_name not in GRID.index or end_name not in GRID.index:
            return f"{move!r} is not a move: write from-to with squares a1 to c8, e.g. b2-b3, or pass"
        start, end = GRID.index[start_name], GRID.index[end_name]
        board = state.board
        piece = board[start]
        if piece == EMPTY or OWNER[piece] != seat:
            return f"there is no piece of yours on {start_name}"
        if board[end] != EMPTY:
            return f"{end_name} is not empty"
        if piece in CRAWLERS:
            return f"a crawler moves one square to a neighbouring square, and {end_name} is not next to {start_name}"
        if end in GRID.neighbours[start]:
            return f"a jumper must jump over pieces; it cannot step from {start_name} to {end_name}"
        return (
            f"a jumper leaps in a straight line over consecutive pieces to the first empty square; "
            f"{end_name} is not such a landing square from {start_name}"
        )

    # -- views -----------------------------------------------------------------------------

    def view(self, state: RampantsState, seat: Seat | None) -> dict[str, JSON]:
        board = state.board
        hidden: set[Seat] = set()
        if state.turn < 0:
            hidden = {s for s in (0, 1) if s != seat and layout_of(board, s) is not None}
        shown = board
        for s in hidden:
            shown = _blank(shown, s)
        pieces = [
            {
                "square": GRID.names[i],
                "x": GRID.xy(i)[0],
                "y": GRID.xy(i)[1],
                "owner": OWNER[p],
                "face": "crawler" if p in CRAWLERS else "jumper",
                "circle": "down" if p in CRAWLERS else "up",
            }
            for i, p in enumerate(shown)
            if p != EMPTY
        ]
        text = self.format_position(state)
        if hidden:
            ranks = text.split(" ")[0].split("/")
            for s in hidden:
                for r in ((7, 6) if s == 0 else (0, 1)):  # index in the top-first rank list
                    ranks[r] = "???"
            text = "/".join(ranks) + " " + text.split(" ", 1)[1]
        setup = None
        if state.turn < 0:
            setup = [
                {
                    "seat": s,
                    "chosen": layout_of(board, s) is not None,
                    "layout": None if s in hidden else layout_of(board, s),
                }
                for s in (0, 1)
            ]
        last = None
        revealed: list[dict[str, JSON]] = []
        if state.last is not None:
            last_seat, last_move = state.last
            last = {"seat": last_seat, "move": None if last_seat in hidden else last_move}
            if state.turn >= 0 and last_move in _LAYOUT_MOVES:
                # Right after the second layout: the first one, a secret until now,
                # stands untouched on the board and is public.
                other = 1 - last_seat
                revealed.append({"seat": other, "move": layout_of(board, other)})
        return {
            "game": self.slug,
            "seat": seat,
            "phase": "over" if state.outcome else ("setup" if state.turn < 0 else "play"),
            "board": {"files": GRID.width, "ranks": GRID.height, "pieces": pieces},
            "setup": setup,
            "first_player": state.first if state.turn < 0 else None,
            **self._view_tail(state, seat),
            # what this seat may know of the last move and of the position
            "last_move": last,
            "position": text,
            # Moves played in secret that this version makes public (the shell's move
            # list shows them in place of "hidden"; see static/js/table/moves.js).
            "revealed_moves": revealed,
        }

    def state_from_view(self, view: Mapping[str, JSON], seat: Seat | None, rng: random.Random) -> RampantsState:
        text = str(view["position"])
        fields = text.split(" ")
        ranks = fields[0].split("/")
        sampled: dict[Seat, str] = {}
        for s, rows in ((0, (7, 6)), (1, (0, 1))):
            if len(ranks) == 8 and ranks[rows[0]] == "???":
                layout = rng.choice(LAYOUTS)
                sampled[s] = layout
                back, front = layout.split("/")
                if s == 1:
                    back, front = back.lower(), front.lower()
                ranks[rows[0]], ranks[rows[1]] = back, front
        state = read_position(" ".join(["/".join(ranks), *fields[1:]]))
        last = view.get("last_move")
        if last is not None and last.get("move") is None:
            last = {"seat": last["seat"], "move": sampled.get(last["seat"], "")}
        return self._restore(state, None, last, view.get("outcome"))

    # -- notation and storage ------------------------------------------------------------

    def format_position(self, state: RampantsState) -> str:
        board = format_board(state.board)
        if state.turn < 0:
            return f"{board} {SETUP} {state.first}"
        return f"{board} {state.turn}"

    def _between_turns(self, state: RampantsState) -> bool:
        return state.turn >= 0

    # -- for bots ------------------------------------------------------------------------

    def evaluate(self, state: RampantsState, seat: Seat) -> float:
        """How much closer ``seat`` is to crossing than its opponent, from 0 to 1."""
        if state.outcome is not None:
            return self.utility(state.outcome, seat)
        if state.turn < 0:
            return 0.5
        board = state.board
        left = [0, 0]
        for i, p in enumerate(board):
            if p != EMPTY:
                owner = OWNER[p]
                left[owner] += DISTANCE[owner][i]
        return 0.5 + 0.5 * (left[1 - seat] - left[seat]) / MAX_DISTANCE


def _blank(board: str, seat: Seat) -> str:
    cells = list(board)
    for i in START_SQUARES[seat]:
        cells[i] = EMPTY
    return "".join(cells)


RULES = RampantsEtSauteurs()
