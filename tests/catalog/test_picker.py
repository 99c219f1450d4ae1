"""“À quoi on joue ?”: a ranked shortlist from the boxes on the shelves, with reasons."""

from __future__ import annotations

import pytest
from django.utils import translation

from catalog.collection import picker
from catalog.collection.models import MAX_PLAYERS_OPEN, Game, Term
from catalog.shelves import services
from catalog.shelves.models import Copy
from ludo.typography import french as typeset

pytestmark = pytest.mark.django_db


@pytest.fixture
def shelves(make_game):
    games = {
        "family": make_game("Family", min_players=2, max_players=6, best_min_players=4, best_max_players=5,
                            min_time=30, max_time=45, min_age=8, weight="1.6", rating_count=100, rating=7.4),
        "brainy": make_game("Brainy", min_players=2, max_players=4, best_min_players=4, best_max_players=4,
                            min_time=60, max_time=90, min_age=12, weight="3.4", rating_count=100, rating=8.1),
        "long": make_game("Long", min_players=2, max_players=5, min_time=240, min_age=12, weight="3.8"),
        "kids": make_game("Kids", min_players=2, max_players=4, min_time=15, max_time=15, min_age=4, weight="1.0", rating_count=100, rating=6.0),
        "lent": make_game("Lent", min_players=2, max_players=8, best_min_players=4, best_max_players=6, min_time=30,
                          min_age=8, weight="1.5", rating_count=100, rating=9.0),
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


def shelved(make_game, title: str, **fields):
    fields.setdefault("min_players", 2)
    fields.setdefault("max_players", 6)
    fields.setdefault("min_time", 30)
    fields.setdefault("max_time", 45)
    fields.setdefault("min_age", 8)
    fields.setdefault("rating_count", 500)
    game = make_game(title, **fields)
    services.add_copy(game, "C1")
    return game


def test_an_unknown_maximum_is_not_no_limit_nor_is_an_open_one_unless_the_game_scales(make_game):
    shelved(make_game, "Pair", min_players=2, max_players=None)
    starter = shelved(make_game, "Starter", min_players=1, max_players=99)
    party = shelved(make_game, "Open", min_players=3, max_players=MAX_PLAYERS_OPEN)
    assert names(picker.pick(players=15, minutes=60, youngest=10)) == []
    # "1-99" says nothing of the real maximum: offered for its minimum only.
    assert names(picker.pick(players=3, minutes=60, youngest=10)) == ["Open"]
    assert names(picker.pick(players=1, minutes=60, youngest=10)) == ["Starter"]
    tag = Term.objects.create(kind=Term.Kind.TAG, slug="box-scales", name_en="scales (party game)")
    party.terms.add(tag)  # a host says it is a real party game
    with translation.override("en"):
        picks = picker.pick(players=15, minutes=60, youngest=10)
    assert names(picks) == ["Open"] and "any number can join" in picks[0].reasons
    assert names(picker.pick(players=4, minutes=60, youngest=10)) == ["Open"] and starter.max_players == 99


def test_unknown_weight_never_beats_a_fitting_known_one(make_game):
    shelved(make_game, "Mystery", weight=None, rating_count=500, rating=9.5, best_min_players=4, best_max_players=4)
    shelved(make_game, "Fits", weight="3.0", rating_count=500, rating=5.0)
    shelved(make_game, "Featherweight", weight="1.2", rating_count=500, rating=9.0, best_min_players=4, best_max_players=4)
    assert names(picker.pick(players=4, minutes=60, youngest=10, mood="thinky")) == ["Fits", "Mystery", "Featherweight"]
    light = picker.pick(players=4, minutes=60, youngest=10, mood="light")
    assert names(light)[0] == "Featherweight" and names(light)[1] == "Mystery"


def test_thinky_is_a_band_not_the_heaviest_box_and_says_so_when_it_falls_back(make_game):
    shelved(make_game, "Medium", weight="3", rating=7.5)
    shelved(make_game, "Heavy", weight="4", rating=7.5)
    shelved(make_game, "Crushing", weight="5", rating=9.0)
    shelved(make_game, "Breezy", weight="2", rating=9.0)
    # Whole-number weights: 3 is the heart of the band, 4 still in it, 5 and 2 out of it.
    with translation.override("en"):
        thinky = picker.pick(players=4, minutes=60, youngest=10, mood="thinky")
    # The two that fit, then one outside the band (a shortlist shows three) that says so.
    assert names(thinky)[:2] == ["Medium", "Heavy"] and len(thinky) == picker.MIN_SHOWN
    assert thinky[2].fit == picker.MISFITS and any("fits" in r for r in thinky[2].reasons)
    Copy.objects.filter(game__title__in=["Crushing", "Breezy"]).update(status=Copy.Status.LENT)
    with translation.override("en"):
        fallback = picker.pick(players=4, minutes=60, youngest=10, mood="thinky")
    assert all("nothing weightier" not in r for p in fallback for r in p.reasons)
    for game in Game.objects.filter(title__in=["Medium", "Heavy"]):
        game.copies.update(status=Copy.Status.LENT)
    shelved(make_game, "Light", weight="1.5")
    with translation.override("en"):
        fallback = picker.pick(players=4, minutes=60, youngest=10, mood="thinky")
    assert names(fallback) == ["Light"]
    assert any("nothing weightier fits" in r for r in fallback[0].reasons)


def test_one_game_per_family_or_box_in_the_shortlist(make_game):
    shelved(make_game, "Ticket to Ride", owned_count=100, rating_count=100, rating=7.5)
    shelved(make_game, "Ticket to Ride: Europe", owned_count=90, rating_count=100, rating=7.6)
    shelved(make_game, "Pandemic", owned_count=80, rating_count=100, rating=7.6)
    box = shelved(make_game, "Karo", min_players=2, max_players=2)
    for title in ("Rampants", "Quatre en ligne"):
        make_game(title, kind=Game.Kind.IN_BOX, base_game=box, min_players=2, max_players=2, min_time=15)
    make_game("Pandemic: On the Brink", kind=Game.Kind.EXPANSION, base_game=Game.objects.get(title="Pandemic"),
              min_players=2, max_players=5)
    four = names(picker.pick(players=4, minutes=60, youngest=10))
    assert four == ["Ticket to Ride: Europe", "Pandemic"]
    two = names(picker.pick(players=2, minutes=60, youngest=10))
    assert len([t for t in two if t in ("Karo", "Rampants", "Quatre en ligne")]) == 1


def test_twelve_players_get_tables_with_suggestions_each(client, make_game):
    for i, (low, high) in enumerate([(8, 18), (3, 6), (3, 6), (4, 8), (2, 4), (3, 5), (4, 6)]):
        shelved(make_game, f"{'ABCDEFG'[i]} Box", min_players=low, max_players=high, rating_count=100, rating=7 + i / 10)
    plan = picker.plan(players=12, minutes=60, youngest=10)
    assert names(plan.together) == ["A Box"]
    assert [[t.players for t in split.tables] for split in plan.splits] == [[6, 6], [4, 4, 4]]
    for split in plan.splits:
        used = [p.game.pk for t in split.tables for p in t.picks]
        assert len(used) == len(set(used))  # no box at two tables
        assert all(t.picks and all(p.reasons for p in t.picks) for t in split.tables)
        for table in split.tables:
            assert all(p.game.min_players <= table.players <= p.game.max_players for p in table.picks)
    html = client.get("/catalogue/quoi-jouer/", {"players": 12, "minutes": 60, "youngest": 10, "mood": "anything"}).content.decode()
    assert "Ou répartis en plusieurs tables" in html and "Pourquoi" in html
    assert typeset("3 tables : 4 + 4 + 4 joueurs") in html
