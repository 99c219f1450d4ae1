"""Background jobs of the catalog, run by ``manage.py worker`` (see ludo.worker)."""

from __future__ import annotations


def extract_pending_documents() -> float | None:
    """Extract the text of one waiting document; ask to be called again soon if one was found."""
    from catalog import extraction

    return 0.0 if extraction.process_next() else None
