"""Rows a worker job cannot handle, written as a fault would leave them (not a
test module: helpers for the worker bulkhead tests of every app).

- ``unloadable_json``: a JSON column whose value was cut short (a disk fault,
  an interrupted migration). Both databases check that a JSON column holds
  valid JSON, so the cut text is stored as a JSON string: the model loads a
  string where a dict or a list was expected, and whatever reads it fails.
- ``unwritable_row``: a row every UPDATE or DELETE of which fails (a damaged
  page or index entry), made with triggers on both databases.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from typing import Any

from django.db import connection

CUT_SHORT = '{"board": [[0, 1], [2'


def unloadable_json(model: type, pk: Any, column: str) -> None:
    table, quote = model._meta.db_table, connection.ops.quote_name
    cast = "::jsonb" if connection.vendor == "postgresql" else ""
    with connection.cursor() as cursor:
        cursor.execute(f"UPDATE {quote(table)} SET {quote(column)} = %s{cast} WHERE id = %s",
                       [json.dumps(CUT_SHORT), pk])


@contextlib.contextmanager
def unwritable_row(model: type, pk: int) -> Iterator[None]:
    """Inside, every UPDATE or DELETE of this row fails with a database error."""
    table, pk = model._meta.db_table, int(pk)
    name = f"poison_{table}_{pk}"
    message = f"disk fault: row {pk} of {table} cannot be written"
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(f"""CREATE OR REPLACE FUNCTION {name}() RETURNS trigger AS $$
                BEGIN RAISE EXCEPTION '{message}'; END $$ LANGUAGE plpgsql""")
            cursor.execute(f'CREATE TRIGGER {name} BEFORE UPDATE OR DELETE ON "{table}" FOR EACH ROW '
                           f"WHEN (OLD.id = {pk}) EXECUTE FUNCTION {name}()")
        else:
            for event in ("UPDATE", "DELETE"):
                cursor.execute(f'CREATE TRIGGER {name}_{event.lower()} BEFORE {event} ON "{table}" '
                               f"WHEN OLD.id = {pk} BEGIN SELECT RAISE(ABORT, '{message}'); END")
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            if connection.vendor == "postgresql":
                cursor.execute(f'DROP TRIGGER IF EXISTS {name} ON "{table}"')
                cursor.execute(f"DROP FUNCTION IF EXISTS {name}()")
            else:
                for event in ("update", "delete"):
                    cursor.execute(f"DROP TRIGGER IF EXISTS {name}_{event}")


def failures_logged(caplog: Any, row: str) -> list[Any]:
    """The worker's log records about one row ("<model label> <pk>")."""
    return [r for r in caplog.records if r.name == "ludo.worker" and f" {row} " in r.getMessage() + " "]
