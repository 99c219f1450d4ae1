"""Where things are on the Karo tiles: directions, square names, steps, jumps, lines.

All three games of the box share this module so that a direction, a step, a jump
or a line is written once. Two kinds of board live here:

- :class:`Grid`, a fixed rectangle of squares named like ``b3`` (file letter,
  rank number from 1), indexed row by row from ``a1``. Rampants et Sauteurs
  (3 x 8) and Éclaircissement (5 x 5) use it; move generation reads the
  precomputed ``steps`` / ``rays`` tables instead of doing arithmetic.
- The open plane of Quatre en ligne, where tiles sit at integer coordinates
  ``(x, y)`` that may grow in any direction (written ``x,y``, e.g. ``-1,3``).
  :class:`Window` keeps such a board in a string, shifted into a fixed frame.
"""

from __future__ import annotations

Direction = tuple[int, int]

# The 8 directions, clockwise from north. Index k and k ^ 4 are opposite.
DIRECTIONS: tuple[Direction, ...] = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
# The 4 orthogonal directions (north, east, south, west) as indexes into DIRECTIONS.
ORTHOGONAL: tuple[int, ...] = (0, 2, 4, 6)
# One direction per line through a place: row, column and the two diagonals.
LINE_AXES: tuple[int, ...] = (2, 0, 1, 3)

FILES = "abcdefghijklmnopqrstuvwxyz"


def opposite(direction: int) -> int:
    """The index of the direction pointing the other way."""
    return direction ^ 4


class Grid:
    """A fixed rectangular board of ``width`` files and ``height`` ranks.

    ``steps[i][k]`` is the square next to square ``i`` in direction ``k``, or -1
    off the board; ``rays[i][k]`` lists every square from ``i`` (excluded) to the
    edge in direction ``k``. ``names[i]`` is ``"a1"``-style; ``index`` reverses it.
    """

    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.height = height
        self.size = width * height
        self.names: tuple[str, ...] = tuple(
            f"{FILES[i % width]}{i // width + 1}" for i in range(self.size)
        )
        self.index: dict[str, int] = {name: i for i, name in enumerate(self.names)}
        self.rays: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
            tuple(self._ray(i, d) for d in DIRECTIONS) for i in range(self.size)
        )
        self.steps: tuple[tuple[int, ...], ...] = tuple(
            tuple(ray[0] if ray else -1 for ray in rays) for rays in self.rays
        )
        # every square next to i, in any of the 8 directions
        self.neighbours: tuple[tuple[int, ...], ...] = tuple(
            tuple(s for s in row if s >= 0) for row in self.steps
        )
        # (over, landing) for each orthogonal jump that stays on the board
        self.orthogonal_jumps: tuple[tuple[tuple[int, int], ...], ...] = tuple(
            tuple((rays[k][0], rays[k][1]) for k in ORTHOGONAL if len(rays[k]) >= 2)
            for rays in self.rays
        )
        # "a1-a3" for every pair of squares, so that move names are built once
        self.move_names: tuple[tuple[str, ...], ...] = tuple(
            tuple(f"{a}-{b}" for b in self.names) for a in self.names
        )

    def _ray(self, i: int, direction: Direction) -> tuple[int, ...]:
        dx, dy = direction
        x, y = i % self.width + dx, i // self.width + dy
        out = []
        while 0 <= x < self.width and 0 <= y < self.height:
            out.append(y * self.width + x)
            x, y = x + dx, y + dy
        return tuple(out)

    def xy(self, i: int) -> tuple[int, int]:
        return i % self.width, i // self.width

    def row(self, i: int) -> int:
        return i // self.width

    def square(self, name: str) -> int:
        """The index of a square name; KeyError for a name not on this board."""
        return self.index[name]

    def is_edge(self, i: int) -> bool:
        x, y = self.xy(i)
        return x in (0, self.width - 1) or y in (0, self.height - 1)

    def distance_to_edge(self, i: int) -> int:
        x, y = self.xy(i)
        return min(x, y, self.width - 1 - x, self.height - 1 - y)

    def king_distance(self, a: int, b: int) -> int:
        """Steps a piece needs between two squares when it may go diagonally."""
        (ax, ay), (bx, by) = self.xy(a), self.xy(b)
        return max(abs(ax - bx), abs(ay - by))

    def rows_text(self, cells: str) -> str:
        """``cells`` (one character per square, from a1) as ranks top first, '/'-separated."""
        w = self.width
        return "/".join(cells[r * w : (r + 1) * w] for r in reversed(range(self.height)))

    def rows_cells(self, text: str) -> str | None:
        """Inverse of :meth:`rows_text`; None if the shape is wrong."""
        ranks = text.split("/")
        if len(ranks) != self.height or any(len(r) != self.width for r in ranks):
            return None
        return "".join(reversed(ranks))


# -- the open plane of Quatre en ligne ------------------------------------------------


class Window:
    """A fixed window onto the open plane, in which a board of moving tiles is kept.

    A place in the window is the index ``y * stride + x``; a board is a string
    with one character per place. The board is kept shifted so that its lowest
    row and leftmost column are at ``margin``: then a step, a jump, or a look at
    the four sides of a place never leaves the window (the stride leaves blank
    columns on the right, the margin blank rows below), and two boards that
    differ only by a shift are the same string.
    """

    def __init__(self, stride: int, rows: int, margin: int) -> None:
        self.stride = stride
        self.rows = rows
        self.margin = margin
        self.size = stride * rows
        # 8 directions, clockwise from north, as index offsets
        self.offsets: tuple[int, ...] = tuple(dx + dy * stride for dx, dy in DIRECTIONS)
        self.sides: tuple[int, ...] = tuple(self.offsets[k] for k in ORTHOGONAL)
        self.lines: tuple[int, ...] = tuple(self.offsets[k] for k in LINE_AXES)

    def index(self, x: int, y: int) -> int:
        return y * self.stride + x

    def xy(self, i: int) -> tuple[int, int]:
        return i % self.stride, i // self.stride

    def column(self, board: str, x: int) -> str:
        return board[x :: self.stride]

    def row(self, board: str, y: int) -> str:
        return board[y * self.stride : (y + 1) * self.stride]


def shift_text(board: str, k: int, blank: str) -> str:
    """``board`` with every character moved ``k`` places down (k > 0) or up, blanks filling in."""
    if k > 0:
        return board[k:] + blank * k
    if k < 0:
        return blank * -k + board[:k]
    return board


def parse_place(text: str) -> tuple[int, int]:
    """``"x,y"`` (whole numbers, maybe negative) to ``(x, y)``; ValueError otherwise."""
    xs, sep, ys = text.partition(",")
    if sep:
        try:
            x, y = int(xs), int(ys)
        except ValueError:
            pass
        else:
            if str(x) == xs and str(y) == ys:
                return x, y
    raise ValueError(f"{text!r} is not a place written x,y")


def run_length(board: str, i: int, offset: int) -> int:
    """How many consecutive places through ``i`` along ``offset`` (both ways) hold ``board[i]``."""
    piece = board[i]
    count = 1
    n = i + offset
    while board[n] == piece:
        count += 1
        n += offset
    n = i - offset
    while board[n] == piece:
        count += 1
        n -= offset
    return count
