"""Numbers spelt out in several words (catalog.collection.numbers): only what makes one
number by the rules of French, English or German numerals becomes digits."""

from __future__ import annotations

import pytest

from catalog.collection.numbers import as_digits
from catalog.collection.query import compact


@pytest.mark.parametrize("words, expected", [
    ("normandie quarante quatre", "normandie 44"),
    ("vingt et un", "21"),
    ("vingt deux", "22"),
    ("soixante dix", "70"),
    ("soixante et onze", "71"),
    ("soixante dix neuf", "79"),
    ("quatre vingts jours", "80 jours"),
    ("quatre vingt un", "81"),
    ("quatre vingt dix sept", "97"),
    ("dix sept", "17"),
    ("septante trois", "73"),
    ("trois cents", "300"),
    ("cent un dalmatiens", "101 dalmatiens"),
    ("deux mille vingt quatre", "2024"),
    ("forty four", "44"),
    ("one hundred and one", "101"),
    ("twenty one", "21"),
    ("two thousand", "2000"),
    ("vierundvierzig", "44"),
    ("einundzwanzig", "21"),
])
def test_a_number_in_several_words_is_read_as_its_digits(words, expected):
    assert " ".join(as_digits(words.split())) == expected


@pytest.mark.parametrize("words", [
    "un deux trois soleil",  # a counting rhyme, not one number
    "deux trois",
    "vingt et deux",  # "et" joins only un (and onze)
    "mille bornes",  # one number word stays a word (the search treats it as its digits)
    "mille et une nuits",
    "sept wonders",
    "les quatre saisons",
    "trois petits cochons",
    "and one",
])
def test_words_that_make_no_single_number_stay_words(words):
    assert as_digits(words.split()) == words.split()


def test_the_compact_form_of_a_name_and_of_a_query_meet():
    assert compact("normandie quarante quatre".split()) == compact("normandie 44".split()) == "normandie44"
    assert compact("les sept merveilles".split()) == "7merveilles"
