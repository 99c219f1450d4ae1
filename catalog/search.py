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

from django.db import connection, transaction
from django.db.models import BooleanField, FloatField, QuerySet
from django.db.models.expressions import RawSQL

from catalog import text as textlib
from catalog.models import Document, DocumentPage, Game

TITLE_THRESHOLD = 0.6  # pg_trgm's default word_similarity_threshold
TITLE_LIMIT = 200
SQLITE_CANDIDATES = 300
CANDIDATES = 1000
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
    "CREATE INDEX IF NOT EXISTS catalog_game_name_trgm ON catalog_game USING gin (name_key gin_trgm_ops)",
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
    "CREATE INDEX IF NOT EXISTS catalog_page_search ON catalog_documentpage USING gin (search_vector)",
]

_PG_TEARDOWN = [
    "DROP INDEX IF EXISTS catalog_page_search",
    "DROP TRIGGER IF EXISTS catalog_page_tsvector ON catalog_documentpage",
    "DROP FUNCTION IF EXISTS catalog_page_tsvector()",
    "ALTER TABLE catalog_documentpage DROP COLUMN IF EXISTS search_vector",
    "DROP INDEX IF EXISTS catalog_game_name_trgm",
    *[f"DROP TEXT SEARCH CONFIGURATION IF EXISTS {cfg}" for cfg in PG_CONFIGS.values()],
]

_SQLITE_TABLES = [
    """CREATE VIRTUAL TABLE IF NOT EXISTS catalog_game_fts USING fts5(
        name_key, content='catalog_game', content_rowid='id', tokenize='trigram')""",
    """CREATE VIRTUAL TABLE IF NOT EXISTS catalog_page_fts USING fts5(
        stems, language UNINDEXED, content='catalog_documentpage', content_rowid='id',
        tokenize='unicode61 remove_diacritics 2')""",
]

_SQLITE_TRIGGERS = {
    "catalog_game_fts_ai": """CREATE TRIGGER catalog_game_fts_ai AFTER INSERT ON catalog_game BEGIN
        INSERT INTO catalog_game_fts(rowid, name_key) VALUES (new.id, new.name_key); END""",
    "catalog_game_fts_ad": """CREATE TRIGGER catalog_game_fts_ad AFTER DELETE ON catalog_game BEGIN
        INSERT INTO catalog_game_fts(catalog_game_fts, rowid, name_key) VALUES ('delete', old.id, old.name_key); END""",
    "catalog_game_fts_au": """CREATE TRIGGER catalog_game_fts_au AFTER UPDATE OF name_key ON catalog_game BEGIN
        INSERT INTO catalog_game_fts(catalog_game_fts, rowid, name_key) VALUES ('delete', old.id, old.name_key);
        INSERT INTO catalog_game_fts(rowid, name_key) VALUES (new.id, new.name_key); END""",
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
                # A table was rebuilt without its triggers: the index may be stale.
                cursor.execute("INSERT INTO catalog_game_fts(catalog_game_fts) VALUES ('rebuild')")
                cursor.execute("INSERT INTO catalog_page_fts(catalog_page_fts) VALUES ('rebuild')")


def uninstall(schema_editor) -> None:
    with schema_editor.connection.cursor() as cursor:
        if schema_editor.connection.vendor == "postgresql":
            for sql in _PG_TEARDOWN:
                cursor.execute(sql)
        elif schema_editor.connection.vendor == "sqlite":
            for name in _SQLITE_TRIGGERS:
                cursor.execute(f"DROP TRIGGER IF EXISTS {name}")
            cursor.execute("DROP TABLE IF EXISTS catalog_game_fts")
            cursor.execute("DROP TABLE IF EXISTS catalog_page_fts")


def post_migrate(sender=None, using="default", **kwargs) -> None:
    from django.db import connections

    conn = connections[using]
    tables = conn.introspection.table_names()
    if "catalog_game" in tables and "catalog_documentpage" in tables:
        with conn.schema_editor() as editor:
            install(editor)


# -- titles -----------------------------------------------------------------------------


def search_games(query: str, games: QuerySet[Game] | None = None, limit: int = TITLE_LIMIT) -> list[int]:
    """Ids of the games matching ``query`` in any of their names, best first.

    ``games`` narrows the search (filters already applied). Accents and case never
    matter; a typo or two in a word still finds it. The ranking runs over the whole
    collection through the index, then the filters keep what they allow: a title
    query's answer beyond its first CANDIDATES names is noise anyway.
    """
    folded = textlib.fold_query(query)
    if not folded:
        return []
    filtered = games is not None and bool(games.query.where)
    if len(folded.replace(" ", "")) < 3:
        # Too short for trigrams: names that start a word with it.
        base = games if games is not None else Game.objects.all()
        qs = base.filter(name_key__startswith=folded) | base.filter(name_key__contains=" " + folded)
        return list(qs.order_by("-owned_count", "title").values_list("id", flat=True)[:limit])
    wanted = CANDIDATES if filtered else limit
    if connection.vendor == "postgresql":
        ranked = _pg_titles(folded, wanted)
    else:
        ranked = _sqlite_titles(folded, wanted)
    if filtered:
        allowed = set(games.filter(id__in=ranked).values_list("id", flat=True))
        ranked = [i for i in ranked if i in allowed]
    return ranked[:limit]


def _pg_titles(folded: str, limit: int) -> list[int]:
    qs = (
        Game.objects.filter(RawSQL("%s <%% catalog_game.name_key", [folded], output_field=BooleanField()))
        .annotate(
            ws=RawSQL("word_similarity(%s, catalog_game.name_key)", [folded], output_field=FloatField()),
            sim=RawSQL("similarity(%s, catalog_game.name_key)", [folded], output_field=FloatField()),
        )
        .order_by("-ws", "-sim", "-owned_count", "id")
        .values_list("id", flat=True)[:limit]
    )
    with transaction.atomic(), connection.cursor() as cursor:
        # The planner prices the trigram GIN index above a sequential scan of a few
        # ten thousand rows, then spends 60 ms computing word_similarity on each of
        # them; the index answers in a few ms (docs/performance.md).
        cursor.execute("SET LOCAL enable_seqscan = off")
        return list(qs)


def _fts_trigram_query(folded: str) -> str:
    grams = []
    for word in folded.split():
        for i in range(max(1, len(word) - 2)):
            gram = word[i : i + 3]
            if len(gram) == 3 and gram not in grams:
                grams.append(gram)
    return " OR ".join(f'"{g}"' for g in grams)


def _sqlite_titles(folded: str, limit: int) -> list[int]:
    match = _fts_trigram_query(folded)
    if not match:
        return []
    # bm25 over the query's trigrams picks the candidates; the trigram measure ranks them.
    sql = """SELECT g.id, g.name_key, g.owned_count FROM catalog_game g
             JOIN (SELECT rowid AS id FROM catalog_game_fts WHERE catalog_game_fts MATCH %s
                   ORDER BY rank LIMIT %s) m ON g.id = m.id"""
    with connection.cursor() as cursor:
        cursor.execute(sql, [match, max(limit, SQLITE_CANDIDATES)])
        rows = cursor.fetchall()
    scored = []
    for game_id, key, owned in rows:
        ws = textlib.word_similarity(folded, key)
        if ws >= TITLE_THRESHOLD or folded in key:
            scored.append((-ws, -textlib.similarity(folded, key), -owned, game_id))
    scored.sort()
    return [row[-1] for row in scored[:limit]]


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
