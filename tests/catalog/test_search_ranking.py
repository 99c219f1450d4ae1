"""Ranking of title search on the real data: an exact name (any language, primary or
not) comes before any other; among names that hold the query or begin with it, the
most owned game comes first, so that the base game beats its spin-offs when the
query names the base game. Games and names are the shared data set's own lines
(the families below) and the shipped French names file. Runs on SQLite and, with
DATABASE_URL set, on PostgreSQL."""

from __future__ import annotations

import csv
import re

import pytest

from catalog.collection import importer, names, search
from catalog.collection.models import Game
from tests.conftest import require

pytestmark = pytest.mark.django_db

FAMILIES = re.compile(r"\b(Catan|Carcassonne|Pandemic|Ticket to Ride|Dixit|7 Wonders|Codenames|Azul)\b")


@pytest.fixture(scope="module")
def family_files(tmp_path_factory):
    """The data set's lines of eight game families, and their French names."""
    from catalog import conf

    source = conf.shared_dir() / "data" / "bgg-games-21925.csv"
    require(source.is_file(), f"the shared data set is missing ({source})")
    folder = tmp_path_factory.mktemp("families")
    with source.open(encoding="utf-8-sig", newline="") as handle:
        reader = csv.reader(handle)
        header = next(reader)
        rows = [row for row in reader if FAMILIES.search(row[1])]
    ids = {row[0] for row in rows}
    games = folder / "games.csv"
    with games.open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle).writerows([header, *rows])
    with names.SHIPPED.open(encoding="utf-8", newline="") as handle:
        reader = csv.reader(handle)
        french = [next(reader), *(row for row in reader if row[0] in ids)]
    names_file = folder / "names.csv"
    with names_file.open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle).writerows(french)
    return games, names_file, len(rows), len(french) - 1


@pytest.fixture
def families(family_files):
    games, names_file, game_count, name_count = family_files
    assert game_count > 100 and name_count >= 15  # the families are really there
    for path in (games, names_file):
        report = importer.import_file(path)
        assert report.applied and not report.rejected
    return {g.bgg_id: g.pk for g in Game.objects.all()}


def first(query: str, families) -> int:
    ids = search.search_games(query)
    assert ids, query
    bgg = {pk: bgg_id for bgg_id, pk in families.items()}
    return bgg[ids[0]]


def before(query: str, families, a: int, b: int) -> bool:
    ids = search.search_games(query)
    return ids.index(families[a]) < ids.index(families[b])


# (query, the game a guest means): BoardGameGeek ids of the data set.
NAMED = [
    ("catan", 13),
    ("catane", 13),  # was "Catane : Le Duel" (Rivals for Catan, 12 times fewer owners)
    ("Catane", 13),
    ("les colons de catane", 13),
    ("colons de catane", 13),
    ("catane le duel", 66056),
    ("rivals for catan", 66056),
    ("catan junior", 125921),
    ("catan card game", 278),
    ("carcassonne", 822),
    ("carcassonne junior", 41010),
    ("carcassonne chasseurs et cueilleurs", 4390),
    ("pandemic", 30549),
    ("pandemic legacy", 161936),  # Season 1, the most owned of the three
    ("pandemic legacy saison 2", 221107),
    ("ticket to ride", 9209),
    ("aventuriers du rail", 9209),
    ("les aventuriers du rail europe", 14996),
    ("ticket to ride europe", 14996),
    ("dixit", 39856),
    ("7 wonders", 68448),  # an exact name beats "7 Wonders Duel" (almost as many owners)
    ("7 wonders duel", 173346),
    ("codenames", 178900),
    ("azul", 230802),
]


def test_the_game_named_comes_first(families):
    # One import for the whole list (the suite's time is counted): every miss is listed.
    found = [(query, bgg_id, first(query, families)) for query, bgg_id in NAMED]
    misses = [row for row in found if row[1] != row[2]]
    assert misses == []


BASES = [
    ("catane", 13, [66056, 125921, 27710, 278]),
    ("catan", 13, [66056, 125921, 27710, 278, 117985]),
    ("carcassonne", 822, [41010, 4390, 7717, 12902]),
    ("pandemic", 30549, [161936, 221107, 192153, 150658]),
    ("ticket to ride", 9209, [14996, 31627, 253284]),
    ("aventuriers du rail", 9209, [14996, 31627, 253284]),
    ("dixit", 39856, [92828, 121288]),
]


def test_a_base_game_comes_before_its_spin_offs(families):
    misses = [(query, other) for query, base, spin_offs in BASES for other in spin_offs
              if not before(query, families, base, other)]
    assert misses == []


def test_an_exact_name_beats_a_more_popular_name_it_begins(families):
    # "Carcassonne Big Box" (2,802 owners) is named exactly; "Carcassonne Big Box 6"
    # (7,530) and "... 5" (4,490) only begin with the query.
    assert first("carcassonne big box", families) == 142057
    assert first("pandemic legacy saison 0", families) == 314040


def test_two_games_of_the_same_name_go_by_popularity(families):
    # "Catan Junior" names two lines of the data set: Catan: Junior (6,666 owners,
    # "Catan Junior" in the French names) and a 2014 Catan Junior (1,629).
    assert before("catan junior", families, 125921, 184842)


def test_among_spin_offs_named_alike_popularity_decides(families):
    ids = search.search_games("pandemic legacy")
    seasons = [ids.index(families[b]) for b in (161936, 221107) if b in families]
    assert seasons == sorted(seasons)  # Season 1 (69,952 owners) before Season 2 (26,590)


def test_the_name_that_matched_is_the_one_typed(families):
    results = search.search_titles("catane")
    assert results.matched[families[13]] == "les colons de catane"


# French names of spin-offs and former French titles (catalog/data/names-fr.csv,
# kind "former"), typed as a French guest would, none of them in the queries above.
FRENCH_SPIN_OFFS = [
    ("pandemie", 30549),  # the title Pandemic carried in France for years
    ("Pandémie", 30549),
    ("pandémie le remède", 150658),
    ("pandemie remede", 150658),
    ("colons de catane jeu de cartes", 278),
    ("catane le jeu de des", 27710),
    ("aventuriers du rail marklin", 21348),
    ("aventuriers du rail allemagne", 225244),
    ("aventuriers du rail le jeu de cartes", 34127),
    ("mon premier voyage", 218208),
    ("les aventuriers du rail amsterdam", 309113),
    ("carcassonne la cite", 12902),
    ("carcassonne mers du sud", 147303),
    ("carcassonne par monts et par vaux", 182082),
    ("pandemic zone rouge", 301919),
]


def test_french_spin_offs_and_former_titles_come_first(families):
    found = [(query, bgg_id, first(query, families)) for query, bgg_id in FRENCH_SPIN_OFFS]
    assert [row for row in found if row[1] != row[2]] == []


def test_a_former_title_is_found_exactly_but_never_shown(families):
    # "Pandémie" is Pandemic's former French title: named exactly, it beats
    # "Pandémie : Le Remède", which only begins with it; the title shown stays "Pandemic".
    assert before("pandemie", families, 30549, 150658)
    pandemic, catan = Game.objects.get(bgg_id=30549), Game.objects.get(bgg_id=13)
    assert (pandemic.title_fr, catan.title_fr) == ("Pandemic", "Catan")
    assert catan.names.get(name="Les Colons de Catane").kind == "former"
