"""The tables of tournaments played before their tables were made private
(tournaments.privacy) become private too: their games, replays and names are
the tournament's, not the site's."""

from django.db import migrations


def hide_tables(apps, schema_editor):
    Table = apps.get_model("games", "Table")
    Table.objects.filter(tournament_pairing__isnull=False, private=False).update(private=True)


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0003_history_berserk"),
    ]

    operations = [
        migrations.RunPython(hide_tables, migrations.RunPython.noop),
    ]
