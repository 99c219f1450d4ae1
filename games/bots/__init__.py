"""Bots: who plays a seat when no guest does.

    >>> from games import bots, engines
    >>> bot = bots.make("hard", engines.get("drumlin"), seed=3)   # doctest: +SKIP
    >>> move = bot.choose(view_of_seat_1, 1)                      # doctest: +SKIP

``make`` takes a bot kind ("random", "greedy", "mcts", or a kind a game defines for
itself in ``games/bots/<game>.py``, such as Drekki's "heuristic") or a level
("easy", "medium", "hard"). Levels map to a kind and its settings, per game where a
game needs it; ``level_spec`` tells which. Settings given to ``make`` override the
level's (tests use this to swap a time budget for an iteration budget).
"""

from __future__ import annotations

import importlib
from typing import Any

from games import engines
from games.engines.base import Rules

from .base import Bot
from .greedy import GreedyBot
from .mcts import MctsBot
from .random_bot import RandomBot

__all__ = [
    "LEVELS",
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

# A level is a bot kind and its settings. "hard" answers in about 1.2 s per move on
# the gîte's small server (the time budget), well under the 2 s the tables allow;
# the iteration cap stops it early on simple positions.
DEFAULT_LEVELS: dict[str, tuple[str, dict[str, Any]]] = {
    "easy": ("greedy", {"randomness": 0.3}),
    "medium": ("mcts", {"iterations": 300}),
    "hard": ("mcts", {"seconds": 1.2, "iterations": 20000}),
}

# Per-game changes to the default levels. A kind listed here that the game does
# not provide (its module is missing) falls back to the default level.
GAME_LEVELS: dict[str, dict[str, tuple[str, dict[str, Any]]]] = {
    "drekki": {"medium": ("heuristic", {}), "hard": ("ismcts", {"seconds": 1.0, "iterations": 200})},
}

# Per-game settings of a bot kind, used whenever that kind plays that game (at any
# level); settings given to ``make`` still win. Measured against the greedy bot
# (docs/performance.md): where ``evaluate`` is good and moves are many (Drumlin),
# scoring the tree's leaves with it beats noisy random playouts; the Karo games do
# best with a short playout first; Drekki keeps long playouts (its bids only pay
# off when the cards are revealed).
_KARO_MCTS = {"playout_depth": 4, "exploration": 0.3}
GAME_SETTINGS: dict[str, dict[str, dict[str, Any]]] = {
    # Drumlin also scores a node's moves with evaluate once the node has 10 visits
    # (the root at once) and mixes minimax backups of those values into UCT: with
    # ~100 answers per move, averages hide the one that refutes it (mcts.py).
    "drumlin": {
        "mcts": {"playout_depth": 0, "exploration": 0.12, "priors": 10, "minimax_weight": 0.5, "keep_states": True}
    },
    "eclaircissement": {"mcts": _KARO_MCTS},
    "quatre-en-ligne": {"mcts": _KARO_MCTS},
    "rampants-sauteurs": {"mcts": _KARO_MCTS},
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
    return kind, {**GAME_SETTINGS.get(rules.slug, {}).get(kind, {}), **params}


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
