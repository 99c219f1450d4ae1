"""Each playable game's glossary: its own terms in French, German and English, shown on
its rules page and read by the rules search."""

from __future__ import annotations

import pytest

from catalog.rulebooks import glossary
from ludo.language import english_url

pytestmark = pytest.mark.django_db


def test_every_playable_game_has_a_glossary_in_three_languages():
    from games import engines

    for slug in engines.slugs():
        entries = glossary.for_game(slug)
        assert len(entries) >= 3, slug
        for entry in entries:
            assert all(entry.terms(lang) and all(t.strip() for t in entry.terms(lang)) for lang in glossary.LANGS)


def test_a_term_stands_for_its_translations_whatever_its_form():
    assert {"éléphant"} <= glossary.translations(["éléphants"])["fr"]
    assert "Elefant" in glossary.translations(["elephants"])["de"]
    assert "bid" in glossary.translations(["Gebot"])["en"]
    assert glossary.translations(["licorne"]) == {}


def test_the_glossary_shows_on_the_rules_page(client, drumlin):
    html = client.get(english_url(drumlin.rules_url())).content.decode()
    table = html.split('class="glossary"', 1)[1].split("</table>", 1)[0]
    assert "éléphant" in table and "Elefant" in table and "elephant" in table
    assert "œuf de dragon" in table and "Drachenei" in table


def test_a_game_without_an_engine_shows_no_glossary(client, make_game):
    game = make_game("Karo")
    assert 'class="glossary"' not in client.get(game.rules_url()).content.decode()
