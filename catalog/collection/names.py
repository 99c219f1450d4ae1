"""A game's names in several languages: keeping the per-language titles and the
search key in step with them, and importing an alternate-names file.

The names file has three columns, ``bgg_id, language, name``, or five, with
``kind`` (empty or ``current``; ``former``: a title the box carried for years, found
by search, never shown) and ``source`` (where the name comes from: GameName.Source,
empty when not known): one line per name, the first current line of a game in a
language giving its primary name there (unless the game already has one, which an
import never changes). The catalogue ships one, ``catalog/data/names-fr.csv``: the
titles printed on the French boxes of the data set's most-owned games, the French
names of the traditional games, the French titles of spin-offs and expansions, and
former French titles. Where the page that shows a title is known, it is in
``catalog/data/names-fr-references.csv`` (``bgg_id, name, reference``), for reviewers;
the site does not read it. Every line that cannot be used is reported with its number and
the reason (unknown game, empty name, a name given twice, a language code that is
not ISO 639-1, an unknown kind or source) and changes nothing; the others are
imported, and a second run of the same file changes nothing. A name already there
takes the kind and source the file gives it (unless a host added it on the staff
page, or it is the primary name and the file calls it former).
"""

from __future__ import annotations

from pathlib import Path

from django.conf.locale import LANG_INFO
from django.db import transaction

from catalog import text as textlib
from catalog.collection.csv_rows import Line
from catalog.collection.models import Game, GameName, refresh_titles

SHIPPED = Path(__file__).resolve().parents[1] / "data" / "names-fr.csv"  # catalog/data/
REFERENCES = SHIPPED.with_name("names-fr-references.csv")
LANGUAGE_CODES = frozenset(code for code in LANG_INFO if len(code) == 2 and code.isalpha()) | {"la", "eo"}
HEADER = ["bgg_id", "language", "name"]
FULL_HEADER = [*HEADER, "kind", "source"]
KINDS = {"": GameName.Kind.CURRENT, "current": GameName.Kind.CURRENT, "former": GameName.Kind.FORMER}
SOURCES = frozenset(GameName.Source.values)
BATCH = 1000


def is_names_header(header: list[str]) -> bool:
    return [h.strip().lower() for h in header] in (HEADER, FULL_HEADER)


def shown_beside(game: Game) -> list[GameName]:
    """The names a game page lists under "also known as": all but the displayed and
    the original title, one per spelling; the free alternate names last (no language)."""
    shown = {textlib.fold_query(game.display_title), textlib.fold_query(game.title)}
    out = []
    for name in sorted(game.names.all(), key=lambda n: (n.language, not n.primary, n.id)):
        key = textlib.fold_query(name.name)
        if key not in shown:
            shown.add(key)
            out.append(name)
    for line in game.other_names.splitlines():
        key = textlib.fold_query(line)
        if key and key not in shown:
            shown.add(key)
            out.append(GameName(name=line.strip(), language=""))
    return out


def import_names(rows: list[tuple[int, list[str]]], report, only_bgg_ids: set[int] | None = None) -> None:
    """Import the rows of a names file (after its header) into ``report`` (an
    importer.ImportReport): created, updated (kind or source), unchanged, rejected
    line by line."""
    wanted_ids = set()
    for _number, row in rows:
        cell = (row[0] if row else "").strip()
        if cell.isdigit():
            wanted_ids.add(int(cell))
    games = {g.bgg_id: g for g in Game.objects.filter(bgg_id__in=wanted_ids).only("id", "bgg_id", "title", "other_names")}
    existing: dict[tuple[int, str], dict[str, GameName]] = {}
    for name in GameName.objects.filter(game__in=list(games.values())):
        existing.setdefault((name.game_id, name.language), {})[textlib.fold_query(name.name)] = name
    seen: dict[tuple[int, str, str], int] = {}
    to_create: list[GameName] = []
    to_update: dict[int, GameName] = {}
    touched: dict[int, Game] = {}
    for number, row in rows:
        cells = [c.strip() for c in row]
        if len(cells) not in (3, 5):
            report.rejected.append(Line(
                number, f"{len(cells)} columns instead of 3 (bgg_id, language, name) or 5 (and kind, source)"
            ))
            continue
        bgg_id, language, name = cells[0], cells[1], " ".join(cells[2].split())
        kind_cell, source = (cells[3].lower(), cells[4].lower()) if len(cells) == 5 else ("", "")
        if not bgg_id.isdigit() or int(bgg_id) <= 0:
            report.rejected.append(Line(number, f"not a BoardGameGeek id: {bgg_id[:30]!r}"))
            continue
        bgg_id = int(bgg_id)
        if only_bgg_ids is not None and bgg_id not in only_bgg_ids:
            continue
        if language not in LANGUAGE_CODES:
            report.rejected.append(Line(number, f"not a two-letter ISO 639-1 language code in lower case: {language[:20]!r}"))
            continue
        if kind_cell not in KINDS:
            report.rejected.append(Line(number, f"kind is empty, current or former, not {kind_cell[:20]!r}"))
            continue
        if source not in SOURCES:
            known = ", ".join(sorted(SOURCES - {""}))
            report.rejected.append(Line(number, f"unknown source {source[:20]!r} (one of: {known})"))
            continue
        kind = KINDS[kind_cell]
        if not name:
            report.rejected.append(Line(number, "empty name"))
            continue
        if len(name) > 300:
            report.rejected.append(Line(number, "name longer than 300 characters"))
            continue
        key = textlib.fold_query(name)
        if not key:
            report.rejected.append(Line(number, f"a name needs a letter or a digit: {name[:30]!r}"))
            continue
        game = games.get(bgg_id)
        if game is None:
            report.rejected.append(Line(number, f"no game with BoardGameGeek id {bgg_id} (import the games first)"))
            continue
        if (bgg_id, language, key) in seen:
            report.rejected.append(Line(number, f"same name as line {seen[(bgg_id, language, key)]}"))
            continue
        seen[(bgg_id, language, key)] = number
        present = existing.setdefault((game.id, language), {})
        if key in present:
            old = present[key]
            if old.pk and old.added_by_id is None and (old.kind, old.source) != (kind, source) and not (
                old.primary and kind == GameName.Kind.FORMER
            ):
                old.kind, old.source = kind, source
                to_update[old.pk] = old
                touched[game.id] = game
            else:
                report.unchanged += 1
            continue
        has_primary = any(n.primary for n in present.values())
        current = kind == GameName.Kind.CURRENT
        row_name = GameName(
            game=game, language=language, name=name, primary=current and not has_primary,
            kind=kind, source=source,
        )
        present[key] = row_name
        to_create.append(row_name)
        touched[game.id] = game
    with transaction.atomic():
        GameName.objects.bulk_create(to_create, batch_size=BATCH)
        GameName.objects.bulk_update(list(to_update.values()), ["kind", "source"], batch_size=BATCH)
        refresh_titles(touched.values())
    report.created = len(to_create)
    report.updated = len(to_update)
