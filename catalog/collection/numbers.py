"""Numbers spelt out in several words, read as digits: "quarante quatre" is 44,
"vingt et un" 21, "quatre vingt dix" 90, "deux mille" 2000, "forty four" 44,
"vierundvierzig" 44 (German writes its numbers as one word).

A guest types "memoire quarante quatre" for "Mémoire 44", or "sept wonders" for
"7 Wonders"; one number word is already taken care of (catalog.collection.query's
NUMBER_WORDS, where each word stands for its digits). This module reads the runs of
several words that make one number by the rules of French or English numerals, and
only those: "deux trois" or "un deux trois soleil" are not numbers and stay words.
Words are folded first (lower case, no accents, hyphens as spaces). No Django.
"""

from __future__ import annotations

import re

# Per language: the words of 1-9, of 10-19, of the tens 20-90; a hundred and a
# thousand; the joining word ("vingt et un", "one hundred and one").
UNITS = {
    "un": 1, "une": 1, "deux": 2, "trois": 3, "quatre": 4, "cinq": 5, "six": 6, "sept": 7, "huit": 8, "neuf": 9,
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "seven": 7, "eight": 8, "nine": 9,
}
TEENS = {
    "dix": 10, "onze": 11, "douze": 12, "treize": 13, "quatorze": 14, "quinze": 15, "seize": 16,
    "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
    "seventeen": 17, "eighteen": 18, "nineteen": 19,
}
TENS = {
    "vingt": 20, "vingts": 20, "trente": 30, "quarante": 40, "cinquante": 50, "soixante": 60,
    "septante": 70, "huitante": 80, "octante": 80, "nonante": 90,  # Belgium and Switzerland
    "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
}
HUNDRED = {"cent", "cents", "hundred"}
THOUSAND = {"mille", "thousand"}
JOIN = {"et", "and"}

GERMAN_UNITS = {"ein": 1, "zwei": 2, "drei": 3, "vier": 4, "funf": 5, "sechs": 6, "sieben": 7, "acht": 8, "neun": 9}
GERMAN_TENS = {"zwanzig": 20, "dreissig": 30, "vierzig": 40, "funfzig": 50, "sechzig": 60, "siebzig": 70,
               "achtzig": 80, "neunzig": 90}
GERMAN = re.compile(rf"({'|'.join(GERMAN_UNITS)})und({'|'.join(GERMAN_TENS)})")


def _below_hundred(words: list[str], i: int) -> tuple[int, int] | None:
    """The number below 100 that the words from ``i`` begin with, and where it ends."""
    word = words[i] if i < len(words) else None
    if word is None:
        return None
    nxt = words[i + 1] if i + 1 < len(words) else None
    if word in TEENS:
        value = TEENS[word]
        if value == 10 and nxt in ("sept", "huit", "neuf"):  # dix-sept, dix-huit, dix-neuf
            return 10 + UNITS[nxt], i + 2
        return value, i + 1
    if word == "quatre" and nxt in ("vingt", "vingts"):  # quatre-vingt(s): 80, then 81-99
        rest = _after_tens(words, i + 2, 80, teens=True)
        return rest or (80, i + 2)
    if word in UNITS:
        return UNITS[word], i + 1
    if word in TENS:
        value = TENS[word]
        rest = _after_tens(words, i + 1, value, teens=word == "soixante")
        return rest or (value, i + 1)
    return None


def _after_tens(words: list[str], i: int, tens: int, teens: bool) -> tuple[int, int] | None:
    """A unit after a ten ("vingt deux", "vingt et un", "forty four"), or after
    soixante and quatre-vingt a number from 10 to 19 ("soixante dix", "soixante et onze")."""
    j = i + 1 if i < len(words) and words[i] in JOIN else i
    if j >= len(words):
        return None
    joined = j > i
    word = words[j]
    if word in UNITS and not tens % 10:
        if joined and UNITS[word] != 1:
            return None  # French joins "et" to un only ("vingt et un")
        return tens + UNITS[word], j + 1
    if teens and word in TEENS:
        below = _below_hundred(words, j)
        if below is not None and 10 <= below[0] <= 19 and (not joined or below[0] == 11):
            return tens + below[0], below[1]
    return None


def _number(words: list[str], i: int) -> tuple[int, int] | None:
    """The whole number (below a million) the words from ``i`` begin with, and where it ends."""
    j = i
    first = _below_hundred(words, j)
    if first is not None and first[1] < len(words) and words[first[1]] in HUNDRED and first[0] < 10:
        value, j = first[0] * 100, first[1] + 1  # "deux cents", "three hundred"
    elif j < len(words) and words[j] in HUNDRED:
        value, j = 100, j + 1
    elif first is not None:
        value, j = first
    else:
        return None
    if value % 100 == 0 and value >= 100:
        rest = _below_hundred(words, j + (1 if j < len(words) and words[j] == "and" else 0))
        if rest is not None:
            value, j = value + rest[0], rest[1]
    if j < len(words) and words[j] in THOUSAND:
        total, j = value * 1000, j + 1
        rest = _number(words, j)
        if rest is not None and rest[0] < 1000:
            total, j = total + rest[0], rest[1]
        return total, j
    return value, j


def _one_word(word: str) -> str:
    """A German number written as one word ("vierundvierzig"), as digits."""
    found = GERMAN.fullmatch(word)
    if found:
        return str(GERMAN_UNITS[found.group(1)] + GERMAN_TENS[found.group(2)])
    return word


def as_digits(words: list[str]) -> list[str]:
    """``words`` with every run of several words that makes one number replaced by
    its digits (and German one-word numbers by theirs). A number word on its own
    is left as it is (the search already treats it as its digits)."""
    out: list[str] = []
    i = 0
    while i < len(words):
        found = _number(words, i) if words[i] not in JOIN else None
        if found is not None and found[1] - i >= 2:
            out.append(str(found[0]))
            i = found[1]
        else:
            out.append(_one_word(words[i]))
            i += 1
    return out
