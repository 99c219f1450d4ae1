"""Backup and restore of a gîte-size site, on SQLite and on PostgreSQL.

    .venv/bin/python bench/backup.py [--sqlite] [--postgres URL] [--games 9000] [--markdown]

For each database (a new SQLite file; and a fresh PostgreSQL database named by
--postgres, default postgres://postgres@127.0.0.1:5432/ludo_backups_bench, restored
into <that name>_restored; both dropped and created again) it:

1. builds the site in a child process: migrate; the first --games games of the
   shared data set with their themes (the importer's code path); a season of
   bookings (120 sessions over six months, 800 bookings); 300 finished tables of
   Quatre en ligne with their moves between 20 accounts, half of them rated, and 20
   games going on; 40 scanned rulebooks of 8 pages with reader images (1100 px
   wide, lines of text drawn in DejaVu Serif) and thumbnails; 300 covers;
2. runs ``manage.py backup`` and ``manage.py restore`` (into a new database and
   an empty media folder) as an operator would, each timed from start to exit
   (Django's start-up included; the command's own figure, its work alone, beside it),
   and checks the restored site: the same rows in every table and the same bytes in
   every file.

It prints each step's figures, then a table (``--markdown``: for docs/performance.md).
Not a test: the times depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import os
import random
import re
import subprocess
import tarfile
import sys
import tempfile
import time
from pathlib import Path

from benchdb import fresh_postgres, on_each_database  # bench/ is the script's folder

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_PG = "postgres://postgres@127.0.0.1:5432/ludo_backups_bench"
GAME = "quatre-en-ligne"
SESSIONS, BOOKINGS, FINISHED, GOING, PLAYERS = 120, 800, 300, 20, 20
DOCUMENTS, PAGES, COVERS = 40, 8, 300


def _env(url: str, media: Path, var: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "CHANNELS_PREFIX", "DJANGO_SETTINGS_MODULE")}
    env.update(DATABASE_URL=url, MEDIA_ROOT=str(media), LUDO_VAR_DIR=str(var), DEBUG="true", LUDO_RATE_LIMITS="off")
    return env


def _timed(command: list[str], env: dict[str, str]) -> tuple[float, str]:
    started = time.perf_counter()
    result = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if result.returncode:
        raise SystemExit(f"{' '.join(command)} failed:\n{result.stdout}\n{result.stderr}")
    return seconds, result.stdout


def measure(url: str, games: int) -> dict:
    with tempfile.TemporaryDirectory(prefix="ludo-backup-bench-") as tmp:
        tmp = Path(tmp)
        source = _env(url, tmp / "media", tmp / "var")
        if url.startswith("sqlite"):
            restored_url = f"sqlite:///{tmp / 'restored.sqlite3'}"
        else:
            restored_url = url + "_restored"
            fresh_postgres(restored_url)
        target = _env(restored_url, tmp / "restored-media", tmp / "var-restored")
        started = time.perf_counter()
        built = json.loads(_timed([sys.executable, __file__, "--child", "build", "--games", str(games)], source)[1]
                           .strip().splitlines()[-1])
        print(f"  built in {time.perf_counter() - started:.0f} s: {built}", file=sys.stderr)
        backup_s, backup_said = _timed([sys.executable, "manage.py", "backup", "--dir", str(tmp / "backups")], source)
        archive = next((tmp / "backups").glob("ludo-backup-*.tar"))
        print(f"  backup: {backup_said.strip()}", file=sys.stderr)
        restore_s, said = _timed([sys.executable, "manage.py", "restore", str(archive)], target)
        print(f"  restore: {said.strip()}", file=sys.stderr)
        print(f"  wall times: backup {backup_s:.1f} s, restore {restore_s:.1f} s; archive "
              f"{archive.stat().st_size / 1e6:.1f} MB", file=sys.stderr)
        before = json.loads(_timed([sys.executable, __file__, "--child", "digest"], source)[1].strip().splitlines()[-1])
        after = json.loads(_timed([sys.executable, __file__, "--child", "digest"], target)[1].strip().splitlines()[-1])
        if before != after:
            differing = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))
            raise SystemExit(f"the restored site differs from the original: {differing[:10]}")
        if not url.startswith("sqlite"):
            fresh_postgres(restored_url)  # leave no copy of the bench's site behind
        with tarfile.open(archive) as tar:
            manifest = json.load(tar.extractfile("manifest.json"))
        return {
            "engine": "SQLite" if url.startswith("sqlite") else "PostgreSQL",
            **built,
            "backup_s": round(backup_s, 1),
            "restore_s": round(restore_s, 1),
            "backup_work_s": float(re.search(r"in ([0-9.]+) s", backup_said).group(1)),
            "restore_work_s": float(re.search(r"in ([0-9.]+) s", said).group(1)),
            "archive_mb": round(archive.stat().st_size / 1e6, 1),
            "database_mb": round(manifest["database"]["size"] / 1e6, 1),
            "database_unpacked_mb": round(manifest["database"].get("unpacked_size", manifest["database"]["size"]) / 1e6, 1),
            "identical": True,
        }


# -- in the child processes ------------------------------------------------------------------------


def _setup() -> None:
    import django

    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ludo.settings")
    django.setup()


def digest() -> dict[str, str]:
    """A SHA-256 of every table's rows (sorted) and of every media file."""
    _setup()
    from django.conf import settings
    from django.db import connection

    out: dict[str, str] = {}
    with connection.cursor() as cursor:
        for table in sorted(connection.introspection.table_names()):
            cursor.execute(f"SELECT * FROM {connection.ops.quote_name(table)}")
            rows = sorted(repr(tuple(bytes(v) if isinstance(v, memoryview) else v for v in row))
                          for row in cursor.fetchall())
            out[f"table {table}"] = f"{len(rows)} {hashlib.sha256('\n'.join(rows).encode()).hexdigest()}"
    root = Path(settings.MEDIA_ROOT)
    for path in sorted(root.rglob("*")):
        if path.is_file():
            out[f"file {path.relative_to(root)}"] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


def build(games: int) -> dict:
    _setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    rng = random.Random(2026)
    counts = {"games": _catalogue(games)}
    counts.update(_season(rng))
    counts.update(_tables(rng))
    counts.update(_scans(rng))
    return counts


def _catalogue(limit: int) -> int:
    from catalog import conf
    from catalog.collection import importer
    from catalog.collection.models import Game

    files = importer.order_files(conf.data_files())
    with files[0].open(encoding="utf-8-sig", newline="") as handle:
        ids = {int(row["bgg_id"]) for _, row in zip(range(limit), csv.DictReader(handle))}
    for path in files:
        importer.import_file(path, only_bgg_ids=ids, partial=True)
    return Game.objects.count()


def _season(rng: random.Random) -> dict:
    from datetime import timedelta

    from django.utils import timezone

    from games.bookings import services as bookings
    from ludo.accounts import create_staff_account

    host = create_staff_account("hote-bench", "hote-bench@example.org", "bench-password-12345")
    now = timezone.now()
    sessions = [
        bookings.create_session(host, starts_at=now + timedelta(days=1 + day * 1.5, hours=8),
                                ends_at=now + timedelta(days=1 + day * 1.5, hours=11), capacity=14,
                                title=f"Soirée {day + 1}", now=now)
        for day in range(SESSIONS)
    ]
    for n in range(BOOKINGS):
        bookings.book(sessions[n % SESSIONS].pk, name=f"Invité {n}", email=f"guest{n}@example.org",
                      seats=rng.choice((1, 1, 2)), note="Première venue" if n % 7 == 0 else "", now=now)
    return {"sessions": SESSIONS, "bookings": BOOKINGS}


def _tables(rng: random.Random) -> dict:
    from django.contrib.auth import get_user_model

    from games import services
    from games.bookings.models import VerifiedAddress
    from games.models import Action, Table
    from games.services import Who
    from tests.games.tables_helpers import short_game

    User = get_user_model()
    people = []
    for n in range(PLAYERS):
        user = User.objects.create_user(f"joueur{n}", f"joueur{n}@example.org", "bench-password-12345")
        VerifiedAddress.objects.create(user=user, email=user.email)
        people.append(Who(user_id=user.pk, name=user.username))
    games = [short_game(GAME, 2, seed) for seed in range(1, 6)]
    for n in range(FINISHED + GOING):
        first, second = rng.sample(people, 2)
        rated = n % 2 == 0
        clock = {"kind": "game", "base": 600, "increment": 5} if rated else None
        table = services.create_table(first, GAME, rated=rated, clock=clock, waiting=False)
        services.join_table(table.pk, second)
        seed = 1 + n % len(games)
        Table.objects.filter(pk=table.pk).update(seed=seed)
        services.start_table(table.pk, first)
        moves = games[seed - 1] if n < FINISHED else games[seed - 1][: len(games[seed - 1]) // 2]
        for seat, move in moves:
            version = Table.objects.values_list("version", flat=True).get(pk=table.pk)
            services.play_move(table.pk, first if seat == 0 else second, move, version)
    from games.ratings.models import RatingChange

    return {"tables": FINISHED + GOING, "actions": Action.objects.count(), "rating_changes": RatingChange.objects.count()}


def _scans(rng: random.Random) -> dict:
    import io

    from django.core.files.base import ContentFile
    from PIL import Image, ImageDraw, ImageFont

    from catalog.collection.models import Game
    from catalog.rulebooks import services
    from catalog.rulebooks.models import Document, DocumentPage
    from catalog.rulebooks.uploads import Upload

    try:
        font = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf", 17)
    except OSError:
        font = ImageFont.load_default()
    words = "le la les dés tour joueur carte pion plateau gagne manche points règle case main pioche".split()

    def page() -> tuple[bytes, bytes]:
        image = Image.new("L", (1100, 1556), 255)
        draw = ImageDraw.Draw(image)
        for line in range(60):
            draw.text((70, 60 + line * 24), " ".join(rng.choice(words) for _ in range(14)), fill=0, font=font)
        full, thumb = io.BytesIO(), io.BytesIO()
        image.save(full, "PNG")
        image.resize((160, 226)).save(thumb, "PNG")
        return full.getvalue(), thumb.getvalue()

    games = list(Game.objects.order_by("pk")[: max(DOCUMENTS, COVERS)])
    media = 0
    for n in range(DOCUMENTS):
        full, thumb = page()
        document = services.add_scanned_document(games[n], [Upload("scan.png", full)],
                                                 title=f"Règles {n}", language="fr",
                                                 visibility=Document.Visibility.GUESTS)
        media += len(full)
        for number in range(1, PAGES + 1):
            full, thumb = page()
            row = DocumentPage(document=document, number=number, method=DocumentPage.Method.OCR,
                               text=f"Page {number} du livret de règles {n}.")
            row.image.save("p.png", ContentFile(full), save=False)
            row.thumbnail.save("t.png", ContentFile(thumb), save=False)
            row.save()
            media += len(full) + len(thumb)
    for game in games[:COVERS]:
        cover = io.BytesIO()
        Image.effect_noise((300, 300), rng.uniform(20, 60)).convert("RGB").save(cover, "JPEG", quality=85)
        game.cover.save("cover.jpg", ContentFile(cover.getvalue()), save=True)
        media += len(cover.getvalue())
    return {"documents": DOCUMENTS, "pages": DOCUMENTS * PAGES, "covers": COVERS, "media_mb": round(media / 1e6, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sqlite", action="store_true")
    parser.add_argument("--postgres", metavar="URL")
    parser.add_argument("--games", type=int, default=9000)
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument("--child", choices=("build", "digest"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child == "build":
        print(json.dumps(build(args.games)))
        return
    if args.child == "digest":
        print(json.dumps(digest()))
        return
    results = on_each_database(args.sqlite, args.postgres, DEFAULT_PG, lambda url: measure(url, args.games))
    for result in results:
        print(json.dumps(result))
    if args.markdown:
        print("| Engine | Games | Bookings | Tables (moves) | Media files | Backup: command (its work) | "
              "Restore: command (its work) | Archive (database in it, unpacked) |")
        print("|---|---|---|---|---|---|---|---|")
        for r in results:
            print(f"| {r['engine']} | {r['games']} | {r['bookings']} in {r['sessions']} sessions | "
                  f"{r['tables']} ({r['actions']}) | {r['documents'] * (1 + 2 * r['pages'] // r['documents'])} "
                  f"+ {r['covers']} covers, {r['media_mb']} MB | {r['backup_s']} s ({r['backup_work_s']} s) | "
                  f"{r['restore_s']} s ({r['restore_work_s']} s) | {r['archive_mb']} MB ({r['database_mb']} MB, "
                  f"{r['database_unpacked_mb']} MB) |")


if __name__ == "__main__":
    main()
