"""A host's written criteria for a picker's shortlist, kept apart from the picker's
code (its own word lists, its own idea of a family) so that the picker is not
judged by its own filters. Used by tests/catalog/test_pick_judge.py and by
bench/picker.py (100 varied requests on the house's 9,000 boxes).

A pick makes sense for a request (players, minutes, youngest, mood) when:

1. players: the game seats them. A maximum of 50 or more ("1-99") is a capacity only
   for a game the reviewed list (catalog/data/picker-boxes.csv) says scales; for
   any other it says nothing, and such a game fits only its minimum;
2. time: its longest playing time is known and within the minutes asked;
3. age: its minimum age is within the youngest player's; it must be known when the
   youngest is under 14;
4. mood: its weight is known and in the band ("light" under 2.5, "thinky" 2.5 to 4.5,
   "anything" any);
5. box: a game for one evening, not a legacy or campaign game, a miniatures
   wargame, a role-playing game, an accessory or rulebook, or an expansion;
6. confidence: at least 200 people rated it;
7. options: it has every trait asked for (co-operative, party, little to read), as
   the reviewed list (catalog/data/picker-traits.csv) says, or for co-operative, as
   the name of an escape-room series says;

and a shortlist makes sense when it holds at least 3 picks, each making sense,
no two of one family (one's main title, the part before any colon, folded, without
a trailing number or a leading "My First", starts the other's: "ICECOOL" and
"ICECOOL2", "Carcassonne" and "Carcassonne Junior", "7 Wonders" and "7 Wonders
Duel", "Pandemic" and "Pandemic: Iberia").
"""

from __future__ import annotations

import csv
import re
import unicodedata
from dataclasses import dataclass
from functools import cache
from pathlib import Path

REVIEWED = Path(__file__).resolve().parents[2] / "catalog" / "data" / "picker-boxes.csv"
TRAITS = REVIEWED.with_name("picker-traits.csv")
OPEN_FROM = 50
CHILD_BELOW = 14
KNOWN_FROM = 200
BANDS = {"light": (1.0, 2.5), "thinky": (2.5, 4.5)}
MIN_PICKS = 3

# What a host sees in a title. Written for the judge, not copied from the picker.
NOT_AN_EVENING = [
    ("legacy game", re.compile(r"\blegacy\b(?! of| edition)(?<!lost legacy)", re.I), re.compile(r"'s legacy|^legacy\b", re.I)),
    ("campaign game", re.compile(r"\bcampaign (game|system|book)\b", re.I), None),
    ("miniatures wargame", re.compile(
        r"miniature|warhammer|40,000|x-wing|attack wing|kill team|flames of war|wings of (glory|war)|heroclix|"
        r"age of sigmar|warmaster|dust tactics|skirmish|blood bowl(?!: team manager)|battletech(?! ccg)|necromunda|mordheim|"
        r"bolt action|frostgrave|malifaux|warmachine(?!: high command)|star wars: (legion|armada)", re.I),
        re.compile(r"card game|invasion|conquest|diskwars|munchkin", re.I)),
    ("role-playing game", re.compile(r"role[- ]?playing|\brpg\b|dungeons & dragons (starter set|basic game)|easy to master", re.I), None),
    ("accessory or rulebook", re.compile(r"rulebook|accessor|: codex$|sleeves|playmat|organi[sz]er|start player|tiebreaker", re.I), None),
    ("expansion", re.compile(r"\bexpansion\b|\berweiterung\b|promo pack", re.I),
     re.compile(r"\bwith\b|containing|including", re.I)),
]


# Escape-room series, every box of which is played together (written for the judge).
ESCAPE_SERIES = re.compile(r"^(exit: the game |unlock!: |deckscape: |escape room: the game|escape tales: |adventure games: )", re.I)


@dataclass
class Request:
    players: int
    minutes: int
    youngest: int
    mood: str
    like: frozenset[str] = frozenset()

    def __str__(self) -> str:
        return f"{self.players} players, {self.minutes} min, youngest {self.youngest}, {self.mood}" + "".join(
            f", {trait}" for trait in sorted(self.like))


@cache
def reviewed() -> dict[int, str]:
    with REVIEWED.open(encoding="utf-8", newline="") as f:
        return {int(r["bgg_id"]): r["kind"] for r in csv.DictReader(f)}


@cache
def traits() -> dict[int, frozenset[str]]:
    with TRAITS.open(encoding="utf-8", newline="") as f:
        return {int(r["bgg_id"]): frozenset(r["traits"].split()) for r in csv.DictReader(f)}


def main_title(title: str) -> list[str]:
    """The words of the main title: "ICECOOL2" -> ["icecool"], "My First Carcassonne" -> ["carcassonne"]."""
    text = unicodedata.normalize("NFKD", title.split(":")[0]).encode("ascii", "ignore").decode().lower()
    text = re.sub(r"^(my first|mon premier|ma premiere)\s+", "", re.sub(r"^(the|les?|la|l')\s+", "", text.strip()))
    words = re.findall(r"[a-z0-9]+", text)
    if words and len(words[-1]) > 1 and not words[-1].isdigit():
        words[-1] = words[-1].rstrip("0123456789")
    return words


def same_family(a: str, b: str) -> bool:
    """One's main title is the start of the other's, word for word."""
    x, y = main_title(a), main_title(b)
    shorter, longer = sorted((x, y), key=len)
    return bool(shorter) and longer[:len(shorter)] == shorter


def box_problem(game) -> str | None:
    listed = reviewed().get(game.bgg_id) if game.bgg_id else None
    if listed in ("campaign", "miniatures", "roleplaying", "accessory", "expansion"):
        return f"{listed} (reviewed list)"
    if listed == "plain":
        return None
    if getattr(game, "kind", "standalone") == "expansion":
        return "expansion"
    for name, pattern, unless in NOT_AN_EVENING:
        if pattern.search(game.title) and not (unless and unless.search(game.title)):
            return name
    return None


def problems(game, request: Request) -> list[str]:
    """Why the pick does not make sense for the request (empty: it does)."""
    found = []
    high = game.max_players or 0
    if high >= OPEN_FROM and reviewed().get(game.bgg_id) != "scales" and request.players != game.min_players:
        found.append(f"open maximum {high} is not a capacity")
    elif not (game.min_players or 0) <= request.players <= high:
        found.append(f"seats {game.min_players}-{game.max_players}, not {request.players}")
    longest = game.max_time or game.min_time
    if not longest:
        found.append("playing time unknown")
    elif longest > request.minutes:
        found.append(f"may last {longest} min, more than {request.minutes}")
    if game.min_age is None and request.youngest < CHILD_BELOW:
        found.append(f"age unknown for a child of {request.youngest}")
    elif game.min_age and game.min_age > request.youngest:
        found.append(f"from {game.min_age} years, the youngest is {request.youngest}")
    if request.mood in BANDS:
        low, high_w = BANDS[request.mood]
        if game.weight is None:
            found.append("weight unknown")
        elif not low <= float(game.weight) < high_w:
            found.append(f"weight {float(game.weight):g} outside the {request.mood} band")
    kind = box_problem(game)
    if kind:
        found.append(kind)
    if (game.rating_count or 0) < KNOWN_FROM:
        found.append(f"only {game.rating_count} ratings")
    has = set(traits().get(game.bgg_id, ())) | ({"coop"} if ESCAPE_SERIES.search(game.title) else set())
    found += [f"not {trait}" for trait in sorted(request.like - has)]
    return found


def judge(games: list, request: Request) -> dict[int, list[str]]:
    """Each pick's problems by its place in the shortlist, family repeats
    included; the shortlist's own problem (too short) under -1."""
    verdict = {i: problems(g, request) for i, g in enumerate(games)}
    for i, game in enumerate(games):
        for earlier in games[:i]:
            if same_family(game.title, earlier.title):
                verdict[i].append(f"same family as {earlier.title}")
                break
    if len(games) < MIN_PICKS:
        verdict[-1] = [f"only {len(games)} picks"]
    return verdict
