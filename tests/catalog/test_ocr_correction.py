"""Staff correct the pages the OCR was unsure of: the correction screen shows the OCR's
text beside the page's, a corrected or passed page leaves the list, and the document
is "done" once no page is left."""

from __future__ import annotations

import pytest

from catalog.errors import CatalogError
from catalog.rulebooks import ocr_review, services
from catalog.rulebooks.models import Document, DocumentPage
from catalog.rulebooks.uploads import Upload

OCR_TEXT = ["Le dragon vole au-dessus des cases.", "Le drag0n v0le, l'élèphant d0rt.", "Ch@que j0ueur p1ace."]


@pytest.fixture
def scanned(db, drumlin):
    """A document as the worker leaves it when two of its three pages read poorly."""
    document = services.add_scanned_document(
        drumlin, [Upload("p.pdf", b"%PDF-1.4 placeholder")], title="Scan", language="fr"
    )
    for number, text in enumerate(OCR_TEXT, start=1):
        DocumentPage.objects.create(
            document=document, number=number, method=DocumentPage.Method.OCR, extracted_text=text, text=text,
            confidence=95.0 if number == 1 else 61.5, needs_check=number > 1, ocr_steps=["deskew +1.50°"],
        )
    Document.objects.filter(pk=document.pk).update(status=Document.Status.TO_CHECK)
    document.refresh_from_db()
    return document


def url(document, number):
    return f"/en/catalogue/rules/{document.pk}/page/{number}/correct/"


def test_only_staff_open_the_correction_screen(client, bob, scanned):
    assert client.get(url(scanned, 2)).status_code == 302
    client.force_login(bob)
    response = client.get(url(scanned, 2))
    assert response.status_code == 302 and "/admin/login/" in response["Location"]
    assert client.get(f"/en/catalogue/rules/{scanned.pk}/to-check/").status_code == 302
    response = client.post(url(scanned, 2), {"text": "vandalised", "return_to": "review"})
    assert response.status_code == 302 and scanned.pages.get(number=2).text == OCR_TEXT[1]


def test_the_screen_shows_the_scan_and_the_text_to_correct(client, alice, scanned):
    client.force_login(alice)
    html = client.get(url(scanned, 2)).content.decode()
    assert "OCR confidence 62%" in html and "straightened by 1.50°" in html
    assert "Le drag0n v0le" in html  # the text to correct, in the form
    assert "The text is right as it is" in html
    assert "2 pages left to check" in html


def test_a_correction_becomes_the_text_and_keeps_the_ocr_beside(client, alice, scanned):
    client.force_login(alice)
    response = client.post(url(scanned, 2), {"text": "Le dragon vole, l'éléphant dort.", "return_to": "review"})
    assert response["Location"] == url(scanned, 3)  # on to the next page to check
    corrected = scanned.pages.get(number=2)
    assert corrected.text == "Le dragon vole, l'éléphant dort." and corrected.extracted_text == OCR_TEXT[1]
    assert corrected.corrected_by == alice and corrected.checked_by == alice and not corrected.awaiting_check
    html = client.get(url(scanned, 2)).content.decode()
    assert "Text as the OCR read it" in html and "Le drag0n v0le" in html
    assert "1 page left to check" in html
    scanned.refresh_from_db()
    assert scanned.status == Document.Status.TO_CHECK


def test_the_document_is_done_once_every_flagged_page_is_corrected_or_passed(client, alice, scanned):
    client.force_login(alice)
    client.post(url(scanned, 2), {"text": "Le dragon vole.", "return_to": "review"})
    response = client.post(url(scanned, 3), {"action": "checked", "text": "", "return_to": "review"})
    assert response["Location"] == f"/en/catalogue/rules/{scanned.pk}/to-check/"
    scanned.refresh_from_db()
    assert scanned.status == Document.Status.DONE
    passed = scanned.pages.get(number=3)
    assert passed.text == OCR_TEXT[2] and passed.checked_by == alice and passed.corrected_at is None
    review = client.get(response["Location"]).content.decode()
    assert "No page is waiting to be checked." in review and "text ready" in review


def test_the_reader_form_also_takes_a_page_off_the_list(client, alice, scanned):
    client.force_login(alice)
    for number in (2, 3):
        response = client.post(url(scanned, number), {"text": f"Page {number} relue."})
        assert response["Location"] == f"/en/catalogue/rules/{scanned.pk}/page/{number}/"
    scanned.refresh_from_db()
    assert scanned.status == Document.Status.DONE


def test_a_page_that_was_not_flagged_cannot_be_passed(alice, scanned):
    with pytest.raises(CatalogError, match="not listed"):
        ocr_review.mark_checked(scanned.pages.get(number=1), alice)
    scanned.refresh_from_db()
    assert scanned.status == Document.Status.TO_CHECK


def test_a_text_too_long_changes_nothing(client, alice, scanned):
    client.force_login(alice)
    client.post(url(scanned, 2), {"text": "x" * 100_001, "return_to": "review"})
    page = scanned.pages.get(number=2)
    assert page.text == OCR_TEXT[1] and page.awaiting_check
    scanned.refresh_from_db()
    assert scanned.status == Document.Status.TO_CHECK


def test_the_admin_lists_the_pages_to_check(client, alice, scanned):
    client.force_login(alice)
    listing = client.get("/admin/catalog/document/?status__exact=to_check").content.decode()
    assert "2 pages à vérifier" in listing and f"/catalogue/regles/{scanned.pk}/a-verifier/" in listing


def test_the_reader_notice_leads_staff_to_the_correction_screen(alice, bob, scanned):
    from django.contrib.auth.context_processors import PermWrapper
    from django.contrib.auth.models import AnonymousUser
    from django.template.loader import render_to_string

    page = scanned.pages.get(number=2)
    for user in (alice, bob, AnonymousUser()):
        context = {"document": scanned, "page": page, "user": user, "perms": PermWrapper(user)}
        html = render_to_string("catalog/_ocr_staff_notice.html", context)
        shown = f'href="{page.correct_url()}"' in html and f'href="{scanned.review_url()}"' in html
        assert shown == (user == alice)
