"""Éclaircissement: light all eight pieces and bring them back to the edge (the Karo box).

A 5 x 5 board whose centre square c3 has no tile: it is the source of light. A
position is a string of 25 cells from a1, one character each: ``.`` empty,
``D``/``L`` a dark (circle down) or lit (circle up) piece of seat 0, ``d``/``l``
one of seat 1. Seat 0 starts on a1-e1 and a2-a4, seat 1 on a5-e5 and e2-e4.

A turn is a step to any neighbouring empty square, or an orthogonal jump over a
neighbouring piece to the empty square behind it. After a jump the same seat is
to act again: it may jump on (never landing where the piece already stood this
turn) or ``stop``; the turn ends by itself when no jump is left. A piece that
lands on the centre, or jumps over a lit piece, is lit for good. The first seat
with all eight pieces lit and on edge squares wins, even in the middle of a chain.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any, ClassVar

from ..base import JSON, Outcome, PositionError, Seat
from .common import (
    EMPTY,
    EMPTY_SEEN,
    PASS,
    KaroRules,
    KaroState,
    Seen,
    move_piece,
    position_key,
    read_grid_text,
)
from .geometry import Grid
from .record import digit_table, packed

GRID = Grid(5, 5)
CENTRE = GRID.index["c3"]
DARK = ("D", "d")
LIT = ("L", "l")
OWNER = {"D": 0, "L": 0, "d": 1, "l": 1}
INNER = tuple(i for i in range(GRID.size) if not GRID.is_edge(i))
STOP = "stop"
WIN_REASON = "all-lit-on-edge"
START_BOARD = GRID.rows_cells("ddddd/D...d/D...d/D...d/DDDDD") or ""
TILES = tuple(i for i in range(GRID.size) if i != CENTRE)

# (start, over, landing) triples built once, per start square, for orthogonal jumps
_JUMPS = tuple(tuple((i, over, land) for over, land in GRID.orthogonal_jumps[i]) for i in range(GRID.size))
_STEPS = tuple(tuple((i, n) for n in GRID.neighbours[i]) for i in range(GRID.size))


class EclaircissementState(KaroState):
    """One moment of a game (see :class:`~.common.KaroState`).

    ``path`` is empty between turns; during a chain of jumps it lists the squares
    the jumping piece stood on this turn, its start first and its square now last.
    """

    __slots__ = ("path",)

    def __init__(
        self,
        board: str,
        turn: Seat,
        path: tuple[int, ...],
        seen: Seen,
        outcome: Outcome | None,
        last: tuple[Seat, str] | None,
    ) -> None:
        super().__init__(board, turn, seen, outcome, last)
        self.path = path

    def _identity(self) -> tuple[Any, ...]:
        return (self.board, self.turn, self.path, self.last)

    def __repr__(self) -> str:
        return f"EclaircissementState({GRID.rows_text(self.board)!r}, turn={self.turn}, path={self.path})"


# -- the board ----------------------------------------------------------------------------


def generate(board: str, seat: Seat) -> dict[str, tuple[int, int, int]]:
    """Every step and first jump of ``seat``: ``{"a1-b2": (from, over or -1, to)}``."""
    dark, lit = DARK[seat], LIT[seat]
    names = GRID.move_names
    out: dict[str, tuple[int, int, int]] = {}
    for i, piece in enumerate(board):
        if piece == dark or piece == lit:
            row = names[i]
            for n in GRID.neighbours[i]:
                if board[n] == EMPTY:
                    out[row[n]] = (i, -1, n)
            for jump in _JUMPS[i]:
                if board[jump[1]] != EMPTY and board[jump[2]] == EMPTY:
                    out[row[jump[2]]] = jump
    return out


def further_jumps(board: str, path: tuple[int, ...]) -> dict[str, tuple[int, int, int]]:
    """The jumps the chaining piece (on ``path[-1]``) may still make this turn."""
    at = path[-1]
    row = GRID.move_names[at]
    out: dict[str, tuple[int, int, int]] = {}
    for jump in _JUMPS[at]:
        land = jump[2]
        if board[jump[1]] != EMPTY and board[land] == EMPTY and land not in path:
            out[row[land]] = jump
    return out


def has_won(board: str, seat: Seat) -> bool:
    """All eight pieces of ``seat`` are lit and none stands off the edge."""
    lit = LIT[seat]
    return board.count(lit) == 8 and all(board[i] != lit for i in INNER)


def read_position(text: str) -> EclaircissementState:
    """The board, seat to move and chain of a position text, checked (no history, no outcome)."""
    board, fields = read_grid_text(text, GRID, ".DLdl")
    if len(fields) not in (1, 2) or fields[0] not in ("0", "1"):
        raise PositionError(f"{text!r} must give the seat to move (0 or 1) after the board")
    for s in (0, 1):
        count = board.count(DARK[s]) + board.count(LIT[s])
        if count != 8:
            raise PositionError(f"seat {s} has {count} pieces on the board, not 8")
    turn = int(fields[0])
    path = _read_path(board, turn, fields[1]) if len(fields) == 2 else ()
    if path and not further_jumps(board, path) and not has_won(board, turn):
        raise PositionError("the jumping piece has no jump left, so its turn would be over")
    return EclaircissementState(board, turn, path, EMPTY_SEEN, None, None)


def _read_path(board: str, turn: Seat, text: str) -> tuple[int, ...]:
    names = text.split("-")
    if len(names) < 2 or any(n not in GRID.index for n in names):
        raise PositionError(f"{text!r} is not a chain of squares like a1-a3")
    path = tuple(GRID.index[n] for n in names)
    if len(set(path)) != len(path):
        raise PositionError(f"the chain {text!r} lands twice on the same square")
    for a, b in zip(path, path[1:]):
        if not any(land == b and board[over] != EMPTY for _, over, land in _JUMPS[a]):
            raise PositionError(f"{GRID.names[a]}-{GRID.names[b]} in {text!r} is not a jump over a piece")
    if any(board[i] != EMPTY for i in path[:-1]):
        raise PositionError(f"the squares the jumping piece left in {text!r} must be empty")
    piece = board[path[-1]]
    if piece == EMPTY or OWNER[piece] != turn:
        raise PositionError(f"the chain {text!r} must end on a piece of seat {turn}")
    return path


def path_text(path: tuple[int, ...]) -> str:
    return "-".join(GRID.names[i] for i in path)


_DIGITS = digit_table(".DLdl")
CODE_WIDTH = 11


@functools.lru_cache(maxsize=1 << 14)
def record_code(key: str) -> str:
    """A recorded position (board, then the seat to move) in 11 characters: the
    25 squares as a number in base 5 (``.DLdl``), times 2, plus the seat, in 8 bytes of base64."""
    return packed(key[:-1], _DIGITS, key[-1], 8)


# -- the rules ----------------------------------------------------------------------------


def _place(i: int) -> dict[str, JSON]:
    x, y = GRID.xy(i)
    return {"square": GRID.names[i], "x": x, "y": y}


@functools.cache
def _static_board() -> dict[str, JSON]:
    """The parts of the board a game never changes, built once (every view
    carries them; the views share these lists and never change them)."""
    return {
        "files": GRID.width,
        "ranks": GRID.height,
        "tiles": [_place(i) for i in TILES],
        "centre": _place(CENTRE),
        "edge": [GRID.names[i] for i in range(GRID.size) if GRID.is_edge(i)],
    }


class Eclaircissement(KaroRules):
    slug: ClassVar[str] = "eclaircissement"
    title: ClassVar[str] = "Éclaircissement"
    win_reason: ClassVar[str] = WIN_REASON
    _read = staticmethod(read_position)
    _code = staticmethod(record_code)
    _code_width = CODE_WIDTH
    _has_won = staticmethod(has_won)

    def new_game(
        self, num_players: int, seed: JSON = 0, options: Mapping[str, JSON] | None = None
    ) -> EclaircissementState:
        first = self._first_seat(num_players, seed, options)
        seen = EMPTY_SEEN.add(position_key(START_BOARD, first))[0]
        return EclaircissementState(START_BOARD, first, (), seen, None, None)

    def _generate(self, state: EclaircissementState, seat: Seat) -> dict[str, Any]:
        """Steps and jumps between turns; in a chain, the jumps left to the piece and ``stop``."""
        if state.path:
            moves: dict[str, Any] = further_jumps(state.board, state.path)
            moves[STOP] = STOP
            return moves
        return generate(state.board, seat)

    def timeout_move(self, state: EclaircissementState, seat: Seat) -> str | None:
        """Running out of time in the middle of a chain stops it; otherwise as for the box."""
        if state.path and state.outcome is None and seat == state.turn:
            return STOP
        return super().timeout_move(state, seat)

    def _apply(self, state: EclaircissementState, seat: Seat, move: str, detail: Any) -> EclaircissementState:
        if detail == PASS or detail == STOP:
            return self._close(state.board, seat, state.seen, (seat, move))
        start, over, end = detail
        board = state.board
        piece = board[start]
        lights = piece in DARK and (end == CENTRE or (over >= 0 and board[over] in LIT))
        if lights:
            piece = LIT[seat]
        board = move_piece(board, start, end, piece)
        # A lit piece never goes dark again, so no earlier position can come back.
        seen = EMPTY_SEEN if lights else state.seen
        if over < 0:
            return self._close(board, seat, seen, (seat, move))
        path = (state.path or (start,)) + (end,)
        if has_won(board, seat):
            return EclaircissementState(board, seat, path, seen, Outcome.win(seat, 2, WIN_REASON), (seat, move))
        further = further_jumps(board, path)
        if not further:
            return self._close(board, seat, seen, (seat, move))
        chained = EclaircissementState(board, seat, path, seen, None, (seat, move))
        further[STOP] = STOP
        chained._moves = further
        return chained

    def _close(self, board: str, mover: Seat, seen: Seen, last: tuple[Seat, str]) -> EclaircissementState:
        """The state that ends ``mover``'s turn, with the checks RULES.md orders."""
        new = EclaircissementState(board, 1 - mover, (), seen, None, last)
        return self._end_turn(new, mover, has_won(board, mover))

    def _why_illegal(self, state: EclaircissementState, seat: Seat, move: Any) -> str:
        if not isinstance(move, str):
            return f"a move is text, not {move!r}"
        if move == PASS:
            return "you may pass only when you have no legal move"
        if move == STOP:
            return "there is no chain of jumps to stop"
        start_name, sep, end_name = move.partition("-")
        if not sep or start_name not in GRID.index or end_name not in GRID.index:
            return f"{move!r} is not a move: write from-to with squares a1 to e5, e.g. a2-b3, or stop or pass"
        start, end = GRID.index[start_name], GRID.index[end_name]
        board = state.board
        if state.path:
            at = state.path[-1]
            if start != at:
                return f"the piece on {GRID.names[at]} is jumping: only it may move on, or stop"
            if end in state.path:
                return f"the piece already stood on {end_name} this turn"
        piece = board[start]
        if piece == EMPTY or OWNER[piece] != seat:
            return f"there is no piece of yours on {start_name}"
        if board[end] != EMPTY:
            return f"{end_name} is not empty"
        (sx, sy), (ex, ey) = GRID.xy(start), GRID.xy(end)
        dx, dy = ex - sx, ey - sy
        if max(abs(dx), abs(dy)) == 1:
            if state.path:
                return "a step cannot follow a jump"
            return f"{end_name} is not reachable from {start_name}"
        if (abs(dx), abs(dy)) in ((2, 0), (0, 2)):
            over = (sy + dy // 2) * GRID.width + sx + dx // 2
            if board[over] == EMPTY:
                return f"there is no piece on {GRID.names[over]} to jump over"
        return f"{start_name}-{end_name} is neither a step to a neighbouring square nor an orthogonal jump"

    # -- views -----------------------------------------------------------------------------

    def view(self, state: EclaircissementState, seat: Seat | None) -> dict[str, JSON]:
        pieces = [
            {**_place(i), "owner": OWNER[p], "lit": p in LIT, "circle": "up" if p in LIT else "down"}
            for i, p in enumerate(state.board)
            if p != EMPTY
        ]
        chain = None
        if state.path:
            chain = {"piece": GRID.names[state.path[-1]], "path": [GRID.names[i] for i in state.path]}
        return {
            "game": self.slug,
            "seat": seat,
            "phase": "over" if state.outcome else "play",
            "board": {**_static_board(), "pieces": pieces},
            "chain": chain,
            **self._view_tail(state, seat),
        }

    # -- notation and storage ------------------------------------------------------------

    def format_position(self, state: EclaircissementState) -> str:
        text = f"{GRID.rows_text(state.board)} {state.turn}"
        if state.path:
            text += " " + path_text(state.path)
        return text

    def _between_turns(self, state: EclaircissementState) -> bool:
        return not state.path

    def parse_position(self, text: str) -> EclaircissementState:
        state = read_position(text)
        if not state.path:
            return self._judge_position(state)
        # In the middle of a chain nothing is recorded; the jumping seat is asked about a win first.
        for s in (state.turn, 1 - state.turn):
            if has_won(state.board, s):
                state.outcome = Outcome.win(s, 2, WIN_REASON)
                return state
        return state

    # -- for bots ------------------------------------------------------------------------

    def evaluate(self, state: EclaircissementState, seat: Seat) -> float:
        """Lit pieces count most, lit pieces near the edge more; dark ones near the centre a little."""
        if state.outcome is not None:
            return self.utility(state.outcome, seat)
        score = [0.0, 0.0]
        for i, p in enumerate(state.board):
            if p == EMPTY:
                continue
            owner = OWNER[p]
            if p in LIT:
                score[owner] += 1.0 - 0.15 * GRID.distance_to_edge(i)
            else:
                score[owner] += 0.35 - 0.05 * GRID.king_distance(i, CENTRE)
        return 0.5 + 0.5 * (score[seat] - score[1 - seat]) / 8


RULES = Eclaircissement()
