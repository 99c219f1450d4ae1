"""manage.py import_rulebook GAME FILE: a text or PDF rulebook for a game.

GAME is the game's slug or its BoardGameGeek id. A text file (an OCR export) is split
into pages with its noise marked; a PDF or an image is stored as is and queued for
text extraction by the worker (or extracted at once with --now).
"""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from catalog.collection.models import LANGUAGES, Game
from catalog.errors import CatalogError
from catalog.rulebooks import extraction, services
from catalog.rulebooks.models import Document
from catalog.rulebooks.uploads import Upload


class Command(BaseCommand):
    help = "Import a rulebook (text or PDF/image scan) for a game."

    def add_arguments(self, parser) -> None:
        parser.add_argument("game", help="game slug or BoardGameGeek id")
        parser.add_argument("file", type=Path)
        parser.add_argument("--language", required=True, choices=[code for code, _ in LANGUAGES])
        parser.add_argument("--kind", default=Document.Kind.RULES, choices=Document.Kind.values)
        parser.add_argument("--title", default="")
        parser.add_argument("--translator", default="")
        parser.add_argument("--source", default="")
        parser.add_argument("--licence", default="")
        parser.add_argument("--visibility", default=Document.Visibility.PUBLIC, choices=Document.Visibility.values)
        parser.add_argument("--translation-of", type=int, help="id of the original document")
        parser.add_argument("--now", action="store_true", help="extract a scan's text now instead of in the worker")

    def handle(self, *args, **o) -> None:
        game = Game.objects.filter(slug=o["game"]).first()
        if game is None and o["game"].isdigit():
            game = Game.objects.filter(bgg_id=int(o["game"])).first()
        if game is None:
            raise CommandError(f"no game with slug or BoardGameGeek id {o['game']!r}")
        path: Path = o["file"]
        if not path.is_file():
            raise CommandError(f"no such file: {path}")
        original = None
        if o["translation_of"]:
            original = Document.objects.filter(pk=o["translation_of"]).first()
            if original is None:
                raise CommandError(f"no document with id {o['translation_of']}")
        fields = {
            "title": o["title"] or f"{game.title} ({o['kind']}, {o['language']})",
            "kind": o["kind"], "language": o["language"], "translator": o["translator"], "source": o["source"],
            "licence_note": o["licence"], "visibility": o["visibility"], "original": original,
        }
        upload = Upload(path.name, path.read_bytes())
        try:
            if upload.data.startswith(extraction.PDF_MAGIC) or extraction.sniff_content_type(upload.data):
                document = services.add_scanned_document(game, [upload], **fields)
            else:
                document = services.add_text_document(game, upload, **fields)
        except CatalogError as exc:
            raise CommandError(str(exc)) from None
        if o["now"] and document.status == Document.Status.PENDING:
            document = extraction.run(document)
        pages = document.pages.all()
        noisy = sum(1 for p in pages if p.noise)
        to_check = [p.number for p in pages if p.awaiting_check]
        self.stdout.write(
            f"document {document.pk} for {game.title}: status {document.status}, {len(pages)} pages, "
            f"{noisy} with noise marked"
            + (f", pages to check: {', '.join(map(str, to_check))}" if to_check else "")
            + (f" (error: {document.status_error})" if document.status_error else "")
        )
