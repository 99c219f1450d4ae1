"""The reader pairs a translation with its original section by section (numbering,
headings, then position), even with a section missing or added; hosts correct a
pairing; the demo shows the Drumlin translation beside the German rules."""

from __future__ import annotations

import io

import pytest
from django.urls import reverse

from catalog.rulebooks import reading, sections, services
from catalog.rulebooks.models import Document, SectionPairing
from ludo.language import english_url

pytestmark = pytest.mark.django_db

GERMAN = (
    "1. Spielmaterial\n12 Steine je Spieler, 1 Spielfeld mit 80 Feldern.\n\n"
    "2. Spielziel\nWer zuerst die Grundlinie des Gegners erreicht, gewinnt.\n\n"
    "3. Ablauf\nEs wird abwechselnd gezogen. Ein Stein zieht waagrecht oder senkrecht.\n\n"
    "4. Spielende\nDas Spiel endet, wenn ein Spieler keinen Stein mehr hat."
)
# The translation leaves out section 3 and adds a note of its own.
FRENCH = (
    "1. Matériel\n12 pièces par joueur, 1 tablier de 80 cases.\n\n"
    "2. But du jeu\nLe premier qui atteint la ligne de base adverse gagne.\n\n"
    "Note du traducteur\n\nCette traduction a été faite d'après une copie de la boîte.\n\n"
    "4. Fin de la partie\nLa partie s'arrête quand un joueur n'a plus de pièce."
)


@pytest.fixture
def pair(drumlin, text_document):
    original = text_document(drumlin, GERMAN, language="de", title="Spielregel")
    translation = text_document(drumlin, FRENCH, language="fr", title="Règle traduite")
    services.link_translation(translation, original)
    return original, translation


def labels(document: Document) -> dict[str, str]:
    return {s.key: s.heading for s in reading.document_sections(document)}


def test_a_missing_and_an_extra_section_pair_with_nothing(pair):
    original, translation = pair
    found = reading.pairs(translation, original)
    t, o = labels(translation), labels(original)
    named = {t[k]: (o[v] if v else None) for k, v in found.items()}
    assert named == {
        "1. Matériel": "1. Spielmaterial", "2. But du jeu": "2. Spielziel",
        "Note du traducteur": None, "4. Fin de la partie": "4. Spielende",
    }


def test_headings_pair_through_the_glossary_when_nothing_is_numbered():
    def doc(text):
        from types import SimpleNamespace

        return sections.document_sections([SimpleNamespace(number=1, text=text, noise=[])])

    french = doc("Contenu\n\n24 pièces.\n\nMise en place\n\nOn pose les pièces.\n\nBut du jeu\n\nGagner.\n\n"
                 "L'éléphant\n\nL'éléphant avance en ligne droite.\n\nLe dragon\n\nLe dragon vole au-dessus d'un éléphant.")
    german = doc("O. Spielmaterial.\n24 Steine.\n1. Anfanqstellung\nDie Steine stehen.\n2. Spielziel.\nGewinnen.\n"
                 "3. Ablauf.\nSteine A ziehen waagrecht oder senkrecht. Steine B ziehen über Steine A.")
    found = sections.align(french, german, "fr", "de", "drumlin")
    by = {s.key: s.heading for s in german}
    assert [(s.heading, by.get(found[s.key])) for s in french] == [
        ("Contenu", "0. Spielmaterial"), ("Mise en place", "1. Anfanqstellung"), ("But du jeu", "2. Spielziel"),
        ("L'éléphant", "3. Ablauf"), ("Le dragon", "3. Ablauf"),
    ]


def test_the_reader_shows_each_section_beside_its_counterpart(client, pair):
    original, translation = pair
    html = client.get(translation.page_url(1)).content.decode()
    cells = html.split('<section class="cell')[1:]
    rows = [(cells[i], cells[i + 1]) for i in range(0, len(cells), 2)]
    assert len(rows) == 5  # four of the translation, and the original's section 3 between them
    assert "Matériel" in rows[0][0] and "Spielmaterial" in rows[0][1]
    assert "Note du traducteur" in rows[2][0] and "No counterpart" in client.get(english_url(translation.page_url(1))).content.decode()
    assert "Ablauf" in rows[3][1] and 'data-pane="main"' in rows[3][0] and "Matériel" not in rows[3][0]
    assert "Fin de la partie" in rows[4][0] and "Spielende" in rows[4][1]


def test_an_advert_page_is_labelled_and_the_document_opens_after_it(client, drumlin, text_document):
    advert = "Boutique Ludique\n06 12 34 56 78\nludique@example.org\nwww.ludique.fr"
    doc = text_document(drumlin, advert + "\fBut du jeu\n\nGagner la partie en premier.", language="fr")
    html = client.get(english_url(doc.page_url(1))).content.decode()
    assert 'data-page-kind="advert"' in html and "Advert" in html
    assert reading.first_page(doc) == 2
    from django.utils import translation

    with translation.override("en"):
        rules = client.get(drumlin.rules_url()).content.decode()
        start, second = reverse("catalog:read", args=[doc.pk]), doc.page_url(2)
    assert f'href="{start}"' in rules
    assert client.get(start)["Location"] == second


def test_hosts_correct_a_pairing(client, alice, pair):
    original, translation = pair
    url = f"/catalogue/regles/{translation.pk}/sections/"
    client.force_login(alice)
    page = client.get(english_url(url)).content.decode()
    assert "Note du traducteur" in page and "No counterpart" in page
    note = next(s for s in reading.document_sections(translation) if s.heading == "Note du traducteur")
    ablauf = next(s for s in reading.document_sections(original) if s.heading == "3. Ablauf")
    assert client.post(url, {"section": note.key, "original_section": ablauf.key}).status_code == 302
    assert reading.pairs(translation, original)[note.key] == ablauf.key
    assert SectionPairing.objects.get(translation=translation, section=note.key).set_by == alice
    client.post(url, {"section": note.key, "original_section": "auto"})
    assert reading.pairs(translation, original)[note.key] is None


def test_a_bad_pairing_changes_nothing(client, alice, pair):
    _, translation = pair
    client.force_login(alice)
    url = f"/catalogue/regles/{translation.pk}/sections/"
    for data in ({"section": "9-9", "original_section": "none"}, {"section": "1-1", "original_section": "7-7"}, {}):
        assert client.post(url, data).status_code == 302
    assert not SectionPairing.objects.exists()


def test_only_hosts_reach_the_pairing_screen(client, bob, pair):
    _, translation = pair
    url = f"/catalogue/regles/{translation.pk}/sections/"
    assert client.get(url).status_code == 302  # to the log-in page
    client.force_login(bob)
    assert client.get(url).status_code == 302
    assert client.post(url, {"section": "1-1", "original_section": "none"}).status_code == 302
    assert not SectionPairing.objects.exists()
    assert "sections/" not in client.get(translation.page_url(1)).content.decode()


def test_the_demo_shows_the_drumlin_translation_beside_the_german_rules(client, shared_dir):
    from catalog import demo
    from catalog.rulebooks import demo_links

    if not (shared_dir / "seeds").is_dir():
        pytest.skip("no seed rulebooks")
    demo._boxes(io.StringIO())
    demo._seeds(io.StringIO())
    demo_links.link(io.StringIO())
    french = Document.objects.get(title="Drumlin — règle en français")
    german = Document.objects.get(title="Drumlin — Zusammenfassung (Clou 1986)")
    assert french.original == german
    assert reading.first_page(french) == 2
    html = client.get(french.page_url(2)).content.decode()
    cells = html.split('<section class="cell')[1:]
    rows = {c.split('data-section="')[1].split('"')[0]: n for n, c in enumerate(cells) if "data-section" in c}
    setup = next(c for c in cells if "Mise en place" in c and 'data-pane="main"' in c[:200])
    beside = cells[cells.index(setup) + 1]
    assert "Anfanqstellung" in beside and rows
    assert "**" not in html and "&lt;|" not in html
