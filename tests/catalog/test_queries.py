"""List, detail and search pages run a fixed number of queries, however many results."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from catalog.collection.models import Edition, Person, Publisher
from catalog.shelves import services

pytestmark = pytest.mark.django_db


def count(client, url: str, params: dict | None = None) -> int:
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url, params or {}).status_code == 200
    return len(ctx.captured_queries)


def add_games(make_game, text_document, start: int, n: int) -> None:
    for i in range(start, start + n):
        game = make_game(f"Dragon game {i}", min_players=2, max_players=4, min_time=30)
        services.add_copy(game, f"A{i}")
        text_document(game, f"Le dragon numéro {i} vole.", language="fr")


@pytest.mark.parametrize("url, params", [
    ("/catalogue/", {}),
    ("/catalogue/", {"players": 3, "available": "on"}),
    ("/catalogue/", {"q": "dragon game"}),
    ("/catalogue/regles/recherche/", {"q": "dragon"}),
    ("/catalogue/quoi-jouer/", {"players": 3, "minutes": 60, "youngest": 10}),
])
def test_list_and_search_pages_do_not_grow_with_results(client, make_game, text_document, url, params):
    add_games(make_game, text_document, 1, 3)
    few = count(client, url, params)
    add_games(make_game, text_document, 4, 20)
    assert count(client, url, params) == few


def test_the_game_page_does_not_grow_with_copies_people_or_documents(client, drumlin, make_game, text_document, alice):
    client.force_login(alice)
    services.add_copy(drumlin, "D5")
    drumlin.designers.add(Person.objects.create(name="Thomas Kotulla"))
    text_document(drumlin, "Règle.", language="fr")
    few = count(client, drumlin.get_absolute_url())
    for i in range(8):
        copy = services.add_copy(drumlin, f"D{i + 6}", edition=Edition.objects.create(game=drumlin, language="de"))
        services.report_missing_part(copy, f"piece {i}")
        drumlin.designers.add(Person.objects.create(name=f"Designer {i}"))
        drumlin.publishers.add(Publisher.objects.create(name=f"Publisher {i}"))
        text_document(drumlin, f"Règle {i}.", language="fr")
    assert count(client, drumlin.get_absolute_url()) == few


def test_pages_stay_under_a_small_budget(client, make_game, text_document, django_assert_max_num_queries):
    add_games(make_game, text_document, 1, 30)
    with django_assert_max_num_queries(8):
        client.get("/catalogue/", {"q": "dragon"})
