"""Demo content for `make run`: the Drumlin, Karo and Drekki boxes with their games,
editions and a copy each, the seed rulebooks, and the catalogue at the gîte's size:
the 9,000 most-owned games of the shared data set, with their themes, their French
names (catalog/data/names-fr.csv) and a copy each on the shelves. Idempotent: a
second run adds nothing. The whole load takes some 20 s on SQLite.
"""

from __future__ import annotations

import csv
from pathlib import Path

from django.db import transaction
from django.utils.translation import gettext_noop

from catalog import conf
from catalog.collection import importer, names
from catalog.collection.models import Edition, Game, Person, Publisher, Term
from catalog.rulebooks import demo_links
from catalog.rulebooks import services as rulebooks
from catalog.rulebooks.models import Document
from catalog.rulebooks.uploads import Upload
from catalog.shelves import services as shelves
from catalog.shelves.models import Copy

DEMO_GAMES = 9000
BOXES_PER_SHELF = 20
SHELF_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

TERMS = [
    ("category", "abstract-strategy", "Abstract strategy", "Stratégie abstraite"),
    ("category", "bluffing", "Bluffing", "Bluff"),
    ("category", "fantasy", "Fantasy", "Fantastique"),
    ("mechanic", "grid-movement", "Grid movement", "Déplacement sur grille"),
    ("mechanic", "auction", "Auction / bidding", "Enchères"),
    ("mechanic", "simultaneous-selection", "Simultaneous action selection", "Choix simultanés"),
    ("mechanic", "pattern-building", "Pattern building", "Alignement"),
]

BOXES = [
    {
        "slug": "drumlin", "title": "Drumlin", "year": 1986, "engine_slug": "drumlin",
        "min_players": 2, "max_players": 2, "best_min_players": 2, "best_max_players": 2,
        "min_time": 45, "max_time": 45, "teach_time": 15, "min_age": 12, "weight": "2.80", "language_dependence": 0,
        "designers": ["Thomas Kotulla"], "publishers": ["FX Schmid", "Clou (Wendel GmbH)"],
        "terms": ["abstract-strategy", "grid-movement"],
        "editions": [("de", "FX Schmid", 1987, ""), ("de", "Clou (Wendel GmbH)", 1986, "")],
        "copy": ("D5", "\n".join([gettext_noop("1 board of 8 × 10 squares"), gettext_noop("12 pink pieces"), gettext_noop("12 violet pieces"), gettext_noop("1 Drumlin (grey wooden peg)"), gettext_noop("Rules (French translation)")])),
    },
    {
        "slug": "karo", "title": "Karo", "engine_slug": "", "min_players": 2, "max_players": 2,
        "min_time": 15, "max_time": 30, "min_age": 8, "weight": "1.80", "language_dependence": 0,
        "designers": ["Steffen Mühlhäuser"], "publishers": [], "terms": ["abstract-strategy", "grid-movement"],
        "editions": [("de", None, None, "")],
        "copy": ("K2#", "\n".join([gettext_noop("24 square tiles"), gettext_noop("6 red pieces"), gettext_noop("6 white pieces"), gettext_noop("Rules for three games")])),
    },
    {
        "slug": "drekki", "title": "Drekki", "year": 2019, "engine_slug": "drekki",
        "min_players": 2, "max_players": 6, "best_min_players": 4, "best_max_players": 5,
        "min_time": 20, "max_time": 30, "teach_time": 10, "min_age": 8, "weight": "1.60", "language_dependence": 0,
        "designers": ["Franz Couderc"], "publishers": ["Lud'Act"], "terms": ["bluffing", "fantasy", "auction", "simultaneous-selection"],
        "editions": [("fr", "Lud'Act", 2019, "")],
        "copy": ("B3", "\n".join([gettext_noop("27 dragon tiles"), gettext_noop("36 mage cards (6 colours × 6)"), gettext_noop("13 tear tokens"), gettext_noop("Rules")])),
    },
]

KARO_GAMES = [
    {"slug": "rampants-et-sauteurs", "title": "Rampants et Sauteurs", "title_de": "Schleicher und Hüpfer",
     "title_en": "Crawlers and Jumpers", "engine_slug": "rampants-sauteurs", "min_time": 15, "max_time": 20},
    {"slug": "eclaircissement", "title": "Éclaircissement", "title_de": "Nix wie weg",
     "title_en": "Lighting Up", "engine_slug": "eclaircissement", "min_time": 15, "max_time": 25},
    {"slug": "quatre-en-ligne", "title": "Quatre en ligne", "title_de": "Vier Kreise",
     "title_en": "Four in a Row", "engine_slug": "quatre-en-ligne", "min_time": 15, "max_time": 30},
]

SEEDS = [
    # file prefix, game slug, kind, language, title, translator, source
    ("000_", "drumlin", "translation", "fr", "Drumlin — règle en français", "François Haffner",
     "FX Schmid 1987, traduction ; OCR d'un scan de collectionneur"),
    ("001_", "drumlin", "translation", "fr", "Drumlin — règle en français (seconde numérisation)", "François Haffner",
     "FX Schmid 1987, traduction ; OCR du PDF"),
    ("003_", "drumlin", "summary", "de", "Drumlin — Zusammenfassung (Clou 1986)", "", "Clou (Wendel GmbH) 1986"),
    ("002_", "drekki", "rules", "fr", "Drekki — règle", "", "Lud'Act 2019"),
    ("004_", "karo", "translation", "fr", "Karo — règles des trois jeux", "", "Boîte Karo ; OCR d'un scan de collectionneur"),
]
# Stored in English, shown in the reader's language (templates/catalog/reader.html translates it).
LICENCE = gettext_noop("Rulebook shared by collectors for the players; the rights stay with the authors and publishers.")


def _box(spec: dict) -> Game:
    data = {k: v for k, v in spec.items() if k not in ("designers", "publishers", "terms", "editions", "copy")}
    game = Game.objects.filter(slug=spec["slug"]).first()
    if game is None:
        game = Game(**data)
        game.full_clean(exclude=["engine_slug"])  # engines may land after the catalog
        game.save()
        game.designers.set([Person.objects.get_or_create(name=n)[0] for n in spec.get("designers", [])])
        game.publishers.set([Publisher.objects.get_or_create(name=n)[0] for n in spec.get("publishers", [])])
        game.terms.set(Term.objects.filter(slug__in=spec.get("terms", [])))
        for language, publisher, year, ean in spec.get("editions", []):
            Edition.objects.create(
                game=game, language=language, year=year, ean=ean,
                publisher=Publisher.objects.get_or_create(name=publisher)[0] if publisher else None,
            )
    if "copy" in spec and not game.copies.exists():
        shelf, contents = spec["copy"]
        shelves.add_copy(game, shelf, edition=game.editions.first(), contents=contents, acquired_from="demo")
    return game


def _top_bgg_ids(path: Path, count: int) -> set[int]:
    with path.open(encoding="utf-8-sig", newline="") as handle:
        rows = [r for r in csv.DictReader(handle) if r.get("bgg_id", "").isdigit()]
    rows.sort(key=lambda r: -int(float(r.get("num_owned") or 0)))
    return {int(r["bgg_id"]) for r in rows[:count]}


@transaction.atomic
def _boxes(stdout) -> None:
    for kind, slug, en, fr in TERMS:
        Term.objects.get_or_create(kind=kind, slug=slug, defaults={"name_en": en, "name_fr": fr})
    boxes = {spec["slug"]: _box(spec) for spec in BOXES}
    for spec in KARO_GAMES:
        _box({
            **spec, "kind": Game.Kind.IN_BOX, "base_game": boxes["karo"], "min_players": 2, "max_players": 2,
            "best_min_players": 2, "best_max_players": 2, "min_age": 8, "language_dependence": 0,
            "designers": ["Steffen Mühlhäuser"], "terms": ["abstract-strategy", "grid-movement"]
            + (["pattern-building"] if spec["slug"] == "quatre-en-ligne" else []),
        })
    stdout.write("catalog: Drumlin, Karo (3 games) and Drekki with an edition and a copy each")


def _seeds(stdout) -> None:
    files = conf.seed_files()
    if not files:
        stdout.write(f"catalog: no seed rulebooks found in {conf.shared_dir() / 'seeds'} (set LUDO_SHARED_DIR)")
        return
    added = 0
    for prefix, slug, kind, language, title, translator, source in SEEDS:
        path = next((f for f in files if f.name.startswith(prefix)), None)
        if path is None or Document.objects.filter(game__slug=slug, title=title).exists():
            continue
        rulebooks.add_text_document(
            Game.objects.get(slug=slug), Upload(path.name, path.read_bytes()),
            title=title, kind=kind, language=language, translator=translator, source=source,
            licence_note=LICENCE, visibility=Document.Visibility.PUBLIC,
        )
        added += 1
    stdout.write(f"catalog: {added} seed rulebook(s) imported")


def _data(stdout) -> None:
    files = conf.data_files()
    games_file = next((f for f in files if "themes" not in f.name), None)
    if games_file is None:
        stdout.write(f"catalog: the games data set is missing from {conf.shared_dir() / 'data'}; no extra games loaded")
        return
    wanted = _top_bgg_ids(games_file, DEMO_GAMES)
    for path in [*importer.order_files(files), names.SHIPPED]:
        report = importer.import_file(path, only_bgg_ids=wanted)
        stdout.write(f"catalog: {report.summary()}")
    _shelve(wanted, stdout)


@transaction.atomic
def _shelve(wanted: set[int], stdout) -> None:
    """A copy of each demo game on the shelves (most owned first), in one go."""
    games = list(Game.objects.filter(bgg_id__in=wanted).order_by("-owned_count", "id").values_list("id", flat=True))
    shelved = set(Copy.objects.filter(game_id__in=games).values_list("game_id", flat=True))
    sections = len(SHELF_LETTERS)
    per_letter = -(-len(games) // (sections * BOXES_PER_SHELF))  # shelves per letter, so all letters are used
    copies = []
    for index, game_id in enumerate(games):
        if game_id in shelved:
            continue
        section = index // BOXES_PER_SHELF
        shelf = f"{SHELF_LETTERS[(section // per_letter) % sections]}{section % per_letter + 1}"
        copies.append(Copy(game_id=game_id, shelf=shelf, acquired_from="demo"))
    Copy.objects.bulk_create(copies, batch_size=2000)
    stdout.write(f"catalog: {len(copies)} copies put on the shelves")


def load(stdout) -> None:
    _boxes(stdout)
    _seeds(stdout)
    demo_links.link(stdout)
    _data(stdout)
