"""Title search matches query words against an in-memory copy of the vocabulary.

The typo matching of query words against the vocabulary of name words moved from
the database (PostgreSQL: trigram GIN index on catalog_nameword; SQLite: FTS5
trigram table over it) into each process (catalog.collection.search.Vocabulary), which saves a
round trip per search. Those objects go, and a version stamp of the vocabulary comes
(catalog_search_state, bumped by triggers on catalog_nameword) so that a process
knows, within the search statement itself, when its copy is out of date.
"""

from django.db import migrations


def forwards(apps, schema_editor):
    from catalog import search_schema

    connection = schema_editor.connection
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            for trigger in ("catalog_nameword_fts_ai", "catalog_nameword_fts_ad"):
                cursor.execute(f"DROP TRIGGER IF EXISTS {trigger}")
            cursor.execute("DROP TABLE IF EXISTS catalog_nameword_fts")
        elif connection.vendor == "postgresql":
            cursor.execute("DROP INDEX IF EXISTS catalog_nameword_trgm")
    search_schema.install(schema_editor)


def backwards(apps, schema_editor):
    """Back to the schema of 0003: the vocabulary's trigram index, no version stamp."""
    connection = schema_editor.connection
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            for trigger in ("catalog_vocabulary_ai", "catalog_vocabulary_ad", "catalog_vocabulary_au"):
                cursor.execute(f"DROP TRIGGER IF EXISTS {trigger}")
            cursor.execute("DROP TABLE IF EXISTS catalog_search_state")
            cursor.execute(
                """CREATE VIRTUAL TABLE IF NOT EXISTS catalog_nameword_fts USING fts5(
                    word, content='catalog_nameword', content_rowid='rowid', tokenize='trigram')"""
            )
            cursor.execute(
                """CREATE TRIGGER IF NOT EXISTS catalog_nameword_fts_ai AFTER INSERT ON catalog_nameword BEGIN
                    INSERT INTO catalog_nameword_fts(rowid, word) VALUES (new.rowid, new.word); END"""
            )
            cursor.execute(
                """CREATE TRIGGER IF NOT EXISTS catalog_nameword_fts_ad AFTER DELETE ON catalog_nameword BEGIN
                    INSERT INTO catalog_nameword_fts(catalog_nameword_fts, rowid, word)
                    VALUES ('delete', old.rowid, old.word); END"""
            )
            cursor.execute("INSERT INTO catalog_nameword_fts(catalog_nameword_fts) VALUES ('rebuild')")
        elif connection.vendor == "postgresql":
            for sql in (
                "DROP TRIGGER IF EXISTS catalog_vocabulary_added ON catalog_nameword",
                "DROP TRIGGER IF EXISTS catalog_vocabulary_changed ON catalog_nameword",
                "DROP FUNCTION IF EXISTS catalog_vocabulary_added()",
                "DROP FUNCTION IF EXISTS catalog_vocabulary_changed()",
                "DROP TABLE IF EXISTS catalog_search_state",
                "CREATE INDEX IF NOT EXISTS catalog_nameword_trgm ON catalog_nameword "
                "USING gin (word gin_trgm_ops) WITH (fastupdate = off)",
            ):
                cursor.execute(sql)


class Migration(migrations.Migration):
    dependencies = [("catalog", "0003_name_words")]
    operations = [migrations.RunPython(forwards, backwards)]
