"""“À quoi on joue ?”: a ranked shortlist from the boxes on the shelves, with reasons."""

from __future__ import annotations

import pytest

from catalog import picker, services
from catalog.models import Copy

pytestmark = pytest.mark.django_db


@pytest.fixture
def shelves(make_game):
    games = {
        "family": make_game("Family", min_players=2, max_players=6, best_min_players=4, best_max_players=5,
                            min_time=30, max_time=45, min_age=8, weight="1.6", rating=7.4),
        "brainy": make_game("Brainy", min_players=2, max_players=4, best_min_players=4, best_max_players=4,
                            min_time=60, max_time=90, min_age=12, weight="3.4", rating=8.1),
        "long": make_game("Long", min_players=2, max_players=5, min_time=240, min_age=12, weight="3.8"),
        "kids": make_game("Kids", min_players=2, max_players=4, min_time=15, max_time=15, min_age=4, weight="1.0", rating=6.0),
        "lent": make_game("Lent", min_players=2, max_players=8, best_min_players=4, best_max_players=6, min_time=30,
                          min_age=8, weight="1.5", rating=9.0),
        "duo": make_game("Duo", min_players=2, max_players=2, min_time=20, min_age=8, weight="2.0"),
    }
    for name, game in games.items():
        services.add_copy(game, "A1", status=Copy.Status.LENT if name == "lent" else Copy.Status.AVAILABLE)
    return games


def names(picks) -> list[str]:
    return [p.game.title for p in picks]


def test_only_boxes_on_the_shelf_that_fit_are_picked(shelves):
    picks = picker.pick(players=4, minutes=90, youngest=12)
    # Long is too long, Duo seats two, Lent is lent out.
    assert set(names(picks)) == {"Family", "Brainy", "Kids"}


def test_the_youngest_player_rules_out_older_games(shelves):
    assert set(names(picker.pick(players=4, minutes=240, youngest=8))) == {"Family", "Kids"}


def test_the_mood_orders_the_shortlist_and_says_why(shelves):
    light = picker.pick(players=4, minutes=120, youngest=12, mood="light")
    thinky = picker.pick(players=4, minutes=120, youngest=12, mood="thinky")
    assert names(light)[0] == "Family" and names(thinky)[0] == "Brainy"
    reasons = " | ".join(thinky[0].reasons)
    assert "4" in reasons and "120" in reasons


def test_the_page_shows_the_reasons(client, shelves):
    html = client.get("/en/catalogue/what-to-play/", {"players": 4, "minutes": 90, "youngest": 12, "mood": "thinky"}).content.decode()
    assert "Brainy" in html and "best at 4 players" in html and "something to think about" in html
    assert "Lent" not in html


def test_out_of_range_answers_are_refused(client, shelves):
    for params in ({"players": 1, "minutes": 60, "youngest": 8}, {"players": 16, "minutes": 60, "youngest": 8},
                   {"players": 4, "minutes": 7, "youngest": 8}, {"players": 4, "minutes": 60, "youngest": "x"}):
        response = client.get("/catalogue/quoi-jouer/", params)
        assert response.status_code == 200 and response.context["picks"] is None and response.context["form"].errors


def test_fifteen_players_find_the_big_party_games(make_game):
    big = make_game("Werewolves", min_players=8, max_players=18, min_time=30, min_age=10, weight="1.3")
    services.add_copy(big, "P1")
    assert names(picker.pick(players=15, minutes=60, youngest=10)) == ["Werewolves"]
