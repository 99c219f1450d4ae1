"""Rulebook actions: one function per action, each in a transaction.

Views, admin and management commands parse and authorise, then call these.
Bad input raises :class:`catalog.errors.CatalogError` (a ValueError) with a
message for people, and changes nothing. Uploads are checked by
catalog.rulebooks.uploads, text exports by catalog.rulebooks.text_import.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from catalog import text as textlib
from catalog.collection.models import Game
from catalog.errors import CatalogError, full_clean
from catalog.rulebooks.models import Document, DocumentPage
from catalog.rulebooks.text_import import read_text_upload
from catalog.rulebooks.uploads import Upload, check_upload, store_file


def _new_document(game: Game, fields: dict) -> Document:
    document = Document(game=game, **fields)
    full_clean(document)
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
        store_file(document, upload, kind, position)
    document.status = Document.Status.PENDING
    document.save(update_fields=["status"])
    return document


@transaction.atomic
def add_files(document: Document, uploads: list[Upload]) -> Document:
    """More scans for an existing document; its text is extracted again."""
    kinds = [check_upload(u) for u in uploads]
    start = document.files.count()
    for offset, (upload, kind) in enumerate(zip(uploads, kinds)):
        store_file(document, upload, kind, start + offset)
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
    removed. The export is checked as the admin checks it (catalog.rulebooks.text_import)."""
    text = read_text_upload(upload)
    document = _new_document(game, fields)
    fill_from_text(document, upload, text)
    return document


def fill_from_text(document: Document, upload: Upload, text: str) -> None:
    """Store a text export as the document's file and its pages; the document is done."""
    pages = textlib.split_pages(text)
    noise = textlib.find_noise(pages)
    store_file(document, upload, "text/plain", 0)
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
    full_clean(translation)
    translation.save(update_fields=["original", "kind"])
    return translation


@transaction.atomic
def change_document_language(document: Document, language: str) -> Document:
    document.language = language
    full_clean(document)
    document.save(update_fields=["language"])
    for page in document.pages.all():
        page.document = document
        page.save()
    return document


@transaction.atomic
def attach_text(document: Document, upload: Upload) -> Document:
    """An existing document with no file yet (the admin saves it first) filled from a
    text export: split into pages with their noise marked, ready at once."""
    text = read_text_upload(upload)
    if document.files.exists() or document.pages.exists():
        raise CatalogError(f"{upload.name}: this document already has files; a text export makes a new document")
    fill_from_text(document, upload, text)
    return document
