"""manage.py backup [--dir DIR] [--keep N]: the database and the media files in one
dated archive (ludo.backup; README, "Backups")."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from ludo.backup import BackupError, make_backup
from ludo.backup.service import default_folder


class Command(BaseCommand):
    help = "Write the database and the media files to one dated archive (ludo-backup-<UTC time>.tar)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--dir", type=Path, dest="folder",
                            help="folder of the archives (default: settings.LUDO_BACKUP_DIR, else <LUDO_VAR_DIR>/backups)")
        parser.add_argument("--keep", type=int, help="then delete all but the N newest archives of that folder")

    def handle(self, *args, folder: Path | None, keep: int | None, **options) -> None:
        say = (lambda message: self.stderr.write(message)) if options["verbosity"] > 1 else None
        try:
            result = make_backup(folder or default_folder(), keep=keep, **({"say": say} if say else {}))
        except BackupError as exc:
            raise CommandError(str(exc)) from None
        for skipped in result.skipped:
            self.stderr.write(f"skipped (not a regular file, or deleted meanwhile): {skipped}")
        self.stdout.write(
            f"{result.path} ({result.size / 1e6:.1f} MB: database {result.database_bytes / 1e6:.1f} MB, "
            f"{result.files} media files {result.media_bytes / 1e6:.1f} MB) in {result.seconds:.1f} s"
        )
        for path in result.pruned:
            self.stdout.write(f"deleted the older {path.name}")
