"""The rulebook reader: page by page, a translation beside its original, corrections."""

from __future__ import annotations

import pytest

from catalog.errors import CatalogError
from catalog.rulebooks import rules_search, services
from catalog.rulebooks.models import Document
from ludo.language import english_url

pytestmark = pytest.mark.django_db

ORIGINAL = "Seite eins: Der Drache fliegt.\fSeite zwei: Das Ei bleibt liegen."
TRANSLATION = "Page un : le dragon vole.\fPage deux : l'œuf reste en place."


@pytest.fixture
def pair(drumlin, text_document):
    original = text_document(drumlin, ORIGINAL, language="de", title="Spielregel")
    translation = text_document(drumlin, TRANSLATION, language="fr", title="Règle traduite", translator="F. H.")
    services.link_translation(translation, original)
    return original, translation


def panes(html: str) -> tuple[str, str]:
    """Every cell of the main side, every cell of the other side."""
    cells = html.split('<section class="cell')[1:]
    main = "".join(c.split("</section>")[0] for c in cells if 'data-pane="main"' in c.split(">")[0])
    other = "".join(c.split("</section>")[0] for c in cells if 'data-pane="other"' in c.split(">")[0])
    return main, other


def test_a_translation_shows_beside_its_original_page_by_page(client, pair):
    original, translation = pair
    assert translation.kind == Document.Kind.TRANSLATION
    main, other = panes(client.get(translation.page_url(2)).content.decode())
    assert "l&#x27;œuf reste en place" in main and 'lang="fr"' in main
    assert "Das Ei bleibt liegen" in other
    assert "Seite eins" not in other and "Page un" not in main
    assert 'class="panes side-by-side"' in client.get(translation.page_url(1)).content.decode()


def test_the_original_shows_its_translation_beside_it(client, pair):
    original, _ = pair
    main, other = panes(client.get(original.page_url(1)).content.decode())
    assert "Der Drache fliegt" in main and "le dragon vole" in other


def test_the_phone_switch_names_both_languages(client, pair):
    _, translation = pair
    html = client.get(english_url(translation.page_url(1))).content.decode()
    switch = html.split("data-pane-switch", 1)[1].split("</div>", 1)[0]
    assert "French" in switch and "German" in switch


def test_a_translation_must_be_of_another_language_and_the_same_game(pair, make_game, text_document):
    original, translation = pair
    other_french = text_document(original.game, "Autre texte.", language="fr")
    with pytest.raises(CatalogError):
        services.link_translation(other_french, translation)
    stranger = text_document(make_game("Karo"), "Anderer Text.", language="de")
    with pytest.raises(CatalogError):
        services.link_translation(other_french, stranger)
    other_french.refresh_from_db()
    assert other_french.original is None


def test_a_missing_page_is_not_found(client, pair):
    assert client.get(pair[0].page_url(3)).status_code == 404


def test_hosts_correct_a_page_and_search_sees_the_correction(client, alice, pair):
    _, translation = pair
    client.force_login(alice)
    page_url = translation.page_url(1)
    assert "Correct this page" in client.get(english_url(page_url)).content.decode()
    response = client.post(page_url.replace("/page/1/", "/page/1/corriger/"), {"text": "Page un : la licorne galope."})
    assert response.status_code == 302
    page = translation.pages.get(number=1)
    assert page.text == "Page un : la licorne galope."
    assert page.extracted_text.startswith("Page un : le dragon") and page.corrected_by == alice
    assert [h.page.pk for h in rules_search.search_rules("licornes", alice)] == [page.pk]
    assert not [h for h in rules_search.search_rules("dragon", alice) if h.page.pk == page.pk]


def test_query_words_are_marked_on_the_page(client, pair):
    _, translation = pair
    html = client.get(translation.page_url(1) + "?q=dragons").content.decode()
    assert "<mark>dragon</mark>" in html
