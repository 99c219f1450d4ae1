"""Import games from BoardGameGeek CSV files: collection exports (objectid,
objectname, minplayers...) and the shared data set (bgg_id, title, min_players...),
plus the data set's themes file (bgg_id and one 0/1 column per theme).

Games are matched by BoardGameGeek id: new ones are created, changed ones updated,
identical ones left alone, so a second run changes nothing. Every line that cannot
be read is rejected with its line number and the reason; lines with odd but
meaningful values are imported and listed as adjusted (maximum players 0 means
unknown, a year of 0 is unknown and a negative year is before the common era, a
minimum above the maximum is swapped); titles garbled by a past encoding error
are repaired where the repair is certain, by rule or by the reviewed mapping
(catalog/collection/mojibake.py), and listed; those with no certain repair are
kept as read and marked "correction pending" (Game.title_pending).

An import only ever changes the games whose lines it read and accepted: a themes
file sets the themes of its own games, never of others. A file with rejected
lines changes nothing unless ``partial`` is asked for; either way the report says
how many lines were read, accepted and rejected (with their numbers and reasons).
Lines are read one at a time (catalog/collection/csv_rows.py): a bad line is only ever
rejected itself. A file is imported in one transaction: it lands whole or not at all.
"""

from __future__ import annotations

import csv
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import Path

from django.db import connection, transaction
from django.utils.text import slugify

from catalog import text as textlib
from catalog.collection import mojibake
from catalog.collection.csv_rows import ImportFileError, Line, read
from catalog.collection.models import MAX_PLAYERS_OPEN, Game, NameWord, Term

BATCH = 1000
MAX_PLAYERS_KNOWN = MAX_PLAYERS_OPEN  # above this, a "maximum" means "no limit" on BoardGameGeek
MAX_MINUTES = 100_000
Progress = Callable[[int, int], None]

GAME_FIELDS = [
    "title", "title_pending", "year", "min_players", "max_players", "best_min_players", "best_max_players",
    "min_time", "max_time", "min_age", "weight", "rating", "rating_count", "owned_count", "language_dependence",
]

# Column names: the data set's, then a BoardGameGeek collection export's.
COLUMNS = {
    "bgg_id": ("bgg_id", "objectid"),
    "title": ("title", "originalname", "objectname"),
    "year": ("year_published", "yearpublished"),
    "weight": ("game_weight", "avgweight"),
    "rating": ("avg_rating", "average"),
    "min_players": ("min_players", "minplayers"),
    "max_players": ("max_players", "maxplayers"),
    "owned_count": ("num_owned", "numowned"),
    "rating_count": ("num_user_ratings", "usersrated"),
    "box_time": ("mfg_playtime", "playingtime"),
    "min_time": ("com_min_playtime", "minplaytime"),
    "max_time": ("com_max_playtime", "maxplaytime"),
    "min_age": ("mfg_age_rec", "bggrecagerange"),
    "best": ("bggbestplayers",),
    "language_dependence": ("bgglanguagedependence",),
}

THEMES_FR = {
    "adventure": "Aventure", "fantasy": "Fantastique", "fighting": "Combat", "environmental": "Environnement",
    "medical": "Médecine", "economic": "Économie", "industry_manufacturing": "Industrie",
    "transportation": "Transports", "science_fiction": "Science-fiction", "space_exploration": "Exploration spatiale",
    "civilization": "Civilisation", "civil_war": "Guerre civile", "movies_tv_radio": "Cinéma, télé, radio",
    "novel_based": "D'après un roman", "age_of_reason": "Siècle des Lumières", "mythology": "Mythologie",
    "renaissance": "Renaissance", "american_west": "Far West", "animals": "Animaux",
    "modern_warfare": "Guerre moderne", "medieval": "Moyen Âge", "ancient": "Antiquité", "nautical": "Marine",
    "post_napoleonic": "Après Napoléon", "horror": "Horreur", "farming": "Agriculture", "religious": "Religion",
    "travel": "Voyage", "murder_mystery": "Enquête criminelle", "pirates": "Pirates", "comic_book": "Bande dessinée",
    "mature_adult": "Pour adultes", "video_game": "Jeu vidéo", "spies_secret_agents": "Espions",
    "arabian": "Orient", "prehistoric": "Préhistoire", "trains": "Trains", "aviation_flight": "Aviation",
    "zombies": "Zombies", "world_war_ii": "Seconde Guerre mondiale", "racing": "Course",
    "pike_and_shot": "Piques et mousquets", "world_war_i": "Première Guerre mondiale", "humor": "Humour",
    "sports": "Sport", "mafia": "Mafia", "american_indian_wars": "Guerres indiennes",
    "napoleonic": "Guerres napoléoniennes", "american_revolutionary_war": "Guerre d'indépendance américaine",
    "vietnam_war": "Guerre du Viêt Nam", "american_civil_war": "Guerre de Sécession", "number": "Nombres",
    "trivia": "Culture générale", "music": "Musique", "korean_war": "Guerre de Corée",
    "city_building": "Construction de villes", "political": "Politique", "math": "Mathématiques",
    "maze": "Labyrinthe", "cooking": "Cuisine",
}


__all__ = ["ImportFileError", "ImportReport", "Line", "import_file", "order_files"]


@dataclass
class ImportReport:
    path: str
    kind: str = ""
    rows: int = 0  # non-blank lines read after the header
    applied: bool = True  # False: rejected lines and no ``partial``, nothing changed
    encoding: str = "utf-8"
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    links_added: int = 0
    links_removed: int = 0
    rejected: list[Line] = field(default_factory=list)
    adjusted: list[Line] = field(default_factory=list)
    repaired: list[Line] = field(default_factory=list)  # titles whose encoding error was undone
    garbled: list[Line] = field(default_factory=list)  # titles that still look garbled, left as they are

    @property
    def accepted(self) -> int:
        return self.rows - len(self.rejected)

    def summary(self) -> str:
        lines = f"{self.path}: {self.rows} rows read, {self.accepted} accepted, {len(self.rejected)} rejected"
        if not self.applied:
            return f"{lines}; nothing changed (rejected lines; --partial imports the accepted ones)"
        if self.kind == "themes":
            return f"{lines}; {self.links_added} theme links added, {self.links_removed} removed"
        if self.kind == "names":
            return f"{lines}; {self.created} names added, {self.unchanged} already known"
        return (
            f"{lines}; {self.created} created, {self.updated} updated, {self.unchanged} unchanged, "
            f"{len(self.adjusted)} adjusted, {len(self.repaired)} titles repaired"
        )


def _read(path: Path):
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ImportFileError(f"cannot read {path}: {exc.strerror}") from None
    return read(raw, str(path))


class _Bad(Exception):
    pass


def _number(value: str, name: str, *, decimal: bool = False):
    value = (value or "").strip()
    if value in ("", "N/A", "NA", "-"):
        return None
    try:
        number = Decimal(value)
    except InvalidOperation:
        raise _Bad(f"{name} is not a number: {value[:30]!r}") from None
    if not number.is_finite():
        raise _Bad(f"{name} is not a number: {value[:30]!r}")
    if decimal:
        return number
    if number != number.to_integral_value():
        raise _Bad(f"{name} is not a whole number: {value[:30]!r}")
    return int(number)


def _age(value: str):
    value = (value or "").strip().rstrip("+").strip()
    return _number(value, "age")


def _best(value: str) -> tuple[int | None, int | None]:
    counts = []
    for part in (value or "").replace(";", ",").split(","):
        part = part.strip().rstrip("+")
        if part.isdigit():
            counts.append(int(part))
    return (min(counts), max(counts)) if counts else (None, None)


def _language_dependence(value: str):
    value = (value or "").strip().lower()
    if not value:
        return None
    if value.isdigit():
        n = int(value)
        # BoardGameGeek numbers its levels 1 to 5.
        return n - 1 if 1 <= n <= 5 else None
    for needle, level in (("no necessary", 0), ("some", 1), ("moderate", 2), ("extensive", 3), ("unplayable", 4)):
        if needle in value:
            return level
    return None


def _game_values(cols: dict[str, int], row: list[str], number: int, report: ImportReport) -> dict | None:
    def get(key: str) -> str:
        index = cols.get(key)
        return row[index] if index is not None and index < len(row) else ""

    try:
        bgg_id = _number(get("bgg_id"), "bgg id")
        if bgg_id is None or bgg_id <= 0:
            raise _Bad("no BoardGameGeek id")
        # Repaired before blanks are tidied: a flattened "à" ends in a no-break space.
        raw = get("title").strip(" \t")
        repaired, _ = mojibake.repair(raw)
        title = " ".join(repaired.split())
        if not title:
            raise _Bad("no title")
        # Then the reviewed mapping, for this game and this very garbled title only.
        title, pending = mojibake.reviewed(bgg_id, title)
        repairs = []
        if title != " ".join(raw.split()):
            repairs.append(("repaired", f"title {' '.join(raw.split())!r} repaired as {title!r}"))
        if pending:
            repairs.append(
                ("garbled", f"title {title!r} looks garbled; no certain repair, left as it is, "
                 "correction pending")
            )
        if len(title) > 300:
            raise _Bad("title longer than 300 characters")
        values = {"bgg_id": bgg_id, "title": title, "title_pending": pending}
        notes = []
        year = _number(get("year"), "year")
        if year == 0:
            year, _ = None, notes.append("year 0 read as unknown")
        elif year is not None and year < 0:
            notes.append(f"year {year} read as {-year} before the common era")
        if year is not None and not -10000 <= year <= 2100:
            raise _Bad(f"year out of range: {year}")
        values["year"] = year
        low, high = _number(get("min_players"), "minimum players"), _number(get("max_players"), "maximum players")
        for name, v in (("minimum players", low), ("maximum players", high)):
            if v is not None and v < 0:
                raise _Bad(f"{name} is negative: {v}")
        if low == 0:
            low = None
            notes.append("minimum players 0 read as unknown")
        if high == 0:
            high = None
            notes.append("maximum players 0 read as unknown")
        elif high is not None and high > MAX_PLAYERS_KNOWN:
            notes.append(f"maximum players {high} read as no upper limit")
            high = MAX_PLAYERS_OPEN
        if low is not None and high is not None and low > high:
            low, high = high, low
            notes.append("minimum and maximum players swapped")
        if low is not None and low > MAX_PLAYERS_KNOWN:
            raise _Bad(f"minimum players out of range: {low}")
        values["min_players"], values["max_players"] = low, high
        times = {}
        for key in ("box_time", "min_time", "max_time"):
            t = _number(get(key), "playing time")
            if t is not None and t < 0:
                raise _Bad(f"negative playing time: {t}")
            if t is not None and t > MAX_MINUTES:
                raise _Bad(f"playing time out of range: {t}")
            times[key] = t or None
        t_min = times["min_time"] or times["box_time"]
        t_max = times["max_time"] or times["box_time"]
        if t_min and t_max and t_min > t_max:
            t_min, t_max = t_max, t_min
            notes.append("shortest and longest times swapped")
        values["min_time"], values["max_time"] = t_min, t_max
        age = _age(get("min_age"))
        if age is not None and not 0 <= age <= 99:
            raise _Bad(f"age out of range: {age}")
        values["min_age"] = age or None
        weight = _number(get("weight"), "weight", decimal=True)
        if weight is not None and weight != 0 and not 1 <= weight <= 5:
            raise _Bad(f"weight outside 1–5: {weight}")
        values["weight"] = weight.quantize(Decimal("0.01")) if weight else None
        rating = _number(get("rating"), "rating", decimal=True)
        if rating is not None and not 0 <= rating <= 10:
            raise _Bad(f"rating outside 0–10: {rating}")
        values["rating"] = float(rating) if rating else None
        owned = _number(get("owned_count"), "owners")
        values["owned_count"] = max(0, owned or 0)
        ratings = _number(get("rating_count"), "ratings")
        values["rating_count"] = max(0, ratings or 0)
        values["best_min_players"], values["best_max_players"] = _best(get("best"))
        values["language_dependence"] = _language_dependence(get("language_dependence"))
    except _Bad as exc:
        report.rejected.append(Line(number, str(exc)))
        return None
    values["_notes"], values["_repairs"] = notes, repairs
    return values


def _columns(header: list[str]) -> dict[str, int]:
    lowered = [h.lower() for h in header]
    cols = {}
    for key, names in COLUMNS.items():
        for name in names:
            if name in lowered:
                cols[key] = lowered.index(name)
                break
    return cols


def detect(header: list[str]) -> str:
    from catalog.collection import names

    lowered = {h.lower() for h in header}
    if names.is_names_header(header):
        return "names"
    if header and header[0].lower() == "bgg_id" and len(header) > 1 and "title" not in lowered:
        return "themes"
    if ({"bgg_id", "title"} <= lowered) or ({"objectid", "objectname"} <= lowered):
        return "games"
    raise ImportFileError(
        "unknown columns: expected a BoardGameGeek collection export (objectid, objectname, ...), "
        "the games data set (bgg_id, title, ...), its themes (bgg_id and one column per theme) "
        "or alternate names (bgg_id, language, name)"
    )


def _unique_slugs(titles: list[str], taken: set[str]) -> list[str]:
    out = []
    for title in titles:
        root = slugify(textlib.fold(title))[:70] or "jeu"
        slug, n = root, 2
        while slug in taken:
            slug, n = f"{root}-{n}", n + 1
        taken.add(slug)
        out.append(slug)
    return out


def _import_games(header, rows, report: ImportReport, progress: Progress | None, limit_ids: set[int] | None) -> None:
    cols = _columns(header)
    parsed: dict[int, dict] = {}
    first_line: dict[int, int] = {}
    for number, row in rows:
        values = _game_values(cols, row, number, report)
        if values is None:
            continue
        if values["bgg_id"] in first_line:
            report.rejected.append(Line(number, f"same BoardGameGeek id as line {first_line[values['bgg_id']]}"))
            continue
        first_line[values["bgg_id"]] = number
        notes, repairs = values.pop("_notes"), values.pop("_repairs")
        if limit_ids is not None and values["bgg_id"] not in limit_ids:
            continue
        if notes:
            report.adjusted.append(Line(number, "; ".join(notes)))
        for kind, message in repairs:
            getattr(report, kind).append(Line(number, message))
        parsed[values["bgg_id"]] = values
    total = len(parsed)
    existing = {g.bgg_id: g for g in Game.objects.filter(bgg_id__in=list(parsed)).prefetch_related("names").only("id", "bgg_id", "title_fr", "title_de", "title_en", "other_names", *GAME_FIELDS)}
    taken = set(Game.objects.values_list("slug", flat=True))
    to_create, to_update = [], []
    for bgg_id, values in parsed.items():
        game = existing.get(bgg_id)
        if game is None:
            game = Game(**values)
            game.refresh_name_key()
            to_create.append(game)
            continue
        changed = [f for f in GAME_FIELDS if getattr(game, f) != values[f]]
        if not changed:
            report.unchanged += 1
            continue
        for f in changed:
            setattr(game, f, values[f])
        game.refresh_name_key()
        to_update.append(game)
    for game, slug in zip(to_create, _unique_slugs([g.title for g in to_create], taken)):
        game.slug = slug
    done = report.unchanged
    if progress:
        progress(done, total)
    for start in range(0, len(to_create), BATCH):
        batch = to_create[start : start + BATCH]
        Game.objects.bulk_create(batch, batch_size=BATCH)
        done += len(batch)
        if progress:
            progress(done, total)
    for start in range(0, len(to_update), BATCH):
        batch = to_update[start : start + BATCH]
        Game.objects.bulk_update(batch, [*GAME_FIELDS, "name_key"], batch_size=BATCH)
        done += len(batch)
        if progress:
            progress(done, total)
    NameWord.add_from([g.name_key for g in to_create + to_update])
    report.created, report.updated = len(to_create), len(to_update)


def _theme_name(column: str) -> str:
    return column.replace("_", " ").strip().capitalize()


def _import_themes(header, rows, report: ImportReport, progress: Progress | None, limit_ids: set[int] | None) -> None:
    columns = header[1:]
    terms = []
    for column in columns:
        slug = slugify(column.lower()) or "theme"
        term, _ = Term.objects.get_or_create(
            kind=Term.Kind.THEME, slug=slug,
            defaults={"name_en": _theme_name(column), "name_fr": THEMES_FR.get(column.lower(), "")},
        )
        terms.append(term)
    ids = dict(Game.objects.filter(bgg_id__isnull=False).values_list("bgg_id", "id"))
    wanted: set[tuple[int, int]] = set()
    read_games: set[int] = set()  # the games whose lines were accepted: the only ones changed
    seen: dict[int, int] = {}
    for number, row in rows:
        try:
            bgg_id = _number(row[0] if row else "", "bgg id")
            if bgg_id is None:
                raise _Bad("no BoardGameGeek id")
            if len(row) != len(header):
                raise _Bad(f"{len(row)} columns instead of {len(header)}")
            flags = [cell.strip() for cell in row[1:]]
            bad = next((c for c in flags if c not in ("0", "1", "")), None)
            if bad is not None:
                raise _Bad(f"theme values are 0 or 1, not {bad[:20]!r}")
            if bgg_id in seen:
                raise _Bad(f"same BoardGameGeek id as line {seen[bgg_id]}")
        except _Bad as exc:
            report.rejected.append(Line(number, str(exc)))
            continue
        seen[bgg_id] = number
        if limit_ids is not None and bgg_id not in limit_ids:
            continue
        game_id = ids.get(bgg_id)
        if game_id is None:
            report.rejected.append(Line(number, f"no game with BoardGameGeek id {bgg_id} (import the games first)"))
            continue
        read_games.add(game_id)
        wanted.update((game_id, term.id) for term, flag in zip(terms, flags) if flag == "1")
    through = Game.terms.through
    term_ids = [t.id for t in terms]
    present = set()
    listed = sorted(read_games)
    for start in range(0, len(listed), BATCH):
        present.update(through.objects.filter(term_id__in=term_ids, game_id__in=listed[start : start + BATCH])
                       .values_list("game_id", "term_id"))
    add = sorted(wanted - present)
    remove = present - wanted
    total = len(add) + len(remove)
    if progress:
        progress(0, total)
    for start in range(0, len(add), BATCH * 5):
        batch = add[start : start + BATCH * 5]
        through.objects.bulk_create([through(game_id=g, term_id=t) for g, t in batch], batch_size=BATCH * 5)
        if progress:
            progress(min(total, start + len(batch)), total)
    for game_id, term_id in sorted(remove):
        through.objects.filter(game_id=game_id, term_id=term_id).delete()
    if progress:
        progress(total, total)
    report.links_added, report.links_removed = len(add), len(remove)


def import_file(
    path: Path | str,
    progress: Progress | None = None,
    only_bgg_ids: set[int] | None = None,
    partial: bool = False,
) -> ImportReport:
    """Import one CSV file; returns what was read, accepted, rejected, created, updated.

    With rejected lines and without ``partial``, nothing is changed (``report.applied``
    is False; the counts say what the accepted lines would have done).
    """
    path = Path(path)
    data = _read(path)
    header, rows = data.header, data.rows
    kind = detect(header)
    report = ImportReport(path=str(path), kind=kind, rows=data.lines, encoding=data.encoding)
    report.rejected.extend(data.rejected)
    with transaction.atomic():
        if kind == "games":
            _import_games(header, rows, report, progress, only_bgg_ids)
        elif kind == "names":
            from catalog.collection import names

            names.import_names(rows, report, only_bgg_ids)
        else:
            _import_themes(header, rows, report, progress, only_bgg_ids)
        report.rejected.sort(key=lambda line: line.number)
        if report.rejected and not partial:
            report.applied = False
            transaction.set_rollback(True)
        elif connection.vendor == "postgresql" and (report.created or report.updated or report.links_added):
            # Fresh statistics, or the planner keeps its estimates for an empty table.
            with connection.cursor() as cursor:
                for table in ("catalog_game", "catalog_nameword", "catalog_game_terms", "catalog_gamename"):
                    cursor.execute(f"ANALYZE {table}")
    return report


def order_files(paths: list[Path]) -> list[Path]:
    """Games files before themes and names files (they need their games)."""
    def key(p: Path) -> int:
        try:
            return 0 if detect(_read_header(p)) == "games" else 1
        except ImportFileError:
            return 0
    return sorted(paths, key=key)


def _read_header(path: Path) -> list[str]:
    with path.open("r", encoding="utf-8-sig", errors="replace", newline="") as handle:
        return [h.strip() for h in next(csv.reader(handle), [])]
