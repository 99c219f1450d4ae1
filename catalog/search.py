"""One search API, two backends chosen by ``connection.vendor``.

- Title search across every name of a game, tolerant of accents and typos:
  PostgreSQL compares trigrams (pg_trgm, GIN index on the folded names);
  SQLite asks an FTS5 trigram index for candidates and ranks them with the same
  trigram measure in Python.
- Full-text search in rulebook pages with the stemmer of each page's language:
  PostgreSQL uses text-search configurations ``ludo_french``/``ludo_german``/
  ``ludo_english`` (unaccent, then the Snowball stemmer) over a tsvector kept by a
  trigger; SQLite uses an FTS5 index over the pages' stems (computed in Python by
  the same Snowball stemmers) kept by triggers. Results are ranked (ts_rank_cd /
  bm25) and carry a highlighted snippet and the page number.

The schema objects (extensions, configurations, indexes, virtual tables, triggers)
are created by migration 0002 through :func:`install`, which is idempotent and also
runs after every migrate: SQLite drops triggers when Django rebuilds a table.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import connection
from django.db.models import BooleanField, FloatField, QuerySet
from django.db.models.expressions import RawSQL

from catalog import text as textlib
from catalog.models import Document, DocumentPage, Game

TITLE_LIMIT = 200
CANDIDATES = 300
RULES_LIMIT = 50
PG_CONFIGS = {"fr": "ludo_french", "de": "ludo_german", "en": "ludo_english"}

# -- schema ------------------------------------------------------------------------------

_PG_SETUP = [
    "CREATE EXTENSION IF NOT EXISTS unaccent",
    "CREATE EXTENSION IF NOT EXISTS pg_trgm",
    *[
        f"""DO $$ BEGIN
            IF NOT EXISTS (SELECT 1 FROM pg_ts_config WHERE cfgname = '{cfg}') THEN
                CREATE TEXT SEARCH CONFIGURATION {cfg} (COPY = pg_catalog.{base});
                ALTER TEXT SEARCH CONFIGURATION {cfg}
                    ALTER MAPPING FOR hword, hword_part, word WITH unaccent, {base}_stem;
            END IF;
        END $$"""
        for cfg, base in (("ludo_french", "french"), ("ludo_german", "german"), ("ludo_english", "english"))
    ],
    # fastupdate off: a pending list left by a bulk import made lookups 50 times
    # slower until the next vacuum; the catalog changes rarely, reads often.
    "CREATE INDEX IF NOT EXISTS catalog_nameword_trgm ON catalog_nameword USING gin (word gin_trgm_ops) WITH (fastupdate = off)",
    "CREATE INDEX IF NOT EXISTS catalog_game_name_words ON catalog_game USING gin (to_tsvector('simple', name_key)) WITH (fastupdate = off)",
    "ALTER INDEX catalog_nameword_trgm SET (fastupdate = off)",
    "ALTER INDEX catalog_game_name_words SET (fastupdate = off)",
    "ALTER TABLE catalog_documentpage ADD COLUMN IF NOT EXISTS search_vector tsvector",
    """CREATE OR REPLACE FUNCTION catalog_page_tsvector() RETURNS trigger AS $$
    BEGIN
        NEW.search_vector := to_tsvector(
            (CASE NEW.language WHEN 'fr' THEN 'ludo_french' WHEN 'de' THEN 'ludo_german'
             ELSE 'ludo_english' END)::regconfig,
            coalesce(NEW.search_text, ''));
        RETURN NEW;
    END $$ LANGUAGE plpgsql""",
    "DROP TRIGGER IF EXISTS catalog_page_tsvector ON catalog_documentpage",
    """CREATE TRIGGER catalog_page_tsvector BEFORE INSERT OR UPDATE OF search_text, language
        ON catalog_documentpage FOR EACH ROW EXECUTE FUNCTION catalog_page_tsvector()""",
    "CREATE INDEX IF NOT EXISTS catalog_page_search ON catalog_documentpage USING gin (search_vector) WITH (fastupdate = off)",
]

_PG_TEARDOWN = [
    "DROP INDEX IF EXISTS catalog_page_search",
    "DROP TRIGGER IF EXISTS catalog_page_tsvector ON catalog_documentpage",
    "DROP FUNCTION IF EXISTS catalog_page_tsvector()",
    "ALTER TABLE catalog_documentpage DROP COLUMN IF EXISTS search_vector",
    "DROP INDEX IF EXISTS catalog_game_name_words",
    "DROP INDEX IF EXISTS catalog_nameword_trgm",
    *[f"DROP TEXT SEARCH CONFIGURATION IF EXISTS {cfg}" for cfg in PG_CONFIGS.values()],
]

_SQLITE_TABLES = [
    """CREATE VIRTUAL TABLE IF NOT EXISTS catalog_game_words USING fts5(
        name_key, content='catalog_game', content_rowid='id', tokenize='unicode61')""",
    """CREATE VIRTUAL TABLE IF NOT EXISTS catalog_nameword_fts USING fts5(
        word, content='catalog_nameword', content_rowid='rowid', tokenize='trigram')""",
    """CREATE VIRTUAL TABLE IF NOT EXISTS catalog_page_fts USING fts5(
        stems, language UNINDEXED, content='catalog_documentpage', content_rowid='id',
        tokenize='unicode61 remove_diacritics 2')""",
]

_SQLITE_TRIGGERS = {
    "catalog_game_words_ai": """CREATE TRIGGER catalog_game_words_ai AFTER INSERT ON catalog_game BEGIN
        INSERT INTO catalog_game_words(rowid, name_key) VALUES (new.id, new.name_key); END""",
    "catalog_game_words_ad": """CREATE TRIGGER catalog_game_words_ad AFTER DELETE ON catalog_game BEGIN
        INSERT INTO catalog_game_words(catalog_game_words, rowid, name_key) VALUES ('delete', old.id, old.name_key); END""",
    "catalog_game_words_au": """CREATE TRIGGER catalog_game_words_au AFTER UPDATE OF name_key ON catalog_game BEGIN
        INSERT INTO catalog_game_words(catalog_game_words, rowid, name_key) VALUES ('delete', old.id, old.name_key);
        INSERT INTO catalog_game_words(rowid, name_key) VALUES (new.id, new.name_key); END""",
    "catalog_nameword_fts_ai": """CREATE TRIGGER catalog_nameword_fts_ai AFTER INSERT ON catalog_nameword BEGIN
        INSERT INTO catalog_nameword_fts(rowid, word) VALUES (new.rowid, new.word); END""",
    "catalog_nameword_fts_ad": """CREATE TRIGGER catalog_nameword_fts_ad AFTER DELETE ON catalog_nameword BEGIN
        INSERT INTO catalog_nameword_fts(catalog_nameword_fts, rowid, word) VALUES ('delete', old.rowid, old.word); END""",
    "catalog_page_fts_ai": """CREATE TRIGGER catalog_page_fts_ai AFTER INSERT ON catalog_documentpage BEGIN
        INSERT INTO catalog_page_fts(rowid, stems, language) VALUES (new.id, new.stems, new.language); END""",
    "catalog_page_fts_ad": """CREATE TRIGGER catalog_page_fts_ad AFTER DELETE ON catalog_documentpage BEGIN
        INSERT INTO catalog_page_fts(catalog_page_fts, rowid, stems, language)
        VALUES ('delete', old.id, old.stems, old.language); END""",
    "catalog_page_fts_au": """CREATE TRIGGER catalog_page_fts_au AFTER UPDATE ON catalog_documentpage BEGIN
        INSERT INTO catalog_page_fts(catalog_page_fts, rowid, stems, language)
        VALUES ('delete', old.id, old.stems, old.language);
        INSERT INTO catalog_page_fts(rowid, stems, language) VALUES (new.id, new.stems, new.language); END""",
}


def install(schema_editor=None) -> None:
    """Create the search schema for the current database; safe to run again."""
    conn = schema_editor.connection if schema_editor is not None else connection
    if "catalog_nameword" not in conn.introspection.table_names():
        return  # before migration 0003: it installs everything
    with conn.cursor() as cursor:
        if conn.vendor == "postgresql":
            for sql in _PG_SETUP:
                cursor.execute(sql)
        elif conn.vendor == "sqlite":
            for sql in _SQLITE_TABLES:
                cursor.execute(sql)
            cursor.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")
            present = {row[0] for row in cursor.fetchall()}
            missing = [name for name in _SQLITE_TRIGGERS if name not in present]
            for name in missing:
                cursor.execute(_SQLITE_TRIGGERS[name])
            if missing:
                # A table was rebuilt without its triggers: the indexes may be stale.
                for table in ("catalog_game_words", "catalog_nameword_fts", "catalog_page_fts"):
                    cursor.execute(f"INSERT INTO {table}({table}) VALUES ('rebuild')")


def uninstall(schema_editor) -> None:
    with schema_editor.connection.cursor() as cursor:
        if schema_editor.connection.vendor == "postgresql":
            for sql in _PG_TEARDOWN:
                cursor.execute(sql)
        elif schema_editor.connection.vendor == "sqlite":
            for name in _SQLITE_TRIGGERS:
                cursor.execute(f"DROP TRIGGER IF EXISTS {name}")
            for table in ("catalog_game_words", "catalog_nameword_fts", "catalog_page_fts"):
                cursor.execute(f"DROP TABLE IF EXISTS {table}")


def post_migrate(sender=None, using="default", **kwargs) -> None:
    from django.db import connections

    conn = connections[using]
    tables = conn.introspection.table_names()
    if {"catalog_game", "catalog_documentpage", "catalog_nameword"} <= set(tables):
        with conn.schema_editor() as editor:
            install(editor)


# -- titles -----------------------------------------------------------------------------
#
# Two steps, both through indexes. First each query word is matched against the
# vocabulary of words that occur in names (a few ten thousand rows): the word
# itself, words with similar trigrams (typos), and for the last word the words it
# begins (typing in progress). Then the games whose names hold, for every query
# word, one of its matches are read from a word index of the names, exact full-name
# matches first, then the most owned. The few hundred candidates are ranked here:
# how well each query word matched, how close the whole query is to one of the
# game's names, how many people own it.

WORD_THRESHOLD = 0.45
WORD_MATCHES = 8
PREFIX = 0.9  # the score of a word the last query word begins


def search_games(query: str, games: QuerySet[Game] | None = None, limit: int = TITLE_LIMIT) -> list[int]:
    """Ids of the games matching ``query`` in any of their names, best first.

    ``games`` narrows the search (filters already applied). Accents and case never
    matter; a typo or two in a word still finds it.
    """
    folded = textlib.fold_query(query)
    words = folded.split()[:8]
    if not words:
        return []
    expansions = _expand(words)
    if not all(expansions):
        return []
    rows = _candidates(folded, expansions, games if games is not None else Game.objects.all())
    scored = []
    for game_id, key, owned in rows:
        present = set(key.replace("|", " ").split())
        matched = sum(max((score for w, score in e.items() if w in present), default=0.0) for e in expansions)
        # How close the whole query is to one of the names counts most ("wingspn" is
        # nearer "Wingspan" than "Buffalo Wings"), then how well each word matched.
        closeness = textlib.similarity(folded, key)
        scored.append((-round(closeness + 0.5 * matched / len(expansions), 4), -owned, game_id))
    scored.sort()
    return [row[-1] for row in scored[:limit]]


def _expand(words: list[str]) -> list[dict[str, float]]:
    """For each query word: the vocabulary words it may stand for, with a score."""
    found: list[dict[str, float]] = [{} for _ in words]
    last = len(words) - 1
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                """SELECT q.i, v.word, similarity(v.word, q.w)
                   FROM unnest(%s::text[]) WITH ORDINALITY AS q(w, i)
                   JOIN LATERAL (SELECT word FROM catalog_nameword
                                 WHERE length(q.w) >= 3 AND word %% q.w
                                 ORDER BY similarity(word, q.w) DESC LIMIT 40) v ON true
                   UNION ALL
                   SELECT q.i, q.w, 1.0 FROM unnest(%s::text[]) WITH ORDINALITY AS q(w, i)
                   WHERE EXISTS (SELECT 1 FROM catalog_nameword WHERE word = q.w)
                   UNION ALL
                   (SELECT %s, word, %s FROM catalog_nameword WHERE word LIKE %s ORDER BY length(word), word LIMIT 12)""",
                [words, words, last + 1, PREFIX, words[last].replace("%", "").replace("_", r"\_") + "%"],
            )
            rows = [(int(i) - 1, word, float(score)) for i, word, score in cursor.fetchall()]
        else:
            parts, params = [], []
            for i, word in enumerate(words):
                grams = _grams(word)
                if len(word) >= 3 and grams:
                    parts.append(
                        "SELECT * FROM (SELECT %s, word FROM catalog_nameword_fts WHERE catalog_nameword_fts MATCH %s "
                        "ORDER BY rank LIMIT 40)"
                    )
                    params += [i, " OR ".join(f'"{g}"' for g in grams)]
                parts.append("SELECT %s, word FROM catalog_nameword WHERE word = %s")
                params += [i, word]
            parts.append(
                "SELECT * FROM (SELECT %s, word FROM catalog_nameword WHERE word >= %s AND word < %s "
                "ORDER BY length(word), word LIMIT 12)"
            )
            params += [-1, words[last], words[last] + "\U0010ffff"]
            cursor.execute(" UNION ALL ".join(parts), params)
            rows = []
            for i, word in cursor.fetchall():
                if i == -1:
                    rows.append((last, word, PREFIX))
                else:
                    rows.append((i, word, 1.0 if word == words[i] else textlib.similarity(words[i], word)))
    for i, word, score in rows:
        if word == words[i]:
            score = 1.0
        elif i == last and word.startswith(words[i]):
            score = max(score, PREFIX)
        elif score < WORD_THRESHOLD:
            continue
        if score > found[i].get(word, 0.0):
            found[i][word] = score
    return [dict(sorted(f.items(), key=lambda kv: -kv[1])[:WORD_MATCHES + (12 if i == last else 0)])
            for i, f in enumerate(found)]


def _grams(word: str) -> list[str]:
    return sorted({word[i : i + 3] for i in range(len(word) - 2)})


def _candidates(folded: str, expansions: list[dict[str, float]], games: QuerySet[Game]) -> list[tuple[int, str, int]]:
    exact = RawSQL(
        "CASE WHEN (' | ' || catalog_game.name_key || ' | ') LIKE %s THEN 0 ELSE 1 END", [f"% | {folded} | %"],
        output_field=FloatField(),
    )
    if connection.vendor == "postgresql":
        tsquery = " & ".join("(" + " | ".join(f"'{w}'" for w in e) + ")" for e in expansions)
        matching = games.filter(RawSQL(
            "to_tsvector('simple', catalog_game.name_key) @@ to_tsquery('simple', %s)", [tsquery],
            output_field=BooleanField(),
        ))
    else:
        match = " AND ".join("(" + " OR ".join(f'"{w}"' for w in e) + ")" for e in expansions)
        matching = games.filter(id__in=RawSQL(
            "SELECT rowid FROM catalog_game_words WHERE catalog_game_words MATCH %s", [match]
        ))
    return list(
        matching.annotate(exact=exact).order_by("exact", "-owned_count", "id")
        .values_list("id", "name_key", "owned_count")[:CANDIDATES]
    )


def naive_search_games(query: str, limit: int = TITLE_LIMIT) -> list[int]:
    """The baseline the benchmark compares against: icontains over every name field."""
    from django.db.models import Q

    cond = Q()
    for field in ("title", "title_fr", "title_de", "title_en", "other_names"):
        cond |= Q(**{f"{field}__icontains": query})
    return list(Game.objects.filter(cond).order_by("-owned_count").values_list("id", flat=True)[:limit])


# -- rulebooks ----------------------------------------------------------------------------


@dataclass
class PageHit:
    page: DocumentPage
    rank: float
    snippet: str

    @property
    def document(self) -> Document:
        return self.page.document

    @property
    def url(self) -> str:
        return self.document.page_url(self.page.number)


def search_rules(query: str, user=None, game: Game | None = None, limit: int = RULES_LIMIT) -> list[PageHit]:
    """Rulebook pages matching ``query`` (stemmed in each page's language), best first,
    among the documents ``user`` may read."""
    if not textlib.fold_query(query):
        return []
    documents = Document.objects.visible_to(user)
    if game is not None:
        documents = documents.filter(game=game)
    doc_sql, doc_params = documents.values("id").query.sql_with_params()
    if connection.vendor == "postgresql":
        conds, params = [], []
        for lang, cfg in PG_CONFIGS.items():
            conds.append(f"(p.language = %s AND p.search_vector @@ websearch_to_tsquery('{cfg}', %s))")
            params += [lang, query]
        rank = " + ".join(
            f"CASE WHEN p.language = '{lang}' THEN ts_rank_cd(p.search_vector, websearch_to_tsquery('{cfg}', %s)) ELSE 0 END"
            for lang, cfg in PG_CONFIGS.items()
        )
        sql = f"""SELECT p.id, {rank} AS score FROM catalog_documentpage p
                  WHERE p.document_id IN ({doc_sql}) AND ({" OR ".join(conds)})
                  ORDER BY score DESC, p.id LIMIT %s"""
        all_params = [query] * len(PG_CONFIGS) + list(doc_params) + params + [limit]
    else:
        parts, all_params = [], []
        for lang in PG_CONFIGS:
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
    hits = []
    for page_id, score in ranked:
        page = pages[page_id]
        hits.append(PageHit(page, float(score), textlib.snippet(page.search_text, query, page.language)))
    return hits
