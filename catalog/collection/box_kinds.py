"""What a box is, as the picker needs to know it: a game for one evening, or a
campaign, a miniatures wargame, a role-playing game, an accessory or a rulebook,
an expansion that needs its base; and whether an open maximum of players ("1-99")
is a real capacity (party games and roll-and-writes that scale).

The data set has no categories or mechanics, so the kind is read from three
sources, the first that says something winning:

1. a host's tag on the game (a Term of kind "tag", slug ``box-<kind>``, added in
   the admin): the hosts' word is final, ``box-plain`` included ("a plain game,
   whatever its name says");
2. the reviewed list ``catalog/data/picker-boxes.csv`` (bgg_id, title, kind,
   source), for what a name does not tell ("Gloomhaven", "Bingo");
3. the name, by the patterns below ("Pandemic Legacy: Season 1", "Star Wars:
   X-Wing Miniatures Game", "Smash Up: That '70s Expansion").

No Django query here: the caller passes the game and its tag slugs.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache
from pathlib import Path

from catalog.collection import csv_rows

PLAIN = "plain"
CAMPAIGN = "campaign"
MINIATURES = "miniatures"
ROLEPLAYING = "roleplaying"
ACCESSORY = "accessory"
EXPANSION = "expansion"
SCALES = "scales"  # not a kind: its open maximum of players is real
KINDS = (CAMPAIGN, MINIATURES, ROLEPLAYING, ACCESSORY, EXPANSION)
# What a group may ask for; an accessory or an expansion is never a game on its own.
ASKABLE = (CAMPAIGN, MINIATURES, ROLEPLAYING)
TAG_PREFIX = "box-"
REVIEWED = Path(__file__).resolve().parent.parent / "data" / "picker-boxes.csv"


def _any(*patterns: str) -> re.Pattern:
    return re.compile("|".join(f"(?:{p})" for p in patterns), re.IGNORECASE)


# "Legacy" as a game's form, not as a word of its title ("Lost Legacy", "Legacy
# of Dragonholt", "Sherlock: Don's Legacy", "The Fantasy Trip: Legacy Edition").
_LEGACY = re.compile(r"\blegacy\b", re.IGNORECASE)
_NOT_LEGACY = _any(r"lost legacy", r"legacy of\b", r"legacy edition", r"'s legacy", r"^legacy\b")
_BY_NAME = [
    (ACCESSORY, _any(
        r"\brulebook\b", r"rules and accessories", r"\baccessor(y|ies)\b", r": codex$", r"\bcard sleeves\b",
        r"\bplaymat\b", r"\bgame mat\b", r"\borganizer\b", r"\bdice tower\b", r"\bpoker chips\b",
    )),
    (EXPANSION, _any(r"\bexpansion\b", r"\berweiterung\b", r"\bpromo pack\b")),
    (ROLEPLAYING, _any(r"\brole[- ]?playing\b", r"\brpg\b", r"\bjeu de r[oô]le\b")),
    (MINIATURES, _any(
        r"\bminiatures?\b", r"\bwarhammer\b", r"\b40,000\b", r"\bx-wing\b", r"\battack wing\b", r"\bkill team\b",
        r"\bflames of war\b", r"\bwings of (glory|war)\b", r"\bage of sigmar\b", r"\bstrategy battle game\b",
        r"\bwarmaster\b", r"\bdust tactics\b", r"\bheroclix\b", r"\bdreadball\b", r"\bguild ball\b",
        r"\bstarship battles\b",
    )),
]
# A card game of a role-playing or miniatures world is a card game ("Warhammer:
# Invasion", "Munchkin Warhammer 40,000", "Expedition: The Roleplaying Card Game").
_CARD_GAME = _any(r"\b(card|trading card|collectible card) game\b", r"\binvasion\b", r"\bconquest\b",
                  r"\bdiskwars\b", r"\bmunchkin\b")
# A box that holds its base game and the expansion: a game on its own.
_WITH_BASE = _any(r"\bwith\b.*\bexpansion", r"\bcontaining\b", r"\bincluding\b", r"\bplus\b.*\bexpansion")


@cache
def reviewed() -> dict[int, str]:
    """The reviewed list: bgg_id -> kind (or "plain", or "scales")."""
    return {bgg_id: (row.get("kind") or "").strip() for bgg_id, row in csv_rows.by_bgg_id(REVIEWED)}


@lru_cache(maxsize=65536)
def by_name(title: str) -> str:
    """The kind a title says, or PLAIN."""
    if _LEGACY.search(title) and not _NOT_LEGACY.search(title):
        return CAMPAIGN
    for kind, pattern in _BY_NAME:
        if not pattern.search(title):
            continue
        if kind == EXPANSION and _WITH_BASE.search(title):
            continue
        if kind in (ROLEPLAYING, MINIATURES) and _CARD_GAME.search(title):
            continue
        return kind
    return PLAIN


def kind_of(title: str, bgg_id: int | None, tags: frozenset[str] = frozenset()) -> str:
    """What the box is: one of KINDS, or PLAIN for a game for an evening."""
    for kind in (*KINDS, PLAIN):
        if TAG_PREFIX + kind in tags:
            return kind
    listed = reviewed().get(bgg_id) if bgg_id else None
    if listed in (*KINDS, PLAIN):
        return listed
    return by_name(title)


def scales(bgg_id: int | None, tags: frozenset[str] = frozenset()) -> bool:
    """Whether the game's open maximum of players ("1-99") is a real capacity."""
    return TAG_PREFIX + SCALES in tags or bool(bgg_id and reviewed().get(bgg_id) == SCALES)
