"""How fast and how well the catalog imports and searches, on SQLite and on PostgreSQL.

    .venv/bin/python bench/catalog.py [--sqlite] [--postgres URL] [--queries 200] [--rounds 5] [--markdown]

Relevance (issue #15): the hand-written query set of bench/catalog_queries.py
(French box names, English names, typos, accents off, unfinished words, articles,
joined or split words) with the game each means: hit@1 and hit@3 and p50/p95 of
today's title search, beside the title search as it was before (a copy kept in
bench/title_search_before.py), in the same process on the same data (the data set
and the shipped French names). Then the catalogue page with a query, rules panel
included (the seed rulebooks are loaded), over HTTP from a daphne process: p50/p95
of the whole request.

For each database (a fresh SQLite file, and a fresh PostgreSQL database named by
--postgres, default postgres://postgres@127.0.0.1:5432/ludo_catalog_bench, which
is dropped and created again) it:

- migrates, then imports the whole shared data set (games, then themes) through
  ``import_games``'s code path, with its progress bar, and times it, then times
  the first search after it (which reads the vocabulary of name words into memory);
- runs the same varied title queries (exact names, lower case, accents off,
  one-letter typos, single words, German and French names, word beginnings)
  through ``catalog.collection.search.search_games`` and through a naive ``icontains`` scan
  over every name field, in the same process, and reports p50/p95 of each and
  their ratio. Each round runs every query through one, then through the other
  (which goes first alternates from round to round); a query's time is its median
  over the rounds, which keeps a moment of load on a shared machine from counting
  as the query's cost, for both alike. ``--rounds 1`` is a single pass;
- counts the SQL queries of the list, detail and search pages with a small and
  a large result set (they must not grow).

Not a test: the numbers depend on the machine and its load. Each database runs in
its own process, since Django reads DATABASE_URL once.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import statistics
import subprocess
import sys
import time
import unicodedata
from pathlib import Path

from benchdb import on_each_database, percentile, run_child  # bench/ is the script's folder

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_PG = "postgres://postgres@127.0.0.1:5432/ludo_catalog_bench"


def strip_accents(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def make_queries(titles: list[str], count: int, rng: random.Random) -> list[str]:
    """Varied queries people type: whole names, lower case, accents off, typos,
    one word of a name, the start of a word, names in other languages."""
    queries: list[str] = ["eclaircissement", "drumln", "les colons de catane", "siedler von catan", "zug um zug"]
    kinds = ["exact", "lower", "typo", "word", "prefix", "two-words", "accents"]
    while len(queries) < count:
        title = rng.choice(titles)
        kind = kinds[len(queries) % len(kinds)]
        words = [w for w in title.replace(":", " ").split() if len(w) > 2]
        if kind == "exact":
            q = title
        elif kind == "lower":
            q = title.lower()
        elif kind == "accents":
            q = strip_accents(title).lower()
        elif kind == "typo" and len(title) > 5:
            i = rng.randrange(1, len(title) - 1)
            q = title[:i] + title[i + 1 :]  # one letter dropped
        elif kind == "word" and words:
            q = rng.choice(words)
        elif kind == "prefix" and words:
            q = rng.choice(words)[:4]
        elif kind == "two-words" and len(words) >= 2:
            q = " ".join(words[:2])
        else:
            q = title
        queries.append(q)
    return queries[:count]


def run_one(url: str, queries_count: int, rounds: int) -> dict:
    """Inside a child process whose DATABASE_URL is ``url``."""
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ludo.settings")
    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext, setup_test_environment

    from catalog import conf
    from catalog.collection import importer, search
    from catalog.collection.models import Game
    from catalog.shelves import services

    setup_test_environment()
    call_command("migrate", verbosity=0)
    from catalog.collection import names

    files = importer.order_files(conf.data_files())
    if not files:
        raise SystemExit(f"no data set in {conf.shared_dir() / 'data'}")
    files.append(names.SHIPPED)

    def bar(label):
        def draw(done: int, total: int) -> None:
            share = done / total if total else 1
            sys.stderr.write(f"\r  {label} [{'#' * round(share * 30):<30}] {share:4.0%} {done}/{total}")
            if done >= total:
                sys.stderr.write("\n")
        return draw

    started = time.perf_counter()
    reports = [importer.import_file(path, progress=bar(path.name)) for path in files]
    import_seconds = time.perf_counter() - started
    again = time.perf_counter()
    second = [importer.import_file(path) for path in files]
    reimport_seconds = time.perf_counter() - again
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")

    started = time.perf_counter()
    search.search_games("catan")  # reads the vocabulary into memory, as after any import
    first_search_ms = (time.perf_counter() - started) * 1000

    rng = random.Random(2026)
    titles = list(Game.objects.values_list("title", flat=True))
    queries = make_queries(titles, queries_count, rng)
    for q in queries[:20]:  # warm caches and connections the same way for both
        search.search_games(q)
        search.naive_search_games(q)

    def timed(function) -> list[float]:
        times = []
        for q in queries:
            t = time.perf_counter()
            function(q)
            times.append((time.perf_counter() - t) * 1000)
        return times

    fast_rounds, naive_rounds = [], []
    for round_ in range(rounds):
        if round_ % 2 == 0:
            fast_rounds.append(timed(search.search_games))
            naive_rounds.append(timed(search.naive_search_games))
        else:
            naive_rounds.append(timed(search.naive_search_games))
            fast_rounds.append(timed(search.search_games))
    fast = [statistics.median(times) for times in zip(*fast_rounds)]
    naive = [statistics.median(times) for times in zip(*naive_rounds)]
    found = sum(bool(search.search_games(q)) for q in queries)
    naive_found = sum(bool(search.naive_search_games(q)) for q in queries)

    relevance = measure_relevance(rounds)
    labels = measure_labels(rounds)

    # Query counts of the pages, small result set then large.
    client = Client()
    popular = Game.objects.order_by("-owned_count").first()
    for i, game in enumerate(Game.objects.order_by("-owned_count")[:3]):
        services.add_copy(game, f"Z{i + 1}")

    def count(path: str, params: dict | None = None) -> int:
        with CaptureQueriesContext(connection) as ctx:
            response = client.get(path, params or {})
            assert response.status_code == 200, (path, response.status_code)
        return len(ctx.captured_queries)

    pages = {
        "list": count("/catalogue/"),
        "list, filtered": count("/catalogue/", {"players": 4, "time": 60}),
        "detail": count(popular.get_absolute_url()),
        "search, 1 result": count("/catalogue/", {"q": popular.title}),
        "search, many results": count("/catalogue/", {"q": "the"}),
        "rules search": count("/catalogue/regles/recherche/", {"q": "dragon"}),
    }
    return {
        "vendor": connection.vendor,
        "games": Game.objects.count(),
        "import_seconds": round(import_seconds, 2),
        "reimport_seconds": round(reimport_seconds, 2),
        "import": [r.summary() for r in reports],
        "reimport": [r.summary() for r in second],
        "first_search_ms": round(first_search_ms, 1),
        "queries": len(queries),
        "rounds": rounds,
        "found": found,
        "naive_found": naive_found,
        "search_p50": round(percentile(fast, 0.5), 2),
        "search_p95": round(percentile(fast, 0.95), 2),
        "naive_p50": round(percentile(naive, 0.5), 2),
        "naive_p95": round(percentile(naive, 0.95), 2),
        "search_mean": round(statistics.mean(fast), 2),
        "naive_mean": round(statistics.mean(naive), 2),
        "single_pass": {
            "search_p50": round(percentile(fast_rounds[0], 0.5), 2),
            "search_p95": round(percentile(fast_rounds[0], 0.95), 2),
            "naive_p50": round(percentile(naive_rounds[0], 0.5), 2),
            "naive_p95": round(percentile(naive_rounds[0], 0.95), 2),
        },
        "pages": pages,
        "relevance": relevance,
        "labels": labels,
        "http": measure_http(url, rounds),
    }


def measure_labels(rounds: int) -> dict:
    """The shelf-label sheet of 200 copies: the first time (every code drawn), then again."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    from catalog.collection.models import Game
    from catalog.shelves import qr
    from catalog.shelves.models import Copy

    games = Game.objects.order_by("-owned_count")[:200]
    Copy.objects.bulk_create([Copy(game=g, shelf=f"LB{i % 99 + 1}") for i, g in enumerate(games)])
    staff = get_user_model().objects.create_user("bench-host", is_staff=True)
    client = Client()
    client.force_login(staff)
    times = []
    for _ in range(max(3, rounds) + 1):
        qr.svg.cache_clear()  # the process's own cache out: codes come from the database or are drawn
        t = time.perf_counter()
        response = client.get("/catalogue/etiquettes/", {"rayon": "LB"})
        times.append(time.perf_counter() - t)
        assert response.status_code == 200 and len(response.context["sheet"]) == 200
    # The first sheet draws every code (copies bulk-created, not through services.add_copy).
    return {"labels": 200, "first_s": round(times[0], 3), "median_s": round(statistics.median(times[1:]), 3),
            "max_s": round(max(times[1:]), 3)}


def measure_relevance(rounds: int) -> dict:
    """hit@1, hit@3 and latency of today's title search and of the one before, on
    the hand-written query set."""
    from catalog.collection import search
    from catalog.collection.models import Game
    from catalog_queries import QUERIES
    from title_search_before import search_games as before_search

    by_id = dict(Game.objects.values_list("id", "bgg_id"))
    result: dict = {"queries": len(QUERIES), "misses": {}}
    for label, function in (("now", search.search_games), ("before", before_search)):
        function("catan")
        rounds_times, hits1, hits3, misses = [], 0, 0, []
        for round_ in range(rounds):
            times = []
            for kind, q, bgg_id in QUERIES:
                t = time.perf_counter()
                ids = function(q)
                times.append((time.perf_counter() - t) * 1000)
                if round_ == 0:
                    top = [by_id.get(i) for i in ids[:3]]
                    hits1 += bool(top[:1] == [bgg_id])
                    hits3 += bgg_id in top
                    if top[:1] != [bgg_id]:
                        misses.append(f"{q} -> {top}")
            rounds_times.append(times)
        per_query = [statistics.median(t) for t in zip(*rounds_times)]
        result[label] = {
            "hit1": round(100 * hits1 / len(QUERIES), 1), "hit3": round(100 * hits3 / len(QUERIES), 1),
            "p50": round(percentile(per_query, 0.5), 2), "p95": round(percentile(per_query, 0.95), 2),
            "max": round(max(per_query), 2),
        }
        result["misses"][label] = misses
    return result


def measure_http(url: str, rounds: int) -> dict:
    """The catalogue page with a query (title search, rules panel, cards), fetched
    over HTTP from a daphne process on the same database: p50/p95 per request."""
    import http.client
    import socket
    from urllib.parse import quote

    from catalog import demo
    from catalog_queries import QUERIES

    demo._boxes(io.StringIO())
    demo._seeds(io.StringIO())  # rulebooks, so that the rules panel searches real pages
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = dict(os.environ, DATABASE_URL=url, DEBUG="true", LOG_LEVEL="WARNING")
    server = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "ludo.asgi:application"],
        env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(200):
            try:
                http.client.HTTPConnection("127.0.0.1", port, timeout=1).request("GET", "/healthz")
                break
            except OSError:
                time.sleep(0.1)
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

        def get(q: str) -> float:
            t = time.perf_counter()
            conn.request("GET", "/catalogue/?q=" + quote(q))
            response = conn.getresponse()
            response.read()
            assert response.status == 200, (q, response.status)
            return (time.perf_counter() - t) * 1000

        for _, q, _ in QUERIES[:10]:
            get(q)  # warm the server's vocabulary and connections
        rounds_times = [[get(q) for _, q, _ in QUERIES] for _ in range(rounds)]
        per_query = [statistics.median(t) for t in zip(*rounds_times)]
        return {"requests": len(QUERIES) * rounds, "p50": round(percentile(per_query, 0.5), 1),
                "p95": round(percentile(per_query, 0.95), 1), "max": round(max(per_query), 1)}
    finally:
        server.terminate()
        server.wait(10)


def report(results: list[dict], markdown: bool) -> None:
    if markdown:
        print(
            "| database | import (games + themes) | re-import | first search after import "
            "| title search p50 / p95 | naive icontains p50 / p95 | ratio p50 / p95 | single pass: ratio p50 / p95 |"
        )
        print("|---|---|---|---|---|---|---|---|")
        for r in results:
            one = r["single_pass"]
            print(
                f"| {r['vendor']} | {r['import_seconds']} s ({r['games']} games) | {r['reimport_seconds']} s, nothing changed "
                f"| {r['first_search_ms']} ms | {r['search_p50']} / {r['search_p95']} ms | {r['naive_p50']} / {r['naive_p95']} ms "
                f"| {r['naive_p50'] / r['search_p50']:.1f}x / {r['naive_p95'] / r['search_p95']:.1f}x "
                f"| {one['naive_p50'] / one['search_p50']:.1f}x / {one['naive_p95'] / one['search_p95']:.1f}x |"
            )
        print(f"\n{results[0]['queries']} queries, median of {results[0]['rounds']} rounds per query.\n")
        print("| relevance (hand-written queries) | hit@1 | hit@3 | p50 | p95 |")
        print("|---|---|---|---|---|")
        for r in results:
            rel = r["relevance"]
            for label, name in (("now", "title search now"), ("before", "title search before #15")):
                x = rel[label]
                print(f"| {r['vendor']}, {name} ({rel['queries']} queries) | {x['hit1']} % | {x['hit3']} % "
                      f"| {x['p50']} ms | {x['p95']} ms |")
        print()
        print("| catalogue page with a query, over HTTP (daphne) | p50 | p95 | max |")
        print("|---|---|---|---|")
        for r in results:
            h = r["http"]
            print(f"| {r['vendor']} ({h['requests']} requests) | {h['p50']} ms | {h['p95']} ms | {h['max']} ms |")
        print()
        for r in results:
            lb = r["labels"]
            print(f"{r['vendor']}: shelf labels, {lb['labels']}: first sheet (every QR code drawn) {lb['first_s']} s; "
                  f"then (codes kept) median {lb['median_s']} s, max {lb['max_s']} s")
        for r in results:
            for label, misses in r["relevance"]["misses"].items():
                print(f"{r['vendor']}, {label}: not first: " + ("; ".join(misses) or "none"))
        print()
        names = list(results[0]["pages"])
        print("| SQL queries per page | " + " | ".join(r["vendor"] for r in results) + " |")
        print("|---|" + "---|" * len(results))
        for name in names:
            print(f"| {name} | " + " | ".join(str(r["pages"][name]) for r in results) + " |")
        return
    for r in results:
        print(json.dumps(r, indent=2, ensure_ascii=False))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5, help="times each query runs; its median counts")
    parser.add_argument("--sqlite", action="store_true", help="only SQLite")
    parser.add_argument("--postgres", nargs="?", const=DEFAULT_PG, default=None, help="only PostgreSQL (URL)")
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    sys.path.append(str(ROOT / "bench"))  # after ROOT: bench/catalog.py is not the catalog app
    if args.child:
        print(json.dumps(run_one(args.child, args.queries, max(1, args.rounds))))
        return
    results = on_each_database(args.sqlite, args.postgres, DEFAULT_PG, lambda url: run_child(
        __file__, url, "--queries", str(args.queries), "--rounds", str(args.rounds)))
    report(results, args.markdown)


if __name__ == "__main__":
    main()
