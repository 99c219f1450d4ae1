"""The registry of game engines: ``get(slug)`` and ``all()``.

Every module or package directly under ``games/engines`` that defines ``RULES``
(one :class:`Rules` instance, or a tuple of them) is registered. Modules whose
name starts with an underscore, and ``base``, are helpers and are skipped.
"""

from __future__ import annotations

import importlib
import pkgutil

from .base import Countdown, IllegalMove, Option, OptionError, Outcome, PositionError, Rules

__all__ = [
    "Countdown",
    "IllegalMove",
    "Option",
    "OptionError",
    "Outcome",
    "PositionError",
    "Rules",
    "all",
    "get",
    "slugs",
]

_registry: dict[str, Rules] | None = None
_SKIP = {"base"}


def _load() -> dict[str, Rules]:
    global _registry
    if _registry is None:
        found: dict[str, Rules] = {}
        for info in pkgutil.iter_modules(__path__):
            if info.name.startswith("_") or info.name in _SKIP:
                continue
            module = importlib.import_module(f"{__name__}.{info.name}")
            rules = getattr(module, "RULES", None)
            if rules is None:
                continue
            for r in rules if isinstance(rules, tuple) else (rules,):
                if r.slug in found:
                    raise RuntimeError(f"two engines share the slug {r.slug!r}")
                found[r.slug] = r
        _registry = dict(sorted(found.items()))
    return _registry


def get(slug: str) -> Rules:
    """The rules object for ``slug``; KeyError naming the known slugs otherwise."""
    try:
        return _load()[slug]
    except KeyError:
        known = ", ".join(_load()) or "none"
        raise KeyError(f"no game engine {slug!r} (known: {known})") from None


def all() -> list[Rules]:  # noqa: A001 - the protocol's name
    """Every registered engine, sorted by slug."""
    return list(_load().values())


def slugs() -> list[str]:
    return list(_load())
