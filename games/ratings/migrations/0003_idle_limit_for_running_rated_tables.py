"""Rated tables without a clock now have an idle limit (docs/ratings.md). The
ones already running get their deadlines the next time the worker looks at
them: set their table's deadline to now, and the worker's timeout pass sets
each waiting seat's limit from this moment (nobody loses for the time before)."""

from django.db import migrations
from django.utils import timezone


def wake_running_rated_tables(apps, schema_editor):
    Table = apps.get_model("games", "Table")
    running = Table.objects.filter(status="running", rated=True, clock_deadline__isnull=True)
    ids = [pk for pk, clock in running.values_list("pk", "clock")
           if (clock or {}).get("kind", "none") == "none"]
    Table.objects.filter(pk__in=ids).update(clock_deadline=timezone.now())


class Migration(migrations.Migration):
    dependencies = [
        ("ratings", "0002_games_before_ratings"),
        ("games", "0003_guest_identity_chat_staff_limits"),
    ]

    operations = [migrations.RunPython(wake_running_rated_tables, migrations.RunPython.noop)]
