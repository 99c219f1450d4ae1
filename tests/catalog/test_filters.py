"""Catalogue filters: players (and best at), time, age, weight, language dependence,
category, mechanic, theme, available now; alone and with a title search."""

from __future__ import annotations

import pytest

from catalog.collection.models import MAX_PLAYERS_OPEN, Game, Term
from catalog.shelves import services
from catalog.shelves.models import Copy

pytestmark = pytest.mark.django_db


@pytest.fixture
def shelf(make_game, theme):
    abstract = Term.objects.create(kind="category", slug="abstract", name_en="Abstract")
    auction = Term.objects.create(kind="mechanic", slug="auction", name_en="Auction")
    games = {
        "duel": make_game("Duel", min_players=2, max_players=2, best_min_players=2, best_max_players=2, min_time=20,
                          min_age=8, weight="1.5", language_dependence=0),
        "party": make_game("Party", min_players=4, max_players=12, best_min_players=6, best_max_players=10,
                           min_time=15, min_age=10, weight="1.1", language_dependence=3),
        "heavy": make_game("Heavy", min_players=1, max_players=4, best_min_players=3, best_max_players=3,
                           min_time=180, min_age=14, weight="4.2", language_dependence=2),
        # No upper limit on BoardGameGeek (stored as MAX_PLAYERS_OPEN), and an unknown maximum.
        "open": make_game("Open", min_players=3, max_players=MAX_PLAYERS_OPEN, min_time=45, min_age=6, weight="2.5"),
        "pair": make_game("Pair", min_players=2, max_players=None),
        "unknown": make_game("Unknown"),
    }
    games["duel"].terms.add(abstract)
    games["party"].terms.add(auction, theme)
    services.add_copy(games["duel"], "A1")
    services.add_copy(games["heavy"], "B2", status=Copy.Status.LENT)
    return games


def listed(client, **params) -> set[str]:
    response = client.get("/catalogue/", params)
    assert response.status_code == 200
    return {g.title for g in response.context["results"]}


@pytest.mark.parametrize("params, expected", [
    ({}, {"Duel", "Party", "Heavy", "Open", "Pair", "Unknown"}),
    # An unknown maximum is unknown, not "no limit": Pair is listed for its known minimum only.
    ({"players": 2}, {"Duel", "Heavy", "Pair"}),
    ({"players": 8}, {"Party", "Open"}),
    ({"players": 15}, {"Open"}),
    ({"players": 3, "best": "on"}, {"Heavy"}),
    ({"players": 8, "best": "on"}, {"Party"}),
    ({"time": 30}, {"Duel", "Party"}),
    ({"time": 180}, {"Duel", "Party", "Heavy", "Open"}),
    ({"age": 8}, {"Duel", "Open"}),
    ({"weight": "light"}, {"Duel", "Party"}),
    ({"weight": "medium"}, {"Open"}),
    ({"weight": "heavy"}, {"Heavy"}),
    ({"language": 0}, {"Duel"}),
    ({"language": 2}, {"Duel", "Heavy"}),
    ({"category": "abstract"}, {"Duel"}),
    ({"mechanic": "auction"}, {"Party"}),
    ({"theme": "animals"}, {"Party"}),
    ({"available": "on"}, {"Duel"}),
    ({"players": 2, "time": 30, "available": "on"}, {"Duel"}),
])
def test_each_filter_keeps_the_right_games(client, shelf, params, expected):
    assert listed(client, **params) == expected


def test_filters_combine_with_a_title_search(client, shelf):
    assert listed(client, q="duel") == {"Duel"}
    assert listed(client, q="duel", players=5) == set()


def test_a_game_in_a_box_is_available_when_its_box_is(shelf, make_game):
    box = make_game("Karo")
    part = make_game("Quatre en ligne", kind=Game.Kind.IN_BOX, base_game=box)
    assert part not in Game.objects.available_now()
    copy = services.add_copy(box, "K2#")
    assert part in Game.objects.available_now()
    services.set_copy_status(copy, Copy.Status.QUARANTINE)
    assert part not in Game.objects.available_now()


def test_bad_filter_values_are_shown_and_ignored(client, shelf):
    response = client.get("/catalogue/", {"players": "lots", "weight": "feather", "category": "nope"})
    assert response.status_code == 200
    form = response.context["form"]
    assert set(form.errors) == {"players", "weight", "category"}
    assert len(response.context["results"]) == 6


def test_the_filters_panel_shows_the_chosen_values_after_a_plain_search(client, shelf):
    plain = client.get("/catalogue/", {"q": "duel"}).content.decode()
    assert '<details >' in plain or "<details>" in plain  # closed: a title search alone is no filter
    chosen = client.get("/catalogue/", {"q": "duel", "weight": "heavy", "players": 3}).content.decode()
    assert '<details open>' in chosen
    assert '<option value="heavy" selected>' in chosen and 'name="players" value="3"' in chosen
    again = client.get("/catalogue/", {"q": "heavy"}).content.decode()
    assert '<option value="heavy" selected>' not in again
