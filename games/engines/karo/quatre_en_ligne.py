"""Quatre en ligne (Karo): four marked pieces in a line on a board of moving tiles.

Twenty tiles start as a 5 x 4 rectangle with corners at 0,0 and 4,3; tiles sit at
integer coordinates ``x,y`` and the board may grow in any direction. Each seat
has six pieces: ``P``/``M`` (plain: circle down; marked: circle up) for seat 0,
``p``/``m`` for seat 1.

Phase 1 (placement): the seats alternately place a plain piece on an empty tile
(move ``x,y``), twelve turns in all. Phase 2 (movement): a piece steps to a
neighbouring empty tile in one of 8 directions (``x,y>x,y``, no flip), or jumps
over one neighbouring piece onto the empty tile right behind it (flips). A turn
may start with a tile move, written ``tile-from>tile-to:piece-from>piece-to``:
an empty tile with at least two free sides, whose lifting keeps the other 19
joined by sides, goes to a new place touching one of them by a side (never back
where it was), and one of the mover's pieces then steps or jumps onto it. Four
or more marked pieces of one seat in a row, column or diagonal win.

Inside, the board is a string in a fixed :class:`~.geometry.Window`, shifted so
that its lowest row and leftmost column sit at the window's margin; the state
remembers where that corner is in the players' coordinates. So positions that
differ only by a shift of the whole board are the same string, which is what
the repetition rule asks for.
"""

from __future__ import annotations

import math
import re
from bisect import insort
from collections.abc import Mapping
from functools import lru_cache
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
)
from .geometry import Window, parse_place, run_length, shift_text
from .record import ALPHABET, digit_table, packed

try:  # the same moves in C (setup.py builds it when a compiler is there)
    from . import _quatre_moves as native
except ImportError:  # pragma: no cover - the build without a compiler
    native = None

# Twenty connected tiles never span more than 20 places in x or y: with a margin
# of 3 they stay within columns and rows 3-22, and every place a piece may reach
# (2 further out) and every side of it lies inside the window.
WINDOW = Window(stride=32, rows=27, margin=3)
MARGIN = WINDOW.margin
STRIDE = WINDOW.stride
MAX_SPAN = 20
NORTH, EAST, SOUTH, WEST = WINDOW.sides
OFFSETS = WINDOW.offsets
LINES = WINDOW.lines

BLANK = " "  # no tile (written "-" in the notation)
NO_TILE = "-"
PLAIN = ("P", "p")
MARKED = ("M", "m")
OWNER = {"P": 0, "M": 0, "p": 1, "m": 1}
FLIP = {"P": "M", "M": "P", "p": "m", "m": "p"}
TILE_COUNT = 20
PIECES_EACH = 6
WIN_REASON = "four-in-line"

# What play needs for each move: (PLACE, at) / (MOVE, start, end, jumped) /
# (TILE, target, start, jumped), the lifted tile being read from the move text.
PLACE = "place"
MOVE = "move"
TILE = "tile"


# ``x,y`` in the players' coordinates for each place of the window, one table per
# position of the window (a tuple: move generation reads it most of all).
_NAME_TABLES: dict[tuple[int, int], tuple[str, ...]] = {}
_NAME_TABLES_KEPT = 256


def names_at(ox: int, oy: int) -> tuple[str, ...]:
    table = _NAME_TABLES.get((ox, oy))
    if table is None:
        if len(_NAME_TABLES) >= _NAME_TABLES_KEPT:
            _NAME_TABLES.clear()
        table = _NAME_TABLES[(ox, oy)] = tuple(
            f"{x + ox},{y + oy}" for y in range(WINDOW.rows) for x in range(STRIDE)
        )
    return table


class Layout:
    """How the tiles lie, shared unchanged by every state with the same tiles.

    ``ox, oy`` are the players' coordinates of the window's place 0, so that
    window place ``i`` is ``(i % 32 + ox, i // 32 + oy)``; ``tiles`` lists the
    window places holding a tile, in order, and ``mask`` has bit i set for a
    tile on place i. The memos remember what move generation asked about the
    tiles alone: whether a tile could be lifted were it empty, and which tiles
    a place without a tile touches by a side (see :func:`touching`).
    """

    __slots__ = ("ox", "oy", "tiles", "mask", "names", "can_lift", "touching", "_holes")

    def __init__(self, ox: int, oy: int, tiles: tuple[int, ...], mask: int = 0) -> None:
        self.ox = ox
        self.oy = oy
        self.tiles = tiles
        self.mask = mask or sum(1 << t for t in tiles)
        self.names = names_at(ox, oy)
        self.can_lift: dict[int, bool] = {}
        self.touching: dict[int, int] = {}
        self._holes = -1

    @property
    def holes(self) -> int:
        """How many separate groups of places without a tile the tiles close in.

        Euler's formula for a picture made of square cells (cells joined by a
        side, the places between them joined by a side or a corner): tiles minus
        pairs of tiles side by side plus 2 x 2 blocks of tiles is the number of
        groups of tiles (here one) minus the number of holes.
        """
        if self._holes < 0:
            m = self.mask
            across = m & (m >> 1)  # bit i: tiles on i and i + 1 (the window's blank columns keep rows apart)
            up = m & (m >> STRIDE)  # bit i: tiles on i and i + 32
            blocks = across & (across >> STRIDE)
            self._holes = across.bit_count() + up.bit_count() - blocks.bit_count() - (len(self.tiles) - 1)
        return self._holes

    def place(self, text: str) -> int | None:
        """The window place of ``"x,y"``, or None when it lies outside the window."""
        x, y = parse_place(text)
        x -= self.ox
        y -= self.oy
        if 0 <= x < STRIDE and 0 <= y < WINDOW.rows:
            return WINDOW.index(x, y)
        return None


class QuatreState(KaroState):
    """One moment of a game (see :class:`~.common.KaroState`).

    ``board`` has one character per window place: blank (no tile), ``.`` (an
    empty tile) or a piece letter; ``layout`` says where the tiles lie.
    ``placing`` may be given when known (a piece moved: the placement is over).
    """

    __slots__ = ("layout", "_placing")

    def __init__(
        self,
        board: str,
        layout: Layout,
        turn: Seat,
        seen: Seen,
        outcome: Outcome | None,
        last: tuple[Seat, str] | None,
        placing: bool | None = None,
    ) -> None:
        super().__init__(board, turn, seen, outcome, last)
        self.layout = layout
        self._placing = placing

    @property
    def placing(self) -> bool:
        """Whether pieces are still being placed (phase 1)."""
        if self._placing is None:
            self._placing = self.board.count(EMPTY) > TILE_COUNT - 2 * PIECES_EACH
        return self._placing

    def _identity(self) -> tuple[Any, ...]:
        return (self.board, self.layout.ox, self.layout.oy, self.turn, self.last)

    def __repr__(self) -> str:
        return f"QuatreState({format_board(self.board, self.layout.ox, self.layout.oy)!r}, turn={self.turn})"


# -- the board ----------------------------------------------------------------------------


def places(board: str, piece: str) -> list[int]:
    """Every window place holding ``piece``, in order."""
    out = []
    i = board.find(piece)
    while i >= 0:
        out.append(i)
        i = board.find(piece, i + 1)
    return out


def put(board: str, i: int, piece: str) -> str:
    return board[:i] + piece + board[i + 1 :]


def sides_of(board: str, i: int, north: int = NORTH, east: int = EAST) -> tuple[int, ...]:
    """The tiles sharing a side with place ``i``."""
    sides: tuple[int, ...] = ()
    if board[i + north] != BLANK:
        sides = (i + north,)
    if board[i + east] != BLANK:
        sides += (i + east,)
    if board[i - north] != BLANK:
        sides += (i - north,)
    if board[i - east] != BLANK:
        sides += (i - east,)
    return sides


NO_SIDE = -2
SIDES = -1


def touching(board: str, i: int) -> int:
    """Which tiles place ``i`` touches by a side: the tile, when it is only one;
    ``SIDES`` for more, ``NO_SIDE`` for none (written out: move generation asks often)."""
    only = NO_SIDE
    if board[i + NORTH] != BLANK:
        only = i + NORTH
    if board[i + EAST] != BLANK:
        if only != NO_SIDE:
            return SIDES
        only = i + EAST
    if board[i - NORTH] != BLANK:
        if only != NO_SIDE:
            return SIDES
        only = i - NORTH
    if board[i - EAST] != BLANK:
        if only != NO_SIDE:
            return SIDES
        only = i - EAST
    return only


def liftable(board: str, layout: Layout, t: int) -> bool:
    """Tile ``t`` has at least two free sides and the others stay joined without it.

    With two neighbours, and no tile in the corner between them, they stay
    joined only through a ring of tiles around ``t`` and one of its free sides:
    a ring that closes in a hole. So without holes (the usual case) no search
    is needed: the tile holds the board together.
    """
    north = board[t + NORTH] != BLANK
    east = board[t + EAST] != BLANK
    south = board[t - NORTH] != BLANK
    count = north + east + south + (board[t - EAST] != BLANK)
    if count != 2:
        return count < 2
    if north != south and board[t + (NORTH if north else -NORTH) + (EAST if east else -EAST)] != BLANK:
        return True  # two neighbours at right angles, joined through the tile between them
    if not layout.holes:
        return False
    a, b = sides_of(board, t)
    return joined_without(layout.mask, t, a, b)


def joined_without(tiles: int, gone: int, a: int, b: int) -> bool:
    """Whether tiles ``a`` and ``b`` are joined by sides without the tile on ``gone``.

    ``tiles`` has bit i set for a tile on window place i: two flood fills grow,
    in turn, from ``a`` and from ``b`` by shifting bits one place sideways (a
    step east or west) or one row (north or south); the blank columns of the
    window keep rows apart. They meet if the tiles are joined; otherwise the
    smaller side runs out first, and that ends the search: lifting a tile with
    two opposite neighbours nearly always splits the board, mostly leaving a
    short arm on one side.
    """
    room = tiles & ~(1 << gone)
    one = 1 << a
    other = 1 << b
    while True:
        grown = (one | one << 1 | one >> 1 | one << STRIDE | one >> STRIDE) & room
        if grown & other:
            return True
        if grown == one:
            return False  # all of one side is reached, and the other is not on it
        one, other = other, grown


def all_joined(mask: int) -> bool:
    """Whether the tiles (bit i set for a tile on window place i) are all joined by sides.

    A flood fill from the lowest tile by shifting bits, as in :func:`joined_without`.
    """
    reached = mask & -mask
    while True:
        grown = (reached | reached << 1 | reached >> 1 | reached << STRIDE | reached >> STRIDE) & mask
        if grown == reached:
            return reached == mask
        reached = grown


def generate(state: QuatreState, seat: Seat) -> dict[str, tuple[Any, ...]]:
    """The moves of ``seat``: placements, or the movement phase's moves (in C when it is built)."""
    layout = state.layout
    if state.placing:
        names = layout.names
        return {names[i]: (PLACE, i) for i in places(state.board, EMPTY)}
    if native is not None:
        # generate_movement in C (_quatre_moves.c): the same moves, details and order
        # (tests/games/test_native_moves.py). The layout's memos are neither read nor
        # filled; the rare tile that needs a flood fill to know whether it may be lifted
        # is asked of liftable.
        return native.movement(state.board, layout.tiles, layout.names, seat, layout, liftable)
    return generate_movement(state.board, layout, seat)  # pragma: no cover - the build without a compiler


def generate_movement(board: str, layout: Layout, seat: Seat) -> dict[str, tuple[Any, ...]]:
    """Steps, jumps and tile moves of ``seat`` in the movement phase.

    The hottest function of the box (random playouts spend most of their time
    here), hence the layout's memos read inline, and one detail tuple shared
    by all the tile moves that differ only by the tile lifted (``play`` reads
    that tile from the move text).
    """
    names = layout.names
    lift_memo = layout.can_lift
    plain, marked = PLAIN[seat], MARKED[seat]
    lifts = []
    mine = []
    for t in layout.tiles:
        ch = board[t]
        if ch == EMPTY:
            can = lift_memo.get(t)
            if can is None:
                can = lift_memo[t] = liftable(board, layout, t)
            if can:
                lifts.append(t)
        elif ch == plain or ch == marked:
            mine.append(t)
    out: dict[str, tuple[Any, ...]] = {}
    touch_memo = layout.touching
    lift_names = [(lift, names[lift]) for lift in lifts]
    for c in mine:
        start = names[c] + ">"
        for d in OFFSETS:
            target = c + d
            ch = board[target]
            if ch == EMPTY:
                out[start + names[target]] = (MOVE, c, target, False)
                continue
            jumped = ch != BLANK
            if jumped:
                target += d
                ch = board[target]
                if ch == EMPTY:
                    out[start + names[target]] = (MOVE, c, target, True)
                    continue
                if ch != BLANK:
                    continue
            # No tile on target: a tile moved there would let this piece go onto it.
            if not lifts:
                continue
            only = touch_memo.get(target)
            if only is None:
                only = touch_memo[target] = touching(board, target)
            if only == NO_SIDE:
                continue  # a tile there would touch the board only by a corner
            to = names[target]
            tail = f">{to}:{start}{to}"
            detail = (TILE, target, c, jumped)
            for lift, lift_name in lift_names:
                if lift != only:  # a tile touching only the place it left would float free
                    out[lift_name + tail] = detail
    return out


if native is not None:
    native.configure(OFFSETS, NORTH, EAST, MOVE, TILE)


def four_in_line(board: str, at: int) -> bool:
    """Whether the piece on ``at`` belongs to a line of four or more of the same letter."""
    return any(run_length(board, at, off) >= 4 for off in LINES)


def has_line(board: str, seat: Seat) -> bool:
    return any(four_in_line(board, i) for i in places(board, MARKED[seat]))


def settle(board: str, layout: Layout, lift: int, target: int) -> tuple[str, Layout]:
    """The board and layout after the tile on ``lift`` went to ``target``.

    The board is shifted back to the window's margin when its lowest row or
    leftmost column changed; the players' coordinates stay where they were.
    """
    mask = layout.mask & ~(1 << lift) | 1 << target
    # the lowest row: that of the lowest tile; the leftmost column: fold all rows onto one
    y = ((mask & -mask).bit_length() - 1) // STRIDE
    columns = mask
    for rows in (16, 8, 4, 2, 1):
        columns |= columns >> (rows * STRIDE)
    x = ((columns & -columns).bit_length() - 1) % STRIDE
    dx, dy = x - MARGIN, y - MARGIN
    shift = dx + dy * STRIDE
    tiles = list(layout.tiles)
    tiles.remove(lift)
    insort(tiles, target)
    if shift:
        tiles = [t - shift for t in tiles]
        mask = mask >> shift if shift > 0 else mask << -shift
    return shift_text(board, shift, BLANK), Layout(layout.ox + dx, layout.oy + dy, tuple(tiles), mask)


# -- text --------------------------------------------------------------------------------


def format_board(board: str, ox: int, oy: int) -> str:
    """``origin rows``: the lowest corner in the players' coordinates, then the rows, top first."""
    top = max(y for y in range(WINDOW.rows) if WINDOW.row(board, y).strip())
    right = max(x for x in range(STRIDE) if WINDOW.column(board, x).strip())
    rows = [
        board[y * STRIDE + MARGIN : y * STRIDE + right + 1].replace(BLANK, NO_TILE)
        for y in range(top, MARGIN - 1, -1)
    ]
    return f"{MARGIN + ox},{MARGIN + oy} {'/'.join(rows)}"


_DIGITS = digit_table(".PMpm")
_TILE = re.compile("[^ ]")
CODE_WIDTH = 28


@lru_cache(maxsize=1 << 12)  # keys are whole boards (865 characters): a few MB at most
def record_code(key: str) -> str:
    """A recorded position (board, then the seat to move) in 28 characters.

    First where the 20 tiles lie, one character each: the column of the first
    tile in the lowest row, then the step from each tile to the next one,
    reading the window row by row (every row between the lowest and the
    highest holds a tile, so no step reaches 64). Then what lies on them, in
    the same order: a number in base 5 (``.PMpm``), times 2, plus the seat, in
    6 bytes of base64. The board is already shifted to the window's corner,
    so positions that differ by a shift of the whole board share their code.
    """
    board = key[:-1]
    tiles = [m.start() for m in _TILE.finditer(board)]
    steps = [tiles[0] - MARGIN * STRIDE] + [b - a for a, b in zip(tiles, tiles[1:])]
    return "".join(ALPHABET[s] for s in steps) + packed(board.replace(BLANK, ""), _DIGITS, key[-1], 6)


def parse_board(origin_text: str, rows_text: str) -> tuple[str, Layout]:
    try:
        x0, y0 = parse_place(origin_text)
    except ValueError as error:
        raise PositionError(f"bad origin: {error}") from None
    rows = rows_text.split("/")
    width = len(rows[0])
    if not width or any(len(r) != width for r in rows):
        raise PositionError(f"{rows_text!r}: every row must have the same, non-zero length")
    if width > MAX_SPAN or len(rows) > MAX_SPAN:
        raise PositionError(f"{TILE_COUNT} joined tiles never span more than {MAX_SPAN} places")
    bad = set(rows_text) - set("-.PMpm/")
    if bad:
        raise PositionError(f"unknown square content {''.join(sorted(bad))!r} (use - . P M p m)")
    if rows[0].strip(NO_TILE) == "" or rows[-1].strip(NO_TILE) == "":
        raise PositionError("the top and bottom rows must hold tiles (the origin is the board's lowest corner)")
    if all(r[0] == NO_TILE for r in rows) or all(r[-1] == NO_TILE for r in rows):
        raise PositionError("the first and last columns must hold tiles (the origin is the board's lowest corner)")
    # The rows bottom first, each at the window's margin, blank places around them.
    blank_row = BLANK * STRIDE
    right = BLANK * (STRIDE - MARGIN - width)
    lines = [blank_row * MARGIN]
    lines += [BLANK * MARGIN + row.replace(NO_TILE, BLANK) + right for row in reversed(rows)]
    lines.append(blank_row * (WINDOW.rows - MARGIN - len(rows)))
    board = "".join(lines)
    tile_places = tuple(m.start() for m in _TILE.finditer(board))
    if len(tile_places) != TILE_COUNT:
        raise PositionError(f"the board has {len(tile_places)} tiles, not {TILE_COUNT}")
    layout = Layout(x0 - MARGIN, y0 - MARGIN, tile_places)
    if not all_joined(layout.mask):
        raise PositionError("the tiles are not all joined by their sides")
    return board, layout


def read_position(text: str) -> QuatreState:
    """Tiles, pieces and seat to move of a position text, checked (no history, no outcome)."""
    if not isinstance(text, str):
        raise PositionError(f"a position is text, not {text!r}")
    fields = text.split(" ")
    if len(fields) != 3 or fields[2] not in ("0", "1"):
        raise PositionError(f"{text!r} must be: origin x,y, the rows top first separated by '/', the seat to move")
    board, layout = parse_board(fields[0], fields[1])
    turn = int(fields[2])
    counts = [board.count(PLAIN[s]) + board.count(MARKED[s]) for s in (0, 1)]
    if sum(counts) < 2 * PIECES_EACH:
        if any(m in board for m in MARKED):
            raise PositionError("no piece is marked while pieces are being placed")
        if not counts[turn] <= counts[1 - turn] <= counts[turn] + 1:
            raise PositionError(f"seat {turn} cannot be placing with {counts[0]} and {counts[1]} pieces placed")
    elif counts != [PIECES_EACH, PIECES_EACH]:
        raise PositionError(f"each seat has six pieces, not {counts[0]} and {counts[1]}")
    return QuatreState(board, layout, turn, EMPTY_SEEN, None, None)


START_BOARD, START_LAYOUT = parse_board("0,0", "...../...../...../.....")


# -- the rules ----------------------------------------------------------------------------


class QuatreEnLigne(KaroRules):
    slug: ClassVar[str] = "quatre-en-ligne"
    title: ClassVar[str] = "Quatre en ligne"
    win_reason: ClassVar[str] = WIN_REASON
    _read = staticmethod(read_position)
    _code = staticmethod(record_code)
    _code_width = CODE_WIDTH
    _has_won = staticmethod(has_line)

    def new_game(self, num_players: int, seed: JSON = 0, options: Mapping[str, JSON] | None = None) -> QuatreState:
        first = self._first_seat(num_players, seed, options)
        seen = EMPTY_SEEN.add(position_key(START_BOARD, first))[0]
        return QuatreState(START_BOARD, START_LAYOUT, first, seen, None, None)

    def _generate(self, state: QuatreState, seat: Seat) -> dict[str, Any]:
        return generate(state, seat)

    def _apply(self, state: QuatreState, seat: Seat, move: str, detail: Any) -> QuatreState:
        last = (seat, move)
        board, layout = state.board, state.layout
        if detail == PASS:
            return self._close(board, layout, seat, state.seen, False, last, state._placing)
        kind = detail[0]
        if kind == PLACE:
            # A placed piece never leaves the board: no earlier position comes back.
            return self._close(put(board, detail[1], PLAIN[seat]), layout, seat, EMPTY_SEEN, False, last, None)
        if kind == MOVE:
            _, start, end, jumped = detail
            lift = -1
        else:
            _, end, start, jumped = detail
            place = layout.place(move.partition(">")[0])
            assert place is not None  # the move is a legal one: its tile is on the board
            lift = place
            board = put(board, lift, BLANK)
        piece = board[start]
        if jumped:
            piece = FLIP[piece]
        board = move_piece(board, start, end, piece)
        won = piece == MARKED[seat] and four_in_line(board, end)
        if lift >= 0:
            board, layout = settle(board, layout, lift, end)
        return self._close(board, layout, seat, state.seen, won, last, False)

    def _close(
        self,
        board: str,
        layout: Layout,
        mover: Seat,
        seen: Seen,
        won: bool,
        last: tuple[Seat, str],
        placing: bool | None,
    ) -> QuatreState:
        """The state that ends ``mover``'s turn, with the checks RULES.md orders."""
        new = QuatreState(board, layout, 1 - mover, seen, None, last, placing)
        return self._end_turn(new, mover, won)

    # -- why a move is refused -------------------------------------------------------------

    def _why_illegal(self, state: QuatreState, seat: Seat, move: Any) -> str:
        if not isinstance(move, str):
            return f"a move is text, not {move!r}"
        if move == PASS:
            return "you may pass only when you have no legal move"
        try:
            if state.placing:
                return self._why_not_placed(state, move)
            if ":" in move:
                return self._why_not_tile_move(state, seat, move)
            if ">" in move:
                start, _, end = move.partition(">")
                return self._why_not_moved(state.board, state.layout, seat, start, end)
        except ValueError as error:
            return f"{move!r} cannot be read: {error}"
        return "all pieces are placed: move one, written from>to like 1,2>2,2, with a tile move before it if you like"

    def _why_not_placed(self, state: QuatreState, move: str) -> str:
        if ">" in move:
            return "pieces are still being placed: write the tile to place on, like 2,1"
        at = state.layout.place(move)
        if at is None or state.board[at] == BLANK:
            return f"there is no tile at {move}"
        return f"the tile at {move} already holds a piece"

    def _why_not_moved(self, board: str, layout: Layout, seat: Seat, start_text: str, end_text: str) -> str:
        start, end = layout.place(start_text), layout.place(end_text)
        piece = BLANK if start is None else board[start]
        if piece not in OWNER or OWNER[piece] != seat:
            return f"there is no piece of yours on {start_text}"
        if end is None or board[end] == BLANK:
            return f"there is no tile at {end_text}"
        if board[end] != EMPTY:
            return f"the tile at {end_text} already holds a piece"
        (sx, sy), (ex, ey) = WINDOW.xy(start), WINDOW.xy(end)
        dx, dy = ex - sx, ey - sy
        if max(abs(dx), abs(dy)) == 2 and dx % 2 == 0 and dy % 2 == 0:
            over = WINDOW.index(sx + dx // 2, sy + dy // 2)
            if board[over] not in OWNER:
                return f"a jump needs a piece to jump over on {layout.names[over]}"
        return f"{start_text}>{end_text} is neither a step to a neighbouring tile nor a jump over one piece"

    def _why_not_tile_move(self, state: QuatreState, seat: Seat, move: str) -> str:
        tile_part, _, piece_part = move.partition(":")
        lift_text, sep1, target_text = tile_part.partition(">")
        start_text, sep2, end_text = piece_part.partition(">")
        if not sep1 or not sep2:
            return f"{move!r} is not a tile move: write tile-from>tile-to:piece-from>piece-to"
        board, layout = state.board, state.layout
        lift, target = layout.place(lift_text), layout.place(target_text)
        if parse_place(end_text) != parse_place(target_text):
            return "after a tile move, the piece must move onto the moved tile"
        if lift is None or board[lift] == BLANK:
            return f"there is no tile at {lift_text}"
        if board[lift] != EMPTY:
            return f"the tile at {lift_text} holds a piece; only an empty tile may be moved"
        free = 4 - len(sides_of(board, lift))
        if free < 2:
            return f"the tile at {lift_text} has {free} free side(s); a moved tile needs at least two"
        if not liftable(board, layout, lift):
            return f"lifting the tile at {lift_text} would split the board"
        if target == lift:
            return "a moved tile cannot go back where it was"
        if target is not None and board[target] != BLANK:
            return f"there is already a tile at {target_text}"
        lifted = put(board, lift, BLANK)
        if target is None or not sides_of(lifted, target):
            return f"a tile at {target_text} would touch no other tile by a side"
        reason = self._why_not_moved(put(lifted, target, EMPTY), layout, seat, start_text, end_text)
        return f"no piece can reach the moved tile that way: {reason}"

    # -- views -----------------------------------------------------------------------------

    def view(self, state: QuatreState, seat: Seat | None) -> dict[str, JSON]:
        board, layout = state.board, state.layout
        tiles: list[dict[str, JSON]] = []
        pieces: list[dict[str, JSON]] = []
        for i, ch in enumerate(board):
            if ch == BLANK:
                continue
            x, y = WINDOW.xy(i)
            place = {"square": layout.names[i], "x": x + layout.ox, "y": y + layout.oy}
            tiles.append(place)
            if ch != EMPTY:
                marked = ch in MARKED
                pieces.append(
                    {**place, "owner": OWNER[ch], "marked": marked, "circle": "up" if marked else "down"}
                )
        xs = [t["x"] for t in tiles]
        ys = [t["y"] for t in tiles]
        return {
            "game": self.slug,
            "seat": seat,
            "phase": "over" if state.outcome else ("placement" if state.placing else "movement"),
            "board": {
                "tiles": tiles,
                "pieces": pieces,
                "bounds": {"min_x": min(xs), "min_y": min(ys), "max_x": max(xs), "max_y": max(ys)},
            },
            "placed": [board.count(PLAIN[s]) + board.count(MARKED[s]) for s in (0, 1)],
            **self._view_tail(state, seat),
        }

    # -- notation and storage ------------------------------------------------------------

    def format_position(self, state: QuatreState) -> str:
        return f"{format_board(state.board, state.layout.ox, state.layout.oy)} {state.turn}"

    # -- for bots ------------------------------------------------------------------------

    def evaluate(self, state: QuatreState, seat: Seat) -> float:
        """Marked pieces, and lines of four still open to a seat weighed by how full they are."""
        if state.outcome is not None:
            return self.utility(state.outcome, seat)
        board = state.board
        score = [0.0, 0.0]
        for s in (0, 1):
            plain, marked = PLAIN[s], MARKED[s]
            theirs = PLAIN[1 - s] + MARKED[1 - s]
            mine = places(board, plain) + places(board, marked)
            score[s] += board.count(marked)
            windows = dict.fromkeys((c - back * off, off) for c in mine for off in LINES for back in range(4))
            for first, off in windows:
                window = [board[first + k * off] for k in range(4)]
                if any(p in theirs for p in window):
                    continue  # the other seat blocks this line
                m = window.count(marked)
                score[s] += m * m + 0.25 * window.count(plain)
        return 0.5 + 0.5 * math.tanh((score[seat] - score[1 - seat]) / 20.0)


RULES = QuatreEnLigne()
