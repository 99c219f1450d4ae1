"""manage.py import_games [FILE ...]: BoardGameGeek CSV files into the catalog.

Without files, imports the data set in the shared folder (games, then themes), then
the alternate names shipped in catalog/data/names-fr.csv. A names file (bgg_id,
language, name) can also be given on its own.

A file with rejected lines changes nothing (and the command stops there with a
non-zero exit) unless --partial is given, which imports its accepted lines. The
report lists the rejected lines with their numbers and reasons, the adjusted
ones, and the titles repaired from a past encoding error.
"""

from __future__ import annotations

import time
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from catalog import conf
from catalog.collection import importer, names


class ProgressBar:
    def __init__(self, stream, label: str, width: int = 30) -> None:
        self.stream, self.label, self.width = stream, label, width
        self.last = -1.0

    def __call__(self, done: int, total: int) -> None:
        share = done / total if total else 1.0
        if self.last >= 1.0 or (share - self.last < 0.01 and done < total):
            return
        self.last = share
        filled = round(share * self.width)
        line = f"\r{self.label} [{'#' * filled}{'.' * (self.width - filled)}] {share:4.0%} {done}/{total}"
        self.stream.write(line, ending="\n" if done >= total else "")
        self.stream.flush()


class Command(BaseCommand):
    help = "Import games from BoardGameGeek CSV files (collection exports or the shared data set); idempotent."

    def add_arguments(self, parser) -> None:
        parser.add_argument("files", nargs="*", type=Path, help="CSV files; default: the shared data set")
        parser.add_argument("--no-progress", action="store_true", help="do not draw the progress bar")
        parser.add_argument("--show", type=int, default=20, help="how many lines of each kind to list (default 20)")
        parser.add_argument(
            "--partial", action="store_true",
            help="import the accepted lines of a file that has rejected ones (by default such a file changes nothing)",
        )

    def handle(self, *args, files: list[Path], no_progress: bool, show: int, partial: bool, **options) -> None:
        if not files:
            files = conf.data_files()
            if not files:
                raise CommandError(f"no CSV files given and none found in {conf.shared_dir() / 'data'}")
            files.append(names.SHIPPED)
        missing = [str(f) for f in files if not f.is_file()]
        if missing:
            raise CommandError("no such file: " + ", ".join(missing))
        ordered = importer.order_files(files)
        for index, path in enumerate(ordered):
            started = time.perf_counter()
            bar = None if no_progress else ProgressBar(self.stderr, path.name)
            try:
                report = importer.import_file(path, progress=bar, partial=partial)
            except importer.ImportFileError as exc:
                raise CommandError(f"{exc} (nothing was imported from this file)") from None
            self.stdout.write(f"{report.summary()} in {time.perf_counter() - started:.1f} s")
            if report.encoding != "utf-8":
                self.stdout.write(f"  read as {report.encoding} (no UTF-8 in the file)")
            for title, lines in (("rejected", report.rejected), ("adjusted", report.adjusted),
                                 ("repaired", report.repaired), ("garbled", report.garbled)):
                for line in lines[:show]:
                    self.stdout.write(f"  {title} line {line.number}: {line.message}")
                if len(lines) > show:
                    self.stdout.write(f"  ... and {len(lines) - show} more {title} lines")
            if not report.applied:
                later = ", ".join(p.name for p in ordered[index + 1:])
                raise CommandError(
                    f"{path.name}: {len(report.rejected)} rejected lines, nothing was changed from this file"
                    + (f" and {later} was not read" if later else "")
                    + "; fix the lines or give --partial to import the accepted ones"
                )
