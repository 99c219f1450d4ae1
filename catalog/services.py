"""Catalog actions: one function per action, each in a transaction.

Views, admin and management commands parse and authorise, then call these.
Bad input raises :class:`CatalogError` (a ValueError) with a message for people,
and changes nothing.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.db import transaction
from django.utils import timezone

from catalog import text as textlib
from catalog.extraction import sniff_content_type
from catalog.models import Copy, Document, DocumentFile, DocumentPage, Edition, Game, MissingPart



def max_upload_bytes() -> int:
    return settings.LUDO_MAX_UPLOAD_BYTES


class CatalogError(ValueError):
    """An action refused, with the reason in plain words."""


def _full_clean(obj, exclude: Iterable[str] | None = None) -> None:
    try:
        obj.full_clean(exclude=list(exclude or []))
    except ValidationError as exc:
        raise CatalogError("; ".join(f"{k}: {' '.join(v)}" for k, v in exc.message_dict.items())) from None


# -- games and copies -----------------------------------------------------------------------


@transaction.atomic
def add_copy(game: Game, shelf: str, *, edition: Edition | None = None, **fields) -> Copy:
    copy = Copy(game=game, edition=edition, shelf=shelf.strip().upper(), **fields)
    _full_clean(copy)
    copy.save()
    from catalog import qr

    qr.remember(copy)  # its label prints without drawing
    return copy


@transaction.atomic
def set_copy_status(copy: Copy, status: str) -> Copy:
    if status not in Copy.Status.values:
        raise CatalogError(f"unknown status {status!r}")
    Copy.objects.filter(pk=copy.pk).update(status=status)
    copy.status = status
    return copy


@transaction.atomic
def report_missing_part(copy: Copy, description: str, user=None) -> MissingPart:
    description = " ".join((description or "").split())
    if not description:
        raise CatalogError("say what is missing")
    if len(description) > 300:
        raise CatalogError("a missing part is described in at most 300 characters")
    return MissingPart.objects.create(copy=copy, description=description, reported_by=user)


@transaction.atomic
def mark_part_found(part: MissingPart) -> MissingPart:
    part.found_at = timezone.now()
    part.save(update_fields=["found_at"])
    return part


# -- documents --------------------------------------------------------------------------------


@dataclass
class Upload:
    name: str
    data: bytes


def check_upload(upload: Upload, allow_text: bool = False) -> str:
    if not upload.data:
        raise CatalogError(f"{upload.name}: the file is empty")
    if len(upload.data) > max_upload_bytes():
        raise CatalogError(f"{upload.name}: larger than {max_upload_bytes() // (1024 * 1024)} MB")
    kind = sniff_content_type(upload.data)
    if kind is None and allow_text and upload.name.lower().endswith((".txt", ".md")):
        return "text/plain"
    if kind is None:
        raise CatalogError(f"{upload.name}: neither a PDF nor an image we can read")
    return kind


def _store_file(document: Document, upload: Upload, content_type: str, position: int) -> DocumentFile:
    row = DocumentFile(
        document=document, position=position, original_name=upload.name[:255], content_type=content_type,
        size=len(upload.data), sha256=hashlib.sha256(upload.data).hexdigest(),
    )
    # Stored under a random name with the extension of content_type (the model's upload_to).
    row.file.save("upload", ContentFile(upload.data), save=False)
    row.save()
    return row


def _new_document(game: Game, fields: dict) -> Document:
    document = Document(game=game, **fields)
    _full_clean(document)
    document.save()
    return document


@transaction.atomic
def add_scanned_document(game: Game, uploads: list[Upload], **fields) -> Document:
    """A document from scans (PDF or images, in order), queued for text extraction."""
    if not uploads:
        raise CatalogError("choose at least one file")
    kinds = [check_upload(u) for u in uploads]
    document = _new_document(game, fields)
    for position, (upload, kind) in enumerate(zip(uploads, kinds)):
        _store_file(document, upload, kind, position)
    document.status = Document.Status.PENDING
    document.save(update_fields=["status"])
    return document


@transaction.atomic
def add_files(document: Document, uploads: list[Upload]) -> Document:
    """More scans for an existing document; its text is extracted again."""
    kinds = [check_upload(u) for u in uploads]
    start = document.files.count()
    for offset, (upload, kind) in enumerate(zip(uploads, kinds)):
        _store_file(document, upload, kind, start + offset)
    return queue_extraction(document)


@transaction.atomic
def queue_extraction(document: Document) -> Document:
    if not document.files.exists():
        raise CatalogError("the document has no file to read")
    if document.files.filter(content_type="text/plain").exists():
        raise CatalogError("an imported text is not scanned again; correct its pages instead")
    Document.objects.filter(pk=document.pk).update(status=Document.Status.PENDING, status_error="", claimed_at=None)
    document.refresh_from_db()
    return document


@transaction.atomic
def add_text_document(game: Game, upload: Upload, **fields) -> Document:
    """A document from an OCR text export (.txt, .md): kept as uploaded, split into
    pages, with its noise (markers, adverts, page numbers, running lines) marked, not
    removed. The export is checked as the admin checks it (catalog.text_import)."""
    from catalog.text_import import read_text_upload  # it builds on this module

    text = read_text_upload(upload)
    document = _new_document(game, fields)
    fill_from_text(document, upload, text)
    return document


def fill_from_text(document: Document, upload: Upload, text: str) -> None:
    """Store a text export as the document's file and its pages; the document is done."""
    pages = textlib.split_pages(text)
    noise = textlib.find_noise(pages)
    _store_file(document, upload, "text/plain", 0)
    for number, (page, marks) in enumerate(zip(pages, noise), start=1):
        DocumentPage.objects.create(
            document=document, number=number, method=DocumentPage.Method.IMPORT,
            extracted_text=page, text=page, noise=[m.to_dict() for m in marks],
        )
    Document.objects.filter(pk=document.pk).update(
        status=Document.Status.DONE, status_error="", processed_at=timezone.now()
    )
    document.refresh_from_db()


@transaction.atomic
def correct_page(page: DocumentPage, text: str, user) -> DocumentPage:
    """Staff's transcription of a page replaces the extracted text (which is kept)."""
    text = textlib.decode_text((text or "").encode("utf-8"))
    if len(text) > 100_000:
        raise CatalogError("a page holds at most 100,000 characters")
    page.text = text
    page.noise = [n.to_dict() for n in textlib.find_noise([text])[0]]
    page.corrected_by = user
    page.corrected_at = timezone.now()
    page.save()
    return page


@transaction.atomic
def link_translation(translation: Document, original: Document | None) -> Document:
    translation.original = original
    if original is not None and translation.kind == Document.Kind.RULES:
        translation.kind = Document.Kind.TRANSLATION
    _full_clean(translation)
    translation.save(update_fields=["original", "kind"])
    return translation


@transaction.atomic
def change_document_language(document: Document, language: str) -> Document:
    document.language = language
    _full_clean(document)
    document.save(update_fields=["language"])
    for page in document.pages.all():
        page.document = document
        page.save()
    return document
