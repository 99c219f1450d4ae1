"""Rulebook text cut into sections at its headings; Markdown rendered, all else escaped;
adverts and covers labelled; a lone heading is no page."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from catalog import text as textlib
from catalog.rulebooks import markdown, sections


def page(number: int, text: str, noise=None):
    return SimpleNamespace(number=number, text=text, noise=noise or [])


def test_a_lone_heading_between_blank_runs_is_no_page():
    text = "Le jeu\n\nChaque joueur joue à son tour.\nPuis l'autre.\n\n\n\nL'éléphant\n\n\n\nL'éléphant avance tout droit.\nIl vaut 1."
    pages = textlib.split_pages(text)
    assert len(pages) == 2
    assert pages[1].startswith("L'éléphant\n\nL'éléphant avance")
    assert min(len(p) for p in pages) > 30


def test_form_feeds_still_make_pages():
    assert textlib.split_pages("Titre\fSuite") == ["Titre", "Suite"]


def test_headings_of_every_kind_cut_sections():
    text = (
        "# **DREKKI**\n\n## But du jeu :\n\nÊtre le mage le moins brûlé.\n\n"
        "Mise en place\n\nChaque joueur prend ses cartes.\n\n"
        "1. Spielziel.\nDer erste gewinnt.\n2) Ablauf\nEs wird abwechselnd gezogen."
    )
    found = sections.document_sections([page(1, text)])
    assert [(s.heading, s.number) for s in found] == [
        ("DREKKI", ""), ("But du jeu :", ""), ("Mise en place", ""), ("1. Spielziel", "1"), ("2) Ablauf", "2"),
    ]
    assert found[1].body.strip() == "Être le mage le moins brûlé."
    assert found[3].body.strip() == "Der erste gewinnt."


def test_sentences_and_list_items_are_no_headings():
    text = "Ce rêve est devenu réalité !\n\n- Un joueur reçoit le Drumlin.\n\nLes symboles représentent :\n\nescaleajeux.fr"
    found = sections.document_sections([page(1, text)])
    assert [s.heading for s in found] == [""]


def test_the_text_atop_a_page_continues_the_previous_section():
    found = sections.document_sections([page(1, "Le dragon\n\nIl vole au-dessus des pièces,"), page(2, "d'une case.\n\nFin de la partie\n\nC'est fini.")])
    assert [(s.key, s.heading, s.continued) for s in found] == [
        ("1-1", "Le dragon", False), ("2-0", "", True), ("2-2", "Fin de la partie", False),
    ]


def test_an_advert_page_and_a_cover_are_labelled():
    advert = "Boutique Ludique\n06 12 34 56 78\nludique@example.org\nwww.ludique.fr"
    pages_text = ["K A\nR O", advert, "Matériel\n\n24 plaquettes et 12 pions."]
    noise = textlib.find_noise(pages_text)
    found = sections.document_sections([page(n, t, [m.to_dict() for m in marks])
                                        for n, (t, marks) in enumerate(zip(pages_text, noise), start=1)])
    assert [(s.page, s.kind) for s in found] == [(1, "cover"), (2, "advert"), (3, "body")]


def test_markdown_is_rendered_never_shown_raw():
    html = markdown.render("## Mise en place\n\nLes **lignes de base** et *l'œuf*.\n\n- un\n- deux\n\n1. premier\n2. second")
    assert "<h4>Mise en place</h4>" in html
    assert "<strong>lignes de base</strong>" in html and "<em>l&#x27;œuf</em>" in html
    assert "<ul><li>un</li><li>deux</li></ul>" in html
    assert '<ol class="numbered"><li>1. premier</li><li>2. second</li></ol>' in html
    assert "**" not in html and "##" not in html


def test_unpaired_marks_are_dropped_and_bold_may_span_lines():
    assert markdown.inline("**ESCALE À\nJEUX**") == "<strong>ESCALE À<br>JEUX</strong>"
    assert markdown.inline("un ** reste") == "un  reste"
    assert markdown.plain("# **DREKKI**") == "DREKKI"


def test_everything_else_is_escaped():
    html = markdown.render('**<script>alert(1)</script>** <img src=x onerror="alert(2)"> & *<b>*')
    assert "<script>" not in html and "<img" not in html and "<b>" not in html
    assert "&lt;script&gt;" in html and "&lt;img src=x onerror=&quot;alert(2)&quot;&gt;" in html and "&amp;" in html


def test_query_words_are_marked_inside_emphasis():
    html = markdown.render("Les **éléphants** ont une valeur.", mark=lambda w: w.startswith("éléphant"))
    assert "<strong><mark>éléphants</mark></strong>" in html


@pytest.mark.django_db
def test_rulebooks_imported_before_are_split_again(drumlin, text_document):
    from catalog.rulebooks import reading
    from catalog.rulebooks.models import DocumentPage

    doc = text_document(drumlin, "Le jeu\n\nOn joue à tour de rôle.\nChacun son tour.\n\n\n\nL'éléphant\n\n\n\nIl avance.\nTout droit.")
    assert doc.pages.count() == 2
    # As the importer cut it before: the lone heading on a page of its own.
    doc.pages.all().delete()
    for number, text in enumerate(["Le jeu\n\nOn joue à tour de rôle.\nChacun son tour.", "L'éléphant", "Il avance.\nTout droit."], 1):
        DocumentPage.objects.create(document=doc, number=number, method="import", extracted_text=text, text=text)
    assert reading.resplit(doc) is True
    assert [p.text for p in doc.pages.order_by("number")] == [
        "Le jeu\n\nOn joue à tour de rôle.\nChacun son tour.", "L'éléphant\n\nIl avance.\nTout droit.",
    ]
    assert reading.resplit(doc) is False
    page = doc.pages.get(number=1)
    from django.utils import timezone

    DocumentPage.objects.filter(pk=page.pk).update(corrected_at=timezone.now())
    doc.pages.all().exclude(pk=page.pk).delete()
    assert reading.resplit(doc) is False  # a host's correction is never thrown away


@pytest.mark.django_db
def test_the_command_splits_every_imported_rulebook_again(drumlin, text_document):
    import io

    from django.core.management import call_command

    from catalog.rulebooks.models import DocumentPage

    doc = text_document(drumlin, "Le jeu\n\nOn joue.\nPuis l'autre.\n\n\n\nLe dragon\n\n\n\nIl vole.\nHaut.")
    doc.pages.all().delete()
    for number, text in enumerate(["Le jeu\n\nOn joue.\nPuis l'autre.", "Le dragon", "Il vole.\nHaut."], 1):
        DocumentPage.objects.create(document=doc, number=number, method="import", extracted_text=text, text=text)
    out = io.StringIO()
    call_command("resplit_rulebooks", stdout=out)
    assert "1 document(s) split again" in out.getvalue() and doc.pages.count() == 2
    call_command("resplit_rulebooks", stdout=out)
    assert "0 document(s) split again" in out.getvalue()
