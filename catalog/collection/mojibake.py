"""Repairing titles garbled by a past encoding error, only where the repair is certain.

The data set's titles went through UTF-8 read as Windows-1252 ("Ã©" for "é"),
and for most of them the "Ã" was then flattened to a plain "A": "Die
SeidenstraAŸe" for "Die Seidenstraße". ftfy (a well-kept library for exactly
this) undoes the first kind; the second is undone here by putting the "Ã" back
where an "A" is followed by a character that can only be the second byte of a
two-byte UTF-8 letter, then asking ftfy again.

A repair is kept only when it is certain: the whole title comes out clean
(ftfy finds nothing left that looks garbled), every restored character is a
letter, and nothing of the pattern is left. Anything else is left as it is and
reported as "looks garbled" (e.g. "NapolAon", where the byte after the "A" was
lost and the letter cannot be known).

What no rule can repair is repaired by a reviewed mapping kept as data,
``catalog/data/title-repairs.csv`` (``bgg_id, garbled, repaired, status``), one line
per title of the data set that :func:`looks_garbled` still flags after the repair
above (:func:`scan` finds them). ``status`` is ``repaired`` (the real title, certain:
a well-known game, or every lost letter restored without doubt: "PokAmon" is
"Pokémon", "WArfel" is "Würfel"), ``genuine`` (the title is right as it is:
"TransAmerica", "MacArthur") or ``pending`` (no certain repair: the title is shown
as it is, marked "correction pending", and never offered as "did you mean"). A
line applies only to its game and only while the title is still exactly the
garbled one it was reviewed for (:func:`reviewed`).
"""

from __future__ import annotations

import csv
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import ftfy
from ftfy.badness import is_bad

# Windows-1252 characters for the bytes 0x80-0xBF (continuation bytes of UTF-8);
# the five bytes Windows-1252 leaves undefined come through as C1 controls.
_CONTINUATION = {bytes([b]).decode("cp1252", errors="ignore") or chr(b): b for b in range(0x80, 0xC0)}
_SECOND = "[" + re.escape("".join(_CONTINUATION)) + "]"
# "A" and one continuation byte, not followed by another: "AƒA‚¹" is the start of
# a three-byte character (Japanese) whose lead byte was flattened too, not "Ã" + one.
_FLATTENED = re.compile(f"A({_SECOND})(?!{_SECOND})")
_LEFT_OVER = re.compile(f"A{_SECOND}")
# An upper-case A inside a lower-case word ("EstratAgico"): a lost letter, most likely.
_LOST = re.compile(r"(?<=[a-z])A(?=[a-z])")


def _restored(match: re.Match) -> str:
    return bytes([0xC3, _CONTINUATION[match.group(1)]]).decode("utf-8")


def _looks_garbled(text: str) -> bool:
    return bool(is_bad(text) or _LEFT_OVER.search(text) or any(unicodedata.category(c) == "Cc" for c in text))


def repair(title: str) -> tuple[str, bool]:
    """``(title, garbled)``: the repaired title (or the same one), and whether it
    still looks garbled (left as is because no repair is certain)."""
    if title.isascii() and not _LOST.search(title):
        return title, False
    fixed = ftfy.fix_encoding(title)
    pairs = list(_FLATTENED.finditer(fixed))
    if pairs and all(unicodedata.category(_restored(m)).startswith("L") for m in pairs):
        fixed = ftfy.fix_encoding(_FLATTENED.sub(_restored, fixed))
    fixed = unicodedata.normalize("NFC", fixed)
    if fixed != title and not _looks_garbled(fixed):
        return fixed, bool(_LOST.search(fixed))
    return title, _looks_garbled(title) or bool(_LOST.search(title))


# -- what still looks garbled, and the reviewed mapping --------------------------------

REVIEWED = Path(__file__).resolve().parents[1] / "data" / "title-repairs.csv"  # catalog/data/
STATUSES = ("repaired", "genuine", "pending")
_WORD = re.compile(r"[^\W\d_]+")


def _suspect_words(text: str) -> list[str]:
    """Words with an upper-case "A" after their first letter that are not all
    capitals: where a flattened "Ã" + lost byte left an "A" ("BArenpark",
    "PokAmon", "MArklin"); also a few real titles written so ("MacArthur")."""
    return [w for w in _WORD.findall(text) if "A" in w[1:] and not w.isupper()]


def looks_garbled(text: str, genuine: Iterable[str] = ()) -> bool:
    """Whether ``text`` holds one of the known garbled patterns: what ftfy finds
    bad, an "A" followed by a continuation byte, a control character, or a word
    with an "A" inside it (``genuine``: such words known to be right)."""
    known = set(genuine)
    return _looks_garbled(text) or any(w not in known for w in _suspect_words(text))


def scan(titles: Iterable[tuple[int, str]]) -> list[tuple[int, str]]:
    """The ``(key, title)`` pairs whose title looks garbled, in the order given."""
    return [(key, title) for key, title in titles if looks_garbled(title)]


@dataclass(frozen=True)
class Review:
    bgg_id: int
    garbled: str
    repaired: str
    status: str


class ReviewFileError(ValueError):
    pass


def read_reviews(path: Path = REVIEWED) -> dict[int, Review]:
    """The reviewed mapping, by BoardGameGeek id. A line that cannot be used (bad id,
    unknown status, a repair that still looks garbled, a "repaired" line with no
    repair, an id twice) is an error naming the line: the file is data a person
    edits, and a half-read mapping would repair some titles silently and not others."""
    reviews: dict[int, Review] = {}
    with path.open(encoding="utf-8", newline="") as handle:
        reader = csv.reader(handle)
        if next(reader, None) != ["bgg_id", "garbled", "repaired", "status"]:
            raise ReviewFileError(f"{path.name}: the header must be bgg_id,garbled,repaired,status")
        for number, row in enumerate(reader, start=2):
            if len(row) != 4 or not row[0].isdigit() or row[3] not in STATUSES or not row[1]:
                raise ReviewFileError(
                    f"{path.name} line {number}: expected an id, a garbled title, a repair "
                    f"and one of {STATUSES}"
                )
            bgg_id, garbled, repaired, status = int(row[0]), row[1], row[2], row[3]
            if status == "repaired" and (not repaired or repaired == garbled or looks_garbled(repaired)):
                raise ReviewFileError(
                    f"{path.name} line {number}: a repair must be given, differ and look clean"
                )
            if status == "genuine" and repaired != garbled:
                raise ReviewFileError(f"{path.name} line {number}: a genuine title is repaired as itself")
            if status == "pending" and repaired:
                raise ReviewFileError(f"{path.name} line {number}: a pending title has no repair yet")
            if bgg_id in reviews:
                raise ReviewFileError(f"{path.name} line {number}: id {bgg_id} is already on another line")
            reviews[bgg_id] = Review(bgg_id, garbled, repaired, status)
    return reviews


@cache
def shipped_reviews() -> dict[int, Review]:
    return read_reviews(REVIEWED)


def reviewed(bgg_id: int | None, title: str, reviews: dict[int, Review] | None = None) -> tuple[str, bool]:
    """``(title, pending)`` for a game's title after the automatic repair: the
    reviewed repair when the mapping has one for this very game and this very
    garbled title; ``pending`` when its review says no repair is certain, or when
    the title looks garbled and nobody has reviewed it."""
    review = (shipped_reviews() if reviews is None else reviews).get(bgg_id) if bgg_id else None
    if review is not None and review.garbled == title:
        if review.status == "repaired":
            return review.repaired, False
        return title, review.status == "pending"
    return title, looks_garbled(title)
