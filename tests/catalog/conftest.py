"""Catalog fixtures: small games, copies and documents built through the services."""

from __future__ import annotations

from pathlib import Path

import pytest

from catalog import conf
from catalog.collection.models import Game, Term
from catalog.rulebooks import services
from catalog.rulebooks.models import Document
from catalog.rulebooks.uploads import Upload


@pytest.fixture
def make_game(db):
    def make(title: str, **fields) -> Game:
        game = Game(title=title, **fields)
        game.save()
        return game

    return make


@pytest.fixture
def drumlin(make_game):
    return make_game("Drumlin", min_players=2, max_players=2, min_time=45, max_time=45, min_age=12,
                     weight="2.8", engine_slug="drumlin", bgg_id=5012)


@pytest.fixture
def text_document(db):
    def make(game: Game, text: str, language: str = "fr", **fields) -> Document:
        fields.setdefault("title", f"{game.title} ({language})")
        return services.add_text_document(
            game, Upload("rules.txt", text.encode("utf-8")), language=language, **fields
        )

    return make


@pytest.fixture
def shared_dir() -> Path:
    return conf.shared_dir()


@pytest.fixture
def theme(db):
    return Term.objects.create(kind=Term.Kind.THEME, slug="animals", name_en="Animals", name_fr="Animaux")


@pytest.fixture(autouse=True)
def french_by_default():
    """URLs reversed in a test are the French ones, whatever a previous request activated."""
    from django.utils import translation

    with translation.override("fr"):
        yield
