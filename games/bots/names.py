"""What bots are called at a table: a small cast of names for each level.

Pure (no Django, no I/O). A bot added to a seat is called by its level's cast and
its seat, so two bots at one table never share a name, the name alone tells the
level (each level has its own cast), and the name stays the same from the first
frame to the replay. A seat handed to a bot (its player left) keeps the player's
name; pages add a "(robot)" mark to it.

The table page reads the same casts from static/js/table/bot-names.js, which
tests/games/test_bot_names.py keeps equal to this module.
"""

from __future__ import annotations

# Six names a level (a table has at most six seats): easy bots are fruit and
# sweets, medium ones animals of the Burgundy woods, hard ones mathematicians.
CASTS: dict[str, tuple[str, ...]] = {
    "easy": ("Pomme", "Praline", "Noisette", "Myrtille", "Clémentine", "Réglisse"),
    "medium": ("Renard", "Hibou", "Blaireau", "Loutre", "Héron", "Castor"),
    "hard": ("Hypatie", "Euclide", "Noether", "Turing", "Lovelace", "Gauss"),
}


def bot_name(level: str, seat: int) -> str:
    """The name of a bot of ``level`` on seat ``seat`` (0-based)."""
    cast = CASTS.get(level)
    if not cast:
        raise ValueError(f"no names for bot level {level!r}")
    if seat < 0:
        raise ValueError(f"no seat {seat}")
    return cast[seat % len(cast)]


def is_cast_name(name: str) -> bool:
    """Whether ``name`` is one of the bots' own names (not a person's kept after a handover)."""
    return any(name in cast for cast in CASTS.values())
