"""What the three Karo games share: the starting player, passing, being stuck, repetition.

RULES.md fixes these for the whole box: no passing while a legal move exists,
a player with no legal move passes (``"pass"`` is then their only move), both
players stuck is a draw at once, and the third occurrence of a position recorded
at the end of a turn is a draw. After every turn the checks run in the order
win, repetition, both stuck (:func:`close_turn`).

:class:`KaroState` and :class:`KaroRules` hold the plumbing the three engines
share (history, outcome, move memo, storage, views); each game's module keeps
its board, its moves and its notation.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Iterable, Mapping
from functools import lru_cache
from typing import Any, ClassVar

from ..base import JSON, IllegalMove, Option, Outcome, PositionError, Rules, Seat, make_rng
from .geometry import Grid

PASS = "pass"
SEATS: tuple[tuple[Seat, ...], ...] = ((0,), (1,))
NOBODY: tuple[Seat, ...] = ()

REPETITION = "repetition"
BOTH_STUCK = "both-stuck"

FIRST_PLAYER = Option(
    name="first_player",
    kind="choice",
    default="random",
    label="Starting player",
    help="Who moves first: drawn from the table's seed, or seat 0, or seat 1.",
    choices=("random", "0", "1"),
)


EMPTY = "."  # an empty square or tile, in all three games


def move_piece(board: str, start: int, end: int, piece: str) -> str:
    """``board`` with square ``start`` emptied and ``piece`` on ``end``."""
    if start < end:
        return board[:start] + EMPTY + board[start + 1 : end] + piece + board[end + 1 :]
    return board[:end] + piece + board[end + 1 : start] + EMPTY + board[start + 1 :]


def position_key(board: str, turn: Seat) -> str:
    """How a position that ends a turn is recorded: the board, then the seat to move."""
    return board + "01"[turn]


def starting_seat(slug: str, seed: JSON, choice: JSON) -> Seat:
    """The seat that moves first, drawn from the seed unless the table fixed it."""
    if choice == "random":
        return make_rng(seed, slug, "first-player").randrange(2)
    return int(choice)


def read_grid_text(text: JSON, grid: Grid, alphabet: str) -> tuple[str, list[str]]:
    """The board of a position text on a fixed grid, and the text's other fields.

    ``alphabet`` lists the characters a square may hold; PositionError for text
    that is not ranks of the grid's width, top first, separated by ``/``.
    """
    if not isinstance(text, str):
        raise PositionError(f"a position is text, not {text!r}")
    fields = text.split(" ")
    board = grid.rows_cells(fields[0])
    if board is None:
        raise PositionError(
            f"{fields[0]!r} is not {grid.height} ranks of {grid.width} squares separated by '/'"
        )
    bad = set(board) - set(alphabet)
    if bad:
        raise PositionError(f"unknown square content {''.join(sorted(bad))!r} (use {' '.join(alphabet)})")
    return board, fields[1:]


# -- the positions seen so far -----------------------------------------------------------

_FAN = 32
_MASK = _FAN - 1
_SHIFT = 5
_EMPTY_NODE: tuple[Any, ...] = (None,) * _FAN


class Seen:
    """How many times each position occurred: a persistent (never changed) count map.

    A two-level hash trie of 32-way tuples whose leaves are tuples of keys (a key
    counted twice appears twice). Adding a key copies two small tuples and one
    leaf, so every state of a game keeps its own history while sharing almost
    all of it with its parent: bots branch from any state, and a long game costs
    no more per turn than a short one.
    """

    __slots__ = ("_root", "size", "_json")

    def __init__(self, root: tuple[Any, ...] | None = None, size: int = 0) -> None:
        self._root = root
        self.size = size  # occurrences recorded, repeats included
        self._json: dict[str, int] | None = None  # memo of seen_to_json

    def count(self, key: Hashable) -> int:
        root = self._root
        if root is None:
            return 0
        h = hash(key)
        branch = root[h & _MASK]
        if branch is None:
            return 0
        leaf = branch[(h >> _SHIFT) & _MASK]
        return 0 if leaf is None else leaf.count(key)

    def add(self, key: Hashable) -> tuple[Seen, int]:
        """This map with one more occurrence of ``key``, and the new count of ``key``."""
        h = hash(key)
        i, j = h & _MASK, (h >> _SHIFT) & _MASK
        root = self._root or _EMPTY_NODE
        branch = root[i] or _EMPTY_NODE
        leaf = branch[j]
        if leaf is None:
            leaf, count = (key,), 1
        else:
            count = leaf.count(key) + 1
            leaf = leaf + (key,)
        new_branch = list(branch)  # a list copy and one store: cheaper than slicing a tuple
        new_branch[j] = leaf
        new_root = list(root)
        new_root[i] = tuple(new_branch)
        return Seen(tuple(new_root), self.size + 1), count

    def counts(self) -> dict[Any, int]:
        out: dict[Any, int] = {}
        for branch in self._root or ():
            for leaf in branch or ():
                for key in leaf or ():
                    out[key] = out.get(key, 0) + 1
        return out

    @classmethod
    def of(cls, counts: Iterable[tuple[Hashable, int]]) -> Seen:
        seen = EMPTY_SEEN
        for key, n in counts:
            for _ in range(n):
                seen = seen.add(key)[0]
        return seen

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Seen):
            return NotImplemented
        return self.size == other.size and self.counts() == other.counts()

    def __hash__(self) -> int:
        return hash(frozenset(self.counts().items()))

    def __repr__(self) -> str:
        return f"Seen({self.counts()!r})"


EMPTY_SEEN = Seen()


def close_turn(
    mover: Seat,
    won: bool,
    win_reason: str,
    seen: Seen,
    key: Hashable,
    is_stuck: Callable[[Seat], bool],
) -> tuple[Seen, Outcome | None]:
    """Record the position that ends a turn and decide whether the game ended.

    The order is RULES.md's: a win first, then the third occurrence of the
    position, then both players stuck. ``is_stuck(seat)`` answers for the new
    position; it is asked about the player to move first, and about the mover
    only when the player to move is stuck.
    """
    if won:
        return seen, Outcome.win(mover, 2, win_reason)
    seen, count = seen.add(key)
    if count >= 3:
        return seen, Outcome.draw(2, REPETITION)
    if is_stuck(1 - mover) and is_stuck(mover):
        return seen, Outcome.draw(2, BOTH_STUCK)
    return seen, None


def seen_to_json(seen: Seen, key_text: Callable[[Any], str]) -> dict[str, int]:
    """The recorded positions as ``{position text: occurrences}``, sorted for stable output.

    Worked out once per history (views and dumps of one state ask many times);
    ``key_text`` should remember its answers, as a history mostly repeats its parent's.
    """
    if seen._json is None:
        seen._json = dict(sorted((key_text(k), n) for k, n in seen.counts().items()))
    return dict(seen._json)


def seen_from_json(data: JSON, text_key: Callable[[str], Hashable]) -> Seen:
    if not isinstance(data, Mapping):
        raise PositionError("the recorded positions must be a mapping of position text to count")
    pairs = []
    for text, n in data.items():
        if not isinstance(text, str) or isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 3:
            raise PositionError(f"bad recorded position {text!r}: {n!r} (a position text seen one to three times)")
        pairs.append((text_key(text), n))
    return Seen.of(pairs)


def outcome_from_json(data: JSON) -> Outcome | None:
    if data is None:
        return None
    try:
        return Outcome.from_dict(data)
    except (KeyError, TypeError, ValueError) as error:
        raise PositionError(f"bad outcome {data!r}") from error


def outcome_to_json(outcome: Outcome | None) -> JSON:
    return None if outcome is None else outcome.to_dict()


def last_to_json(last: tuple[Seat, str] | None) -> JSON:
    return None if last is None else {"seat": last[0], "move": last[1]}


def last_from_json(data: JSON) -> tuple[Seat, str] | None:
    if data is None:
        return None
    if (
        not isinstance(data, Mapping)
        or data.get("seat") not in (0, 1)
        or not isinstance(data.get("move"), str)
    ):
        raise PositionError(f"bad last move {data!r}")
    return int(data["seat"]), str(data["move"])


class KaroState(ABC):
    """What a moment of every Karo game holds. Treat as immutable: ``play`` builds a new one.

    ``board`` is the game's board string, ``turn`` the seat to move, ``seen`` the
    positions that ended a turn, ``outcome`` None while the game goes on, ``last``
    the last ``(seat, move)``; ``_moves`` is a memo for :class:`KaroRules`. Each
    game adds its own fields and names, in :meth:`_identity`, what tells two of
    its states apart besides their history and outcome (which is also their hash).
    """

    __slots__ = ("board", "turn", "seen", "outcome", "last", "_moves")

    def __init__(
        self, board: str, turn: int, seen: Seen, outcome: Outcome | None, last: tuple[Seat, str] | None
    ) -> None:
        self.board = board
        self.turn = turn
        self.seen = seen
        self.outcome = outcome
        self.last = last
        self._moves: dict[str, Any] | None = None

    @abstractmethod
    def _identity(self) -> tuple[Any, ...]:
        """The fields that are hashed: all but ``seen`` and ``outcome``."""

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, KaroState)
        return (
            self._identity() == other._identity() and self.outcome == other.outcome and self.seen == other.seen
        )

    def __hash__(self) -> int:
        return hash(self._identity())


class KaroRules(Rules):
    """The parts of the protocol the three Karo games answer the same way.

    A game supplies its state class (a :class:`KaroState`), its moves
    (:meth:`_generate`, :meth:`_apply`, :meth:`_why_illegal`) and, as plain
    functions of its module, its win test ``_has_won`` and the text of its
    positions (``_read``, ``_board_text``, besides :meth:`format_position`). The legal
    moves of the seat to act are computed once per state, as a dict from move
    text to what ``_apply`` needs.
    """

    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    options: ClassVar[tuple[Option, ...]] = (FIRST_PLAYER,)
    win_reason: ClassVar[str]
    # position text -> state, checked, with no history and no outcome
    _read: ClassVar[Callable[[str], Any]]
    # a board as the position text writes it (for the recorded positions)
    _board_text: ClassVar[Callable[[str], str]]
    # whether a seat reached its goal on a board
    _has_won: ClassVar[Callable[[str, Seat], bool]]

    def _first_seat(self, num_players: int, seed: JSON, options: Mapping[str, JSON] | None) -> Seat:
        """For a new game: checks the players and the options, and says who moves first."""
        self.check_players(num_players)
        chosen = self.validate_options(options)
        return starting_seat(self.slug, seed, chosen["first_player"])

    def num_players(self, state: Any) -> int:
        return 2

    def outcome(self, state: Any) -> Outcome | None:
        return state.outcome

    def to_act(self, state: Any) -> tuple[Seat, ...]:
        return NOBODY if state.outcome is not None else SEATS[state.turn]

    def legal_moves(self, state: Any, seat: Seat) -> list[str]:
        if seat not in self.to_act(state):
            return []
        return list(self._moves_for(state, seat))

    def play(self, state: Any, seat: Seat, move: str) -> Any:
        if state.outcome is not None:
            raise IllegalMove("the game is over")
        if seat not in self.to_act(state):
            raise IllegalMove(f"seat {seat} is not to act now")
        moves = self._moves_for(state, seat)
        detail = moves.get(move) if isinstance(move, str) else None
        if detail is None:
            raise IllegalMove(self._why_illegal(state, seat, move))
        return self._apply(state, seat, move, detail)

    def timeout_move(self, state: Any, seat: Seat) -> str | None:
        """A seat that runs out of time with no choice to make passes; otherwise it loses."""
        if seat in self.to_act(state) and PASS in self._moves_for(state, seat):
            return PASS
        return None

    def _moves_for(self, state: Any, seat: Seat) -> dict[str, Any]:
        """The legal moves of ``seat`` (which is to act), ``"pass"`` if none, cached on the state."""
        moves = state._moves
        if moves is None:
            moves = state._moves = pass_or(self._generate(state, seat))
        return moves

    def _is_stuck(self, state: Any, seat: Seat) -> bool:
        """Whether ``seat`` has no legal move in ``state``, a position between turns."""
        if seat == state.turn:
            return PASS in self._moves_for(state, seat)
        return not self._generate(state, seat)

    def _end_turn(self, new: Any, mover: Seat, won: bool) -> Any:
        """``new``, the state just after ``mover``'s turn, recorded and judged as RULES.md orders.

        ``new.seen`` comes in as the history before the turn and leaves with the
        new position counted (unless the mover won).
        """
        new.seen, new.outcome = close_turn(
            mover,
            won,
            self.win_reason,
            new.seen,
            position_key(new.board, new.turn),
            lambda s: self._is_stuck(new, s),
        )
        return new

    def _between_turns(self, state: Any) -> bool:
        """Whether ``state`` is a position that ends a turn, the kind that is recorded."""
        return True

    def parse_position(self, text: str) -> Any:
        state = self._read(text)
        return self._judge_position(state) if self._between_turns(state) else state

    def _judge_position(self, state: Any) -> Any:
        """A position read from text between turns: counted once, then won, both stuck or neither.

        The seat that moved last is asked about a win first.
        """
        state.seen = EMPTY_SEEN.add(position_key(state.board, state.turn))[0]
        for s in (1 - state.turn, state.turn):
            if self._has_won(state.board, s):
                state.outcome = Outcome.win(s, 2, self.win_reason)
                return state
        if self._is_stuck(state, state.turn) and self._is_stuck(state, 1 - state.turn):
            state.outcome = Outcome.draw(2, BOTH_STUCK)
        return state

    # -- views and storage ------------------------------------------------------------

    # The rules objects are singletons, and a history mostly repeats its parent's:
    # both conversions remember their answers.
    @lru_cache(maxsize=1 << 17)  # noqa: B019
    def _key_text(self, key: str) -> str:
        """A recorded position (see :func:`position_key`) as position text."""
        return f"{self._board_text(key[:-1])} {key[-1]}"

    @lru_cache(maxsize=1 << 17)  # noqa: B019
    def _text_key(self, text: str) -> str:
        """Inverse of :meth:`_key_text`; PositionError for a bad text or one that ends no turn."""
        state = self._read(text)
        if not self._between_turns(state):
            raise PositionError(f"{text!r} ends no turn (a setup, a chain of jumps): it cannot be recorded")
        return position_key(state.board, state.turn)

    def _view_tail(self, state: Any, seat: Seat | None) -> dict[str, JSON]:
        """The entries that end every Karo view: who acts, the moves, the position, the history."""
        return {
            "to_act": list(self.to_act(state)),
            "last_move": last_to_json(state.last),
            "legal_moves": [] if seat is None else self.legal_moves(state, seat),
            "position": self.format_position(state),
            "seen": seen_to_json(state.seen, self._key_text),
            "outcome": outcome_to_json(state.outcome),
        }

    def state_from_view(self, view: Mapping[str, JSON], seat: Seat | None, rng: random.Random) -> Any:
        # Nothing is hidden (Rampants et Sauteurs overrides this): the view rebuilds the exact state.
        state = self._read(str(view["position"]))
        return self._restore(state, view.get("seen", {}), view.get("last_move"), view.get("outcome"))

    def dump(self, state: Any) -> dict[str, JSON]:
        return {
            "position": self.format_position(state),
            "seen": seen_to_json(state.seen, self._key_text),
            "last": last_to_json(state.last),
            "outcome": outcome_to_json(state.outcome),
        }

    def load(self, data: Mapping[str, JSON]) -> Any:
        if not isinstance(data, Mapping) or not isinstance(data.get("position"), str):
            raise PositionError("a stored game needs its position text")
        state = self._read(data["position"])
        return self._restore(state, data.get("seen", {}), data.get("last"), data.get("outcome"))

    def _restore(self, state: Any, seen: JSON, last: JSON, outcome: JSON) -> Any:
        """``state``, freshly read from its text, with the history, outcome and last move given."""
        state.seen = seen_from_json(seen, self._text_key)
        state.outcome = outcome_from_json(outcome)
        state.last = last_from_json(last)
        return state

    # -- what each game supplies ------------------------------------------------------

    @abstractmethod
    def _generate(self, state: Any, seat: Seat) -> dict[str, Any]:
        """The moves of ``seat`` in ``state`` (no ``"pass"``), each with what ``_apply`` needs."""

    @abstractmethod
    def _apply(self, state: Any, seat: Seat, move: str, detail: Any) -> Any:
        """The state after a move known to be legal; ``detail`` is its entry in the move dict."""

    @abstractmethod
    def _why_illegal(self, state: Any, seat: Seat, move: Any) -> str:
        """Plain words saying why ``move`` is not among the legal moves."""


def pass_or(moves: dict[str, Any]) -> dict[str, Any]:
    """The moves as they are, or the single move ``"pass"`` when there is none."""
    return moves if moves else {PASS: PASS}
