"""Where things are on the Karo tiles: directions, square names, steps, jumps, lines.

All three games of the box share this module so that a direction, a step, a jump
or a line is written once. Two kinds of board live here:

- :class:`Grid`, a fixed rectangle of squares named like ``b3`` (file letter,
  rank number from 1), indexed row by row from ``a1``. Rampants et Sauteurs
  (3 x 8) and Éclaircissement (5 x 5) use it; move generation reads the
  precomputed ``steps`` / ``rays`` tables instead of doing arithmetic.
- The open plane of Quatre en ligne, where tiles sit at integer coordinates
  ``(x, y)`` that may grow in any direction. A place is packed into one int,
  ``cell(x, y)``, so that a step is an addition and sets of places are sets of
  ints. Places are written ``x,y`` in the notation (``-1,3``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import lru_cache

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

# A place (x, y) is the int x * STRIDE + y. Coordinates stay within +-LIMIT, far
# beyond what any game reaches (a tile moves at most a board's width per turn).
STRIDE = 1 << 32
LIMIT = 1 << 30
_HALF = STRIDE >> 1


def cell(x: int, y: int) -> int:
    return x * STRIDE + y


def coords(c: int) -> tuple[int, int]:
    x = (c + _HALF) // STRIDE
    return x, c - x * STRIDE


OFFSETS: tuple[int, ...] = tuple(cell(dx, dy) for dx, dy in DIRECTIONS)
ORTHOGONAL_OFFSETS: tuple[int, ...] = tuple(OFFSETS[k] for k in ORTHOGONAL)
LINE_OFFSETS: tuple[int, ...] = tuple(OFFSETS[k] for k in LINE_AXES)


@lru_cache(maxsize=4096)
def cell_name(c: int) -> str:
    x, y = coords(c)
    return f"{x},{y}"


def parse_cell(text: str) -> int:
    """``"x,y"`` to a place; ValueError on anything else."""
    xs, sep, ys = text.partition(",")
    if not sep:
        raise ValueError(f"{text!r} is not a place written x,y")
    x, y = int(xs), int(ys)
    if str(x) != xs or str(y) != ys:
        raise ValueError(f"{text!r} is not a place written x,y")
    if abs(x) > LIMIT or abs(y) > LIMIT:
        raise ValueError(f"{text!r} is too far from the origin")
    return cell(x, y)


def side_neighbours(c: int) -> tuple[int, int, int, int]:
    n, e, s, w = ORTHOGONAL_OFFSETS
    return (c + n, c + e, c + s, c + w)


def is_connected(cells: Iterable[int]) -> bool:
    """Whether the places form one group joined by sides (an empty group is)."""
    todo = set(cells)
    if not todo:
        return True
    stack = [todo.pop()]
    while stack:
        c = stack.pop()
        for n in side_neighbours(c):
            if n in todo:
                todo.remove(n)
                stack.append(n)
    return not todo


def run_length(c: int, offset: int, belongs: Callable[[int], bool]) -> int:
    """How many consecutive places through ``c`` along ``offset`` (both ways) belong."""
    count = 1
    n = c + offset
    while belongs(n):
        count += 1
        n += offset
    n = c - offset
    while belongs(n):
        count += 1
        n -= offset
    return count
