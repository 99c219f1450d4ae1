"""manage.py repair_titles: repair the garbled titles of the games already in the
catalogue, by rule and by the reviewed mapping (catalog/data/title-repairs.csv);
mark those with no certain repair "correction pending". A game that cannot be
saved is listed and the others go on (the exit is then non-zero)."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from catalog.collection import mojibake, title_repairs


class Command(BaseCommand):
    help = "Repair garbled titles (reviewed mapping) and mark the uncertain ones as pending."

    def add_arguments(self, parser):
        parser.add_argument("--mapping", type=Path, help="another reviewed mapping (same columns)")

    def handle(self, *args, **options):
        try:
            reviews = mojibake.read_reviews(options["mapping"]) if options["mapping"] else None
        except (OSError, mojibake.ReviewFileError) as exc:
            raise CommandError(str(exc)) from exc
        report = title_repairs.repair_titles(reviews=reviews)
        for game_id, before, after in report.repaired:
            self.stdout.write(f"repaired game {game_id}: {before!r} -> {after!r}")
        for game_id, title in report.pending:
            self.stdout.write(f"pending game {game_id}: {title!r}")
        for game_id, reason in report.failed:
            self.stderr.write(f"failed game {game_id}: {reason}")
        self.stdout.write(
            f"{len(report.repaired)} titles repaired, {len(report.pending)} marked pending, "
            f"{len(report.cleared)} no longer pending, {len(report.failed)} failed"
        )
        if report.failed:
            raise CommandError(f"{len(report.failed)} games could not be repaired (listed above)")
