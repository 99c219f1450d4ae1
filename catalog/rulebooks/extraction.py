"""Text out of rulebook scans: the PDF text layer when there is one, else tesseract.

A document whose files were uploaded waits with status "pending". The worker's
documents lane claims one (``claim_next``) and hands its files to a process of
their own (catalog.rulebooks.extractor) with memory, processor-time and wall-time limits
and a limit on the size of a page: a scan that asks for gigabytes, or a page
tesseract never finishes, costs that process only, never the worker. The process
sends the pages one by one (text, OCR confidence, reader image and thumbnail
written to a temporary folder); each page's images are moved into storage as they
come, so memory does not grow with the page count; the rows are written at the end,
all at once, with the noise found across pages. A document with pages the OCR was
unsure of ends "to check" (those pages are listed for staff), else "done". Any
refusal, crash or limit reached is recorded on the document (status "failed",
the reason in words) and the worker goes on. A document left "running" for longer
than STALE_AFTER (a worker killed mid-way) is claimed again.
"""

from __future__ import annotations

import io
import json
import logging
import os
import selectors
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.files import File
from django.db import connection, transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from PIL import Image

from catalog import media
from catalog import text as textlib
from catalog.rulebooks import extractor, ocr
from catalog.rulebooks.models import TESSERACT_LANG, Document, DocumentFile, DocumentPage

log = logging.getLogger(__name__)

STALE_AFTER = timedelta(minutes=30)
THUMB_WIDTH = extractor.THUMB_WIDTH
READER_WIDTH = extractor.READER_WIDTH
PDF_MAGIC = extractor.PDF_MAGIC


class ExtractionError(Exception):
    """A file we cannot read or a limit reached; the message is shown to staff."""


@dataclass
class ExtractedPage:
    method: str
    text: str
    confidence: float | None = None
    steps: list[str] = field(default_factory=list)
    doubtful: bool = False
    image: str = ""  # names in storage
    thumbnail: str = ""


def tesseract_available() -> bool:
    return ocr.tesseract_available()


# -- the extraction process ----------------------------------------------------------------


def _reason(code: str, params: dict) -> str:
    """A refusal of catalog.rulebooks.extractor in words, in the site's language (it is stored)."""
    limits = settings.LUDO_EXTRACTION
    with translation.override(settings.LANGUAGE_CODE):
        messages = {
            "unreadable_pdf": _("not a readable PDF (%(detail)s)"),
            "unreadable_image": _("not a readable image (%(detail)s)"),
            "too_many_pages": _("a PDF of more than %(limit)s pages is not accepted"),
            "page_too_large": _(
                "page %(page)s is too large: %(megapixels)s megapixels once rendered, the limit is %(limit)s"
            ),
            "ocr_failed": "%(detail)s",
            "out_of_memory": _("the extraction needed more than %(limit)s MB of memory and was stopped"),
            "cpu": _("the extraction used more than %(limit)s s of processor time and was stopped"),
            "wall": _("the extraction took longer than %(limit)s s and was stopped"),
            "crashed": _("the extraction process stopped unexpectedly (%(detail)s)"),
            "no_file": _("the document has no file"),
        }
        defaults = {
            "out_of_memory": limits["memory_mb"], "cpu": limits["cpu_seconds"], "wall": limits["wall_seconds"],
        }
        values = {"limit": defaults.get(code), "detail": code, **params}
        return str(messages.get(code, messages["crashed"])) % values


def _command(paths: list[str], language: str, out: str) -> list[str]:
    limits = settings.LUDO_EXTRACTION
    return [
        sys.executable, "-m", "catalog.rulebooks.extractor", "--out", out,
        "--language", TESSERACT_LANG.get(language, "eng"),
        "--memory-mb", str(limits["memory_mb"]), "--cpu-seconds", str(limits["cpu_seconds"]),
        "--max-megapixels", str(limits["max_megapixels"]), *paths,
    ]


def extracted_pages(paths: list[str], language: str, out: str) -> Iterator[dict]:
    """The pages of ``paths`` as catalog.rulebooks.extractor sends them, one by one; raises
    ExtractionError on a refusal, a crash or a limit reached (the process is then killed)."""
    # One thread each for tesseract and numpy; large blocks always from mmap, so that
    # what a page took goes back to the system before the next page.
    env = {**os.environ, "OMP_THREAD_LIMIT": "1", "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1",
           "MALLOC_MMAP_THRESHOLD_": "131072", "MALLOC_ARENA_MAX": "2"}
    wall = settings.LUDO_EXTRACTION["wall_seconds"]
    deadline = time.monotonic() + wall
    with tempfile.TemporaryFile() as stderr:
        process = subprocess.Popen(
            _command(paths, language, out), cwd=settings.BASE_DIR, env=env,
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=stderr,
        )
        try:
            selector = selectors.DefaultSelector()
            selector.register(process.stdout, selectors.EVENT_READ)
            pending = b""
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise ExtractionError(_reason("wall", {}))
                if not selector.select(min(left, 5)):
                    continue
                chunk = os.read(process.stdout.fileno(), 65536)
                if not chunk:
                    break
                pending += chunk
                while b"\n" in pending:
                    line, pending = pending.split(b"\n", 1)
                    record = json.loads(line)
                    if "error" in record:
                        raise ExtractionError(_reason(record.pop("error"), record))
                    yield record
            status = process.wait(max(1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            raise ExtractionError(_reason("wall", {})) from None
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
            process.stdout.close()
        if status != 0:
            stderr.seek(0)
            tail = stderr.read()[-2000:].decode("utf-8", "replace")
            log.warning("extraction process ended with %s: %s", status, tail)
            if status == -signal.SIGXCPU:
                raise ExtractionError(_reason("cpu", {}))
            if "MemoryError" in tail or "Cannot allocate memory" in tail or "std::bad_alloc" in tail:
                raise ExtractionError(_reason("out_of_memory", {}))
            detail = f"signal {-status}" if status < 0 else f"exit status {status}"
            raise ExtractionError(_reason("crashed", {"detail": detail}))


# -- storing the pages ---------------------------------------------------------------------


def _store_image(row: DocumentPage, field_name: str, path: Path) -> str:
    model_field = DocumentPage._meta.get_field(field_name)
    with open(path, "rb") as handle:
        name = model_field.storage.save(model_field.generate_filename(row, path.name), File(handle))
    path.unlink()
    return name


def extract_document(document: Document) -> int:
    """Rebuild the pages of ``document`` from its files; returns the number of pages."""
    files = list(document.files.order_by("position", "id"))
    if not files:
        raise ExtractionError(_reason("no_file", {}))
    paths = [f.file.path for f in files]
    stored: list[str] = []
    extracted: list[ExtractedPage] = []
    probe = DocumentPage(document=document)  # for the names of the images in storage
    try:
        with tempfile.TemporaryDirectory(prefix="ludo-extract-") as out:
            for record in extracted_pages(paths, document.language, out):
                page = ExtractedPage(
                    record["method"], record["text"], record.get("confidence"), record.get("steps") or [],
                    bool(record.get("doubtful")),
                )
                page.image = _store_image(probe, "image", Path(out) / record["image"])
                stored.append(page.image)
                page.thumbnail = _store_image(probe, "thumbnail", Path(out) / record["thumbnail"])
                stored.append(page.thumbnail)
                extracted.append(page)
        noise = textlib.find_noise([p.text for p in extracted])
        with transaction.atomic():
            old = list(document.pages.values_list("image", "thumbnail"))
            document.pages.all().delete()
            for number, (page, marks) in enumerate(zip(extracted, noise), start=1):
                row = DocumentPage(
                    document=document, number=number, method=page.method,
                    extracted_text=page.text, text=page.text, noise=[m.to_dict() for m in marks],
                    confidence=page.confidence, ocr_steps=page.steps, needs_check=page.doubtful,
                )
                row.image.name, row.thumbnail.name = page.image, page.thumbnail
                row.save()
            transaction.on_commit(lambda: _delete([n for pair in old for n in pair if n]))
    except BaseException:
        _delete(stored)
        raise
    return len(extracted)


def _delete(names: list[str]) -> None:
    storage = DocumentPage._meta.get_field("image").storage
    for name in names:
        try:
            storage.delete(name)
        except OSError:
            log.warning("could not delete %s", name)


# -- the job -------------------------------------------------------------------------------


def waiting():
    """Documents waiting for their text, the oldest first: pending ones, and
    those left "running" longer than STALE_AFTER (a worker killed mid-way)."""
    stale = timezone.now() - STALE_AFTER
    qs = Document.objects.filter(status=Document.Status.PENDING) | Document.objects.filter(
        status=Document.Status.RUNNING, claimed_at__lt=stale
    )
    return qs.order_by("created", "id")


def claim_next() -> Document | None:
    """Mark the oldest waiting document as running and return it (None: nothing to do)."""
    return claim()


def claim(document_id: Any = None) -> Document | None:
    """Mark a waiting document (this one, else the oldest) as running and return
    it (None: it is not waiting, or another worker took it).

    Rows are locked with SKIP LOCKED where the database has it, so several workers
    never take the same document; on SQLite the write transaction does that.
    """
    with transaction.atomic():
        qs = waiting() if document_id is None else waiting().filter(pk=document_id)
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


def process(document_id: Any) -> bool:
    """Claim and process this document if it is waiting (the worker's job, document by document)."""
    document = claim(document_id)
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
    """The accepted kinds of scan, read from the bytes (catalog.media.sniff): a PDF,
    or a PNG, JPEG, WebP, TIFF or GIF image whose header Pillow can read."""
    kind = media.sniff(data[: media.HEAD_BYTES])
    if kind is None or kind == "application/pdf":
        return kind
    try:
        with Image.open(io.BytesIO(data)) as image:
            image.size  # the header only; the pixels are decoded by the worker, within limits
    except Exception:
        return None
    return kind


__all__ = ["DocumentFile", "ExtractionError", "claim", "claim_next", "extract_document", "process", "process_next",
           "sniff_content_type", "waiting"]
