"""The in-memory vocabulary behind title search: its typo matching agrees with a full
scan (and with pg_trgm), a search costs one statement, and a copy that is out of date
(names added, here or elsewhere, or a change rolled back) is noticed and read again."""

from __future__ import annotations

import os
import random

import pytest
from django.db import connection, transaction

from catalog.collection import search
from catalog.collection.models import Game
from tests.conftest import require

WORDS = [
    "drumlin", "drum", "drums", "drummer", "eclaircissement", "eclair", "wingspan", "wings", "catan", "catane",
    "siedler", "colons", "rampants", "sauteurs", "schleicher", "hupfer", "the", "then", "there", "theme", "a",
    "ab", "abc", "abcd", "x", "xy", "zug", "um", "ticket", "tickets", "ride", "rider", "wonders", "wonder", "7",
    "1754", "1860", "dune", "dunes", "imperium", "terraforming", "mars", "marsupial", "azul", "carcassonne",
]


def full_scan(words: list[str], query: str) -> dict[str, float]:
    grams = search._grams(query)
    found = {}
    for word in words:
        other = search._grams(word)
        score = len(grams & other) / len(grams | other)
        if score >= search.WORD_THRESHOLD:
            found[word] = score
    return found


def test_similar_words_are_those_a_full_scan_finds():
    rng = random.Random(7)
    letters = "abcdeilmnorstu"
    words = WORDS + ["".join(rng.choice(letters) for _ in range(rng.randint(1, 12))) for _ in range(3000)]
    vocabulary = search.Vocabulary(1, words)
    queries = WORDS + ["drumln", "eclaircisement", "wingspn", "catn", "tikcet", "terraformng", "azzul"]
    queries += ["".join(rng.choice(letters) for _ in range(rng.randint(3, 12))) for _ in range(300)]
    for query in queries:
        assert vocabulary.similar(query) == full_scan(sorted(set(words)), query), query


def test_word_beginnings_are_the_shortest_words_in_order():
    vocabulary = search.Vocabulary(1, WORDS)
    assert vocabulary.beginning("dru", 3) == ["drum", "drums", "drumlin"]
    assert vocabulary.beginning("the", 12) == ["the", "then", "theme", "there"]
    assert vocabulary.beginning("q", 12) == []


def _pg_trgm_similarities(pairs: list[tuple[str, str]]) -> list[float]:
    """pg_trgm's ``similarity`` of each pair, asked of a real PostgreSQL server.

    On the PostgreSQL pass the suite's own connection has the extension (a migration
    creates it); on the SQLite pass the local server answers, the extension created
    inside a transaction that is rolled back, so the server is left as it was.
    """
    sql = "SELECT similarity(%s, %s)"
    if connection.vendor == "postgresql":
        found = []
        with connection.cursor() as cursor:
            for pair in pairs:
                cursor.execute(sql, pair)
                found.append(cursor.fetchone()[0])
        return found
    import psycopg

    url = os.environ.get("TEST_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/postgres")
    try:
        conn = psycopg.connect(url, connect_timeout=5)
    except psycopg.OperationalError as exc:
        require(False, f"PostgreSQL is not reachable at {url} to compare with pg_trgm: {exc}")
    with conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
        found = [conn.execute(sql, pair).fetchone()[0] for pair in pairs]
        conn.rollback()
    return found


def test_the_trigram_measure_is_pg_trgm_similarity(db):
    pairs = [("drumln", "drumlin"), ("eclaircisement", "eclaircissement"), ("wingspn", "wingspan"), ("ab", "abc"),
             ("1754", "1860"), ("x", "xy"), ("terraformng", "terraforming"), ("the", "theme")]
    for (a, b), expected in zip(pairs, _pg_trgm_similarities(pairs), strict=True):
        grams_a, grams_b = search._grams(a), search._grams(b)
        assert len(grams_a & grams_b) / len(grams_a | grams_b) == pytest.approx(expected, abs=1e-6), (a, b)


@pytest.fixture
def games(make_game):
    return {
        "drumlin": make_game("Drumlin", owned_count=10),
        "catan": make_game("Catan", title_fr="Les Colons de Catane", owned_count=1000),
        "wingspan": make_game("Wingspan", owned_count=800),
    }


def titles(query: str, qs=None) -> list[str]:
    ids = search.search_games(query, qs)
    by_id = Game.objects.in_bulk(ids)
    return [by_id[i].title for i in ids]


@pytest.mark.django_db
def test_a_title_search_is_one_statement(games, django_assert_num_queries):
    search.search_games("catan")  # the vocabulary is read once per process and change
    for query in ("colns de catane", "drumln", "zzyzx quorble", "w"):
        with django_assert_num_queries(1):
            search.search_games(query)
    with django_assert_num_queries(1):
        search.search_games("catan", Game.objects.filter(max_players__gte=3))


@pytest.mark.django_db
def test_new_names_are_found_with_typos_at_once(games, make_game, django_assert_num_queries):
    assert titles("wingspn") == ["Wingspan"]
    # No signal reaches the copy in memory (another process may have saved the
    # game): the search statement's version stamp tells it is out of date.
    envergure = make_game("Envergure", title_de="Flügelschlag")
    with django_assert_num_queries(3):  # stale stamp, vocabulary read again, search again
        assert search.search_games("envergre") == [envergure.pk]
    with django_assert_num_queries(1):
        assert search.search_games("flugelschlg") == [envergure.pk]


@pytest.mark.django_db
def test_saving_a_game_with_known_words_keeps_the_vocabulary(games, django_assert_num_queries):
    search.search_games("catan")
    games["catan"].owned_count = 1200
    games["catan"].other_names = "Catan\nDrumlin"
    games["catan"].save()
    with django_assert_num_queries(1):
        assert search.search_games("catan")[0] == games["catan"].pk


@pytest.mark.django_db
def test_a_change_rolled_back_is_forgotten(games, make_game):
    with pytest.raises(RuntimeError), transaction.atomic():
        make_game("Zanzibar")
        assert titles("zanzibr") == ["Zanzibar"]
        raise RuntimeError("rolled back")
    assert titles("zanzibr") == []
    # The stamp after this change must differ from the one of the change rolled
    # back, or the copy in memory (without "quixotic") would pass for current.
    make_game("Quixotic")
    assert titles("quixotc") == ["Quixotic"]


@pytest.mark.django_db
def test_an_empty_selection_finds_nothing(games):
    assert titles("catan", Game.objects.none()) == []
    assert titles("catan", Game.objects.filter(pk__in=[games["catan"].pk])) == ["Catan"]
