"""Staff's review of the pages the OCR was unsure of: one function per action, each in
a transaction.

A document whose extraction left pages under the confidence threshold is "to check"
(see catalog/rulebooks/extraction.py). Each such page leaves the list when staff correct its
text (the correction becomes the page's text; the OCR text stays in
``extracted_text``) or pass it as read right. When no page is left, the document is
"done".
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from catalog.errors import CatalogError
from catalog.rulebooks import services
from catalog.rulebooks.models import Document, DocumentPage


@transaction.atomic
def settle(document: Document) -> Document:
    """"to check" while a flagged page awaits staff, "done" once none does; a document
    that is not finished (waiting, running, failed) is left as it is."""
    if document.status in (Document.Status.DONE, Document.Status.TO_CHECK):
        status = Document.Status.TO_CHECK if document.pages_to_check().exists() else Document.Status.DONE
        if status != document.status:
            Document.objects.filter(pk=document.pk).update(status=status)
            document.status = status
    return document


def _checked(page: DocumentPage, user) -> None:
    page.checked_by = user
    page.checked_at = timezone.now()


@transaction.atomic
def correct_page(page: DocumentPage, text: str, user) -> DocumentPage:
    """Staff's transcription replaces the page's text (the OCR's is kept beside it) and
    counts as the page's check."""
    page = services.correct_page(page, text, user)
    if page.needs_check and page.checked_at is None:
        _checked(page, user)
        page.save(update_fields=["checked_by", "checked_at"])
    settle(page.document)
    return page


@transaction.atomic
def mark_checked(page: DocumentPage, user) -> DocumentPage:
    """Staff read the page against its scan and found the text right as it is."""
    if not page.needs_check:
        raise CatalogError("this page was not listed for checking")
    if page.checked_at is None:
        _checked(page, user)
        page.save(update_fields=["checked_by", "checked_at"])
    settle(page.document)
    return page
