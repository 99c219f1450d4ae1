"""Title search over every name of a game, in every language: the name that matched
is shown; articles and short function words never block a match; words joined or
split, numbers in digits or words; popularity breaks near-ties; "did you mean" when
nothing matches. The same on SQLite and PostgreSQL (this file runs on both)."""

from __future__ import annotations

import pytest

from catalog.collection import search
from catalog.collection.models import Game, GameName, refresh_titles

pytestmark = pytest.mark.django_db


@pytest.fixture
def shelf(make_game):
    def game(title: str, owned: int, *names: tuple[str, str], ratings: int = 0) -> Game:
        g = make_game(title, owned_count=owned, rating_count=ratings)
        for i, (language, name) in enumerate(names):
            GameName.objects.create(game=g, language=language, name=name, primary=i == 0 or names[i - 1][0] != language)
        refresh_titles([g])
        return g

    return {
        "ttr": game("Ticket to Ride", 160000, ("fr", "Les Aventuriers du Rail")),
        "ttr_europe": game("Ticket to Ride: Europe", 90000, ("fr", "Les Aventuriers du Rail : Europe")),
        "rail_obscure": game("Aventuriers du rail (fan edition)", 105),
        "werewolves": game("The Werewolves of Miller's Hollow", 50000, ("fr", "Les Loups-Garous de Thiercelieux")),
        "king": game("King of Tokyo", 120000),
        "king_obscure": game("King of Tokyo Deluxe Fan Kit", 90),
        "small": game("Small World", 100000),
        "codenames": game("Codenames", 150000),
        "wonders": game("7 Wonders", 140000),
        "island": game("Forbidden Island", 90000, ("fr", "L'Île Interdite")),
        "havre": game("Le Havre", 40000),
        "mind": game("The Mind", 50000),
        "mind_obscure": game("Mind the Gap", 300),
        "dobble": game("Spot it!", 60000, ("fr", "Dobble")),
    }


def found(query: str) -> list[int]:
    return search.search_games(query)


@pytest.mark.parametrize("query, expected", [
    ("les aventuriers du rail", "ttr"),
    ("aventuriers du rail", "ttr"),
    ("Aventuriers du Rail", "ttr"),
    ("les loups garous", "werewolves"),
    ("loups-garous de thiercelieux", "werewolves"),
    ("king of tokio", "king"),
    ("smallworld", "small"),
    ("small world", "small"),
    ("code names", "codenames"),
    ("seven wonders", "wonders"),
    ("sept wonders", "wonders"),
    ("7 wonders", "wonders"),
    ("l'ile interdite", "island"),
    ("île interdite", "island"),
    ("the ile interdite", "island"),
    ("le havre", "havre"),
    ("havre", "havre"),
    ("the mind", "mind"),
    ("mind", "mind"),
    ("dobble", "dobble"),
    ("spot it", "dobble"),
    ("aventurier du rial", "ttr"),
])
def test_the_game_a_guest_means_comes_first(shelf, query, expected):
    assert found(query)[0] == shelf[expected].pk


def test_a_well_known_game_beats_an_obscure_near_namesake(shelf):
    ids = found("aventuriers du rail")
    assert ids.index(shelf["ttr"].pk) < ids.index(shelf["rail_obscure"].pk)
    ids = found("king of tokyo")
    assert ids.index(shelf["king"].pk) < ids.index(shelf["king_obscure"].pk)


def test_the_name_that_matched_is_given(shelf):
    results = search.search_titles("loups garous thiercelieux")
    assert results.ids[0] == shelf["werewolves"].pk
    assert results.matched[shelf["werewolves"].pk] == "les loups garous de thiercelieux"
    results = search.search_titles("werewolves miller")
    assert results.matched[shelf["werewolves"].pk] == "the werewolves of miller s hollow"


def test_articles_alone_still_search(shelf):
    assert shelf["mind"].pk in found("the")


def test_nothing_found_offers_what_the_guest_may_have_meant(shelf):
    results = search.search_titles("aventuriers du raill express zzz")
    assert results.ids == []
    assert results.suggestions[0] == shelf["ttr"].pk
    assert search.search_titles("qqqqzzzz").suggestions == []


def test_the_catalogue_page_shows_the_french_name_first_and_the_match(client, shelf):
    html = client.get("/catalogue/", {"q": "aventuriers du rail"}).content.decode()
    first = html.index("Les Aventuriers du Rail")
    assert first < html.index("Ticket to Ride")  # the original, beside it
    html = client.get("/en/catalogue/", {"q": "aventuriers du rail"}).content.decode()
    assert "Ticket to Ride" in html and "Found as" in html and "Les Aventuriers du Rail" in html


def test_the_catalogue_page_says_did_you_mean(client, shelf):
    html = client.get("/catalogue/", {"q": "aventuriers du raill express zzz"}).content.decode()
    assert "Vouliez-vous dire" in html and "Les Aventuriers du Rail" in html


def test_a_name_added_later_is_found_at_once(shelf):
    GameName.objects.create(game=shelf["small"], language="de", name="Kleine Welt", primary=True)
    refresh_titles([shelf["small"]])
    assert found("kleine welt")[0] == shelf["small"].pk
