"""Demo content for `make run`: the three boxes, the seed rulebooks, and the catalogue
at the gîte's size (9,000 games with their French names, each with a copy on a shelf)."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from catalog import demo
from catalog.collection.models import Game, GameName
from catalog.rulebooks.models import Document
from catalog.shelves.models import Copy
from tests.conftest import require

pytestmark = pytest.mark.django_db


def test_the_demo_loads_once_and_again_changes_nothing(client, shared_dir):
    require((shared_dir / "data").is_dir() and (shared_dir / "seeds").is_dir(), f"no shared folder at {shared_dir}")
    out = io.StringIO()
    demo.load(out)
    games, copies, documents = Game.objects.count(), Copy.objects.count(), Document.objects.count()
    names = GameName.objects.filter(language="fr").count()
    assert games == 6 + demo.DEMO_GAMES
    assert documents == len(demo.SEEDS)
    for slug in ("drumlin", "karo", "drekki"):
        game = Game.objects.get(slug=slug)
        assert game.copies.count() == 1 and game.editions.exists()
    assert {g.engine_slug for g in Game.objects.get(slug="karo").children.all()} == {
        "rampants-sauteurs", "eclaircissement", "quatre-en-ligne"}
    assert all(d.status == Document.Status.DONE and d.pages.exists() for d in Document.objects.all())
    assert copies == 3 + demo.DEMO_GAMES
    ttr = Game.objects.get(bgg_id=9209)
    assert ttr.title_fr == "Les Aventuriers du Rail" and ttr.copies.count() == 1
    assert GameName.objects.filter(language="fr").count() >= 500
    demo.load(io.StringIO())
    assert (Game.objects.count(), Copy.objects.count(), Document.objects.count()) == (games, copies, documents)
    assert client.get("/catalogue/", {"q": "drumln"}).context["results"][0].slug == "drumlin"
    assert client.get("/catalogue/", {"q": "aventuriers du rail"}).context["results"][0] == ttr
    assert GameName.objects.filter(language="fr").count() == names


def test_without_the_shared_folder_the_demo_says_so_and_loads_the_boxes(monkeypatch, tmp_path, settings):
    settings.DEBUG = True  # make run's setting
    monkeypatch.setenv("LUDO_SHARED_DIR", str(tmp_path / "nowhere"))
    out = io.StringIO()
    call_command("load_demo", stdout=out)
    text = out.getvalue()
    assert "no seed rulebooks found" in text and "data set is missing" in text
    assert Game.objects.filter(slug__in=["drumlin", "karo", "drekki"]).count() == 3
