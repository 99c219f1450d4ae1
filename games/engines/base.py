"""The engine protocol every game implements.

An engine is a pure library: no Django, no I/O, no clock, no global random.
The server, the bots, the benchmarks and outside tools only ever talk to a game
through the methods of :class:`Rules` below.

    >>> from games import engines
    >>> rules = engines.get("drumlin")                      # doctest: +SKIP
    >>> state = rules.new_game(2, seed=7)                   # doctest: +SKIP
    >>> seat = rules.to_act(state)[0]                       # doctest: +SKIP
    >>> state = rules.play(state, seat, rules.legal_moves(state, seat)[0])  # doctest: +SKIP

States are engine-specific values that callers treat as opaque. ``play`` never
changes the state it is given; it returns a new one. ``dump``/``load`` give an
exact JSON round trip, which is what the server stores.

Moves are strings in the game's text notation (see docs/notation.md): what
``legal_moves`` returns is exactly what ``play`` accepts.
"""

from __future__ import annotations

import hashlib
import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

Seat = int
JSON = Any  # a value made of dict / list / str / int / float / bool / None


class IllegalMove(ValueError):
    """A move that the rules refuse; the message says why in plain words."""


class OptionError(ValueError):
    """A table option that is unknown or has a bad value."""


class PositionError(ValueError):
    """A position or state text / dump that cannot be read."""


@dataclass(frozen=True)
class Outcome:
    """How a game ended.

    ``winners`` lists the winning seats: one seat for a plain win, several for a
    shared win, none for a draw. ``scores`` holds one number per seat as the game
    counts them (1 / 0.5 / 0 for two-player games; burns minus tears in Drekki,
    where lower is better). ``reason`` is a short machine code such as
    ``"base-line"``, ``"no-elephant"``, ``"repetition"``, ``"stalemate"``,
    ``"score"``; interfaces translate it.
    """

    winners: tuple[Seat, ...]
    scores: tuple[float, ...]
    reason: str

    @property
    def is_draw(self) -> bool:
        return not self.winners

    def to_dict(self) -> dict[str, JSON]:
        return {"winners": list(self.winners), "scores": list(self.scores), "reason": self.reason}

    @classmethod
    def from_dict(cls, data: Mapping[str, JSON]) -> Outcome:
        return cls(tuple(data["winners"]), tuple(data["scores"]), str(data["reason"]))

    @classmethod
    def win(cls, winner: Seat, num_players: int, reason: str) -> Outcome:
        scores = tuple(1.0 if s == winner else 0.0 for s in range(num_players))
        return cls((winner,), scores, reason)

    @classmethod
    def draw(cls, num_players: int, reason: str) -> Outcome:
        return cls((), tuple(0.5 for _ in range(num_players)), reason)


@dataclass(frozen=True)
class Option:
    """A table option a game declares (a variant, a starting player, a timer).

    ``kind`` is ``"bool"``, ``"int"`` or ``"choice"``. ``label`` and ``help`` are
    English; the site translates them. ``choices`` lists the allowed values of a
    ``"choice"`` option; ``minimum``/``maximum`` bound an ``"int"`` option.
    """

    name: str
    kind: str
    default: JSON
    label: str
    help: str = ""
    choices: tuple[JSON, ...] = ()
    minimum: int | None = None
    maximum: int | None = None

    def validate(self, value: JSON) -> JSON:
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise OptionError(f"option {self.name!r} must be true or false, not {value!r}")
            return value
        if self.kind == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                raise OptionError(f"option {self.name!r} must be a whole number, not {value!r}")
            if self.minimum is not None and value < self.minimum:
                raise OptionError(f"option {self.name!r} must be at least {self.minimum}, not {value}")
            if self.maximum is not None and value > self.maximum:
                raise OptionError(f"option {self.name!r} must be at most {self.maximum}, not {value}")
            return value
        if self.kind == "choice":
            if value not in self.choices:
                allowed = ", ".join(repr(c) for c in self.choices)
                raise OptionError(f"option {self.name!r} must be one of {allowed}, not {value!r}")
            return value
        raise OptionError(f"option {self.name!r} has an unknown kind {self.kind!r}")

    def to_dict(self) -> dict[str, JSON]:
        return {
            "name": self.name,
            "kind": self.kind,
            "default": self.default,
            "label": self.label,
            "help": self.help,
            "choices": list(self.choices),
            "minimum": self.minimum,
            "maximum": self.maximum,
        }


@dataclass(frozen=True)
class Countdown:
    """A clock the rules themselves need (Drekki's live auction).

    When ``seconds`` pass with the table still at the same version, the server
    plays ``move`` for ``seat``. Any new action restarts or removes it: the
    server asks again after every action.
    """

    seat: Seat
    move: str
    seconds: float


def make_rng(seed: JSON, *salt: JSON) -> random.Random:
    """A private random generator derived from a table seed and a salt.

    Engines never use the global ``random`` module; every draw comes from a
    generator built here, so that a game replays exactly from its seed and moves.
    """
    text = repr((seed,) + tuple(salt)).encode()
    return random.Random(int.from_bytes(hashlib.sha256(text).digest()[:8], "big"))


class Rules(ABC):
    """The rules of one game. One instance per game, kept in the registry.

    Subclasses set the class attributes and implement the abstract methods.
    Seats are numbered from 0.
    """

    slug: ClassVar[str]
    title: ClassVar[str]  # English display name; the catalog holds the translations
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options: ClassVar[tuple[Option, ...]] = ()

    # -- options -----------------------------------------------------------------

    def validate_options(self, options: Mapping[str, JSON] | None = None) -> dict[str, JSON]:
        """Fill defaults and check every value; unknown names are refused."""
        given = dict(options or {})
        known = {o.name: o for o in self.options}
        unknown = sorted(set(given) - set(known))
        if unknown:
            raise OptionError(f"unknown option(s) for {self.slug}: {', '.join(unknown)}")
        return {name: opt.validate(given.get(name, opt.default)) for name, opt in known.items()}

    def check_players(self, num_players: int) -> None:
        if isinstance(num_players, bool) or not isinstance(num_players, int):
            raise OptionError(f"the number of players must be a whole number, not {num_players!r}")
        if not self.min_players <= num_players <= self.max_players:
            raise OptionError(
                f"{self.title} is played by {self.min_players} to {self.max_players} players, "
                f"not {num_players}"
            )

    # -- the protocol --------------------------------------------------------------

    @abstractmethod
    def new_game(self, num_players: int, seed: JSON = 0, options: Mapping[str, JSON] | None = None) -> Any:
        """A fresh game. Must call ``check_players`` and ``validate_options``."""

    @abstractmethod
    def num_players(self, state: Any) -> int:
        """How many seats the game in ``state`` has."""

    @abstractmethod
    def to_act(self, state: Any) -> tuple[Seat, ...]:
        """Seats expected to act now: one, several (simultaneous), none when over."""

    @abstractmethod
    def legal_moves(self, state: Any, seat: Seat) -> list[str]:
        """Every move ``seat`` may play now, in notation; [] if it is not to act."""

    @abstractmethod
    def play(self, state: Any, seat: Seat, move: str) -> Any:
        """The state after ``seat`` plays ``move``. Raises IllegalMove with a reason."""

    @abstractmethod
    def view(self, state: Any, seat: Seat | None) -> dict[str, JSON]:
        """JSON-ready dict of what ``seat`` (None: a spectator) may see, nothing more."""

    @abstractmethod
    def outcome(self, state: Any) -> Outcome | None:
        """None while the game goes on."""

    @abstractmethod
    def dump(self, state: Any) -> dict[str, JSON]:
        """Exact JSON form of the whole state (secrets included: server only)."""

    @abstractmethod
    def load(self, data: Mapping[str, JSON]) -> Any:
        """Inverse of ``dump``; raises PositionError on bad data."""

    @abstractmethod
    def parse_position(self, text: str) -> Any:
        """A state from the text notation; raises PositionError on bad text."""

    @abstractmethod
    def format_position(self, state: Any) -> str:
        """The text notation of ``state``; ``format_position(parse_position(t)) == t``."""

    @abstractmethod
    def state_from_view(self, view: Mapping[str, JSON], seat: Seat | None, rng: random.Random) -> Any:
        """A full state consistent with what ``seat`` saw in ``view``.

        For a game of perfect information this rebuilds the exact state. Where
        information is hidden, the hidden parts are sampled with ``rng``,
        consistently with everything the seat has seen (a determinisation, for
        bots). Bots only ever see views; this is how they get a state to search.
        For every seat: ``view(state_from_view(view(s, seat), seat, rng), seat)
        == view(s, seat)``, and the legal moves of ``seat`` are the same.
        """

    # -- optional hooks with sensible defaults ------------------------------------------

    def is_over(self, state: Any) -> bool:
        return self.outcome(state) is not None

    def evaluate(self, state: Any, seat: Seat) -> float | None:
        """Heuristic value of ``state`` for ``seat`` in [0, 1] (0.5 = even), or None.

        Used by the greedy bot and to cut MCTS playouts short.
        """
        return None

    def utility(self, outcome: Outcome, seat: Seat) -> float:
        """What a finished game is worth to ``seat``, in [0, 1], for bots."""
        if outcome.is_draw:
            return 0.5
        if seat in outcome.winners:
            return 1.0 / len(outcome.winners)
        return 0.0

    def timeout_move(self, state: Any, seat: Seat) -> str | None:
        """The move played for ``seat`` when its turn timer runs out.

        None (the default) means running out of time loses the game.
        """
        return None

    def countdown(self, state: Any) -> Countdown | None:
        """A clock the rules need right now, if any (see :class:`Countdown`)."""
        return None

    def describe(self) -> dict[str, JSON]:
        return {
            "slug": self.slug,
            "title": self.title,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "options": [o.to_dict() for o in self.options],
        }


def play_sequence(rules: Rules, state: Any, moves: Sequence[tuple[Seat, str]]) -> Any:
    """Play ``(seat, move)`` pairs in order; a helper for tests and replays."""
    for seat, move in moves:
        state = rules.play(state, seat, move)
    return state
