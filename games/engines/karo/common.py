"""What the three Karo games share: the starting player, passing, being stuck, repetition.

RULES.md fixes these for the whole box: no passing while a legal move exists,
a player with no legal move passes (``"pass"`` is then their only move), both
players stuck is a draw at once, and the third occurrence of a position recorded
at the end of a turn is a draw. After every turn the checks run in the order
win, repetition, both stuck (:func:`close_turn`).
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable, Hashable, Iterable, Mapping
from typing import Any, ClassVar

from ..base import JSON, IllegalMove, Option, Outcome, PositionError, Rules, Seat, make_rng

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


def starting_seat(slug: str, seed: JSON, choice: JSON) -> Seat:
    """The seat that moves first, drawn from the seed unless the table fixed it."""
    if choice == "random":
        return make_rng(seed, slug, "first-player").randrange(2)
    return int(choice)


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
        new_branch = branch[:j] + (leaf,) + branch[j + 1 :]
        new_root = root[:i] + (new_branch,) + root[i + 1 :]
        return Seen(new_root, self.size + 1), count

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


class KaroRules(Rules):
    """The parts of the protocol the three Karo games answer the same way.

    Subclasses keep, on every state, ``outcome``, ``last`` (the last ``(seat,
    move)``) and a private memo ``_moves``: the legal moves of the seat to act,
    computed once per state as a dict from move text to what ``play`` needs.
    """

    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    options: ClassVar[tuple[Option, ...]] = (FIRST_PLAYER,)

    def num_players(self, state: Any) -> int:
        return 2

    def outcome(self, state: Any) -> Outcome | None:
        return state.outcome

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

    # -- what each game supplies ------------------------------------------------------

    @abstractmethod
    def _moves_for(self, state: Any, seat: Seat) -> dict[str, Any]:
        """The legal moves of ``seat`` (which is to act), cached on the state."""

    @abstractmethod
    def _apply(self, state: Any, seat: Seat, move: str, detail: Any) -> Any:
        """The state after a move known to be legal; ``detail`` is its entry in the move dict."""

    @abstractmethod
    def _why_illegal(self, state: Any, seat: Seat, move: Any) -> str:
        """Plain words saying why ``move`` is not among the legal moves."""


def pass_or(moves: dict[str, Any]) -> dict[str, Any]:
    """The moves as they are, or the single move ``"pass"`` when there is none."""
    return moves if moves else {PASS: PASS}
