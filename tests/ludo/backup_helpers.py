"""What the backup tests compare: every row of every table (raw SQL, models or not)
and of every model (dumpdata), and every file's bytes. Not a test module.

Run as ``python -m tests.ludo.backup_helpers`` with a site's environment, it prints
the site's rows as JSON (the restored site lives in another database, reached by
a process of its own, as an operator's would be).
"""

from __future__ import annotations

import io
import json
import os
import sys
from pathlib import Path
from typing import Any


def _plain(value: Any) -> Any:
    if isinstance(value, (bytes, bytearray, memoryview)):
        return "bytes:" + bytes(value).hex()
    if isinstance(value, (int, float, str)) or value is None:
        return value
    return str(value)


def table_rows() -> dict[str, list[list[Any]]]:
    """Every row of every table of the default database, sorted."""
    from django.db import connection

    rows: dict[str, list[list[Any]]] = {}
    with connection.cursor() as cursor:
        for table in sorted(connection.introspection.table_names()):
            cursor.execute(f"SELECT * FROM {connection.ops.quote_name(table)}")
            rows[table] = sorted(([_plain(v) for v in row] for row in cursor.fetchall()), key=repr)
    return rows


def model_rows() -> list[dict[str, Any]]:
    """Every object of every model of every app (dumpdata, base managers)."""
    from django.core.management import call_command

    out = io.StringIO()
    call_command("dumpdata", "--all", "--format", "json", stdout=out)
    return json.loads(out.getvalue())


def files(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` by its relative path, with its bytes."""
    root = Path(root)
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def site_state(media_root: Path) -> dict[str, Any]:
    return {"tables": table_rows(), "models": model_rows(), "files": sorted(files(media_root))}


if __name__ == "__main__":
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ludo.settings")
    django.setup()
    json.dump({"tables": table_rows(), "models": model_rows()}, sys.stdout)
