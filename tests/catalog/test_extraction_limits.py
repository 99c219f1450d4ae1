"""Text extraction under limits (issue 18, finding 4): a scan that asks for
gigabytes is refused before it is decoded, the process that reads scans is capped
and killed when it goes over, and each time the document ends "failed" with the
reason in words while the worker goes on with the next one."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from catalog.rulebooks import services
from catalog.rulebooks.models import Document
from catalog.rulebooks.uploads import Upload
from ludo import worker
from tests.catalog.pdf_helpers import pdf_from_objects
from tests.catalog.test_ocr import born_digital_pdf

pytestmark = pytest.mark.django_db(transaction=True)


def pdf_with_page(width_pt: int, height_pt: int) -> bytes:
    """A PDF of a few hundred bytes whose one blank page is ``width_pt`` x ``height_pt`` points."""
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %d %d] >>" % (width_pt, height_pt),
    ]
    return pdf_from_objects(objects)


def huge_png(side: int = 12_000) -> bytes:
    """A 144-megapixel PNG (blank, so a few hundred kilobytes)."""
    buffer = io.BytesIO()
    Image.new("1", (side, side), 1).save(buffer, "PNG")
    return buffer.getvalue()


def add(game, name: str, data: bytes) -> Document:
    return services.add_scanned_document(game, [Upload(name, data)], title=name, language="fr")


def extract_all() -> None:
    while worker.run_once(["catalog.extract_text"]) == worker.MIN_SLEEP:
        pass


def test_a_tiny_pdf_with_a_huge_page_is_refused_before_rendering(drumlin):
    data = pdf_with_page(14_400, 14_400)  # 200 x 200 inches: 3,600 megapixels at 300 dpi
    assert len(data) < 500
    bomb, good = add(drumlin, "bomb.pdf", data), add(drumlin, "ok.pdf", born_digital_pdf("x" * 60))
    extract_all()
    bomb.refresh_from_db()
    good.refresh_from_db()
    assert bomb.status == Document.Status.FAILED
    assert "page 1" in bomb.status_error and "3600" in bomb.status_error, bomb.status_error
    assert not bomb.pages.exists()
    assert good.status == Document.Status.DONE, good.status_error


# Pillow's own alarm at opening the header of the bomb the test sends on purpose.
@pytest.mark.filterwarnings("ignore::PIL.Image.DecompressionBombWarning")
def test_a_144_megapixel_image_is_refused_from_its_header(drumlin):
    bomb = add(drumlin, "bomb.png", huge_png())
    extract_all()
    bomb.refresh_from_db()
    assert bomb.status == Document.Status.FAILED
    assert "144" in bomb.status_error and "40" in bomb.status_error, bomb.status_error


def test_an_extraction_over_its_memory_is_stopped_with_the_reason(drumlin, settings):
    settings.LUDO_EXTRACTION = {**settings.LUDO_EXTRACTION, "memory_mb": 200}
    settings.LUDO_EXTRACTION["max_megapixels"] = 500
    # 3,000 x 3,000 points of blank page at 300 dpi: 156 megapixels, 625 MB; under
    # the raised page limit, the memory limit stops it.
    document = add(drumlin, "big.pdf", pdf_with_page(3_000, 3_000))
    extract_all()
    document.refresh_from_db()
    assert document.status == Document.Status.FAILED
    assert "200 Mo" in document.status_error or "200 MB" in document.status_error, document.status_error


def test_an_extraction_over_its_time_is_killed_with_the_reason(drumlin, settings):
    settings.LUDO_EXTRACTION = {**settings.LUDO_EXTRACTION, "wall_seconds": 0}
    document = add(drumlin, "ok.pdf", born_digital_pdf("x" * 60))
    extract_all()
    document.refresh_from_db()
    assert document.status == Document.Status.FAILED
    assert "0 s" in document.status_error, document.status_error
