"""A game's names in several languages: keeping the per-language titles and the
search key in step with them, and importing an alternate-names file.

The names file has three columns, ``bgg_id, language, name``: one line per name,
the first line of a game in a language giving its primary name there (unless the
game already has one, which an import never changes). The catalogue ships one,
``catalog/data/names-fr.csv``: the titles printed on the French boxes of the data
set's most-owned games. Every line that cannot be used is reported with its number
and the reason (unknown game, empty name, a name given twice, a language code that
is not ISO 639-1) and changes nothing; the others are imported, and a second run of
the same file changes nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from django.conf.locale import LANG_INFO
from django.db import transaction

from catalog import text as textlib
from catalog.models import Game, GameName, NameWord

SHIPPED = Path(__file__).resolve().parent / "data" / "names-fr.csv"
TITLE_LANGUAGES = ("fr", "de", "en")  # kept in Game.title_<language> for display
LANGUAGE_CODES = frozenset(code for code in LANG_INFO if len(code) == 2 and code.isalpha()) | {"la", "eo"}
HEADER = ["bgg_id", "language", "name"]
BATCH = 1000


def is_names_header(header: list[str]) -> bool:
    return [h.strip().lower() for h in header[:3]] == HEADER and len(header) == 3


def titles_from(names: Iterable[GameName]) -> dict[str, str]:
    """The title shown in each display language: its primary name, else its first one."""
    titles = {language: "" for language in TITLE_LANGUAGES}
    for name in sorted(names, key=lambda n: (n.language, not n.primary, n.id or 0)):
        if name.language in titles and not titles[name.language]:
            titles[name.language] = name.name
    return titles


def refresh(games: Iterable[Game]) -> None:
    """Bring the games' display titles and search keys in step with their names."""
    games = list(games)
    if not games:
        return
    by_game: dict[int, list[GameName]] = {}
    for name in GameName.objects.filter(game__in=games):
        by_game.setdefault(name.game_id, []).append(name)
    for game in games:
        names = by_game.get(game.id, [])
        for language, title in titles_from(names).items():
            setattr(game, f"title_{language}", title)
        game.name_key = textlib.name_key([game.title, *(n.name for n in names), *game.other_names.splitlines()])
    fields = [f"title_{language}" for language in TITLE_LANGUAGES] + ["name_key"]
    Game.objects.bulk_update(games, fields, batch_size=BATCH)
    NameWord.add_from([g.name_key for g in games])


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


def ensure_from_titles(game: Game) -> None:
    """Names for the per-language titles a game was created with (demo content, old
    data): each becomes the primary name of its language when it has none."""
    existing = {(n.language, n.name) for n in game.names.all()}
    primaries = {n.language for n in game.names.all() if n.primary}
    added = False
    for language in TITLE_LANGUAGES:
        title = " ".join(getattr(game, f"title_{language}", "").split())
        if title and (language, title) not in existing:
            GameName.objects.create(game=game, language=language, name=title, primary=language not in primaries)
            added = True
    if added:
        refresh([game])


def import_names(rows: list[tuple[int, list[str]]], report, only_bgg_ids: set[int] | None = None) -> None:
    """Import the rows of a names file (after its header) into ``report`` (an
    importer.ImportReport): created, unchanged, rejected line by line."""
    from catalog.importer import Line

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
    touched: dict[int, Game] = {}
    for number, row in rows:
        cells = [c.strip() for c in row]
        if len(cells) != 3:
            report.rejected.append(Line(number, f"{len(cells)} columns instead of 3 (bgg_id, language, name)"))
            continue
        bgg_id, language, name = cells[0], cells[1], " ".join(cells[2].split())
        if not bgg_id.isdigit() or int(bgg_id) <= 0:
            report.rejected.append(Line(number, f"not a BoardGameGeek id: {bgg_id[:30]!r}"))
            continue
        bgg_id = int(bgg_id)
        if only_bgg_ids is not None and bgg_id not in only_bgg_ids:
            continue
        if language not in LANGUAGE_CODES:
            report.rejected.append(Line(number, f"not a two-letter ISO 639-1 language code in lower case: {language[:20]!r}"))
            continue
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
            report.unchanged += 1
            continue
        has_primary = any(n.primary for n in present.values())
        row_name = GameName(game=game, language=language, name=name, primary=not has_primary)
        present[key] = row_name
        to_create.append(row_name)
        touched[game.id] = game
    with transaction.atomic():
        GameName.objects.bulk_create(to_create, batch_size=BATCH)
        refresh(touched.values())
    report.created = len(to_create)
    report.updated = 0
