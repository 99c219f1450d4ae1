"""Demo content, the reader's part: the French Drumlin translations are linked to the
German 1986 rules, so that the reader shows them side by side from the first visit.
Idempotent; a document missing (no seeds) is skipped."""

from __future__ import annotations

from catalog.rulebooks import services
from catalog.rulebooks.models import Document

ORIGINAL = "Drumlin — Zusammenfassung (Clou 1986)"
TRANSLATIONS = ["Drumlin — règle en français", "Drumlin — règle en français (seconde numérisation)"]


def link(stdout) -> None:
    from catalog.rulebooks import reading

    # A demo loaded before lone headings stopped making pages: split it again.
    resplit = [d for d in Document.objects.filter(game__slug__in=["drumlin", "drekki", "karo"]) if reading.resplit(d)]
    if resplit:
        stdout.write(f"catalog: {len(resplit)} seed rulebook(s) split into pages again")
    original = Document.objects.filter(game__slug="drumlin", title=ORIGINAL).first()
    if original is None:
        return
    linked = 0
    for title in TRANSLATIONS:
        translation = Document.objects.filter(game__slug="drumlin", title=title).first()
        if translation is not None and translation.original_id != original.pk:
            services.link_translation(translation, original)
            linked += 1
    if linked:
        stdout.write(f"catalog: {linked} Drumlin translation(s) linked to the German rules")
