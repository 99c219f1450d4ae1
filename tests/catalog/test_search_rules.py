"""Full-text search in the rulebooks, stemmed in each document's language, ranked,
with highlighted snippets linking into the reader at the right page."""

from __future__ import annotations

import pytest

from catalog.rulebooks import rules_search

pytestmark = pytest.mark.django_db

FRENCH = (
    "Mise en place.\nChaque joueur reçoit douze pièces.\f"
    "Le déplacement des éléphants se fait en ligne droite. Un éléphant qui rejoint le Drumlin devient un œuf."
)
GERMAN = (
    "Spielmaterial: ein Spielfeld mit achtzig Feldern.\f"
    "Die Steine ziehen waagrecht oder senkrecht. Ein Stein darf nicht über zwei Steine ziehen."
)


@pytest.fixture
def rulebooks(drumlin, text_document):
    return {
        "fr": text_document(drumlin, FRENCH, language="fr", title="Règle"),
        "de": text_document(drumlin, GERMAN, language="de", title="Regel"),
    }


def test_french_words_match_by_stem_and_without_accents(rulebooks):
    for query in ("éléphant", "elephants", "déplacer", "deplacements"):
        hits = rules_search.search_rules(query)
        assert [(h.document.language, h.page.number) for h in hits] == [("fr", 2)], query


def test_german_words_match_by_stem(rulebooks):
    for query in ("Stein", "Steinen", "Feldern", "Felder"):
        hits = rules_search.search_rules(query)
        assert hits and hits[0].document.language == "de", query
    assert rules_search.search_rules("Feld")[0].page.number == 1
    assert rules_search.search_rules("ziehen")[0].page.number == 2


def test_every_word_of_the_query_must_be_there(rulebooks):
    assert [h.page.number for h in rules_search.search_rules("éléphant œuf")] == [2]
    assert rules_search.search_rules("éléphant licorne") == []


def test_the_page_with_more_matches_ranks_first(drumlin, text_document):
    text_document(drumlin, "Un dragon.\fLe dragon, puis un dragon, encore des dragons.", language="fr")
    hits = rules_search.search_rules("dragon")
    assert [h.page.number for h in hits] == [2, 1]
    assert hits[0].rank >= hits[1].rank


def test_snippets_mark_the_words_and_link_to_the_page(client, rulebooks):
    hit = rules_search.search_rules("éléphants")[0]
    assert "<mark>éléphants</mark>" in hit.snippet.lower() or "<mark>Les éléphants</mark>" not in hit.snippet
    assert "<mark>" in hit.snippet and "éléphant" in hit.snippet
    assert hit.url.endswith(f"/regles/{rulebooks['fr'].pk}/page/2/")
    html = client.get("/catalogue/regles/recherche/", {"q": "éléphants"}).content.decode()
    assert f"/regles/{rulebooks['fr'].pk}/page/2/?q=" in html and "<mark>" in html


def test_snippets_escape_the_text(drumlin, text_document):
    text_document(drumlin, "Le dragon <script>alert(1)</script> vole.", language="fr")
    snippet = rules_search.search_rules("dragon")[0].snippet
    assert "<script>" not in snippet and "&lt;script&gt;" in snippet


def test_noise_is_not_searched(drumlin, text_document):
    text_document(drumlin, "Boutique Ludique\n06 12 34 56 78\nludique@example.org\nwww.ludique.fr\n\n\n\nLe dragon vole.",
                  language="fr")
    assert rules_search.search_rules("boutique") == []
    assert [h.page.number for h in rules_search.search_rules("dragon")] == [2]


def test_odd_queries_find_nothing_without_error(rulebooks):
    for query in ('"', "AND OR NOT", "*", "-", "stein*", "((", "':"):
        rules_search.search_rules(query)
    assert rules_search.search_rules("   ") == []
