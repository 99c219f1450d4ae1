"""manage.py restore ARCHIVE [--force] [--check]: bring a fresh install (empty database,
empty media folder) back to a backup (ludo.backup; README, "Backups")."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from ludo.backup import BackupError, restore_backup


class Command(BaseCommand):
    help = "Restore the database and the media files from an archive of manage.py backup (stop the site first)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("archive", type=Path)
        parser.add_argument("--force", action="store_true",
                            help="replace a database and a media folder that are not empty (everything in them is lost)")
        parser.add_argument("--check", action="store_true",
                            help="only check the archive (every checksum, the database readable); change nothing")

    def handle(self, *args, archive: Path, force: bool, check: bool, **options) -> None:
        say = (lambda message: self.stderr.write(message)) if options["verbosity"] > 1 else None
        try:
            result = restore_backup(archive, force=force, check_only=check, **({"say": say} if say else {}))
        except BackupError as exc:
            raise CommandError(str(exc)) from None
        if result.checked_only:
            self.stdout.write(f"{archive}: the database and {result.files} media files match the manifest")
            return
        self.stdout.write(f"restored {archive}: the database and {result.files} media files in {result.seconds:.1f} s")
        if result.migrated:
            self.stdout.write(f"applied {len(result.migrated)} newer migrations: {', '.join(result.migrated)}")
