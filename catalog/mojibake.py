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
"""

from __future__ import annotations

import re
import unicodedata

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
