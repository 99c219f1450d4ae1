"""How fast the rules search answers, on SQLite and on PostgreSQL, beside the code it
replaced, and whether both databases put the same pages on top.

    .venv/bin/python bench/rules_search.py [--sqlite] [--postgres [URL]] [--copies 20] [--rounds 5] [--markdown]

For each database (a fresh SQLite file; a fresh PostgreSQL database named by
--postgres, default postgres://postgres@127.0.0.1:5432/ludo_rules_bench, dropped and
created again) it migrates, imports the five seed rulebooks ``--copies`` times each
(a library of some hundred rulebooks and a thousand pages, each copy under its own
game so that the glossaries apply), then runs 30 queries in French, German and
English (single words, several words, "phrases", -exclusions, words of another
language than the rulebook's) through ``catalog.rulebooks.rules_search.search_rules`` and
through the implementation it replaced (kept below as ``legacy_search_rules``: the
same statement shape, snippets stemming every word of every hit in Python), in the
same process. Each round runs every query through one then the other (which goes
first alternates); a query's time is its median over the rounds. p50/p95 of both and
the SQL-only time of the new search are printed, with the top three pages of every
query; the parent compares the top hits of both databases (the shared test set the
PostgreSQL ranking was tuned on: ``--copies 1`` gives the seeds once each).

Not a test: the numbers depend on the machine and its load.
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
DEFAULT_PG = "postgres://postgres@127.0.0.1:5432/ludo_rules_bench"

QUERIES = [
    # French
    "éléphant", "dragon", "œuf de dragon", "règle de 4", '"départ libre"', "case valeur",
    "déplacer pièce", "enchère", "mage larme", "dragon -œuf", "plaquette", "sauteur rampant",
    # German
    "Elefant", "Stein", "Feld", "Spielziel", "Drache", '"freier Drumlinzug"', "Gebot", "Steine -Drumlin",
    # English
    "elephant", "egg", "auction", "dragon egg", "board", "piece", "square value", "tile", "jumper", "bid",
]

SEEDS = [
    # file prefix, game engine, language
    ("000_", "drumlin", "fr"), ("001_", "drumlin", "fr"), ("003_", "drumlin", "de"),
    ("002_", "drekki", "fr"), ("004_", "rampants-sauteurs", "fr"),
]


# -- the implementation the new search replaced, kept for the comparison ---------------------

LEGACY_CONFIGS = {"fr": "ludo_french", "de": "ludo_german", "en": "ludo_english"}


def legacy_search_rules(query: str, user=None, game=None, limit: int = 50):
    """catalog.search.search_rules before catalog/rules_search.py (November 2026;
    now catalog/rulebooks/rules_search.py)."""
    from django.db import connection

    from catalog import text as textlib
    from catalog.rulebooks.models import Document, DocumentPage

    if not textlib.fold_query(query):
        return []
    documents = Document.objects.visible_to(user)
    if game is not None:
        documents = documents.filter(game=game)
    doc_sql, doc_params = documents.values("id").query.sql_with_params()
    if connection.vendor == "postgresql":
        conds, params = [], []
        for lang, cfg in LEGACY_CONFIGS.items():
            conds.append(f"(p.language = %s AND p.search_vector @@ websearch_to_tsquery('{cfg}', %s))")
            params += [lang, query]
        rank = " + ".join(
            f"CASE WHEN p.language = '{lang}' THEN ts_rank_cd(p.search_vector, websearch_to_tsquery('{cfg}', %s)) ELSE 0 END"
            for lang, cfg in LEGACY_CONFIGS.items()
        )
        sql = f"""SELECT p.id, {rank} AS score FROM catalog_documentpage p
                  WHERE p.document_id IN ({doc_sql}) AND ({" OR ".join(conds)})
                  ORDER BY score DESC, p.id LIMIT %s"""
        all_params = [query] * len(LEGACY_CONFIGS) + list(doc_params) + params + [limit]
    else:
        parts, all_params = [], []
        for lang in LEGACY_CONFIGS:
            words = textlib.query_stems(query, lang)
            if not words:
                continue
            match = " ".join(f'"{w}"' for w in words)
            parts.append(
                f"""SELECT p.id, -bm25(catalog_page_fts) AS score FROM catalog_page_fts
                    JOIN catalog_documentpage p ON p.id = catalog_page_fts.rowid
                    WHERE catalog_page_fts MATCH %s AND p.language = %s AND p.document_id IN ({doc_sql})"""
            )
            all_params += [f"stems : ({match})", lang, *doc_params]
        if not parts:
            return []
        sql = " UNION ALL ".join(parts) + " ORDER BY score DESC, 1 LIMIT %s"
        all_params.append(limit)
    with connection.cursor() as cursor:
        cursor.execute(sql, all_params)
        ranked = cursor.fetchall()
    pages = DocumentPage.objects.select_related("document", "document__game").in_bulk([r[0] for r in ranked])
    return [(pages[i], float(s), textlib.snippet(pages[i].search_text, query, pages[i].language)) for i, s in ranked]


# -- one database, in a child process ------------------------------------------------------


def run_one(url: str, copies: int, rounds: int) -> dict:
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ludo.settings")
    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.test.utils import setup_test_environment

    from catalog import conf
    from catalog.collection.models import Game
    from catalog.rulebooks import rules_search, services
    from catalog.rulebooks.uploads import Upload

    setup_test_environment()
    call_command("migrate", verbosity=0)
    files = conf.seed_files()
    started = time.perf_counter()
    for copy in range(copies):
        for prefix, engine, language in SEEDS:
            path = next(f for f in files if f.name.startswith(prefix))
            game = Game(title=f"{engine} {copy:03d} {prefix}", engine_slug=engine)
            game.save()
            services.add_text_document(game, Upload(path.name, path.read_bytes()),
                                       title=f"{prefix}{copy:03d}", language=language)
    import_seconds = time.perf_counter() - started
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    for q in QUERIES:  # warm up both the same way
        rules_search.search_rules(q)
        legacy_search_rules(q)

    def timed(function, q: str) -> float:
        t = time.perf_counter()
        function(q)
        return (time.perf_counter() - t) * 1000

    def legacy(q: str) -> None:  # as many hits as the new search page shows
        legacy_search_rules(q, limit=rules_search.RULES_LIMIT)

    new: dict[str, list[float]] = {q: [] for q in QUERIES}
    old: dict[str, list[float]] = {q: [] for q in QUERIES}
    sql_only: dict[str, list[float]] = {q: [] for q in QUERIES}
    panel: dict[str, list[float]] = {q: [] for q in QUERIES}  # the catalogue page's five hits
    for r in range(rounds):
        for q in QUERIES:
            if r % 2:
                old[q].append(timed(legacy, q))
                new[q].append(timed(rules_search.search_rules, q))
            else:
                new[q].append(timed(rules_search.search_rules, q))
                old[q].append(timed(legacy, q))
            plans = rules_search.plans(rules_search.parse(q))
            doc_sql, doc_params = rules_search.Document.objects.values("id").query.sql_with_params()
            t = time.perf_counter()
            rules_search._ranked(plans, doc_sql, list(doc_params), rules_search.RULES_LIMIT)
            sql_only[q].append((time.perf_counter() - t) * 1000)
            panel[q].append(timed(lambda text: rules_search.search_rules(text, limit=5), q))
    med = {name: [statistics.median(v[q]) for q in QUERIES] for name, v in (("new", new), ("old", old), ("sql", sql_only), ("panel", panel))}
    top = {}
    for q in QUERIES:
        # The copies of a seed tie: a page is named by its seed and number, the three best distinct.
        names: list[str] = []
        for h in rules_search.search_rules(q, limit=4 * copies):
            name = f"{h.document.title[:4]}p{h.page.number}"
            if name not in names:
                names.append(name)
        top[q] = names[:3]
    pages = sum(1 for _ in rules_search.DocumentPage.objects.only("id"))
    return {
        "vendor": connection.vendor, "copies": copies, "pages": pages, "rounds": rounds,
        "import_seconds": round(import_seconds, 1),
        "new_p50": round(percentile(med["new"], 0.5), 2), "new_p95": round(percentile(med["new"], 0.95), 2),
        "old_p50": round(percentile(med["old"], 0.5), 2), "old_p95": round(percentile(med["old"], 0.95), 2),
        "sql_p50": round(percentile(med["sql"], 0.5), 2), "sql_p95": round(percentile(med["sql"], 0.95), 2),
        "panel_p50": round(percentile(med["panel"], 0.5), 2), "panel_p95": round(percentile(med["panel"], 0.95), 2),
        "top": top, "hits": {q: len(rules_search.search_rules(q)) for q in QUERIES},
    }


def agreement(results: list[dict]) -> tuple[int, int, list[str]]:
    """Queries whose first hit is the same on both databases, and whose top three are."""
    if len(results) < 2:
        return 0, 0, []
    a, b = results[0]["top"], results[1]["top"]
    first = sum(1 for q in QUERIES if a[q][:1] == b[q][:1])
    three = sum(1 for q in QUERIES if set(a[q]) == set(b[q]))
    differ = [q for q in QUERIES if a[q][:1] != b[q][:1]]
    return first, three, differ


def report(results: list[dict], markdown: bool) -> None:
    first, three, differ = agreement(results)
    if markdown:
        print("| database | pages | rules search (20 hits) p50 / p95 | of which SQL p50 / p95 | catalogue panel (5 hits) p50 / p95 "
              "| before (same run, 20 hits) p50 / p95 | ratio p50 / p95 |")
        print("|---|---|---|---|---|---|---|")
        for r in results:
            print(f"| {r['vendor']} | {r['pages']} | {r['new_p50']} / {r['new_p95']} ms | {r['sql_p50']} / {r['sql_p95']} ms "
                  f"| {r.get('panel_p50', '-')} / {r.get('panel_p95', '-')} ms "
                  f"| {r['old_p50']} / {r['old_p95']} ms | {r['old_p50'] / r['new_p50']:.1f}x / {r['old_p95'] / r['new_p95']:.1f}x |")
        print(f"\n{len(QUERIES)} queries, median of {results[0]['rounds']} rounds per query.")
        if len(results) == 2:
            print(f"Same first hit on both databases: {first}/{len(QUERIES)}; same top three: {three}/{len(QUERIES)}"
                  + (f" (first hit differs for: {', '.join(differ)})" if differ else ""))
        return
    for r in results:
        print(json.dumps(r, indent=1, ensure_ascii=False))
    if len(results) == 2:
        print(f"same first hit: {first}/{len(QUERIES)}, same top three: {three}/{len(QUERIES)}, differ: {differ}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--copies", type=int, default=20, help="times each seed rulebook is imported")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--sqlite", action="store_true", help="only SQLite")
    parser.add_argument("--postgres", nargs="?", const=DEFAULT_PG, default=None, help="only PostgreSQL (URL)")
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    if args.child:
        print(json.dumps(run_one(args.child, args.copies, max(1, args.rounds)), ensure_ascii=False))
        return
    results = on_each_database(args.sqlite, args.postgres, DEFAULT_PG, lambda url: run_child(
        __file__, url, "--copies", str(args.copies), "--rounds", str(args.rounds)))
    report(results, args.markdown)


if __name__ == "__main__":
    main()
