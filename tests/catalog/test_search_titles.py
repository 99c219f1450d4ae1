"""Title search across every name: accents, case and typos do not matter."""

from __future__ import annotations

import pytest

from catalog.collection import search
from catalog.collection.models import Game
from catalog.shelves import services

pytestmark = pytest.mark.django_db


@pytest.fixture
def games(make_game):
    return {
        "drumlin": make_game("Drumlin", owned_count=10),
        "eclair": make_game("Éclaircissement", title_de="Nix wie weg", owned_count=5),
        "rampants": make_game("Rampants et Sauteurs", title_de="Schleicher und Hüpfer", title_en="Crawlers and Jumpers"),
        "drum": make_game("Drum Circle", owned_count=500),
        "catan": make_game("Catan", title_fr="Les Colons de Catane", other_names="Die Siedler von Catan", owned_count=1000),
        "wingspan": make_game("Wingspan", owned_count=800),
    }


def titles(query: str, qs=None) -> list[str]:
    ids = search.search_games(query, qs)
    by_id = Game.objects.in_bulk(ids)
    return [by_id[i].title for i in ids]


@pytest.mark.parametrize("query, expected", [
    ("eclaircissement", "Éclaircissement"),
    ("ÉCLAIRCISSEMENT", "Éclaircissement"),
    ("éclaircisement", "Éclaircissement"),
    ("drumln", "Drumlin"),
    ("drumlin", "Drumlin"),
    ("wingspn", "Wingspan"),
    ("hupfer", "Rampants et Sauteurs"),
    ("schleicher und hüpfer", "Rampants et Sauteurs"),
    ("crawlers", "Rampants et Sauteurs"),
    ("colons de catane", "Catan"),
    ("siedler", "Catan"),
    ("nix wie weg", "Éclaircissement"),
])
def test_it_finds_a_game_by_any_name_with_accents_and_typos(games, query, expected):
    assert titles(query)[0] == expected


def test_the_closest_name_comes_first_even_when_less_popular(games):
    assert titles("drumlin")[:1] == ["Drumlin"]


def test_unrelated_words_find_nothing(games):
    assert titles("zzyzx quorble") == []


def test_short_queries_match_word_starts(games):
    assert "Drumlin" in titles("dr") and "Drum Circle" in titles("dr")
    assert titles("q") == []


def test_filters_narrow_a_title_search(games):
    games["catan"].min_players, games["catan"].max_players = 3, 4
    games["catan"].save()
    assert titles("catan", Game.objects.filter(max_players__gte=3)) == ["Catan"]
    assert titles("catan", Game.objects.filter(max_players__gte=5)) == []


def test_filters_with_joins_and_distinct_narrow_a_title_search(games, theme):
    services.add_copy(games["catan"], "C1")
    services.add_copy(games["catan"], "C2")
    available = Game.objects.available_now()
    assert titles("catane", available) == ["Catan"]
    assert titles("drumlin", available) == []
    games["drum"].terms.add(theme)
    assert titles("drum", Game.objects.matching({"theme": "animals"})) == ["Drum Circle"]
    assert titles("drum", Game.objects.none()) == []


def test_renaming_a_game_updates_the_index(games):
    games["wingspan"].title_fr = "Envergure"
    games["wingspan"].save()
    assert titles("envergure") == ["Wingspan"]
    games["wingspan"].delete()
    assert titles("wingspan") == []


def test_the_catalogue_page_searches_titles(client, games):
    html = client.get("/catalogue/", {"q": "eclaircissement"}).content.decode()
    assert "Éclaircissement" in html and "Wingspan" not in html


def test_an_abbreviation_finds_the_word_and_the_word_its_abbreviation(make_game):
    maboul = make_game("Operation", title_fr="Docteur Maboul", owned_count=6500)
    eureka = make_game("Dr. Eureka", owned_count=4000)
    petersburg = make_game("Saint Petersburg", owned_count=12000)
    assert search.search_games("dr. maboul")[:1] == [maboul.pk]
    assert search.search_games("docteur eureka")[:1] == [eureka.pk]
    assert search.search_games("st petersburg")[:1] == [petersburg.pk]
    assert search.search_games("dr") and search.search_games("dr")[0] in (maboul.pk, eureka.pk)


def test_a_leading_jeu_de_that_the_box_does_not_carry_is_not_required(make_game):
    """Guests type "jeu de go" for Go and "jeu du tarot" for Tarot; a name that does
    begin so ("Jeu du solitaire") still comes first for its own query."""
    go = make_game("Go", owned_count=21000)
    make_game("Sushi Go!", owned_count=64000)
    shogi = make_game("Shogi", owned_count=2700)
    make_game("Hasami Shogi", owned_count=80)
    tarot = make_game("Tarot", owned_count=1400)
    mikado = make_game("Mikado", owned_count=3000)
    peg = make_game("Peg Solitaire", title_fr="Jeu du solitaire", owned_count=900)
    solitaire = make_game("Solitaire", owned_count=1300)
    make_game("Bang! The Dice Game", title_fr="Bang! Le Jeu de Dés", owned_count=33000)
    assert search.search_games("jeu de go")[:1] == [go.pk]
    assert search.search_games("JEU D' SHOGI")[:1] == [shogi.pk]
    assert search.search_games("jeu du tarot") == [tarot.pk]
    assert search.search_games("jeux de mikado") == [mikado.pk]
    # The name as typed (articles aside) first, though less owned; then the rest of it.
    assert search.search_games("jeu du solitaire")[:2] == [peg.pk, solitaire.pk]
    assert search.search_games("jeu de solitaire")[:2] == [peg.pk, solitaire.pk]
    # Nothing but function words after "jeu": the query is searched as typed.
    assert titles("jeu de dés")[:1] == ["Bang! The Dice Game"]
    assert search.search_games("jeu") == search.search_games("jeu de")
    # Not at the start, "jeu" is a word of the name like any other.
    assert search.search_games("tarot jeu") == []
    # A typo after "jeu de": the suggestions are for what follows it.
    assert search.search_games("jeu de chogi")[:1] == [shogi.pk]
    assert search.search_titles("jeu de shoogii").suggestions[:1] == [shogi.pk]


def test_a_number_typed_joined_finds_its_digits_written_apart(make_game):
    junior = make_game("Karo 1, 2, 3", owned_count=200)
    make_game("Karo", owned_count=2700)
    assert search.search_games("karo 123")[:1] == [junior.pk]


def test_a_number_spelt_out_in_several_words_finds_its_digits(make_game):
    """A guest types the number as it is said: "normandie quarante quatre" is the box
    titled Normandie 44, "le tour du monde en quatre vingts jours" the one with 80."""
    normandy = make_game("Normandy '44", title_fr="Normandie 44", owned_count=9000)
    make_game("Normandie", owned_count=300)
    make_game("Quatre en ligne", owned_count=20000)
    world = make_game("Le Tour du monde en 80 jours", owned_count=400)
    make_game("Le Tour du monde", owned_count=800)
    assert search.search_games("normandie quarante quatre")[:1] == [normandy.pk]
    assert search.search_games("normandy forty four")[:1] == [normandy.pk]
    assert search.search_games("tour du monde en quatre-vingts jours")[:1] == [world.pk]
