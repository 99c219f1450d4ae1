"""The backup archive: one uncompressed tar holding the database, the media files
and a manifest that lists every member with its size and SHA-256.

    manifest.json                 what the archive holds (see ludo.backup.service._manifest)
    database/ludo.pgdump          pg_dump's custom format (compressed by pg_dump), or
    database/ludo.sqlite3.gz      the SQLite database from the online backup API, gzipped
    media/<path under MEDIA_ROOT> every regular file of the media folder, as it was

Writing is atomic: the tar is built under a hidden temporary name in the target
folder and only linked to its final name once complete and on disk, so a reader
never sees half an archive. Reading trusts nothing: a member must be a regular
file with a plain relative name (no ``..``, no absolute path, no link, no device),
listed in the manifest exactly once, of the size and checksum the manifest gives;
anything else refuses the archive before it changes a thing.

The checksums catch a damaged or altered member; they do not stop someone who can
rewrite the whole archive, manifest included: keep backups where only the site's
operators can write.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import re
import stat
import tarfile
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path, PurePosixPath
from typing import IO, Any

FORMAT = "ludo-backup"
FORMAT_VERSION = 1
MANIFEST = "manifest.json"
MEDIA_PREFIX = "media/"
DATABASE_PREFIX = "database/"
NAME_PATTERN = re.compile(r"^ludo-backup-\d{4}-\d{2}-\d{2}T\d{6}Z\.tar$")
CHUNK = 1024 * 1024
# A manifest larger than this is not ours (a gîte's lists thousands of files, ~100 bytes each).
MAX_MANIFEST_BYTES = 64 * 1024 * 1024


class ArchiveError(Exception):
    """The archive cannot be written or is not one this site can trust; the message says why."""


def archive_name(moment: datetime) -> str:
    """``ludo-backup-2026-11-28T142013Z.tar`` for a UTC moment: names sort by time."""
    return f"ludo-backup-{moment.strftime('%Y-%m-%dT%H%M%SZ')}.tar"


def safe_relative(name: str) -> PurePosixPath:
    """``name`` as a relative POSIX path that stays inside its folder, or ArchiveError."""
    if not isinstance(name, str) or not name or "\\" in name or "\x00" in name:
        raise ArchiveError(f"unsafe path in the archive: {name!r}")
    path = PurePosixPath(name)
    if path.is_absolute() or any(part in ("", ".", "..") for part in name.split("/")):
        raise ArchiveError(f"unsafe path in the archive: {name!r} (absolute, or with . or ..)")
    return path


@dataclass(frozen=True)
class Entry:
    """One member of the archive as the manifest lists it."""

    member: str
    size: int
    sha256: str

    def as_json(self) -> dict[str, Any]:
        return {"path": self.member, "size": self.size, "sha256": self.sha256}


class _Hashing(io.RawIOBase):
    """A reader that hashes and counts what passes through it (tarfile.addfile reads it)."""

    def __init__(self, raw: IO[bytes]) -> None:
        self.raw, self.digest, self.count = raw, hashlib.sha256(), 0

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        data = self.raw.read(size)
        self.digest.update(data)
        self.count += len(data)
        return data


class Writer:
    """A tar being written under a temporary name; see :func:`writing`."""

    def __init__(self, tar: tarfile.TarFile, mtime: float) -> None:
        self._tar, self._mtime = tar, mtime
        self.entries: list[Entry] = []

    def add_file(self, member: str, path: Path) -> Entry:
        """Add the regular file ``path`` as ``member``; its size and checksum as read."""
        safe_relative(member)
        with open(path, "rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            info = tarfile.TarInfo(member)
            info.size, info.mtime, info.mode = size, int(self._mtime), 0o600
            hashing = _Hashing(handle)
            self._tar.addfile(info, hashing)  # reads exactly `size` bytes; raises if the file shrank
        entry = Entry(member, size, hashing.digest.hexdigest())
        self.entries.append(entry)
        return entry

    def add_manifest(self, manifest: dict[str, Any]) -> None:
        data = json.dumps(manifest, indent=1, sort_keys=True, ensure_ascii=False).encode()
        info = tarfile.TarInfo(MANIFEST)
        info.size, info.mtime, info.mode = len(data), int(self._mtime), 0o600
        self._tar.addfile(info, io.BytesIO(data))


@contextlib.contextmanager
def writing(folder: Path, name: str, mtime: float) -> Iterator[Writer]:
    """A :class:`Writer` whose tar becomes ``folder/name`` only when the block ends
    without an error; otherwise nothing is left in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    final = folder / name
    if final.exists():
        raise ArchiveError(f"{final} already exists; nothing was written")
    fd, temporary = tempfile.mkstemp(dir=folder, prefix=f".{name}.", suffix=".part")
    try:
        with os.fdopen(fd, "wb") as raw:
            with tarfile.open(fileobj=raw, mode="w:", format=tarfile.PAX_FORMAT) as tar:
                yield Writer(tar, mtime)
            raw.flush()
            os.fsync(raw.fileno())
        _publish(Path(temporary), final)
        _fsync_folder(folder)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)


def _publish(temporary: Path, final: Path) -> None:
    """Give the finished file its name, never replacing another archive."""
    try:
        os.link(temporary, final)  # fails if `final` exists: no archive is ever overwritten
    except FileExistsError:
        raise ArchiveError(f"{final} already exists; nothing was written") from None
    except OSError:  # a file system without hard links (some USB drives, network shares)
        if final.exists():
            raise ArchiveError(f"{final} already exists; nothing was written") from None
        os.replace(temporary, final)


def _fsync_folder(folder: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def prune(folder: Path, keep: int) -> list[Path]:
    """Delete all but the ``keep`` newest archives of ``folder`` (only files named as
    :func:`archive_name` names them); return the deleted paths, oldest first."""
    archives = sorted(p for p in folder.iterdir() if NAME_PATTERN.match(p.name) and p.is_file())
    doomed = archives[: max(0, len(archives) - keep)]
    for path in doomed:
        path.unlink()
    return doomed


# -- reading ------------------------------------------------------------------------------------


@dataclass
class Archive:
    """An opened archive whose manifest and member list have been checked (not yet
    the members' bytes: :meth:`copy_member` checks each as it reads it)."""

    path: Path
    tar: tarfile.TarFile
    manifest: dict[str, Any]
    database: Entry
    media: list[Entry]
    members: dict[str, tarfile.TarInfo]

    def copy_member(self, entry: Entry, out: IO[bytes] | None) -> None:
        """Read ``entry``'s member, writing it to ``out`` (None: only check it);
        ArchiveError when its size or checksum differs from the manifest's."""
        source = self.tar.extractfile(self.members[entry.member])
        if source is None:
            raise ArchiveError(f"{entry.member} is not a regular file in the archive")
        digest, count = hashlib.sha256(), 0
        while chunk := source.read(CHUNK):
            digest.update(chunk)
            count += len(chunk)
            if out is not None:
                out.write(chunk)
        if count != entry.size or digest.hexdigest() != entry.sha256:
            raise ArchiveError(
                f"{entry.member} does not match the manifest (size {count} for {entry.size}, or a different "
                "SHA-256): the archive is damaged or was altered"
            )

    def extract_media(self, folder: Path, on_file: Callable[[Entry], None] | None = None) -> None:
        """Write every media file under ``folder`` (a new, empty folder of our own),
        checking each; nothing is followed or overwritten."""
        for entry in self.media:
            relative = safe_relative(entry.member[len(MEDIA_PREFIX):])
            target = folder.joinpath(*relative.parts)
            target.parent.mkdir(parents=True, exist_ok=True)
            with open(target, "xb") as out:  # exclusive: never through an existing name
                self.copy_member(entry, out)
            if on_file is not None:
                on_file(entry)

    def close(self) -> None:
        self.tar.close()


def open_archive(path: Path) -> Archive:
    """Open ``path`` and check everything but the members' bytes (see :class:`Archive`)."""
    if not path.is_file():
        raise ArchiveError(f"{path}: no such file")
    try:
        tar = tarfile.open(path, mode="r:")
    except (tarfile.TarError, OSError) as exc:
        raise ArchiveError(f"{path} is not an uncompressed tar archive: {exc}") from None
    try:
        return _checked(path, tar)
    except BaseException:
        tar.close()
        raise


def _checked(path: Path, tar: tarfile.TarFile) -> Archive:
    members: dict[str, tarfile.TarInfo] = {}
    try:
        infos = tar.getmembers()
    except (tarfile.TarError, OSError) as exc:
        raise ArchiveError(f"{path} is damaged: {exc}") from None
    for info in infos:
        safe_relative(info.name)
        if not info.isreg():
            kind = "a symbolic link" if info.issym() else "a hard link" if info.islnk() else "not a regular file"
            raise ArchiveError(f"{info.name!r} in the archive is {kind}: refused")
        if info.name in members:
            raise ArchiveError(f"{info.name!r} is in the archive twice: refused")
        members[info.name] = info
    if MANIFEST not in members:
        raise ArchiveError(f"{path} has no {MANIFEST}: not a Ludo backup")
    manifest = _read_manifest(tar, members[MANIFEST])
    database = _entry(manifest.get("database"), DATABASE_PREFIX)
    media = [_entry(item, MEDIA_PREFIX) for item in manifest.get("media", [])]
    listed = [database.member, *(e.member for e in media)]
    if len(set(listed)) != len(listed):
        raise ArchiveError("the manifest lists a file twice: refused")
    missing = sorted(set(listed) - set(members))
    extra = sorted(set(members) - set(listed) - {MANIFEST})
    if missing:
        raise ArchiveError(f"files of the manifest missing from the archive: {', '.join(missing[:5])}")
    if extra:
        raise ArchiveError(f"files in the archive that the manifest does not list: {', '.join(extra[:5])}")
    for entry in [database, *media]:
        if members[entry.member].size != entry.size:
            raise ArchiveError(f"{entry.member} does not have the size the manifest gives: the archive was altered")
    return Archive(path, tar, manifest, database, media, members)


def _read_manifest(tar: tarfile.TarFile, info: tarfile.TarInfo) -> dict[str, Any]:
    if info.size > MAX_MANIFEST_BYTES:
        raise ArchiveError(f"{MANIFEST} is too large to be a Ludo manifest")
    handle = tar.extractfile(info)
    try:
        manifest = json.loads(handle.read().decode("utf-8")) if handle else None
    except (UnicodeDecodeError, ValueError) as exc:
        raise ArchiveError(f"{MANIFEST} is not valid JSON: {exc}") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise ArchiveError(f"{MANIFEST} is not a Ludo backup manifest")
    if manifest.get("format_version") != FORMAT_VERSION:
        raise ArchiveError(
            f"this archive is in format version {manifest.get('format_version')!r}; this version of Ludo reads "
            f"version {FORMAT_VERSION}"
        )
    return manifest


def _entry(item: Any, prefix: str) -> Entry:
    if not isinstance(item, dict):
        raise ArchiveError(f"{MANIFEST} is malformed (an entry is not an object)")
    member, size, sha256 = item.get("path"), item.get("size"), item.get("sha256")
    if not isinstance(member, str) or not member.startswith(prefix) or len(member) == len(prefix):
        raise ArchiveError(f"{MANIFEST} lists {member!r} where a file under {prefix} is expected")
    safe_relative(member)
    if not isinstance(size, int) or size < 0 or not isinstance(sha256, str) or not re.fullmatch(r"[0-9a-f]{64}", sha256):
        raise ArchiveError(f"{MANIFEST} gives no valid size and SHA-256 for {member!r}")
    return Entry(member, size, sha256)


# -- the media folder ---------------------------------------------------------------------------


def media_files(root: Path) -> tuple[list[tuple[str, Path]], list[str]]:
    """The regular files under ``root`` as (path relative to it, absolute path),
    sorted; and the entries skipped (symbolic links, sockets...), which no upload
    makes and which a backup must not follow out of the folder."""
    files: list[tuple[str, Path]] = []
    skipped: list[str] = []
    if not root.exists():
        return files, skipped
    for folder, dirs, names in os.walk(root, followlinks=False):
        base = Path(folder)
        for name in list(dirs):
            if (base / name).is_symlink():
                skipped.append(str((base / name).relative_to(root)))
                dirs.remove(name)
        dirs.sort()
        for name in sorted(names):
            path = base / name
            relative = path.relative_to(root).as_posix()
            try:
                mode = os.lstat(path).st_mode
            except FileNotFoundError:
                continue  # deleted while we walked: it is no longer the site's
            if stat.S_ISREG(mode):
                files.append((relative, path))
            else:
                skipped.append(relative)
    return files, skipped


def has_files(root: Path) -> bool:
    """Whether anything but empty folders is under ``root``."""
    if not root.exists():
        return False
    for folder, dirs, names in os.walk(root, followlinks=False):
        if names or any((Path(folder) / name).is_symlink() for name in dirs):
            return True
    return False
