"""French names of the catalogue (issue #25): how many games have one, and how well
French queries never seen before find their game, on SQLite and on PostgreSQL.

    .venv/bin/python bench/french_names.py [--sqlite] [--postgres URL] [--rounds 5] [--markdown]

For each database (a fresh SQLite file; a fresh PostgreSQL database named by
--postgres, default postgres://postgres@127.0.0.1:5432/ludo_french_bench, dropped and
created again) it imports the shared data set's games and the shipped French names
(catalog/data/names-fr.csv) through the importer, then measures:

- coverage: the share of games with a current French name (a former title does not
  count), on the whole catalogue and on the 500, 2,000 and 9,000 most owned (9,000:
  the house's shelves in the demo);
- relevance and latency of the French query set (bench/french_queries.py: 150+
  queries written by hand, none of them in bench/catalog_queries.py or tests/catalog/):
  hit@1, hit@3, p50 and p95 (median of the rounds per query) of today's title search,
  beside three references run in the same process on the same data: the ranking
  without STOP_BONUS (this wave's ranking change off), the title search as it was
  before #15 (bench/title_search_before.py) and a naive ``icontains`` scan. Each round
  runs every query through each function, the order turning from round to round.

Not a test: the timings depend on the machine and its load; the side-by-side
figures of one run are the ones to compare.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

from benchdb import on_each_database, percentile, run_child  # bench/ is the script's folder

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_PG = "postgres://postgres@127.0.0.1:5432/ludo_french_bench"
TOPS = (500, 2000, 9000)


def never_seen(queries) -> list[str]:
    """The queries of the set that a test or the older query set already holds."""
    import catalog_queries

    old = {q.lower() for _, q, _ in catalog_queries.QUERIES}
    tests = " ".join(p.read_text(encoding="utf-8").lower() for p in (ROOT / "tests" / "catalog").glob("*.py"))
    return [q for _, q, _ in queries if q.lower() in old or f'"{q.lower()}"' in tests]


def coverage() -> dict:
    from django.db.models import Exists, OuterRef

    from catalog.collection.models import Game, GameName

    french = GameName.objects.filter(game=OuterRef("pk"), language="fr", kind=GameName.Kind.CURRENT)
    ranked = list(
        Game.objects.annotate(fr=Exists(french)).order_by("-owned_count", "id").values_list("fr", flat=True)
    )
    out = {"all": [sum(ranked), len(ranked)]}
    for top in TOPS:
        out[f"top{top}"] = [sum(ranked[:top]), min(top, len(ranked))]
    out["former"] = GameName.objects.filter(language="fr", kind=GameName.Kind.FORMER).count()
    return out


def run_one(url: str, rounds: int) -> dict:
    """Inside a child process whose DATABASE_URL is ``url``."""
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ludo.settings")
    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from catalog import conf
    from catalog.collection import importer, names, search
    from catalog.collection.models import Game
    from french_queries import QUERIES
    from title_search_before import search_games as before_search

    call_command("migrate", verbosity=0)
    games_file = next(p for p in importer.order_files(conf.data_files()) if "games" in p.name)
    started = time.perf_counter()
    for path in (games_file, names.SHIPPED):
        report = importer.import_file(path)
        assert report.applied, (path, report.rejected[:3])
    import_s = time.perf_counter() - started
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")

    def without_stop_bonus(q: str) -> list[int]:
        kept, search.STOP_BONUS = search.STOP_BONUS, 0.0
        try:
            return search.search_games(q)
        finally:
            search.STOP_BONUS = kept

    functions = {
        "now": search.search_games,
        "now, no STOP_BONUS": without_stop_bonus,
        "before #15": before_search,
        "naive icontains": search.naive_search_games,
    }
    by_id = dict(Game.objects.values_list("id", "bgg_id"))
    for function in functions.values():
        for _, q, _ in QUERIES[:10]:
            function(q)  # the vocabulary read, caches warm, for each alike
    times: dict[str, list[list[float]]] = {label: [] for label in functions}
    labels = list(functions)
    for round_ in range(rounds):
        order = labels[round_ % len(labels):] + labels[: round_ % len(labels)]
        for label in order:
            function, row = functions[label], []
            for _, q, _ in QUERIES:
                t = time.perf_counter()
                function(q)
                row.append((time.perf_counter() - t) * 1000)
            times[label].append(row)
    relevance = {}
    for label, function in functions.items():
        hits1 = hits3 = 0
        misses = []
        by_kind: dict[str, list[int]] = {}
        for kind, q, bgg_id in QUERIES:
            top = [by_id.get(i) for i in function(q)[:3]]
            hit = top[:1] == [bgg_id]
            hits1 += hit
            hits3 += bgg_id in top
            by_kind.setdefault(kind, [0, 0])
            by_kind[kind][0] += hit
            by_kind[kind][1] += 1
            if not hit:
                misses.append(f"{q} -> {top} (wanted {bgg_id})")
        per_query = [statistics.median(t) for t in zip(*times[label])]
        relevance[label] = {
            "hit1": round(100 * hits1 / len(QUERIES), 1), "hit3": round(100 * hits3 / len(QUERIES), 1),
            "p50": round(percentile(per_query, 0.5), 2), "p95": round(percentile(per_query, 0.95), 2),
            "by_kind": by_kind, "misses": misses,
        }
    return {
        "vendor": connection.vendor, "games": len(by_id), "import_s": round(import_s, 1),
        "queries": len(QUERIES), "rounds": rounds, "coverage": coverage(), "relevance": relevance,
    }


def report(results: list[dict], markdown: bool) -> None:
    if not markdown:
        for r in results:
            print(json.dumps(r, indent=2, ensure_ascii=False))
        return
    print("| database | games | with a French name | 500 most owned | 2,000 most owned | 9,000 most owned "
          "| former titles |")
    print("|---|---|---|---|---|---|---|")
    for r in results:
        c = r["coverage"]
        shares = (c["all"], c["top500"], c["top2000"], c["top9000"])
        cells = [f"{a:,} / {b:,} ({100 * a / b:.1f} %)" for a, b in shares]
        print(f"| {r['vendor']} | {r['games']:,} | " + " | ".join(cells) + f" | {c['former']} |")
    print()
    print("| database, function | hit@1 | hit@3 | p50 | p95 |")
    print("|---|---|---|---|---|")
    for r in results:
        for label, x in r["relevance"].items():
            print(f"| {r['vendor']}, {label} ({r['queries']} queries, {r['rounds']} rounds) "
                  f"| {x['hit1']} % | {x['hit3']} % | {x['p50']} ms | {x['p95']} ms |")
    print()
    for r in results:
        now = r["relevance"]["now"]
        kinds = ", ".join(f"{k} {a}/{b}" for k, (a, b) in now["by_kind"].items())
        print(f"{r['vendor']}, hit@1 by kind: {kinds}")
        for label, x in r["relevance"].items():
            if label != "naive icontains":
                print(f"{r['vendor']}, {label}: not first: " + ("; ".join(x["misses"]) or "none"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5, help="times each query runs; its median counts")
    parser.add_argument("--sqlite", action="store_true", help="only SQLite")
    parser.add_argument("--postgres", nargs="?", const=DEFAULT_PG, default=None, help="only PostgreSQL (URL)")
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    sys.path.append(str(ROOT / "bench"))  # after ROOT: bench/catalog.py is not the catalog app
    from french_queries import QUERIES

    seen = never_seen(QUERIES)
    if seen:
        raise SystemExit(f"queries already in the tests or bench/catalog_queries.py: {seen}")
    if args.child:
        print(json.dumps(run_one(args.child, max(1, args.rounds))))
        return
    results = on_each_database(args.sqlite, args.postgres, DEFAULT_PG, lambda url: run_child(
        __file__, url, "--rounds", str(args.rounds)))
    report(results, args.markdown)


if __name__ == "__main__":
    main()
