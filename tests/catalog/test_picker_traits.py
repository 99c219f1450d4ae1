"""The picker's options (issue #25): only co-operative games, party games, games with
little to read. The traits come from the hosts' tags, the reviewed list
(catalog/data/picker-traits.csv) and a few series' names; the list is checked
against the shared data set; a bad answer or a bad line changes nothing."""

from __future__ import annotations

import csv

import pytest

from django.utils import translation

from catalog.collection import game_traits, picker
from catalog.collection.models import Term
from tests.catalog.shelf import reviewed_list, shelve, titles
from tests.catalog.test_names_data import data_titles

# title, bgg_id, players, minutes, age, weight, ratings, rating: real games' facts
SHELF = [
    ("Pandemic", 30549, (2, 4), (45, 45), 8, "2", 100000, 7.6),
    ("Forbidden Island", 65244, (2, 4), (30, 30), 10, "2", 40000, 6.8),
    ("The Crew: The Quest for Planet Nine", 284083, (2, 5), (20, 20), 10, "2", 40000, 8.0),
    ("Hanabi", 98778, (2, 5), (25, 25), 8, "2", 40000, 7.1),
    ("Exit: The Game The Abandoned Cabin", 203420, (1, 4), (45, 90), 12, "3", 9000, 7.1),
    ("Codenames", 178900, (2, 8), (15, 15), 14, "1", 80000, 7.6),
    ("Dixit", 39856, (3, 6), (30, 30), 8, "1", 60000, 7.3),
    ("Skull", 92415, (3, 6), (15, 45), 10, "1", 20000, 7.2),
    ("Azul", 230802, (2, 4), (30, 45), 8, "2", 80000, 7.8),
    ("Kingdomino", 204583, (2, 4), (15, 15), 8, "1", 50000, 7.3),
    ("Race for the Galaxy", 28143, (2, 4), (30, 60), 12, "3", 30000, 7.8),
    ("Orchard", 5770, (2, 8), (10, 10), 3, "1", 1000, 6.7),
    ("Cockroach Poker", 11971, (2, 6), (20, 20), 8, "1", 9000, 6.7),
]

pytestmark = pytest.mark.django_db


@pytest.fixture
def shelf(make_game):
    return shelve(make_game, SHELF, "T1")


def test_the_reviewed_list_names_real_games_with_known_traits_and_a_source(shared_dir):
    data = data_titles(shared_dir)
    with game_traits.REVIEWED.open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    assert [*rows[0]] == ["bgg_id", "title", "traits", "source"] and len(rows) >= 200
    ids = [row["bgg_id"] for row in rows]
    assert len(ids) == len(set(ids)), "one line per game"
    for row in rows:
        assert data.get(int(row["bgg_id"])) == row["title"], row  # the id is the game the line names
        traits = row["traits"].split()
        assert traits and set(traits) <= set(game_traits.TRAITS) and len(traits) == len(set(traits)), row
        assert row["source"].strip(), row
    for trait in game_traits.TRAITS:
        assert sum(trait in row["traits"].split() for row in rows) >= 50, trait
    # Not co-operative: a competitive game of a co-operative family, a winner among the players.
    assert "coop" not in game_traits.reviewed().get(157789, frozenset())  # Pandemic: Contagion
    assert "coop" not in game_traits.reviewed().get(43443, frozenset())  # Castle Panic's Master Slayer


def test_series_read_from_names_and_the_hosts_word_is_final():
    for title in ("Exit: The Game The Sunken Treasure", "Unlock!: Mystery Adventures", "Deckscape: Heist in Venice",
                  "Escape Room: The Game Jumanji", "Escape Tales: Low Memory", "Adventure Games: The Dungeon"):
        assert game_traits.traits_of(title, None) == {game_traits.COOP}, title
    for title in ("Deckscape Crew vs Crew: The Pirates' Island", "Exit Strategy", "Escape from Colditz", ""):
        assert game_traits.traits_of(title, None) == frozenset(), title
    assert game_traits.traits_of("Codenames", 178900) == {game_traits.PARTY}
    assert game_traits.traits_of("Codenames", 178900, frozenset({"trait-little-reading", "trait-not-party"})) == {
        game_traits.LITTLE_READING}
    # A tag that is not a trait's says nothing.
    assert game_traits.traits_of("Codenames", 178900, frozenset({"trait-loud", "box-plain"})) == {game_traits.PARTY}


def test_a_co_operative_evening_gets_only_co_operative_games_and_says_so(shelf):
    plan = picker.plan(players=4, minutes=60, youngest=12, like=frozenset({"coop"}))
    picks = titles(plan.together)
    # The Exit box may last 90 minutes; the children's Orchard comes last (made for 3-year-olds).
    assert set(picks) == {"Pandemic", "Forbidden Island", "The Crew: The Quest for Planet Nine", "Hanabi", "Orchard"}
    assert picks[0] == "Pandemic" and picks[-1] == "Orchard"
    with translation.override("en"):
        reasons = [picker.plan(players=4, minutes=60, youngest=12, like=frozenset({"coop"})).together[0].reasons]
    assert "co-operative: you win or lose together" in reasons[0]
    assert "Exit: The Game The Abandoned Cabin" in titles(picker.pick(4, 90, 12, like=frozenset({"coop"})))


def test_options_add_up_and_a_party_of_six_gets_party_games(shelf):
    party = titles(picker.plan(players=6, minutes=30, youngest=14, like=frozenset({"party"})).together)
    assert set(party) == {"Codenames", "Dixit", "Cockroach Poker"}  # Skull may last 45 min
    assert set(titles(picker.plan(players=6, minutes=45, youngest=14, like=frozenset({"party"})).together)) == {
        "Codenames", "Dixit", "Cockroach Poker", "Skull"}
    both = picker.plan(players=4, minutes=30, youngest=8, like=frozenset({"coop", "little-reading"}))
    assert titles(both.together) == ["Hanabi", "Orchard"]
    assert picker.plan(players=4, minutes=30, youngest=8, like=frozenset({*game_traits.TRAITS})).together == []


def test_a_four_year_old_who_cannot_read_yet(shelf):
    picks = titles(picker.pick(players=3, minutes=20, youngest=4, like=frozenset({"little-reading"})))
    assert picks == ["Orchard"]
    # without the option, nothing else a four-year-old can play is on this shelf either
    assert titles(picker.pick(players=3, minutes=20, youngest=4)) == ["Orchard"]


def test_hosts_tags_add_and_take_away_a_trait(shelf):
    coop = Term.objects.create(kind=Term.Kind.TAG, slug="trait-coop", name_en="co-operative")
    not_coop = Term.objects.create(kind=Term.Kind.TAG, slug="trait-not-coop", name_en="not co-operative")
    shelf["Race for the Galaxy"].terms.add(coop)  # a house rule: played together against the deck
    shelf["Hanabi"].terms.add(not_coop)
    picks = titles(picker.plan(players=4, minutes=60, youngest=12, like=frozenset({"coop"})).together)
    assert "Race for the Galaxy" in picks and "Hanabi" not in picks


def test_the_page_offers_the_options_in_french_and_says_why(client, shelf):
    page = client.get("/catalogue/quoi-jouer/").content.decode()
    assert "jeux coopératifs" in page and "jeux d’ambiance" in page and "jeux avec peu de lecture" in page
    html = client.get("/catalogue/quoi-jouer/", {"players": 4, "minutes": 60, "youngest": 12, "mood": "anything",
                                                 "like": "coop"}).content.decode()
    assert "coopératif\u00a0: on gagne ou on perd ensemble" in html  # no line break before the colon
    # Azul fits the group (4 players, 60 min, 12 years) but is not co-operative.
    assert ">Azul<" in client.get("/catalogue/quoi-jouer/", {"players": 4, "minutes": 60, "youngest": 12,
                                                            "mood": "anything"}).content.decode()
    assert ">Azul<" not in html and ">Pandemic<" in html
    assert 'name="like" value="coop"' in html and "checked" in html.split('value="coop"')[1][:40]
    empty = client.get("/en/catalogue/what-to-play/", {"players": 4, "minutes": 20, "youngest": 4, "mood": "anything",
                                                       "like": ["coop", "party"]})
    assert empty.context["picks"] == [] and "fewer options" in empty.content.decode()


def test_a_bad_option_is_refused_and_picks_nothing(client, shelf):
    for like in ("solo", ["coop", "box-plain"], "trait-coop", "COOP", "coop" * 1000):
        response = client.get("/en/catalogue/what-to-play/", {"players": 4, "minutes": 60, "youngest": 10,
                                                              "mood": "anything", "like": like})
        assert response.status_code == 200 and response.context["picks"] is None
        assert [*response.context["form"].errors] == ["like"]
    # The same option twice is one option.
    twice = client.get("/en/catalogue/what-to-play/", {"players": 4, "minutes": 60, "youngest": 12,
                                                       "mood": "anything", "like": ["coop", "coop"]})
    assert set(titles(twice.context["picks"])) == set(titles(picker.pick(4, 60, 12, like=frozenset({"coop"}))))
    # Called directly, an unknown trait is ignored rather than ruling everything out.
    assert titles(picker.pick(4, 60, 12, like=frozenset({"bogus"}))) == titles(picker.pick(4, 60, 12))


def test_a_bad_line_in_the_reviewed_list_stops_nothing(shelf, tmp_path):
    with reviewed_list(game_traits, tmp_path / "traits.csv",
                       "bgg_id,title,traits,source\nabc,Broken,coop,x\n,Empty,party,\n30549,Pandemic,loud,\n"
                       "65244,Forbidden Island,coop nonsense,\n\n"):
        picks = titles(picker.pick(players=4, minutes=60, youngest=12, like=frozenset({"coop"})))
    assert picks == ["Forbidden Island"]  # Pandemic's only trait is unknown: it says nothing


# A family weekend: real boxes for small children (facts from the shared data set).
FAMILY_SHELF = [
    ("Lotto", 11028, (2, 48), (30, 30), 3, "1", 271, 3.7),
    ("Yeti in My Spaghetti", 198961, (2, 99), (15, 15), 4, "1", 285, 5.0),
    ("Perfection", 5588, (1, 99), (6, 6), 4, "1", 1125, 4.3),
    ("Concept Kids: Animals", 247314, (2, 12), (20, 20), 4, "1", 593, 7.1),
    ("The Secret Door", 6558, (1, 8), (20, 20), 5, "1", 275, 6.1),
    ("Monster Chase", 43578, (1, 6), (10, 10), 4, "1", 940, 6.3),
    ("Mmm!", 172507, (1, 6), (15, 20), 5, "1", 532, 6.4),
    ("The Color Monster", 256980, (2, 5), (25, 25), 3, "1", 243, 6.7),
    ("Rhino Hero", 91514, (2, 5), (5, 15), 5, "1", 9053, 6.9),
]


def test_a_family_of_fifteen_with_a_child_of_four_gets_the_games_that_really_scale(make_game):
    shelve(make_game, FAMILY_SHELF, "F1")
    # Lotto seats 48; the reviewed list says the noodle-pulling and the timer game take any
    # number in turn. Concept Kids stops at 12, Rhino Hero at 5.
    assert set(titles(picker.pick(players=15, minutes=45, youngest=4))) == {
        "Lotto", "Yeti in My Spaghetti", "Perfection"}


def test_six_with_a_child_of_five_can_play_together_against_the_game(make_game):
    shelve(make_game, FAMILY_SHELF, "F1")
    picks = titles(picker.pick(players=6, minutes=30, youngest=5, like=frozenset({"coop"})))
    # The Color Monster seats five; Rhino Hero is not co-operative.
    assert set(picks) == {"The Secret Door", "Monster Chase", "Mmm!"}
