"""Text out of rulebook scans: the PDF text layer when there is one, else tesseract.

A document whose files were uploaded waits with status "pending". The worker job
claims one (``claim_next``), turns every file into pages (PDF pages rendered with
pypdfium2, images as they are), reads each page's text (tesseract after the
preprocessing of catalog/ocr.py, which also gives the page's confidence), makes a
reader image and a thumbnail with Pillow, then stores all pages at once. A document
with pages the OCR was unsure of ends "to check" (those pages are listed for staff),
else "done". Any error is recorded on the document (status "failed") and the worker
goes on. A document left "running" for longer than STALE_AFTER (a worker killed
mid-way) is claimed again.
"""

from __future__ import annotations

import io
import logging
from dataclasses import dataclass, field
from datetime import timedelta

from django.core.files.base import ContentFile
from django.db import connection, transaction
from django.utils import timezone
from PIL import Image, ImageOps

from catalog import ocr
from catalog import text as textlib
from catalog.models import TESSERACT_LANG, Document, DocumentFile, DocumentPage

log = logging.getLogger(__name__)

STALE_AFTER = timedelta(minutes=30)
OCR_DPI = 300
READER_WIDTH = 1100
THUMB_WIDTH = 160
MIN_TEXT_LAYER_CHARS = 40
MAX_PAGES = 400
PDF_MAGIC = b"%PDF-"


class ExtractionError(Exception):
    """A file we cannot read; the message is shown to staff."""


@dataclass
class ExtractedPage:
    method: str
    text: str
    image: Image.Image | None
    confidence: float | None = None
    steps: list[str] = field(default_factory=list)
    doubtful: bool = False


def tesseract_available() -> bool:
    return ocr.tesseract_available()


def ocr_page(image: Image.Image, language: str) -> ExtractedPage:
    """tesseract on one page image, in the document's language (fra, deu, eng), after
    the preprocessing that page needs."""
    try:
        result = ocr.read_page(image, TESSERACT_LANG.get(language, "eng"))
    except ocr.OcrError as exc:
        raise ExtractionError(str(exc)) from None
    text = textlib.decode_text(result.text.encode("utf-8")).strip()
    return ExtractedPage(
        DocumentPage.Method.OCR, text, image, result.confidence, result.steps, result.doubtful
    )


def ocr_image(image: Image.Image, language: str) -> str:
    return ocr_page(image, language).text


def _pdf_pages(data: bytes, language: str) -> list[ExtractedPage]:
    import pypdfium2 as pdfium

    try:
        pdf = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        raise ExtractionError(f"not a readable PDF ({exc})") from None
    pages = []
    try:
        if len(pdf) > MAX_PAGES:
            raise ExtractionError(f"a PDF of more than {MAX_PAGES} pages is not accepted")
        for index in range(len(pdf)):
            page = pdf[index]
            textpage = page.get_textpage()
            layer = textlib.decode_text(textpage.get_text_bounded().encode("utf-8", "replace")).strip()
            textpage.close()
            if len("".join(layer.split())) >= MIN_TEXT_LAYER_CHARS:
                image = page.render(scale=READER_WIDTH / max(page.get_width(), 1)).to_pil()
                pages.append(ExtractedPage(DocumentPage.Method.TEXT_LAYER, layer, image))
            else:
                image = page.render(scale=OCR_DPI / 72).to_pil()
                pages.append(ocr_page(image, language))
            page.close()
    finally:
        pdf.close()
    return pages


def _image_page(data: bytes, language: str) -> ExtractedPage:
    try:
        image = Image.open(io.BytesIO(data))
        image.load()
    except Exception as exc:  # Pillow raises many kinds of errors on bad files
        raise ExtractionError(f"not a readable image ({type(exc).__name__})") from None
    image = ImageOps.exif_transpose(image).convert("RGB")
    return ocr_page(image, language)


def extract_file(data: bytes, language: str) -> list[ExtractedPage]:
    if data.startswith(PDF_MAGIC):
        return _pdf_pages(data, language)
    return [_image_page(data, language)]


def _png(image: Image.Image, width: int) -> ContentFile:
    copy = image.convert("RGB")
    if copy.width > width:
        copy = copy.resize((width, max(1, round(copy.height * width / copy.width))), Image.Resampling.LANCZOS)
    buf = io.BytesIO()
    copy.save(buf, "PNG", optimize=True)
    return ContentFile(buf.getvalue())


def extract_document(document: Document) -> int:
    """Rebuild the pages of ``document`` from its files; returns the number of pages."""
    extracted: list[ExtractedPage] = []
    files = list(document.files.order_by("position", "id"))
    if not files:
        raise ExtractionError("the document has no file")
    for f in files:
        with f.file.open("rb") as handle:
            extracted += extract_file(handle.read(), document.language)
    noise = textlib.find_noise([p.text for p in extracted])
    with transaction.atomic():
        document.pages.all().delete()
        for number, (page, marks) in enumerate(zip(extracted, noise), start=1):
            row = DocumentPage(
                document=document, number=number, method=page.method,
                extracted_text=page.text, text=page.text, noise=[m.to_dict() for m in marks],
                confidence=page.confidence, ocr_steps=page.steps, needs_check=page.doubtful,
            )
            if page.image is not None:
                row.image.save(f"p{number:03d}.png", _png(page.image, READER_WIDTH), save=False)
                row.thumbnail.save(f"p{number:03d}-thumb.png", _png(page.image, THUMB_WIDTH), save=False)
            row.save()
    return len(extracted)


def claim_next() -> Document | None:
    """Mark the oldest waiting document as running and return it (None: nothing to do).

    Rows are locked with SKIP LOCKED where the database has it, so several workers
    never take the same document; on SQLite the write transaction does that.
    """
    stale = timezone.now() - STALE_AFTER
    with transaction.atomic():
        qs = Document.objects.filter(status=Document.Status.PENDING) | Document.objects.filter(
            status=Document.Status.RUNNING, claimed_at__lt=stale
        )
        qs = qs.order_by("created", "id")
        if connection.features.has_select_for_update_skip_locked:
            qs = qs.select_for_update(skip_locked=True)
        document = qs.first()
        if document is None:
            return None
        document.status = Document.Status.RUNNING
        document.claimed_at = timezone.now()
        document.status_error = ""
        document.save(update_fields=["status", "claimed_at", "status_error"])
    return document


def process_next() -> bool:
    """Claim and process one document; False when none was waiting."""
    document = claim_next()
    if document is None:
        return False
    run(document)
    return True


def run(document: Document) -> Document:
    """Extract ``document``'s text now, recording success or failure on it."""
    try:
        extract_document(document)
    except Exception as exc:
        log.warning("text extraction of document %s failed: %s", document.pk, exc)
        message = str(exc) if isinstance(exc, ExtractionError) else f"{type(exc).__name__}: {exc}"
        Document.objects.filter(pk=document.pk).update(
            status=Document.Status.FAILED, status_error=message[:2000], processed_at=timezone.now()
        )
    else:
        to_check = document.pages_to_check().exists()
        Document.objects.filter(pk=document.pk).update(
            status=Document.Status.TO_CHECK if to_check else Document.Status.DONE,
            status_error="", processed_at=timezone.now(),
        )
    document.refresh_from_db()
    return document


def sniff_content_type(data: bytes) -> str | None:
    """The accepted kinds of upload: PDF, or an image Pillow can read, or text."""
    if data.startswith(PDF_MAGIC):
        return "application/pdf"
    try:
        with Image.open(io.BytesIO(data)) as image:
            return Image.MIME.get(image.format or "", "image/" + (image.format or "x").lower())
    except Exception:
        return None


__all__ = ["DocumentFile", "ExtractionError", "claim_next", "extract_document", "process_next", "sniff_content_type"]
