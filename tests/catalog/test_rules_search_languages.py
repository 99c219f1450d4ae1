"""The rules search across languages through the games' glossaries, with the language
of each hit; phrases and -exclusions; function words never marked; the same pages on
top on SQLite and PostgreSQL (the suite runs on both)."""

from __future__ import annotations

import pytest

from catalog.rulebooks import rules_search

pytestmark = pytest.mark.django_db

FRENCH = (
    "L'éléphant\n\nLes éléphants ont une valeur de 1. L'éléphant se déplace en ligne droite.\f"
    "L'œuf de dragon\n\nL'œuf de dragon ne se déplace pas. Le dragon vaut 2.\f"
    "La règle de 4\n\nUne case ne peut contenir plus de 4 points. La règle est stricte."
)
GERMAN = (
    "Der Elefant zieht waagrecht oder senkrecht. Ein Elefant hat den Wert 1.\f"
    "Das Ei bleibt liegen. Der Drache hat den Wert 2 und fliegt."
)
ENGLISH = "Bidding\n\nEach player makes a bid. The highest bid wins the auction."


@pytest.fixture
def library(drumlin, make_game, text_document):
    drekki = make_game("Drekki", engine_slug="drekki")
    return {
        "fr": text_document(drumlin, FRENCH, language="fr", title="Règle"),
        "de": text_document(drumlin, GERMAN, language="de", title="Regel"),
        "en": text_document(drekki, ENGLISH, language="en", title="Rules"),
        "fr-drekki": text_document(drekki, "Enchères\n\nChaque joueur fait une enchère à son tour.", language="fr",
                                   title="Règle de Drekki"),
    }


def where(hits) -> list[tuple[str, int]]:
    return [(h.language, h.page.number) for h in hits]


def test_a_german_word_finds_the_french_passages_and_the_language_is_marked(library):
    hits = rules_search.search_rules("Elefant")
    assert ("fr", 1) in where(hits) and ("de", 1) in where(hits)
    french = next(h for h in hits if h.language == "fr")
    assert french.through == ["éléphant"] and "<mark>éléphants</mark>" in french.snippet
    german = next(h for h in hits if h.language == "de")
    assert german.through == [] and "<mark>Elefant</mark>" in german.snippet


def test_a_french_word_finds_the_german_and_english_passages(library):
    assert {("de", 2), ("fr", 2)} <= set(where(rules_search.search_rules("œuf")))
    assert set(where(rules_search.search_rules("enchère"))) == {("fr", 1), ("en", 1)}
    assert set(where(rules_search.search_rules("auction"))) == {("fr", 1), ("en", 1)}
    assert set(where(rules_search.search_rules("egg"))) >= {("de", 2), ("fr", 2)}


def test_the_search_page_names_each_hit_language_and_the_terms(client, library):
    html = client.get("/en/catalogue/rules/search/", {"q": "Elefant"}).content.decode()
    assert 'data-language="fr"' in html and 'data-language="de"' in html
    assert "found through the glossary: éléphant" in html and "data-glossary-terms" in html


def test_phrases_must_follow_each_other(library):
    assert where(rules_search.search_rules('"règle de 4"')) == [("fr", 3)]
    assert where(rules_search.search_rules('"4 de règle"')) == []
    assert where(rules_search.search_rules('"Wert 2"')) == [("de", 2)]


def test_a_minus_word_leaves_out_the_pages_holding_it(library):
    assert ("fr", 2) in where(rules_search.search_rules("dragon"))
    assert ("fr", 2) not in where(rules_search.search_rules("dragon -œuf"))
    # Wert is valeur in French, Drache dragon: the pages with a value and no dragon.
    assert set(where(rules_search.search_rules("Wert -Drache"))) == {("de", 1), ("fr", 1)}
    assert rules_search.search_rules("-dragon") == []


def test_function_words_neither_restrict_nor_get_marked(library):
    hits = rules_search.search_rules("la règle de la case")
    assert where(hits) == [("fr", 3)]
    snippet = hits[0].snippet
    assert "<mark>règle</mark>" in snippet and "<mark>case</mark>" in snippet
    assert "<mark>La</mark>" not in snippet and "<mark>de</mark>" not in snippet and "<mark>la</mark>" not in snippet
    assert rules_search.search_rules("la de der the") == []


def test_snippets_render_markdown_and_escape_the_rest(drumlin, text_document):
    text_document(drumlin, "## Le **dragon**\n\n- Le *dragon* <script>alert(1)</script> vole.", language="fr")
    snippet = rules_search.search_rules("dragon")[0].snippet
    assert "<strong><mark>dragon</mark></strong>" in snippet and "<em><mark>dragon</mark></em>" in snippet
    assert "**" not in snippet and "##" not in snippet and "<script>" not in snippet and "&lt;script&gt;" in snippet


# The shared test set: the first hits each database must agree on.
SHARED = {
    "éléphant": ("fr", 1),
    "dragon": ("fr", 2),
    "valeur": ("fr", 1),
    "Wert": ("de", 1),
    "bid": ("en", 1),
    "règle": ("fr", 3),
    "Elefant": ("de", 1),  # the word as typed, before the glossary's
    "egg": ("fr", 2),  # through the glossary only: two eggs in French, one Ei in German
    "dragon valeur": ("de", 2),  # no French page holds both; the German one does, as Drache and Wert
}


def test_both_databases_put_the_same_page_first(library, drumlin, text_document):
    # A long page that says "dragon" once must not outrank a short one saying it twice.
    text_document(drumlin, "Le dragon. " + "Une phrase sans rapport avec le sujet. " * 60, language="fr", title="Long")
    for query, first in SHARED.items():
        hits = rules_search.search_rules(query)
        assert hits and (hits[0].document.title != "Long") and where(hits)[0] == first, query


def test_the_catalogue_page_shows_the_rules_panel(client, library):
    html = client.get("/catalogue/", {"q": "Elefant"}).content.decode()
    assert "In the rulebooks" in client.get("/en/catalogue/", {"q": "Elefant"}).content.decode()
    assert "éléphant" in html


def test_the_search_page_pages_through_many_hits(client, drumlin, text_document):
    text_document(drumlin, "\f".join(f"Le dragon numéro {n} vole." for n in range(25)), language="fr")
    first = client.get("/en/catalogue/rules/search/", {"q": "dragon"}).content.decode()
    assert first.count("<li data-language") == 20 and "more pages" in first
    second = client.get("/en/catalogue/rules/search/", {"q": "dragon", "page": "2"}).content.decode()
    assert second.count("<li data-language") == 5 and 'start="21"' in second and "better matches" in second
    assert client.get("/en/catalogue/rules/search/", {"q": "dragon", "page": "x"}).status_code == 200
