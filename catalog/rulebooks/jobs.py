"""Background jobs of the catalog, run by ``manage.py worker`` (see ludo.worker).

Each document is read in a guarded step of its own (ludo.bulkheads.guard): a
document the job fails on outside the extraction itself (whose failures are
recorded on the document) is tried again after the others, and set aside for
a host after a few failures; the other scans are read all the same.
"""

from __future__ import annotations

from ludo.bulkheads.guard import Bulkhead

DOCUMENTS = Bulkhead("catalog.extract_text")


def extract_pending_documents() -> float | None:
    """Extract the text of one waiting document; ask to be called again soon if one was found."""
    from catalog.rulebooks import extraction
    from catalog.rulebooks.models import Document

    # Pending, or running (a failure after the claim leaves it so until it is stale).
    pending = Document.objects.filter(status__in=[Document.Status.PENDING, Document.Status.RUNNING])
    tried = DOCUMENTS.pick(extraction.waiting(), 1, pending=pending)
    for pk in tried:
        DOCUMENTS.run(Document, pk, extraction.process)
    return 0.0 if tried else None
