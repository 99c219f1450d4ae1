"""Text out of scans: tesseract in the document's language in the background worker,
the text layer of born-digital PDFs used as it is, failures recorded."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest
from PIL import Image, ImageDraw, ImageFont

from catalog.errors import CatalogError
from catalog.rulebooks import extraction, services
from catalog.rulebooks.models import Document, DocumentPage
from catalog.rulebooks.uploads import Upload
from ludo import worker
from ludo.language import english_url
from tests.catalog.pdf_helpers import pdf_from_objects
from tests.conftest import require

# The worker closes connections between jobs, as it does in production: these tests
# cannot run inside the usual per-test transaction.
pytestmark = pytest.mark.django_db(transaction=True)

FRENCH = ["Le dragon vole au-dessus", "des éléphants et de l'œuf."]
GERMAN = ["Der Spieler zieht seine Steine", "über das Spielfeld: größer!"]


FONTS = [
    "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSerif-Regular.ttf",
]


def font() -> ImageFont.FreeTypeFont:
    """A system font with accented letters (Pillow's own has none of them)."""
    path = next((p for p in FONTS if Path(p).is_file()), None)
    require(path is not None, "no DejaVu or Liberation font to draw accented letters (Debian fonts-dejavu-core)")
    return ImageFont.truetype(path, 48)


def scan(lines: list[str]) -> Image.Image:
    """A page as a scanner would give it: black text on white, 300 dpi-ish."""
    font_ = font()
    image = Image.new("L", (1700, 500), 255)
    draw = ImageDraw.Draw(image)
    for row, line in enumerate(lines):
        draw.text((80, 80 + row * 90), line, font=font_, fill=0)
    return image


def png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return buffer.getvalue()


def pdf_of(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.convert("RGB").save(buffer, "PDF", resolution=150)
    return buffer.getvalue()


def born_digital_pdf(text: str) -> bytes:
    """A one-page PDF whose text is real text (a text layer), written by hand."""
    stream = f"BT /F1 18 Tf 72 720 Td ({text}) Tj ET".encode("latin-1")
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    ]
    return pdf_from_objects(objects)


def words(text: str) -> set[str]:
    return {w.strip(".,:!'").lower() for w in text.split()}


def run_worker() -> None:
    worker.run_once(["catalog.extract_text"])


@pytest.mark.parametrize("language, lines, expected", [
    ("fr", FRENCH, {"dragon", "vole", "éléphants"}),
    ("de", GERMAN, {"spieler", "zieht", "steine", "spielfeld"}),
])
def test_the_worker_reads_a_scan_in_its_language(drumlin, language, lines, expected):
    require(shutil.which("tesseract") is not None, "tesseract is not installed")
    document = services.add_scanned_document(
        drumlin, [Upload("page1.png", png(scan(lines)))], title="Scan", language=language
    )
    assert document.status == Document.Status.PENDING
    run_worker()
    document.refresh_from_db()
    assert document.status == Document.Status.DONE, document.status_error
    page = document.pages.get()
    assert page.method == DocumentPage.Method.OCR
    assert expected <= words(page.text), page.text
    assert page.thumbnail and page.image
    with page.thumbnail.open("rb") as handle:
        assert Image.open(handle).width <= extraction.THUMB_WIDTH


def test_the_original_upload_is_kept_unaltered(drumlin):
    data = png(scan(FRENCH))
    document = services.add_scanned_document(drumlin, [Upload("p.png", data)], title="Scan", language="fr")
    stored = document.files.get()
    with stored.file.open("rb") as handle:
        assert handle.read() == data
    assert stored.size == len(data) and stored.content_type == "image/png"


def test_a_scanned_pdf_is_rendered_and_read(drumlin):
    require(shutil.which("tesseract") is not None, "tesseract is not installed")
    document = services.add_scanned_document(
        drumlin, [Upload("scan.pdf", pdf_of(scan(FRENCH)))], title="PDF scan", language="fr"
    )
    run_worker()
    page = Document.objects.get(pk=document.pk).pages.get()
    assert page.method == DocumentPage.Method.OCR
    assert {"dragon", "vole"} <= words(page.text)


def test_a_born_digital_pdf_gives_its_text_layer_without_ocr(drumlin):
    text = "Chaque joueur place le Drumlin sur une case libre du tablier."
    document = services.add_scanned_document(
        drumlin, [Upload("rules.pdf", born_digital_pdf(text))], title="PDF", language="fr"
    )
    run_worker()
    page = Document.objects.get(pk=document.pk).pages.get()
    assert page.method == DocumentPage.Method.TEXT_LAYER
    assert " ".join(page.text.split()) == text


def test_a_broken_file_fails_with_a_reason_and_the_worker_goes_on(drumlin):
    broken = services.add_scanned_document(
        drumlin, [Upload("broken.pdf", b"%PDF-1.4\nnot really a pdf")], title="Broken", language="fr"
    )
    good = services.add_scanned_document(
        drumlin, [Upload("ok.pdf", born_digital_pdf("Le dragon vole au-dessus des cases."))],
        title="Good", language="fr",
    )
    run_worker()
    run_worker()
    broken.refresh_from_db()
    good.refresh_from_db()
    assert broken.status == Document.Status.FAILED and "PDF" in broken.status_error
    assert good.status == Document.Status.DONE


def test_a_claimed_document_is_not_claimed_twice(drumlin):
    services.add_scanned_document(
        drumlin, [Upload("ok.pdf", born_digital_pdf("Le dragon."))], title="One", language="fr"
    )
    first = extraction.claim_next()
    assert first is not None and first.status == Document.Status.RUNNING
    assert extraction.claim_next() is None


def test_uploads_that_are_not_scans_are_refused(drumlin):
    with pytest.raises(CatalogError, match="neither a PDF nor an image"):
        services.add_scanned_document(drumlin, [Upload("x.exe", b"MZ\x90\x00")], title="X", language="fr")
    with pytest.raises(CatalogError, match="empty"):
        services.add_scanned_document(drumlin, [Upload("x.png", b"")], title="X", language="fr")
    assert not Document.objects.exists()


def test_the_status_shows_on_the_reader_while_the_text_is_made_and_to_the_hosts_once_ready(
        client, admin_client, drumlin):
    document = services.add_scanned_document(
        drumlin, [Upload("ok.pdf", born_digital_pdf("Le dragon."))], title="One", language="fr"
    )
    url = english_url(document.get_absolute_url())
    page = client.get(url).content.decode()
    assert "status-pending" in page and "waiting for text extraction" in page
    assert 'http-equiv="refresh"' in page
    run_worker()
    page = client.get(url).content.decode()
    # "Text ready" is the normal case: no news for a reader, a fact for a host.
    assert "Le dragon." in page and "status-" not in page and "text ready" not in page
    page = admin_client.get(url).content.decode()
    assert "status-done" in page and "text ready" in page and "Le dragon." in page
