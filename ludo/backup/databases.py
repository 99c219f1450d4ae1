"""The database half of a backup, one way per engine.

- PostgreSQL: ``pg_dump --format=custom`` (compressed, every table, sequence,
  trigger, function, extension and text search configuration of the database).
  Restored by ``pg_restore`` into psql inside one transaction that first empties
  the ``public`` schema: the database ends as the dump was, or, on any error, as it
  was before. The client programs come from the system (Debian's postgresql-client);
  their major version must be at least the server's.
- SQLite: the online backup API (a consistent copy taken while the site runs,
  never a copy of a live file), gzipped. Restored by the same API into the site's
  database file, which replaces its whole content in one step.

Nothing here knows about the archive; :mod:`ludo.backup.service` joins both halves.
"""

from __future__ import annotations

import contextlib
import gzip
import os
import re
import shutil
import sqlite3
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from django.apps import apps
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.migrations.recorder import MigrationRecorder

# Filled by `migrate` itself on a new database: a fresh install holding only these is empty.
MADE_BY_MIGRATE = {"contenttypes.contenttype", "auth.permission", "auth.group", "auth.group_permissions"}
GZIP_LEVEL = 1  # the database is most of the archive's bytes; level 1 gives most of the gain, fast
# How long the restore waits for another connection's locks before it gives up (the site must be stopped).
LOCK_TIMEOUT = "10s"


class DatabaseError(Exception):
    """The database cannot be dumped or loaded; the message says why and what to do."""


def engine(connection: BaseDatabaseWrapper) -> str:
    if connection.vendor in ("sqlite", "postgresql"):
        return connection.vendor
    raise DatabaseError(f"backups know SQLite and PostgreSQL, not {connection.vendor}")


def member_name(engine_name: str) -> str:
    return "database/ludo.pgdump" if engine_name == "postgresql" else "database/ludo.sqlite3.gz"


def applied_migrations(connection: BaseDatabaseWrapper) -> list[str]:
    """``app.migration`` of every migration recorded as applied, sorted."""
    recorder = MigrationRecorder(connection)
    if not recorder.has_table():
        return []
    return sorted(f"{app}.{name}" for app, name in recorder.applied_migrations())


def tables_with_rows(connection: BaseDatabaseWrapper) -> list[str]:
    """The models (``app.model``) whose table holds a row, those ``migrate`` fills
    itself left out: empty means a new database, migrated or not."""
    existing = set(connection.introspection.table_names())
    found = []
    with connection.cursor() as cursor:
        for model in apps.get_models(include_auto_created=True):
            meta = model._meta
            label = f"{meta.app_label}.{meta.model_name}"
            if meta.proxy or label in MADE_BY_MIGRATE or meta.db_table not in existing:
                continue
            cursor.execute(f"SELECT 1 FROM {connection.ops.quote_name(meta.db_table)} LIMIT 1")
            if cursor.fetchone() is not None:
                found.append(label)
    return sorted(set(found))


# -- dump ----------------------------------------------------------------------------------------


def dump(connection: BaseDatabaseWrapper, folder: Path) -> tuple[Path, dict[str, Any]]:
    """Dump the database into a file under ``folder``; the file and what to record of it."""
    if connection.in_atomic_block:
        raise DatabaseError("a backup cannot be taken inside a transaction")
    if engine(connection) == "postgresql":
        return _pg_dump(connection, folder)
    return _sqlite_dump(connection, folder)


def _sqlite_dump(connection: BaseDatabaseWrapper, folder: Path) -> tuple[Path, dict[str, Any]]:
    connection.ensure_connection()
    raw = folder / "ludo.sqlite3"
    target = sqlite3.connect(raw)
    try:
        # One step (pages=-1): a consistent copy of the database as of one moment, while
        # other processes go on reading; a writer waits for the copy (seconds at most).
        connection.connection.backup(target)
    finally:
        target.close()
    packed = folder / "ludo.sqlite3.gz"
    with open(raw, "rb") as source, gzip.open(packed, "wb", compresslevel=GZIP_LEVEL) as out:
        shutil.copyfileobj(source, out, 1024 * 1024)
    info = {"sqlite_version": sqlite3.sqlite_version, "unpacked_size": raw.stat().st_size}
    raw.unlink()
    return packed, info


def _pg_dump(connection: BaseDatabaseWrapper, folder: Path) -> tuple[Path, dict[str, Any]]:
    tool = _tool("pg_dump")
    tool_version = _tool_version(tool)
    connection.ensure_connection()
    server = connection.pg_version // 10000
    if tool_version[0] < server:
        raise DatabaseError(
            f"{tool} is version {tool_version[0]} and the server is PostgreSQL {server}: install the client of the "
            f"server's version (Debian: postgresql-client-{server}) and put its bin folder first on PATH"
        )
    out = folder / "ludo.pgdump"
    options, dbname, env = _connection_args(connection)
    _run([tool, *options, "--format=custom", "--file", str(out), "--dbname", dbname], env, "pg_dump")
    return out, {"server_version": connection.pg_version, "pg_dump": ".".join(map(str, tool_version))}


# -- load ----------------------------------------------------------------------------------------


def unpack(engine_name: str, stored: Path, folder: Path, expected_size: int | None = None) -> Path:
    """The archived database file made ready to load (SQLite's ungzipped and checked;
    PostgreSQL's listed by pg_restore), in ``folder``; DatabaseError when it is not loadable."""
    if engine_name == "postgresql":
        _run([_tool("pg_restore"), "--list", str(stored)], None, "pg_restore --list")
        return stored
    raw = folder / "ludo.sqlite3"
    try:
        with gzip.open(stored, "rb") as source, open(raw, "xb") as out:
            shutil.copyfileobj(source, out, 1024 * 1024)
    except (OSError, EOFError, gzip.BadGzipFile) as exc:
        raise DatabaseError(f"the archived SQLite database cannot be unpacked: {exc}") from None
    if expected_size is not None and raw.stat().st_size != expected_size:
        raise DatabaseError("the archived SQLite database does not have the size the manifest gives")
    try:
        with contextlib.closing(sqlite3.connect(f"file:{raw}?mode=ro", uri=True)) as check:
            result = check.execute("PRAGMA integrity_check").fetchone()[0]
    except sqlite3.DatabaseError as exc:
        raise DatabaseError(f"the archived SQLite database is not readable: {exc}") from None
    if result != "ok":
        raise DatabaseError(f"the archived SQLite database fails its integrity check: {result}")
    return raw


def load(connection: BaseDatabaseWrapper, ready: Path) -> None:
    """Replace the whole database with ``ready`` (from :func:`unpack`), in one step."""
    if connection.in_atomic_block:
        raise DatabaseError("a restore cannot run inside a transaction")
    if engine(connection) == "postgresql":
        _pg_load(connection, ready)
    else:
        _sqlite_load(connection, ready)
    connection.close()  # the next query sees the restored schema on a new connection


def _sqlite_load(connection: BaseDatabaseWrapper, ready: Path) -> None:
    connection.close()
    connection.ensure_connection()
    with contextlib.closing(sqlite3.connect(f"file:{ready}?mode=ro", uri=True)) as source:
        try:
            source.backup(connection.connection)  # the destination's pages replaced in one transaction
        except sqlite3.OperationalError as exc:
            raise DatabaseError(f"the database could not be replaced ({exc}): stop the site's processes first") from None


def _pg_load(connection: BaseDatabaseWrapper, ready: Path) -> None:
    restore, psql = _tool("pg_restore"), _tool("psql")
    options, dbname, env = _connection_args(connection)
    connection.close()
    prologue = (
        f"SET lock_timeout = '{LOCK_TIMEOUT}';\n"
        "DROP SCHEMA IF EXISTS public CASCADE;\n"
        "CREATE SCHEMA public;\n"
    ).encode()
    with tempfile.TemporaryFile() as restore_err, tempfile.TemporaryFile() as psql_err:
        reader = subprocess.Popen(
            [restore, "--no-owner", "--no-acl", "--file=-", str(ready)],
            stdout=subprocess.PIPE, stderr=restore_err,
        )
        writer = subprocess.Popen(
            [psql, *options, "--no-psqlrc", "--quiet", "--set", "ON_ERROR_STOP=1", "--single-transaction",
             "--dbname", dbname, "--file=-"],
            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=psql_err, env=env,
        )
        try:
            writer.stdin.write(prologue)
            shutil.copyfileobj(reader.stdout, writer.stdin, 1024 * 1024)
        except BrokenPipeError:
            pass  # psql stopped at an error: its message follows
        finally:
            with contextlib.suppress(BrokenPipeError):
                writer.stdin.close()
            reader.stdout.close()
            restore_code, psql_code = reader.wait(), writer.wait()
        if restore_code or psql_code:
            restore_err.seek(0)
            psql_err.seek(0)
            said = (psql_err.read() + restore_err.read()).decode(errors="replace").strip()
            raise DatabaseError(
                "PostgreSQL refused the restore; the database was left as it was (one transaction). "
                f"{said[-2000:]}"
            )


# -- the client programs ---------------------------------------------------------------------------


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        raise DatabaseError(
            f"{name} is not installed: install PostgreSQL's client programs of the server's version "
            "(Debian: apt install postgresql-client)"
        )
    return path


def _tool_version(tool: str) -> tuple[int, ...]:
    said = subprocess.run([tool, "--version"], capture_output=True, text=True, check=False).stdout
    found = re.search(r"(\d+)(?:\.(\d+))?", said)
    if found is None:
        raise DatabaseError(f"cannot read the version of {tool}: {said!r}")
    return tuple(int(part) for part in found.groups() if part is not None)


def _connection_args(connection: BaseDatabaseWrapper) -> tuple[list[str], str, dict[str, str]]:
    """Options (-U/-h/-p), database name and environment (password, TLS) of Django's connection."""
    from django.db.backends.postgresql.client import DatabaseClient

    args, extra = DatabaseClient.settings_to_cmd_args_env(connection.settings_dict, [])
    env = dict(os.environ, **(extra or {}))
    timeout = connection.settings_dict.get("OPTIONS", {}).get("connect_timeout")
    if timeout:
        env["PGCONNECT_TIMEOUT"] = str(timeout)
    return args[1:-1], args[-1], env


def _run(command: list[str], env: dict[str, str] | None, label: str) -> None:
    result = subprocess.run(command, env=env, capture_output=True, check=False)
    if result.returncode != 0:
        said = result.stderr.decode(errors="replace").strip()
        raise DatabaseError(f"{label} failed (exit {result.returncode}): {said[-2000:]}")
