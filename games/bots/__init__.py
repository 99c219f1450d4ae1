"""Bots: who plays a seat when no guest does.

    >>> from games import bots, engines
    >>> bot = bots.make("hard", engines.get("drumlin"), seed=3)   # doctest: +SKIP
    >>> move = bot.choose(view_of_seat_1, 1)                      # doctest: +SKIP

``make`` takes a bot kind ("random", "greedy", "mcts", or a kind a game defines for
itself in ``games/bots/<game>.py``, such as Drekki's "heuristic") or a level
("easy", "medium", "hard"). Levels map to a kind and its settings, per game where a
game needs it; ``level_spec`` tells which. Settings given to ``make`` override the
level's (tests use this to swap a time budget for an iteration budget, or to
give a bot a clock of their own: ``clock=`` is accepted by every bot).
"""

from __future__ import annotations

import importlib
from typing import Any

from games import engines
from games.engines.base import Rules

from .base import APPLY_MARGIN, TABLE_SECONDS, Bot
from .greedy import GreedyBot
from .mcts import MctsBot
from .random_bot import RandomBot

__all__ = [
    "APPLY_MARGIN",
    "LEVELS",
    "TABLE_SECONDS",
    "Bot",
    "GreedyBot",
    "MctsBot",
    "RandomBot",
    "UnknownBot",
    "kinds",
    "game_bots",
    "level_spec",
    "make",
]

LEVELS = ("easy", "medium", "hard")

GENERIC: dict[str, type[Bot]] = {cls.kind: cls for cls in (RandomBot, GreedyBot, MctsBot)}

# A level is a bot kind and its settings. Every searching level has a cap on the
# wall clock (``seconds``, at most TABLE_SECONDS - APPLY_MARGIN: what the house
# allows a bot's move, less what applying and sending it takes) and a floor
# (``floor``: the nodes it always searches, however loaded the machine; on a
# machine so loaded that the floor takes longer than the cap, the move comes late
# rather than weaker). ``iterations`` is the most it searches. Each level's floor
# is at least the most the level below searches, so a level never searches less
# than the one below it, whatever the load (tests/games/test_bots.py checks both
# rules for every game). The floors are set so that even Quatre en ligne, the
# slowest to search, reaches them well within the cap on a machine where the bot
# gets a third of a core (docs/performance.md, "Bots on time, wave 3").
DEFAULT_LEVELS: dict[str, tuple[str, dict[str, Any]]] = {
    "easy": ("greedy", {"randomness": 0.3, "seconds": 0.5}),
    "medium": ("mcts", {"iterations": 150, "floor": 100, "seconds": 0.6}),
    "hard": ("mcts", {"iterations": 20000, "floor": 450, "seconds": 1.4}),
}

# Per-game changes to the default levels. A kind listed here that the game does
# not provide (its module is missing) falls back to the default level.
GAME_LEVELS: dict[str, dict[str, tuple[str, dict[str, Any]]]] = {
    "drekki": {
        "medium": ("heuristic", {}),
        "hard": ("ismcts", {"seconds": 1.2, "iterations": 300, "floor": 60}),
    },
}

# Per-game settings of a bot kind, used whenever that kind plays that game (at any
# level); settings given to ``make`` still win. Measured against the greedy bot
# and level against level (docs/performance.md): where ``evaluate`` is good
# (Drumlin, Éclaircissement, Quatre en ligne), scoring the tree's leaves with it
# beats noisy random playouts; Rampants et Sauteurs does best with a short
# playout first, at the hard level's budgets; Drekki keeps long playouts (its
# bids only pay off when the cards are revealed). ``constant_sum``: the
# two-player games whose evaluation of one seat is 1 minus the other's (a test
# checks it), which halves the evaluations.
_KARO_MCTS = {"playout_depth": 0, "exploration": 0.3, "constant_sum": True}
GAME_SETTINGS: dict[str, dict[str, dict[str, Any]]] = {
    # Drumlin also scores a node's moves with evaluate once the node has 10 visits
    # (the root at once) and mixes minimax backups of those values into UCT: with
    # ~100 answers per move, averages hide the one that refutes it (mcts.py).
    "drumlin": {
        "mcts": {
            "playout_depth": 0, "exploration": 0.12, "priors": 10, "minimax_weight": 0.5, "keep_states": True,
            "constant_sum": True,
        }
    },
    "eclaircissement": {"mcts": _KARO_MCTS},
    # Quatre en ligne: with exploration 0.3 and plain averages, three times the
    # nodes did not beat the medium level (2 wins of 7) and the medium level
    # hardly beat the easy one (4 of 8); searching narrower with Drumlin's
    # minimax backups, the hard level won 4 of 5 against it.
    "quatre-en-ligne": {"mcts": {**_KARO_MCTS, "exploration": 0.12, "minimax_weight": 0.5}},
    "rampants-sauteurs": {"mcts": {**_KARO_MCTS, "playout_depth": 4}},
}

# Per-game settings of one level, over the game's settings of the level's kind
# (docs/performance.md, "Bots on time, wave 3"). Rampants et Sauteurs: the
# medium level's few nodes do better scoring the tree's leaves at once, the hard
# level's many after a playout of 4 plies.
LEVEL_SETTINGS: dict[str, dict[str, dict[str, Any]]] = {
    "rampants-sauteurs": {"medium": {"playout_depth": 0}},
}

# Modules in this package that are not a game's own bots.
_NOT_GAMES = {"base", "greedy", "mcts", "random_bot"}


class UnknownBot(ValueError):
    """A bot kind or level that does not exist (for this game)."""


def _rules(rules: Rules | str) -> Rules:
    return engines.get(rules) if isinstance(rules, str) else rules


def game_bots(rules: Rules | str) -> dict[str, type[Bot]]:
    """The bots a game defines for itself in ``games/bots/<slug>.py``, by kind.

    The module is imported on first use only, so a game's bots cost nothing to
    the others, and a game without such a module simply has none.
    """
    module_name = _rules(rules).slug.replace("-", "_")
    if module_name in _NOT_GAMES:
        return {}
    full_name = f"{__name__}.{module_name}"
    try:
        module = importlib.import_module(full_name)
    except ModuleNotFoundError as exc:
        if exc.name == full_name:
            return {}
        raise
    found = {}
    for value in vars(module).values():
        if (
            isinstance(value, type)
            and issubclass(value, Bot)
            and value.__module__ == module.__name__
            and isinstance(getattr(value, "kind", None), str)
            and not getattr(value, "__abstractmethods__", None)
        ):
            found[value.kind] = value
    return found


def kinds(rules: Rules | str | None = None) -> tuple[str, ...]:
    """The bot kinds available for a game (or for every game when ``rules`` is None)."""
    names = set(GENERIC)
    if rules is not None:
        names |= set(game_bots(rules))
    return tuple(sorted(names))


def level_spec(level: str, rules: Rules | str) -> tuple[str, dict[str, Any]]:
    """The bot kind and settings ``level`` means for this game."""
    if level not in DEFAULT_LEVELS:
        raise UnknownBot(f"unknown bot level {level!r} (levels: {', '.join(LEVELS)})")
    rules = _rules(rules)
    kind, params = GAME_LEVELS.get(rules.slug, {}).get(level, DEFAULT_LEVELS[level])
    if kind not in kinds(rules):
        kind, params = DEFAULT_LEVELS[level]
    return kind, {
        **GAME_SETTINGS.get(rules.slug, {}).get(kind, {}),
        **params,
        **LEVEL_SETTINGS.get(rules.slug, {}).get(level, {}),
    }


def make(kind_or_level: str, rules: Rules | str, seed: Any = 0, **params: Any) -> Bot:
    """A bot of that kind or level for one seat of this game, seeded."""
    rules = _rules(rules)
    if kind_or_level in LEVELS:
        kind, settings = level_spec(kind_or_level, rules)
    else:
        kind = kind_or_level
        settings = dict(GAME_SETTINGS.get(rules.slug, {}).get(kind, {})) if isinstance(kind, str) else {}
    available = {**GENERIC, **game_bots(rules)}
    if kind not in available:
        raise UnknownBot(
            f"unknown bot kind or level {kind_or_level!r} for {rules.slug} "
            f"(levels: {', '.join(LEVELS)}; kinds: {', '.join(sorted(available))})"
        )
    return available[kind](rules, seed, **{**settings, **params})
