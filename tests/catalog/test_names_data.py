"""The shipped names and title data (issue 25), read as data a reviewer checks:
catalog/data/names-fr.csv has no line the importer would refuse or count twice, no
garbled name, and only games of the shipped data set; a former title always stands
beside a current name; and no title of the data set, as the importer shows it,
still holds a mojibake sequence that the garbled-title scan does not look for (a
UTF-8 pair read as Windows-1252, or an accented letter flattened to "A" in a short
word), unless its review says it is pending or right as written.

No database: the files are read as the importer reads them (csv_rows.read, then
mojibake.repair and the reviewed mapping), so a failure names the line to fix."""

from __future__ import annotations

import csv
import re
import unicodedata
from pathlib import Path

import ftfy
import pytest

from catalog import text as textlib
from catalog.collection import csv_rows, mojibake, names
from tests.conftest import require

# A character that starts a two-byte UTF-8 sequence, read as Windows-1252 (Â..ô),
# followed by one a continuation byte becomes (€..Ÿ, no-break space..¿): "Ã©" for é,
# "Ä›" for ě, "Å“" for œ, "â‚‚" for ₂. Never a pair of real letters in these titles.
CONTINUATION = "€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ" + "".join(chr(c) for c in range(0xA0, 0xC0))
LEAD = "".join(chr(c) for c in range(0xC2, 0xF5))
UTF8_AS_CP1252 = re.compile(f"[{re.escape(LEAD)}][{re.escape(CONTINUATION)}]")
# An accented letter flattened to "A" where the scan does not look: a word of two
# capitals ("Formula DA", "MA & More", "Ta YA"), or one ending in "A" after lower
# case ("CittA") or beginning and ending with it.
FLATTENED = (re.compile(r"\b[A-Z]A\b"), re.compile(r"\b[A-Z][a-z]+A\b"), re.compile(r"\bA[a-z]*A"))


def shipped_rows() -> list[tuple[int, list[str]]]:
    with names.SHIPPED.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.reader(handle))
    assert rows[0] == names.FULL_HEADER
    return list(enumerate(rows[1:], start=2))


def data_titles(shared_dir: Path) -> dict[int, str]:
    """Each game's title as the importer stores it: read, repaired by rule, blanks
    tidied (importer._game_values), before the reviewed mapping."""
    path = shared_dir / "data" / "bgg-games-21925.csv"
    require(path.is_file(), f"the shared data set is missing ({path})")
    read = csv_rows.read(path.read_bytes(), path.name)
    assert not read.rejected
    id_col, title_col = read.header.index("bgg_id"), read.header.index("title")
    titles = {}
    for _number, row in read.rows:
        repaired, _ = mojibake.repair(row[title_col].strip(" \t"))
        titles[int(row[id_col])] = " ".join(repaired.split())
    return titles


def test_every_line_is_one_the_importer_takes_as_written():
    bad = []
    for number, (bgg_id, language, name, kind, source) in shipped_rows():
        if not (bgg_id.isdigit() and int(bgg_id) > 0):
            bad.append((number, "id"))
        if language not in names.LANGUAGE_CODES or kind not in names.KINDS or source not in names.SOURCES:
            bad.append((number, "language, kind or source"))
        # The importer would tidy these silently; the file says what is imported.
        if name != " ".join(name.split()) or not name or len(name) > 300:
            bad.append((number, "blanks or length"))
        if unicodedata.normalize("NFC", name) != name:
            bad.append((number, "not NFC"))
    assert bad == []


def test_no_name_is_given_twice_for_a_game_even_spelled_differently():
    # The importer's own key (accents, case, punctuation and articles folded):
    # a second spelling of one name would be refused as "same name as line N".
    seen: dict[tuple[str, str, str], int] = {}
    twice = []
    for number, (bgg_id, language, name, _kind, _source) in shipped_rows():
        key = (bgg_id, language, textlib.fold_query(name))
        if key in seen:
            twice.append((seen[key], number, name))
        seen.setdefault(key, number)
    assert twice == []


def test_no_name_is_garbled():
    # Words reviewed as right as written in a title ("TransAmerica") are right in a name.
    reviews = mojibake.shipped_reviews().values()
    genuine = {w for r in reviews if r.status == "genuine" for w in re.findall(r"[^\W\d_]+", r.garbled)}
    garbled = [
        (number, name)
        for number, (_id, _language, name, _kind, _source) in shipped_rows()
        if mojibake.looks_garbled(name, genuine) or ftfy.fix_text(name) != name or UTF8_AS_CP1252.search(name)
    ]
    assert garbled == []


def test_a_former_title_stands_beside_a_current_name():
    current = {(r[0], r[1]) for _, r in shipped_rows() if names.KINDS[r[3]] == "current"}
    alone = [(n, r[2]) for n, r in shipped_rows() if names.KINDS[r[3]] == "former" and (r[0], r[1]) not in current]
    assert alone == []


def reference_rows() -> list[tuple[int, list[str]]]:
    with names.REFERENCES.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.reader(handle))
    assert rows[0] == ["bgg_id", "name", "reference"]
    return list(enumerate(rows[1:], start=2))


def test_every_reference_is_a_web_page_for_a_name_of_the_file():
    # catalog/data/names-fr-references.csv: the page that shows a French box title
    # (a shop's page of the French edition, a publisher's, a ludothèque's record, a
    # news item on the release); each row names a line of names-fr.csv, once.
    shipped = {(row[0], row[2]) for _, row in shipped_rows()}
    bad, seen = [], set()
    for number, row in reference_rows():
        if len(row) != 3 or (row[0], row[1]) not in shipped or (row[0], row[1]) in seen:
            bad.append((number, "unknown or repeated name"))
            continue
        seen.add((row[0], row[1]))
        if not re.fullmatch(r"https?://[^\s/]+\.[^\s/]+(/\S*)?", row[2]):
            bad.append((number, "not a web address"))
    assert bad == []


def test_a_name_with_a_reference_says_it_comes_from_a_french_edition():
    referenced = {(row[0], row[1]) for _, row in reference_rows()}
    other = [(n, r[2]) for n, r in shipped_rows() if (r[0], r[2]) in referenced and r[4] != "edition"]
    assert other == []


def test_every_game_named_is_in_the_shipped_data_set(shared_dir):
    titles = data_titles(shared_dir)
    unknown = [(number, row[0], row[2]) for number, row in shipped_rows() if int(row[0]) not in titles]
    assert unknown == []


def test_no_title_shows_a_mojibake_sequence_the_scan_misses(shared_dir):
    reviews = mojibake.shipped_reviews()
    genuine = {r.bgg_id for r in reviews.values() if r.status == "genuine"}
    left = []
    for bgg_id, title in data_titles(shared_dir).items():
        shown, pending = mojibake.reviewed(bgg_id, title)
        if pending or bgg_id in genuine:
            continue
        if UTF8_AS_CP1252.search(shown) or any(p.search(shown) for p in FLATTENED):
            left.append((bgg_id, shown))
    assert left == []


@pytest.mark.parametrize(
    "garbled, caught",
    [
        ("Formula DA", True), ("MA & More", True), ("Ta YA", True), ("La CittA", True),
        ("COâ‚‚", True), ("Kámen ZbranÄ› Papír", True), ("SHÅŒBU", True), ("Bulletâ¥ï¸Ž", True),
        ("Formula Dé", False), ("Âge de Bronze", False), ("Café International", False), ("CO₂", False),
    ],
)
def test_the_extra_patterns_catch_what_they_are_for(garbled, caught):
    found = bool(UTF8_AS_CP1252.search(garbled)) or any(p.search(garbled) for p in FLATTENED)
    assert found is caught
