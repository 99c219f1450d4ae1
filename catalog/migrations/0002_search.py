"""Search schema, by database vendor (see catalog/search_schema.py).

PostgreSQL: extensions unaccent and pg_trgm; text-search configurations
ludo_french, ludo_german and ludo_english (unaccent, then the language's stemmer);
a trigram GIN index on the games' folded names; a tsvector column on pages kept by
a trigger, with its GIN index. SQLite: FTS5 tables for game names (trigram) and page
stems (unicode61, diacritics removed), kept by triggers.
"""

from django.db import migrations


def forwards(apps, schema_editor):
    from catalog import search_schema

    search_schema.install(schema_editor)


def backwards(apps, schema_editor):
    from catalog import search_schema

    search_schema.uninstall(schema_editor)


class Migration(migrations.Migration):
    dependencies = [("catalog", "0001_initial")]
    operations = [migrations.RunPython(forwards, backwards)]
