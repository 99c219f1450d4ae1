from django.db import migrations, models

LIVE = ("open", "running")


def mark_and_free(apps, schema_editor):
    """Tables made pass-and-play before Table.pass_and_play existed are marked so
    (their creator holds every person's seat); the codes of ended tables are freed."""
    Table = apps.get_model("games", "Table")
    Room = apps.get_model("living", "Room")
    Table.objects.filter(living_room__mode="pass").update(pass_and_play=True)
    Room.objects.filter(code__isnull=False).exclude(table__status__in=LIVE).update(code=None)


class Migration(migrations.Migration):

    dependencies = [
        ("living", "0001_initial"),
        ("games", "0004_table_pass_and_play"),
    ]

    operations = [
        migrations.AlterField(
            model_name="room",
            name="code",
            field=models.CharField(blank=True, max_length=12, null=True, unique=True, verbose_name="join code"),
        ),
        migrations.RunPython(mark_and_free, migrations.RunPython.noop),
    ]
