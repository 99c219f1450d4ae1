"""What a game is like, for the picker's options: co-operative (the players win or
lose together), a party game (talk and laughter for a group, taught in minutes),
little to read (pictures, numbers and symbols: a child who does not read yet, or a
table without a common language, can play once the rules are told).

The data set has no mechanics, so, as for the kinds of boxes
(catalog/collection/box_kinds.py), a trait comes from:

1. a host's tag on the game (a Term of kind "tag", added in the admin):
   ``trait-<trait>`` gives it, ``trait-not-<trait>`` takes it away, whatever
   the list or the name says: the hosts' word is final;
2. the reviewed list ``catalog/data/picker-traits.csv`` (bgg_id, title, traits,
   source), one line per game, its traits separated by spaces;
3. the name, for series whose every box is co-operative ("Exit: The Game ...",
   "Unlock!: ...", "Deckscape: ...", escape-room boxes, Kosmos' "Adventure Games").

No Django query here: the caller passes the game and its tag slugs.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from catalog.collection import csv_rows

COOP = "coop"
PARTY = "party"
LITTLE_READING = "little-reading"
TRAITS = (COOP, PARTY, LITTLE_READING)
TAG_PREFIX = "trait-"
NOT = "not-"
REVIEWED = Path(__file__).resolve().parent.parent / "data" / "picker-traits.csv"

# Series of boxes that are all played together against the box (checked in the
# series' own descriptions); "Deckscape Crew vs Crew" is two teams, not one.
_COOP_SERIES = re.compile(
    r"^(exit: the game\b|unlock!|deckscape:|escape room: the game\b|escape tales:|adventure games:)",
    re.IGNORECASE,
)


@cache
def reviewed() -> dict[int, frozenset[str]]:
    """The reviewed list: bgg_id -> its traits. A line that is not one (no id, an
    unknown trait) is skipped, never fatal: tests/catalog/test_picker_traits.py keeps
    the shipped file clean."""
    out: dict[int, frozenset[str]] = {}
    for bgg_id, row in csv_rows.by_bgg_id(REVIEWED):
        traits = frozenset((row.get("traits") or "").split()) & frozenset(TRAITS)
        if traits:
            out[bgg_id] = traits
    return out


def by_name(title: str) -> frozenset[str]:
    return frozenset({COOP}) if _COOP_SERIES.search(title or "") else frozenset()


def traits_of(title: str, bgg_id: int | None, tags: frozenset[str] = frozenset()) -> frozenset[str]:
    """The game's traits: the list's or the name's, then the hosts' tags on top."""
    found = set(reviewed().get(bgg_id, frozenset()) if bgg_id else ()) | by_name(title)
    for trait in TRAITS:
        if TAG_PREFIX + trait in tags:
            found.add(trait)
        if TAG_PREFIX + NOT + trait in tags:
            found.discard(trait)
    return frozenset(found)
