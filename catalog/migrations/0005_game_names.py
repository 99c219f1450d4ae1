"""Names per language (GameName), the BoardGameGeek rating count (a ranking signal
of title search), a cover picture, and QR codes kept once drawn (shelf labels). The French, German and English titles a game
already had become its primary names in those languages."""

import catalog.collection.models
import django.db.models.deletion
from django.db import migrations, models


def titles_to_names(apps, schema_editor):
    Game = apps.get_model("catalog", "Game")
    GameName = apps.get_model("catalog", "GameName")
    rows = []
    for game in Game.objects.exclude(title_fr="", title_de="", title_en="").only("id", "title_fr", "title_de", "title_en"):
        for language in ("fr", "de", "en"):
            name = " ".join(getattr(game, f"title_{language}").split())
            if name:
                rows.append(GameName(game_id=game.id, language=language, name=name[:300], primary=True))
    GameName.objects.bulk_create(rows, batch_size=1000, ignore_conflicts=True)


class Migration(migrations.Migration):

    dependencies = [
        ('catalog', '0004_vocabulary_in_memory'),
    ]

    operations = [
        migrations.AddField(
            model_name='game',
            name='cover',
            field=models.ImageField(blank=True, upload_to=catalog.collection.models._cover_path, verbose_name='cover picture'),
        ),
        migrations.AddField(
            model_name='game',
            name='rating_count',
            field=models.PositiveIntegerField(default=0, verbose_name='ratings on BoardGameGeek'),
        ),
        migrations.AlterField(
            model_name='game',
            name='description',
            field=models.TextField(blank=True, help_text='A few sentences for guests.', verbose_name='description'),
        ),
        migrations.CreateModel(
            name='GameName',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('language', models.CharField(help_text='fr, en, de, it, es...', max_length=2, validators=[catalog.collection.models.validate_name_language], verbose_name='language')),
                ('name', models.CharField(max_length=300, verbose_name='name')),
                ('primary', models.BooleanField(default=False, verbose_name='primary in this language')),
                ('game', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='names', to='catalog.game', verbose_name='game')),
            ],
            options={
                'verbose_name': 'name',
                'verbose_name_plural': 'names',
                'ordering': ['game', 'language', '-primary', 'id'],
                'constraints': [models.UniqueConstraint(fields=('game', 'language', 'name'), name='catalog_gamename_unique'), models.UniqueConstraint(condition=models.Q(('primary', True)), fields=('game', 'language'), name='catalog_gamename_one_primary')],
            },
        ),
        migrations.CreateModel(
            name='QrCode',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('data', models.CharField(max_length=600, unique=True)),
                ('svg', models.TextField()),
            ],
            options={
                'verbose_name': 'QR code',
                'verbose_name_plural': 'QR codes',
            },
        ),
        migrations.RunPython(titles_to_names, migrations.RunPython.noop),
    ]
