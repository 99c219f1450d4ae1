"""The search indexes of the catalogue, on SQLite and PostgreSQL: the word index of
the games' folded names (catalog.collection.search) and the index of rulebook pages
with the stemmer of each page's language (catalog.rulebooks.rules_search).

PostgreSQL: pg_trgm and unaccent, text-search configurations ``ludo_french``/
``ludo_german``/``ludo_english`` (unaccent, then the Snowball stemmer) over a
tsvector of the pages kept by a trigger, GIN indexes. SQLite: FTS5 tables over the
names and over the pages' stems (computed in Python by the same Snowball stemmers),
kept by triggers, and the vocabulary's version stamp.

The schema objects (extensions, configurations, indexes, virtual tables, triggers)
are created by migrations 0002-0004 through :func:`install`, which is idempotent and
also runs after every migrate: SQLite drops triggers when Django rebuilds a table.
"""

from __future__ import annotations

from django.db import connection

PG_CONFIGS = {"fr": "ludo_french", "de": "ludo_german", "en": "ludo_english"}

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
    "CREATE INDEX IF NOT EXISTS catalog_game_name_words ON catalog_game USING gin (to_tsvector('simple', name_key)) WITH (fastupdate = off)",
    "ALTER INDEX catalog_game_name_words SET (fastupdate = off)",
    # The vocabulary's version stamp (see catalog.collection.search.Vocabulary): a new random number
    # whenever a statement adds, changes or removes name words (random, so that a
    # stamp never comes back, not even after a rollback or a schema reinstalled).
    # The update locks the row: concurrent writers take turns.
    """CREATE TABLE IF NOT EXISTS catalog_search_state (
        id smallint PRIMARY KEY CHECK (id = 1), vocabulary bigint NOT NULL)""",
    "INSERT INTO catalog_search_state (id, vocabulary) VALUES (1, floor(random() * 9e15)::bigint) ON CONFLICT DO NOTHING",
    """CREATE OR REPLACE FUNCTION catalog_vocabulary_added() RETURNS trigger AS $$
    BEGIN
        IF EXISTS (SELECT 1 FROM added_words) THEN
            UPDATE catalog_search_state SET vocabulary = floor(random() * 9e15)::bigint WHERE id = 1;
        END IF;
        RETURN NULL;
    END $$ LANGUAGE plpgsql""",
    """CREATE OR REPLACE FUNCTION catalog_vocabulary_changed() RETURNS trigger AS $$
    BEGIN
        UPDATE catalog_search_state SET vocabulary = floor(random() * 9e15)::bigint WHERE id = 1;
        RETURN NULL;
    END $$ LANGUAGE plpgsql""",
    "DROP TRIGGER IF EXISTS catalog_vocabulary_added ON catalog_nameword",
    # Only the rows actually inserted are in the transition table: a game saved
    # with words already known (INSERT ... ON CONFLICT DO NOTHING) changes nothing.
    """CREATE TRIGGER catalog_vocabulary_added AFTER INSERT ON catalog_nameword
        REFERENCING NEW TABLE AS added_words FOR EACH STATEMENT EXECUTE FUNCTION catalog_vocabulary_added()""",
    "DROP TRIGGER IF EXISTS catalog_vocabulary_changed ON catalog_nameword",
    """CREATE TRIGGER catalog_vocabulary_changed AFTER UPDATE OR DELETE OR TRUNCATE ON catalog_nameword
        FOR EACH STATEMENT EXECUTE FUNCTION catalog_vocabulary_changed()""",
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
    "DROP TRIGGER IF EXISTS catalog_vocabulary_added ON catalog_nameword",
    "DROP TRIGGER IF EXISTS catalog_vocabulary_changed ON catalog_nameword",
    "DROP FUNCTION IF EXISTS catalog_vocabulary_added()",
    "DROP FUNCTION IF EXISTS catalog_vocabulary_changed()",
    "DROP TABLE IF EXISTS catalog_search_state",
    *[f"DROP TEXT SEARCH CONFIGURATION IF EXISTS {cfg}" for cfg in PG_CONFIGS.values()],
]

_SQLITE_TABLES = [
    """CREATE VIRTUAL TABLE IF NOT EXISTS catalog_game_words USING fts5(
        name_key, content='catalog_game', content_rowid='id', tokenize='unicode61')""",
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
    # The vocabulary's version stamp: a random number, so that a stamp never comes
    # back after a rollback (see catalog.collection.search.Vocabulary).
    "catalog_vocabulary_ai": """CREATE TRIGGER catalog_vocabulary_ai AFTER INSERT ON catalog_nameword BEGIN
        UPDATE catalog_search_state SET vocabulary = random() WHERE id = 1; END""",
    "catalog_vocabulary_ad": """CREATE TRIGGER catalog_vocabulary_ad AFTER DELETE ON catalog_nameword BEGIN
        UPDATE catalog_search_state SET vocabulary = random() WHERE id = 1; END""",
    "catalog_vocabulary_au": """CREATE TRIGGER catalog_vocabulary_au AFTER UPDATE ON catalog_nameword BEGIN
        UPDATE catalog_search_state SET vocabulary = random() WHERE id = 1; END""",
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
            cursor.execute(
                "CREATE TABLE IF NOT EXISTS catalog_search_state (id integer PRIMARY KEY CHECK (id = 1), "
                "vocabulary integer NOT NULL)"
            )
            cursor.execute("INSERT OR IGNORE INTO catalog_search_state (id, vocabulary) VALUES (1, random())")
            cursor.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")
            present = {row[0] for row in cursor.fetchall()}
            missing = [name for name in _SQLITE_TRIGGERS if name not in present]
            for name in missing:
                cursor.execute(_SQLITE_TRIGGERS[name])
            if missing:
                # A table was rebuilt without its triggers: the indexes may be stale.
                for table in ("catalog_game_words", "catalog_page_fts"):
                    cursor.execute(f"INSERT INTO {table}({table}) VALUES ('rebuild')")
                cursor.execute("UPDATE catalog_search_state SET vocabulary = random() WHERE id = 1")


def uninstall(schema_editor) -> None:
    with schema_editor.connection.cursor() as cursor:
        if schema_editor.connection.vendor == "postgresql":
            for sql in _PG_TEARDOWN:
                cursor.execute(sql)
        elif schema_editor.connection.vendor == "sqlite":
            for name in [*_SQLITE_TRIGGERS, "catalog_nameword_fts_ai", "catalog_nameword_fts_ad"]:
                cursor.execute(f"DROP TRIGGER IF EXISTS {name}")
            for table in ("catalog_game_words", "catalog_nameword_fts", "catalog_page_fts", "catalog_search_state"):
                cursor.execute(f"DROP TABLE IF EXISTS {table}")


def post_migrate(sender=None, using="default", **kwargs) -> None:
    from django.db import connections

    conn = connections[using]
    tables = conn.introspection.table_names()
    if {"catalog_game", "catalog_documentpage", "catalog_nameword"} <= set(tables):
        with conn.schema_editor() as editor:
            install(editor)
