"""Rated tables that finished before ratings existed are not rated after the
fact (nobody recorded who left them): each gets its verdict, not counted."""

from django.db import migrations


def mark_old_games(apps, schema_editor):
    Table = apps.get_model("games", "Table")
    RatedGame = apps.get_model("ratings", "RatedGame")
    old = Table.objects.filter(status="finished", rated=True).values_list("pk", flat=True)
    RatedGame.objects.bulk_create(
        [RatedGame(table_id=pk, counted=False, reason="before_ratings") for pk in old.iterator()],
        batch_size=500, ignore_conflicts=True,
    )


class Migration(migrations.Migration):
    dependencies = [("ratings", "0001_initial")]

    operations = [migrations.RunPython(mark_old_games, migrations.RunPython.noop)]
