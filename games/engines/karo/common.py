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
from collections.abc import Callable, Hashable, Mapping
from functools import lru_cache
from typing import Any, ClassVar

from ..base import JSON, IllegalMove, Option, Outcome, PositionError, Rules, Seat, make_rng
from .geometry import Grid
from .record import EMPTY_SEEN, Seen, read_record

__all__ = ["EMPTY_SEEN", "Seen"]  # the record's names, used by the games' modules

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
    positions (``_read``, besides :meth:`format_position`) and the codes of its
    recorded positions (``_code``, ``_code_width``; see :mod:`.record`). The legal
    moves of the seat to act are computed once per state, as a dict from move
    text to what ``_apply`` needs.
    """

    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    options: ClassVar[tuple[Option, ...]] = (FIRST_PLAYER,)
    win_reason: ClassVar[str]
    # position text -> state, checked, with no history and no outcome
    _read: ClassVar[Callable[[str], Any]]
    # whether a seat reached its goal on a board
    _has_won: ClassVar[Callable[[str, Seat], bool]]
    # a position key (see position_key) -> its code in the stored record, and
    # how many characters every code has (see .record)
    _code: ClassVar[Callable[[str], str]]
    _code_width: ClassVar[int]

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

    @lru_cache(maxsize=1 << 14)  # noqa: B019 - the rules objects are singletons
    def _text_key(self, text: str) -> str:
        """The key of a position text that ends a turn; PositionError for a bad text or one that ends none."""
        state = self._read(text)
        if not self._between_turns(state):
            raise PositionError(f"{text!r} ends no turn (a setup, a chain of jumps): it cannot be recorded")
        return position_key(state.board, state.turn)

    def record_of(self, positions: Mapping[str, int]) -> str:
        """The stored record (see :mod:`.record`) of ``{position text: occurrences}``.

        For tests and for converting games stored before the record had codes
        (their ``"seen"``); PositionError for a text that is not a position ending
        a turn, or a count that is not 1 to 3.
        """
        if not isinstance(positions, Mapping):
            raise PositionError("the recorded positions must be a mapping of position text to count")
        codes = []
        for text, n in positions.items():
            if not isinstance(text, str) or isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 3:
                raise PositionError(f"bad recorded position {text!r}: {n!r} (a position text seen one to three times)")
            codes += [self._code(self._text_key(text))] * n
        return " ".join(codes)

    def _view_tail(self, state: Any, seat: Seat | None) -> dict[str, JSON]:
        """The entries that end every Karo view: who acts, the moves, the position, the outcome.

        Not the positions recorded for the repetition rule: a view stays the same
        size however long the game (the table's log holds the moves; a replay reads it).
        """
        return {
            "to_act": list(self.to_act(state)),
            "last_move": last_to_json(state.last),
            "legal_moves": [] if seat is None else self.legal_moves(state, seat),
            "position": self.format_position(state),
            "outcome": outcome_to_json(state.outcome),
        }

    def state_from_view(self, view: Mapping[str, JSON], seat: Seat | None, rng: random.Random) -> Any:
        # Nothing is hidden (Rampants et Sauteurs overrides this): the view rebuilds the
        # exact state, but for the record of earlier positions, which no view carries.
        state = self._read(str(view["position"]))
        return self._restore(state, None, view.get("last_move"), view.get("outcome"))

    def dump(self, state: Any) -> dict[str, JSON]:
        return {
            "position": self.format_position(state),
            "record": state.seen.text(self._code),
            "last": last_to_json(state.last),
            "outcome": outcome_to_json(state.outcome),
        }

    def load(self, data: Mapping[str, JSON]) -> Any:
        if not isinstance(data, Mapping) or not isinstance(data.get("position"), str):
            raise PositionError("a stored game needs its position text")
        if not isinstance(data.get("record"), str):
            raise PositionError("a stored game needs its recorded positions (\"record\", a text)")
        state = self._read(data["position"])
        return self._restore(state, data["record"], data.get("last"), data.get("outcome"))

    def _restore(self, state: Any, record: JSON, last: JSON, outcome: JSON) -> Any:
        """``state``, freshly read from its text, with the record, outcome and last move given.

        ``record`` None (a state rebuilt from a view): only the position itself is
        recorded, once, when it ends a turn.
        """
        if record is None:
            between = self._between_turns(state)
            state.seen = EMPTY_SEEN.add(position_key(state.board, state.turn))[0] if between else EMPTY_SEEN
        else:
            state.seen = read_record(record, self._code, self._code_width)
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
