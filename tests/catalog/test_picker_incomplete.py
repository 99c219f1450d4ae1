"""The picker's cards say when a pick's only playable boxes on the shelf are
incomplete (issue #26: missing parts the hosts said it can do without), read
from the flags boxes.status keeps, in one query for the whole answer."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from boxes.models import BoxState
from catalog.collection import picker
from catalog.collection.models import Game
from catalog.shelves import services
from catalog.shelves.models import Copy

pytestmark = pytest.mark.django_db

ENGLISH = "Box incomplete (parts missing), still playable."


def evening_game(make_game, title: str, **fields) -> Game:
    fields = {"min_players": 2, "max_players": 10, "min_time": 30, "max_time": 45, "min_age": 8, "weight": "1.8",
              "rating_count": 900, "rating": 7.2, "owned_count": 800, **fields}
    return make_game(title, **fields)


def flag(copy: Copy, incomplete: bool = True, unplayable: bool = False) -> None:
    BoxState.objects.update_or_create(copy=copy, defaults={"incomplete": incomplete, "unplayable": unplayable})


def card(picks, title: str) -> picker.Pick:
    return next(p for p in picks if p.game.title == title)


def test_a_pick_whose_only_box_is_incomplete_says_so(make_game):
    azul = evening_game(make_game, "Azul")
    other = evening_game(make_game, "Dixit")
    flag(services.add_copy(azul, "A1"))
    services.add_copy(other, "A2")
    picks = picker.pick(4, 60, 12)
    assert card(picks, "Azul").incomplete == 1 and card(picks, "Dixit").incomplete == 0


def test_only_playable_boxes_on_the_shelf_count(make_game):
    # A complete box beside it: nothing to say.
    azul = evening_game(make_game, "Azul")
    flag(services.add_copy(azul, "A1"))
    services.add_copy(azul, "A2")
    # A complete box lent out and one not playable do not help: the box to take is incomplete.
    dixit = evening_game(make_game, "Dixit")
    flag(services.add_copy(dixit, "B1"))
    services.add_copy(dixit, "B2", status=Copy.Status.LENT)
    flag(services.add_copy(dixit, "B3"), unplayable=True)
    # Two incomplete boxes: both counted.
    uno = evening_game(make_game, "Uno")
    flag(services.add_copy(uno, "C1"))
    flag(services.add_copy(uno, "C2"))
    # A box counted complete again (its flags cleared) says nothing.
    skat = evening_game(make_game, "Skat")
    flag(services.add_copy(skat, "D1"), incomplete=False)
    picks = picker.pick(4, 60, 12)
    assert [(p.game.title, p.incomplete) for p in sorted(picks, key=lambda p: p.game.title)] == [
        ("Azul", 0), ("Dixit", 1), ("Skat", 0), ("Uno", 2)]


def test_a_game_printed_in_another_box_follows_that_box(make_game):
    karo = evening_game(make_game, "Karo", min_players=5)  # the box's own game does not seat two
    inside = evening_game(make_game, "Sauteurs", kind=Game.Kind.IN_BOX, base_game=karo)
    flag(services.add_copy(karo, "K1"))
    picks = picker.pick(2, 60, 12)
    assert card(picks, "Sauteurs").incomplete == 1


def test_one_query_for_every_card_of_the_answer(make_game):
    """Nine players: the answer for everyone plus two ways to split, a dozen cards."""
    for i, title in enumerate(["Azul", "Dixit", "Uno", "Skat", "Hive", "Kingdomino", "Patchwork", "Jaipur",
                               "Cascadia", "Splendor", "Codenames", "Tichu"]):
        copy = services.add_copy(evening_game(make_game, title, min_players=2 + i % 3), f"A{i + 1}")
        flag(copy, incomplete=i % 2 == 0)
    with CaptureQueriesContext(connection) as queries:
        plan = picker.plan(9, 60, 12)
    cards = plan.together + [p for s in plan.splits for t in s.tables for p in t.picks]
    assert plan.splits and len(cards) > 8
    assert {p.game.title for p in cards if p.incomplete} == {p.game.title for p in cards if p.game.title in
                                                             {"Azul", "Uno", "Hive", "Patchwork", "Cascadia",
                                                              "Codenames"}}
    assert any(p.incomplete for p in cards) and not all(p.incomplete for p in cards)
    reading = [q["sql"] for q in queries.captured_queries if "incomplete" in q["sql"]]
    assert len(reading) == 1, reading


@pytest.mark.parametrize("language,path,words", [
    ("en", "/en/catalogue/what-to-play/", ENGLISH),
    ("fr", "/catalogue/quoi-jouer/", "Boîte incomplète (il manque des pièces), jouable quand même."),
])
def test_the_card_says_it_in_the_page_language(client, make_game, language, path, words):
    azul = evening_game(make_game, "Azul")
    flag(services.add_copy(azul, "A1"))
    services.add_copy(evening_game(make_game, "Dixit"), "A2")
    with translation.override(language):
        html = client.get(path, {"players": 4, "minutes": 60, "youngest": 12, "mood": "anything"}).content.decode()
    assert html.count("data-box-incomplete") == 1
    assert words in html
    azul_card = html.split("Azul</a>")[1].split("</li>")[0]
    assert "data-box-incomplete" in azul_card


def test_a_box_marked_not_playable_leaves_the_picker_rather_than_saying_so(make_game):
    azul = evening_game(make_game, "Azul")
    flag(services.add_copy(azul, "A1"), unplayable=True)
    services.add_copy(evening_game(make_game, "Dixit"), "A2")
    assert "Azul" not in [p.game.title for p in picker.pick(4, 60, 12)]
