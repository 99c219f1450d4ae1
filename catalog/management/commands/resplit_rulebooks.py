"""manage.py resplit_rulebooks: cut imported text exports into pages again.

Rulebooks imported before a lone heading stopped making a page of its own ("L'éléphant"
as a page of 10 characters) are split again from their imported text. Documents with
a page corrected by a host, or with scanned pages, are left as they are. Idempotent.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand

from catalog.rulebooks import reading
from catalog.rulebooks.models import Document, DocumentPage


class Command(BaseCommand):
    help = "Split imported text rulebooks into pages again with the current rules; idempotent."

    def handle(self, *args, **options) -> None:
        documents = Document.objects.filter(pages__method=DocumentPage.Method.IMPORT).distinct()
        changed = [d for d in documents if reading.resplit(d)]
        for document in changed:
            self.stdout.write(f"{document}: {document.pages.count()} pages")
        self.stdout.write(f"{len(changed)} document(s) split again")
