"""The boxes' pages at the house's size: 9,000 copies on the shelves, 300 of them
used by 60 past sessions and 150 logged plays, an open shortfall on one in ten.

Measures the count page of one box and the hosts' to-count list (p50 and p95 of
``--requests`` requests each through Django's test client, logged in as a host),
against a reference measured in the same run: the catalogue's page of the same game
(a page of a similar kind every visitor opens). Prints the figures and the ratios;
the target of issue #26 is < 100 ms p95 for both pages.

The shelf check at the same size: a check of the whole library half walked (4,500
boxes seen, 100 of them on the wrong shelf, 20 unknown labels); p50/p95 of a scan
(a JSON POST of a label's address, a new box each time, as a host walking the
shelves sends them) and of the check's report page (9,000 expected, 4,500 not seen).

    .venv/bin/python bench/boxes.py                 # a temporary SQLite database
    DATABASE_URL=postgres://... .venv/bin/python bench/boxes.py --keep-url
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.benchdb import percentile  # noqa: E402

COPIES = 9000
USED = 300
SESSIONS = 60
PLAYS = 150


def build() -> dict:
    from datetime import timedelta

    from django.utils import timezone

    from boxes import contents, counting
    from catalog.collection.models import Game
    from catalog.playlog.models import Play, Player
    from catalog.shelves.models import Copy
    from games.bookings.models import CopyReservation, Session
    from ludo.accounts import create_staff_account

    host = create_staff_account("bench-host", "host@example.org", "bench password 1234")
    games = Game.objects.bulk_create([
        Game(title=f"Game {i}", slug=f"game-{i}", min_players=2, max_players=5, min_time=30, max_time=60,
             owned_count=COPIES - i) for i in range(COPIES)
    ], batch_size=1000)
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    Copy.objects.bulk_create([
        Copy(game=g, shelf=f"{letters[i // 20 % 26]}{i // 520 + 1}") for i, g in enumerate(games)
    ], batch_size=2000)
    copies = list(Copy.objects.order_by("id"))
    lines = [contents.Line("Pions", f"pions {c}", 12) for c in ("rouges", "bleus", "verts", "jaunes")]
    lines += [contents.Line("Cartes", "cartes", 110), contents.Line("", "plateau", 1, True),
              contents.Line("", "dés", 2), contents.Line("", "règle", 1)]
    from boxes.models import ContentItem

    ContentItem.objects.bulk_create([
        ContentItem(game_id=c.game_id, group=line.group, label=line.label, quantity=line.quantity,
                    essential=line.essential, position=n)
        for c in copies[:USED * 2] for n, line in enumerate(lines)
    ], batch_size=5000)
    now = timezone.now()
    used = copies[:USED]
    for s in range(SESSIONS):
        start = now - timedelta(days=s + 1, hours=3)
        session = Session(title=f"Soirée {s}", starts_at=start, ends_at=start + timedelta(hours=3), capacity=10)
        session.save()
        CopyReservation.objects.bulk_create([CopyReservation(session=session, copy=c) for c in used[s::SESSIONS]])
    for p in range(PLAYS):
        play = Play.objects.create(game_id=used[p].game_id, played_on=(now - timedelta(days=p % 30)).date())
        Player.objects.create(play=play, name="Ana")
    for c in used[::10]:  # an open shortfall on one in ten, traced to its sessions
        state = counting.begin(c)
        found = {line.label: counting.Found(line.quantity) for line in lines}
        found["cartes"] = counting.Found(108)
        counting.record_count(c, host, state.version, found, now=now - timedelta(days=40))
    check = shelf_check(host, copies)
    return {"host": host.pk, "copy": used[0].pk, "game": used[0].game.get_absolute_url(), "check": check,
            "unseen": [c.pk for c in copies[SEEN:]]}


SEEN = COPIES // 2
MISPLACED = 100
UNKNOWN = 20


def shelf_check(host, copies) -> int:
    from boxes import shelfcheck
    from boxes.models import ShelfScan, UnknownLabel

    check = shelfcheck.start(host, "")
    ShelfScan.objects.bulk_create([
        ShelfScan(walk=check, copy=c, shelf="Z9" if n < MISPLACED else c.shelf.rstrip("#"), scanned_by=host)
        for n, c in enumerate(copies[:SEEN])
    ], batch_size=2000)
    UnknownLabel.objects.bulk_create([UnknownLabel(walk=check, text=f"https://elsewhere.example/{n}", reason="?",
                                                   shelf="A1") for n in range(UNKNOWN)])
    return check.pk


def measure_scans(client, check: int, unseen: list[int], requests: int) -> dict:
    from catalog.shelves import qr
    from catalog.shelves.models import Copy

    boxes = list(Copy.objects.select_related("game").filter(pk__in=unseen[: requests + 1]))
    times = []
    for n, copy in enumerate(boxes):
        body = json.dumps({"text": qr.rules_address(copy.game, "fr", copy), "shelf": copy.shelf.rstrip("#")})
        start = time.perf_counter()
        response = client.post(f"/boites/recolements/{check}/scan/", body, content_type="application/json",
                               HTTP_ACCEPT="application/json")
        if n:  # the first warms the caches
            times.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200 and response.json()["kind"] == "ok", response.content
    return {"p50_ms": round(percentile(times, 0.5), 2), "p95_ms": round(percentile(times, 0.95), 2)}


def measure(client, path: str, requests: int) -> dict:
    client.get(path)  # warm the caches and the templates
    times = []
    for _ in range(requests):
        start = time.perf_counter()
        response = client.get(path)
        times.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200, (path, response.status_code)
    return {"p50_ms": round(percentile(times, 0.5), 2), "p95_ms": round(percentile(times, 0.95), 2)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--keep-url", action="store_true", help="use DATABASE_URL as it is (else a temporary SQLite)")
    args = parser.parse_args()
    tmp = tempfile.TemporaryDirectory()
    if not args.keep_url:
        os.environ["DATABASE_URL"] = f"sqlite:///{tmp.name}/bench.sqlite3"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ludo.settings")
    os.environ.setdefault("DEBUG", "true")
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import setup_test_environment

    from boxes import tocount

    settings.LUDO_RATE_LIMITS_ENABLED = False
    setup_test_environment()
    call_command("migrate", verbosity=0)
    started = time.perf_counter()
    ids = build()
    built = time.perf_counter() - started
    client = Client()
    client.force_login(get_user_model().objects.get(pk=ids["host"]))
    pages = {
        "reference: game page": ids["game"],
        "count page": f"/boites/boite/{ids['copy']}/compter/",
        "to-count list": "/boites/",
    }
    result = {"vendor": connection.vendor, "copies": COPIES, "to_count": len(tocount.to_count()),
              "build_seconds": round(built, 1), "requests": args.requests}
    for name, path in pages.items():
        result[name] = measure(client, path, args.requests)
    result["shelf check: scan"] = measure_scans(client, ids["check"], ids["unseen"], args.requests)
    result["shelf check: report"] = measure(client, f"/boites/recolements/{ids['check']}/bilan/", args.requests)
    reference = result["reference: game page"]["p95_ms"]
    for name in ("count page", "to-count list", "shelf check: scan", "shelf check: report"):
        result[name]["p95_vs_reference"] = round(result[name]["p95_ms"] / reference, 2)
    print(json.dumps(result, indent=1))
    tmp.cleanup()


if __name__ == "__main__":
    main()
