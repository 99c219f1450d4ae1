"""Glossaries: each playable game's own terms in French, German and English, and the
usual headings of a rulebook.

A game's glossary is shown on its rules page and lets the rules search cross
languages: a query word that is a term of some glossary (compared by stem in the
term's language) also looks for the same term in the other languages. The usual
headings help align a translation with its original section by section.

The terms are facts read in the rulebooks (the French translations and the German
originals of the games played here); several spellings of one language are
separated by "|", the first one is shown.
"""

from __future__ import annotations

from dataclasses import dataclass
from difflib import SequenceMatcher
from functools import lru_cache

from catalog import text as textlib

LANGS = ("fr", "de", "en")


@dataclass(frozen=True)
class Entry:
    fr: tuple[str, ...]
    de: tuple[str, ...]
    en: tuple[str, ...]

    def terms(self, language: str) -> tuple[str, ...]:
        return getattr(self, language)

    def shown(self, language: str) -> str:
        return self.terms(language)[0]


def _entries(rows: list[tuple[str, str, str]]) -> tuple[Entry, ...]:
    return tuple(Entry(*(tuple(t.strip() for t in cell.split("|")) for cell in row)) for row in rows)


# Keyed by the game's engine (the playable games).
GAMES: dict[str, tuple[Entry, ...]] = {
    "drumlin": _entries([
        ("éléphant", "Elefant|Stein A", "elephant"),
        ("dragon", "Drache|Stein B", "dragon"),
        ("œuf de dragon|œuf", "Drachenei|Ei|Kombination AD", "dragon egg|egg"),
        ("Drumlin", "Drumlin|Stein D", "Drumlin"),
        ("case", "Feld", "square"),
        ("ligne de base", "Grundlinie", "base line"),
        ("première ligne", "erste Reihe", "first row"),
        ("tablier|plateau", "Spielfeld", "board"),
        ("pièce", "Spielstein|Stein", "piece"),
        ("valeur", "Wert", "value"),
        ("majorité", "Mehrheit", "majority"),
        ("départ forcé", "erzwungener Drumlinzug", "forced departure"),
        ("départ libre", "freier Drumlinzug", "free departure"),
        ("échange", "Platzwechsel", "exchange"),
    ]),
    "drekki": _entries([
        ("enchère", "Gebot", "bid|auction"),
        ("dragon", "Drache", "dragon"),
        ("mage", "Magier", "mage"),
        ("larme", "Träne", "tear"),
        ("brûlure", "Verbrennung", "burn"),
        ("tuile", "Plättchen", "tile"),
        ("carte", "Karte", "card"),
        ("incantation", "Zauberspruch", "incantation|spell"),
        ("manche", "Runde", "round"),
    ]),
    "rampants-sauteurs": _entries([
        ("rampant", "Schleicher", "crawler"),
        ("sauteur", "Hüpfer", "jumper"),
        ("plaquette", "Plättchen", "tile"),
        ("pion", "Spielstein", "piece"),
        ("saut", "Sprung", "jump"),
    ]),
    "eclaircissement": _entries([
        ("plaquette", "Plättchen", "tile"),
        ("pion", "Spielstein", "piece"),
        ("cercle", "Kreis", "circle"),
    ]),
    "quatre-en-ligne": _entries([
        ("plaquette", "Plättchen", "tile"),
        ("pion", "Spielstein", "piece"),
        ("cercle", "Kreis", "circle"),
        ("ligne", "Reihe", "row|line"),
    ]),
}

# The usual sections of a rulebook, for aligning a translation with its original.
HEADINGS: tuple[Entry, ...] = _entries([
    ("contenu|matériel|matériel de jeu", "Spielmaterial|Inhalt", "components|contents"),
    ("mise en place|préparation|installation", "Anfangsstellung|Spielaufbau|Vorbereitung", "setup|set up|preparation"),
    ("but du jeu|objectif", "Spielziel|Ziel des Spiels|Ziel", "goal|object of the game|aim"),
    ("le jeu|déroulement|déroulement de la partie|tour de jeu", "Ablauf|Spielablauf|Spielverlauf", "play|how to play|game play"),
    ("fin de la partie|fin du jeu", "Spielende|Ende des Spiels", "end of the game|game end"),
    ("variante", "Variante", "variant"),
    ("exemple|exemples", "Beispiel|Beispiele", "example|examples"),
    ("commentaire|remarque", "Kommentar|Anmerkung", "comment|note"),
])


def for_game(engine_slug: str) -> tuple[Entry, ...]:
    return GAMES.get(engine_slug or "", ())


def _key(term: str, language: str) -> tuple[str, ...]:
    """A term as the stems of its words in its language (what a query is compared with)."""
    return tuple(textlib.stem(w, language) for w in textlib.words(term))


@lru_cache(maxsize=1)
def _index() -> dict[tuple[str, ...], list[tuple[str, Entry]]]:
    """Each term's stems -> the (language, entry) pairs it belongs to, every game's."""
    index: dict[tuple[str, ...], list[tuple[str, Entry]]] = {}
    for entries in GAMES.values():
        for entry in entries:
            for language in LANGS:
                for term in entry.terms(language):
                    index.setdefault(_key(term, language), []).append((language, entry))
    return index


def translations(words: list[str]) -> dict[str, set[str]]:
    """The terms of other languages that ``words`` (a word or a phrase, as typed) stand
    for in any game's glossary: {language: {term, ...}}. Empty when they are no term."""
    found: dict[str, set[str]] = {}
    index = _index()
    for language in LANGS:
        key = tuple(textlib.stem(w, language) for w in words)
        for _, entry in index.get(key, []):
            for other in LANGS:
                found.setdefault(other, set()).update(entry.terms(other))
    return found


def heading_concepts(heading: str, language: str) -> set[int]:
    """Which usual headings (by their position in HEADINGS) a section heading names:
    the heading holds one of their terms, compared by stems, tolerant of one OCR slip
    per long word (Anfanqstellung)."""
    stems = [textlib.stem(w, language) for w in textlib.words(heading)]
    found = set()
    for number, entry in enumerate(HEADINGS):
        for term in entry.terms(language):
            key = _key(term, language)
            if _holds(stems, key):
                found.add(number)
    return found


def _close(a: str, b: str) -> bool:
    """The same word, or a long one read with a slip or two (OCR)."""
    if a == b:
        return True
    if min(len(a), len(b)) < 7:
        return False
    return SequenceMatcher(None, a, b).ratio() >= 0.85


def _holds(stems: list[str], key: tuple[str, ...]) -> bool:
    n = len(key)
    return any(all(_close(stems[i + j], key[j]) for j in range(n)) for i in range(len(stems) - n + 1))
