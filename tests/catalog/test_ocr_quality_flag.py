"""OCR that knows its quality: a page tesseract is unsure of is flagged, and its
document ends "to check" with that page listed; a clean scan ends "done"."""

from __future__ import annotations

import pytest
from django.utils import translation

from catalog.rulebooks import extraction, ocr, services
from catalog.rulebooks.models import Document
from catalog.rulebooks.uploads import Upload
from ludo import worker
from tests.catalog.ocr_pages import page, png, poor_scan
from tests.conftest import require

# The worker closes connections between jobs, as in production: no per-test transaction.
pytestmark = pytest.mark.django_db(transaction=True)


def extract(game, *images):
    require(extraction.tesseract_available(), "tesseract is not installed")
    uploads = [Upload(f"p{n}.png", png(image)) for n, image in enumerate(images, start=1)]
    document = services.add_scanned_document(game, uploads, title="Scan", language="fr")
    worker.run_once(["catalog.extract_text"])
    document.refresh_from_db()
    return document


def test_a_clean_scan_is_done_and_nothing_is_listed(drumlin):
    document = extract(drumlin, page())
    assert document.status == Document.Status.DONE, document.status_error
    only = document.pages.get()
    assert only.confidence >= ocr.CONFIDENCE_THRESHOLD and not only.needs_check
    assert "éléphants" in only.text and not document.pages_to_check().exists()


def test_a_tilted_speckled_low_resolution_page_is_flagged_and_its_document_is_to_check(client, alice, drumlin):
    document = extract(drumlin, page(), poor_scan(page()))
    assert document.status == Document.Status.TO_CHECK, document.status_error
    first, second = document.pages.order_by("number")
    assert not first.needs_check
    assert second.needs_check and second.awaiting_check
    assert second.confidence is None or second.confidence < ocr.CONFIDENCE_THRESHOLD
    assert any(step.startswith("deskew") for step in second.ocr_steps)
    assert [p.number for p in document.pages_to_check()] == [2]
    # Staff see it listed, with a link to its correction screen.
    client.force_login(alice)
    with translation.override("en"):
        review = client.get(document.review_url()).content.decode()
    assert "text ready, pages to check" in review
    assert f'href="/en/catalogue/rules/{document.pk}/page/2/correct/"' in review
