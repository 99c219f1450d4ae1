"""Back up the site to one archive, and bring a fresh install back to it.

A backup is the database (ludo.backup.databases) and every file of MEDIA_ROOT
(scans, page images, covers: every file field of the site stores there), in one
archive (ludo.backup.archive) with a manifest: versions, engine, the migrations
applied, and each file's size and SHA-256. The database is dumped first, then the
media folder is read: a file uploaded meanwhile is in the archive without its row
(harmless), and a file deleted meanwhile is missing while its row was dumped, which
the restore reports like any missing file (the site then shows that file as absent).

A restore checks everything it can before it changes anything: the manifest, the
engine (a SQLite archive into a PostgreSQL site is refused, and the reverse), the
migrations (an archive from a newer Ludo is refused), that the database and the
media folder are empty (a fresh install, migrated or not) unless ``force``, and
every member's size and checksum as it unpacks them beside the media folder. Then
it replaces the database in one step, moves the files in, and applies the
migrations this version of the code has beyond the archive's (as ``migrate`` does
at each release).
"""

from __future__ import annotations

import os
import platform
import shutil
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

import django
from django import db as django_db
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.loader import MigrationLoader

from ludo.backup import archive, databases
from ludo.backup.archive import ArchiveError
from ludo.backup.databases import DatabaseError

Say = Callable[[str], None]


class BackupError(Exception):
    """A backup or restore that could not be done; nothing was changed (the message says why)."""


@dataclass
class BackupResult:
    path: Path
    size: int
    files: int
    media_bytes: int
    database_bytes: int
    seconds: float
    skipped: list[str] = field(default_factory=list)
    pruned: list[Path] = field(default_factory=list)


@dataclass
class RestoreResult:
    files: int
    seconds: float
    migrated: list[str] = field(default_factory=list)
    checked_only: bool = False


def default_folder() -> Path:
    """Where archives go without --dir: settings.LUDO_BACKUP_DIR, or <LUDO_VAR_DIR>/backups."""
    folder = getattr(settings, "LUDO_BACKUP_DIR", None)
    return Path(folder) if folder else Path(settings.VAR_DIR) / "backups"


def _quiet(_message: str) -> None:
    pass


# -- backup ---------------------------------------------------------------------------------------


def make_backup(folder: Path, *, keep: int | None = None, using: str = DEFAULT_DB_ALIAS,
                now: datetime | None = None, say: Say = _quiet) -> BackupResult:
    """Write ``ludo-backup-<UTC time>.tar`` into ``folder``; with ``keep``, then delete
    all but the ``keep`` newest archives there. Raises BackupError, leaving no archive."""
    if keep is not None and keep < 1:
        raise BackupError("--keep must be at least 1")
    started = time.perf_counter()
    moment = (now or datetime.now(UTC)).astimezone(UTC)
    connection = connections[using]
    media_root = Path(settings.MEDIA_ROOT)
    folder = Path(folder).absolute()
    if folder.resolve().is_relative_to(media_root.resolve()):
        raise BackupError(f"{folder} is inside the media folder {media_root}: each backup would hold the ones "
                          "before it. Choose a folder outside it. No archive was written.")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=folder, prefix=".ludo-backup-work-") as work:
            engine = databases.engine(connection)
            say(f"Dumping the {engine} database...")
            dumped, info = databases.dump(connection, Path(work))
            migrations = databases.applied_migrations(connection)
            files, skipped = archive.media_files(media_root)
            say(f"Writing {len(files)} media files of {media_root}...")
            with archive.writing(folder, archive.archive_name(moment), moment.timestamp()) as writer:
                database = writer.add_file(databases.member_name(engine), dumped)
                dumped.unlink()
                media = []
                for relative, path in files:
                    try:
                        media.append(writer.add_file(archive.MEDIA_PREFIX + relative, path))
                    except FileNotFoundError:
                        skipped.append(relative)  # deleted since the walk: no longer the site's
                writer.add_manifest(_manifest(moment, engine, {**database.as_json(), **info}, migrations,
                                              media, skipped))
                path = folder / archive.archive_name(moment)
    except (ArchiveError, DatabaseError) as exc:
        raise BackupError(f"{exc}. No archive was written.") from None
    except OSError as exc:
        raise BackupError(f"cannot write the backup in {folder}: {exc}. No archive was written.") from None
    except django_db.Error as exc:
        raise BackupError(f"cannot read the database: {exc}. No archive was written.") from None
    pruned = archive.prune(folder, keep) if keep else []
    return BackupResult(
        path=path, size=path.stat().st_size, files=len(media), media_bytes=sum(e.size for e in media),
        database_bytes=database.size, seconds=time.perf_counter() - started, skipped=skipped, pruned=pruned,
    )


def _manifest(moment: datetime, engine: str, database: dict[str, Any], migrations: list[str],
              media: list[archive.Entry], skipped: list[str]) -> dict[str, Any]:
    return {
        "format": archive.FORMAT,
        "format_version": archive.FORMAT_VERSION,
        "created": moment.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "versions": {"ludo": _version("ludo"), "django": django.get_version(), "python": platform.python_version()},
        "engine": engine,
        "database": database,
        "migrations": migrations,
        "media": [entry.as_json() for entry in media],
        "media_bytes": sum(entry.size for entry in media),
        "skipped": skipped,
    }


def _version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "unknown"


# -- restore --------------------------------------------------------------------------------------


def restore_backup(path: Path, *, force: bool = False, check_only: bool = False, using: str = DEFAULT_DB_ALIAS,
                   say: Say = _quiet) -> RestoreResult:
    """Bring the site's database and media folder back to the archive ``path``
    (``check_only``: only check the archive, change nothing). Raises BackupError,
    having changed nothing, when any check fails."""
    started = time.perf_counter()
    try:
        opened = archive.open_archive(Path(path))
    except ArchiveError as exc:
        raise BackupError(f"{exc}. Nothing was changed.") from None
    try:
        if check_only:
            _check_members(opened, say)
            return RestoreResult(files=len(opened.media), seconds=time.perf_counter() - started, checked_only=True)
        connection = connections[using]
        media_root = Path(settings.MEDIA_ROOT).absolute()
        _check_site(opened, connection, media_root, force)
        migrated = _restore(opened, connection, media_root, say)
        return RestoreResult(files=len(opened.media), seconds=time.perf_counter() - started, migrated=migrated)
    except (ArchiveError, DatabaseError) as exc:
        raise BackupError(f"{exc}. Nothing was changed.") from None
    except django_db.Error as exc:
        raise BackupError(f"cannot reach the site's database ({exc}). Nothing was changed.") from None
    finally:
        opened.close()


def _check_members(opened: archive.Archive, say: Say) -> None:
    """Every member's bytes against the manifest, and the database loadable."""
    say(f"Checking {len(opened.media)} media files...")
    for entry in opened.media:
        opened.copy_member(entry, None)
    say("Checking the database...")
    with tempfile.TemporaryDirectory(prefix="ludo-backup-check-") as work:
        _unpack_database(opened, Path(work))


def _check_site(opened: archive.Archive, connection: Any, media_root: Path, force: bool) -> None:
    """What must hold before anything is changed: engine, migrations, a fresh install."""
    archived_engine = opened.manifest.get("engine")
    site_engine = databases.engine(connection)
    if archived_engine != site_engine:
        raise BackupError(
            f"this archive holds a {archived_engine} database and this site runs on {site_engine} (DATABASE_URL): "
            "a backup is restored on the engine it was taken on. Nothing was changed."
        )
    archived = opened.manifest.get("migrations")
    if not isinstance(archived, list) or not all(isinstance(m, str) for m in archived):
        raise BackupError("the manifest's migration list is malformed. Nothing was changed.")
    known = {f"{app}.{name}" for app, name in MigrationLoader(None, ignore_no_migrations=True).disk_migrations}
    unknown = sorted(set(archived) - known)
    if unknown:
        raise BackupError(
            f"this archive was made by a newer version of Ludo (migrations unknown here: {', '.join(unknown[:5])}"
            f"{'...' if len(unknown) > 5 else ''}): install that version, then restore. Nothing was changed."
        )
    if force:
        return
    filled = databases.tables_with_rows(connection)
    if filled:
        raise BackupError(
            f"the database is not empty (rows in {', '.join(filled[:6])}{'...' if len(filled) > 6 else ''}): "
            "restore into a new database, or give --force to replace everything in it. Nothing was changed."
        )
    if archive.has_files(media_root):
        raise BackupError(
            f"the media folder {media_root} is not empty: restore into an empty one, or give --force to replace "
            "its content. Nothing was changed."
        )


def _unpack_database(opened: archive.Archive, work: Path) -> Path:
    stored = work / Path(opened.database.member).name
    with open(stored, "xb") as out:
        opened.copy_member(opened.database, out)
    info = opened.manifest.get("database", {})
    size = info.get("unpacked_size") if isinstance(info.get("unpacked_size"), int) else None
    return databases.unpack(opened.manifest.get("engine"), stored, work, size)


def _restore(opened: archive.Archive, connection: Any, media_root: Path, say: Say) -> list[str]:
    media_root.parent.mkdir(parents=True, exist_ok=True)
    try:
        staging = Path(tempfile.mkdtemp(dir=media_root.parent, prefix=".ludo-restore-"))
    except OSError as exc:
        raise BackupError(f"cannot unpack beside the media folder, in {media_root.parent}: {exc}. "
                          "Nothing was changed.") from None
    try:
        say("Checking and unpacking the database...")
        ready = _unpack_database(opened, staging)
        say(f"Checking and unpacking {len(opened.media)} media files...")
        (staging / "media").mkdir()
        opened.extract_media(staging / "media")
        say("Replacing the database...")
        databases.load(connection, ready)
        say(f"Moving the media files into {media_root}...")
        try:
            _put_media(staging / "media", media_root)
        except OSError as exc:
            raise BackupError(
                f"the database was restored but the media files could not be moved into {media_root} ({exc}); "
                "fix the cause and run the restore again with --force"
            ) from None
        restored = databases.applied_migrations(connection)
        if restored != sorted(opened.manifest["migrations"]):
            raise BackupError("the restored database does not hold the archive's migrations: the restore failed")
        return _migrate_forward(connection, say)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _put_media(staged: Path, media_root: Path) -> None:
    """Replace the content of ``media_root`` (checked empty, or --force) with ``staged``'s:
    renames on one file system, the media folder itself kept (it may be a mount point)."""
    media_root.mkdir(parents=True, exist_ok=True)
    for child in media_root.iterdir():
        if child.is_dir() and not child.is_symlink():
            shutil.rmtree(child)
        else:
            child.unlink()
    for child in staged.iterdir():
        os.rename(child, media_root / child.name)


def _migrate_forward(connection: Any, say: Say) -> list[str]:
    """Apply the migrations this code has beyond the archive's; their names."""
    from django.core.management import call_command

    executor = MigrationExecutor(connection)
    plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
    if not plan:
        return []
    names = [f"{migration.app_label}.{migration.name}" for migration, _backwards in plan]
    say(f"Applying {len(names)} migrations newer than the archive: {', '.join(names)}")
    try:
        call_command("migrate", interactive=False, verbosity=0, database=connection.alias)
    except Exception as exc:  # the restore itself is done: say so, whatever stopped the migrations
        raise BackupError(
            f"the archive was restored, but applying the newer migrations failed ({exc}): fix the cause, then run "
            "manage.py migrate"
        ) from exc
    return names
