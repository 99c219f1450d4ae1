"""Karo games stored with every recorded position as text get the compact record.

A Karo game (Rampants et Sauteurs, Éclaircissement, Quatre en ligne) used to be
stored as ``{"position", "seen": {position text: occurrences}, "last", "outcome"}``;
it is now ``{"position", "record": <codes>, "last", "outcome"}`` (see
games/engines/karo/record.py). Each stored game is converted with the engine's
own reading of those texts, then loaded and saved again to check that the engine
reads back exactly what was written.

A row that cannot be converted (a text that is not a position, a count out of
range, a state that is not a mapping) does not stop the others: it is logged
and left exactly as it was, so that it can still be read and mended by hand.
Rows already converted, and other games, are left alone: running the
conversion again changes nothing. Going back leaves the rows as they are (the
codes cannot be turned back into texts).
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import migrations

log = logging.getLogger("games.migrations")

KARO_GAMES = ("rampants-sauteurs", "eclaircissement", "quatre-en-ligne")


def converted(game: str, state: Any) -> dict[str, Any] | None:
    """The new stored form of an old Karo ``state``, or None if it needs none.

    Raises (ValueError, the engine's PositionError among them, KeyError,
    TypeError...) for a state that cannot be converted.
    """
    from games import engines

    if not isinstance(state, dict):
        raise TypeError(f"the stored state is a {type(state).__name__}, not a mapping")
    if "record" in state and "seen" not in state:
        return None
    missing = [name for name in ("position", "seen") if name not in state]
    if missing:
        raise ValueError(f"the stored state has no {' nor '.join(missing)}")
    rules = engines.get(game)
    new = {
        "position": state["position"],
        "record": rules.record_of(state["seen"]),
        "last": state.get("last"),
        "outcome": state.get("outcome"),
    }
    if rules.dump(rules.load(new)) != new:
        raise ValueError("the converted game does not read back as written")
    return new


def convert_tables(apps: Any, schema_editor: Any = None) -> tuple[int, list[int]]:
    """Convert every stored Karo game; returns how many were converted and the ids left alone."""
    table_model = apps.get_model("games", "Table")
    done, failed = 0, []
    rows = table_model.objects.filter(game__in=KARO_GAMES, state__isnull=False).only("pk", "game", "state").order_by("pk")
    for row in rows.iterator(chunk_size=200):
        try:
            new = converted(row.game, row.state)
        except Exception as error:  # noqa: BLE001 - any row that cannot be converted is left as it was
            log.warning("table %s (%s): stored game left as it was, not converted: %s", row.pk, row.game, error)
            failed.append(row.pk)
            continue
        if new is not None:
            table_model.objects.filter(pk=row.pk).update(state=new)
            done += 1
    if failed:
        print(f"\n  Karo records: {len(failed)} stored game(s) not converted, left as they were: {failed}")
    return done, failed


def forwards(apps: Any, schema_editor: Any) -> None:
    convert_tables(apps, schema_editor)


class Migration(migrations.Migration):
    dependencies = [("games", "0004_table_pass_and_play")]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
