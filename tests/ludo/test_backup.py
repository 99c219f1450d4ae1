"""Backups that restore (issue 29): ``manage.py backup`` writes the database and the
media files to one archive; ``manage.py restore`` brings a fresh install back to it
with every row and every file, and refuses, changing nothing, an archive it cannot
trust (altered bytes, paths out of the media folder, links, another engine) or a
site that is not empty.

The site is built through the services (bookings, a scanned rulebook with page
images, a cover, a copy's QR codes, tables with moves and chat, a rated game), backed
up from the suite's database, and restored by ``manage.py restore`` in a process of
its own into a new database and an empty media folder, as an operator would.
"""

from __future__ import annotations

import functools
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.apps import apps
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.files.base import ContentFile
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.db import connection, models
from django.utils import timezone
from PIL import Image

from catalog.collection.models import Game
from catalog.rulebooks import services as rulebooks
from catalog.rulebooks.models import Document, DocumentPage
from catalog.rulebooks.uploads import Upload
from catalog.shelves import services as shelves
from games import services as tables
from games.bookings import services as bookings
from games.bookings.models import VerifiedAddress
from games.models import Table
from games.ratings.jobs import rate_pending
from games.ratings.models import Rating, RatingChange
from ludo.backup import archive as backup_archive
from ludo.backup import service
from tests.conftest import require
from tests.games.tables_helpers import guest, member
from tests.games.tables_helpers import short_game as _short_game
from tests.ludo import backup_helpers
from tests.servers import ROOT, base_env, manage, recreate_postgres

pytestmark = pytest.mark.django_db(transaction=True)

GAME = "quatre-en-ligne"  # no chance, short games
short_game = functools.cache(_short_game)  # the same few games for every test


def png(colour: str, size=(60, 40)) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", size, colour).save(buffer, "PNG")
    return buffer.getvalue()


@pytest.fixture
def media_root(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


@pytest.fixture
def site(media_root, alice):
    """A small gîte: a catalogue with a cover, a copy and a scanned rulebook with page
    images; a session with bookings; a finished rated game, a game going on with chat."""
    if connection.vendor == "postgresql":
        require(all(shutil.which(t) for t in ("pg_dump", "pg_restore", "psql")),
                "PostgreSQL's client programs (pg_dump, pg_restore, psql: apt install postgresql-client)")
    User = get_user_model()
    drumlin = Game.objects.create(title="Drumlin", min_players=2, max_players=2, engine_slug="drumlin", bgg_id=5012)
    drumlin.cover = SimpleUploadedFile("box.png", png("navy"), "image/png")
    drumlin.save()
    shelves.add_copy(drumlin, "a3")
    scan = rulebooks.add_scanned_document(drumlin, [Upload("scan.png", png("white", (120, 160)))],
                                        title="Règles", language="fr", visibility=Document.Visibility.GUESTS)
    for number in (1, 2):
        page = DocumentPage(document=scan, number=number, method=DocumentPage.Method.OCR, text=f"Page {number} é")
        page.image.save("p.png", ContentFile(png("white", (120, 160))), save=False)
        page.thumbnail.save("t.png", ContentFile(png("grey", (30, 40))), save=False)
        page.save()

    now = timezone.now()
    evening = bookings.create_session(alice, starts_at=now + timedelta(days=3), ends_at=now + timedelta(days=3, hours=3),
                                      capacity=6, title="Soirée jeux", games=[drumlin], now=now)
    ana, ben = (User.objects.create_user(name, f"{name}@example.org", f"pw-{name}-12345") for name in ("ana", "ben"))
    for person in (ana, ben):
        VerifiedAddress.objects.create(user=person, email=person.email)
    bookings.book(evening.pk, name="Ana", email="ana@example.org", seats=2, user=ana, now=now)
    bookings.book(evening.pk, name="Carole", email="carole@example.org", seats=3, note="Végétarienne", now=now)

    players = [member(ana), member(ben)]
    rated = tables.create_table(players[0], GAME, rated=True, clock={"kind": "game", "base": 600, "increment": 5})
    tables.join_table(rated.pk, players[1])
    Table.objects.filter(pk=rated.pk).update(seed=1)
    tables.start_table(rated.pk, players[0])
    seats = {0: players[0], 1: players[1]}
    for seat, move in short_game(GAME, 2, 1, decisive=True):
        tables.play_move(rated.pk, seats[seat], move, Table.objects.get(pk=rated.pk).version)
    going = tables.create_table(guest("Dora"), GAME)
    tables.join_table(going.pk, guest("Eli"))
    Table.objects.filter(pk=going.pk).update(seed=1)
    tables.start_table(going.pk, guest("Dora"))
    tables.post_chat(going.pk, guest("Dora"), "Bonne partie !")
    seat, move = short_game(GAME, 2, 1)[0]
    tables.play_move(going.pk, guest("Dora") if seat == 0 else guest("Eli"), move, Table.objects.get(pk=going.pk).version)

    assert Table.objects.get(pk=rated.pk).status == "finished"
    rate_pending()  # rated at the end already; the worker's sweep would catch any left
    assert RatingChange.objects.count() == 2 and Rating.objects.count() == 2
    assert len(backup_helpers.files(media_root)) == 6  # cover, scan, two pages and their thumbnails
    return media_root


def backup(folder: Path) -> Path:
    out = io.StringIO()
    call_command("backup", "--dir", str(folder), stdout=out)
    archives = sorted(folder.glob("ludo-backup-*.tar"))
    assert len(archives) == 1, out.getvalue()
    return archives[0]


# -- a restore that loses nothing ------------------------------------------------------------------


def _restore_target(kind: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    """The DATABASE_URL of a fresh install: a database never migrated ("new"), or
    migrated and holding nothing ("migrated"), on the suite's engine."""
    if connection.vendor == "postgresql":
        parts = urlsplit(os.environ["DATABASE_URL"].strip())
        url = urlunsplit(parts._replace(path=f"/{parts.path.lstrip('/')}_restored"))
        if kind == "migrated":
            return recreate_postgres(url, request.getfixturevalue("_server_postgres_url")[1])
        _create_empty_postgres(url)
        return url
    path = tmp_path / "restored.sqlite3"
    if kind == "migrated":
        path.write_bytes(request.getfixturevalue("_migrated_sqlite_template").read_bytes())
    return f"sqlite:///{path}"


def _create_empty_postgres(url: str) -> None:
    import psycopg
    from psycopg import sql

    parts = urlsplit(url)
    with psycopg.connect(urlunsplit(parts._replace(path="/postgres")), autocommit=True) as conn:
        name = sql.Identifier(parts.path.lstrip("/"))
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(name))
        conn.execute(sql.SQL("CREATE DATABASE {}").format(name))


def _state_of(env: dict[str, str]) -> dict:
    result = subprocess.run([sys.executable, "-m", "tests.ludo.backup_helpers"], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=300, check=True)
    return json.loads(result.stdout)


@pytest.mark.parametrize("fresh", ["new", "migrated"])
def test_a_restore_into_a_fresh_install_brings_back_every_row_and_every_file(site, tmp_path, request, fresh):
    path = backup(tmp_path / "backups")
    before = {"tables": backup_helpers.table_rows(), "models": backup_helpers.model_rows()}
    files_before = backup_helpers.files(site)

    restored_media = tmp_path / "restored-media"
    env = base_env({"DATABASE_URL": _restore_target(fresh, tmp_path, request), "MEDIA_ROOT": str(restored_media),
                    "LUDO_VAR_DIR": str(tmp_path / "var")})
    said = manage("restore", str(path), env=env).stdout
    assert "restored" in said and "6 media files" in said

    after = _state_of(env)
    assert after["models"] == json.loads(json.dumps(before["models"]))
    assert set(after["tables"]) == set(before["tables"])
    for table, rows in before["tables"].items():
        assert after["tables"][table] == json.loads(json.dumps(rows)), table
    assert backup_helpers.files(restored_media) == files_before
    assert not list(tmp_path.glob(".ludo-restore-*")), "the restore's staging folder was left behind"

    # The restored site goes on: new rows get new ids (sequences restored), pages find their files.
    check = (
        "from django.contrib.auth import get_user_model; from catalog.collection.models import Game;"
        " from catalog.rulebooks.models import DocumentPage;"
        "u = get_user_model().objects.create_user('zoe', 'zoe@example.org', 'pw-zoe-12345');"
        "g = Game.objects.create(title='Nouveau');"
        "assert u.pk > get_user_model().objects.exclude(pk=u.pk).order_by('-pk')[0].pk;"
        "assert all(p.image.storage.exists(p.image.name) for p in DocumentPage.objects.all());"
        "print('ok')"
    )
    assert manage("shell", "-c", check, env=env).stdout.splitlines()[-1] == "ok"


def test_every_file_field_stores_under_the_media_root_that_backups_cover():
    """A future field with another storage would be left out of the archive: this fails first."""
    root = Path(settings.MEDIA_ROOT).resolve()
    fields = [f for model in apps.get_models() for f in model._meta.fields if isinstance(f, models.FileField)]
    assert fields
    for field in fields:
        assert Path(field.storage.location).resolve() == root, f"{field.model.__name__}.{field.name}"


def test_the_manifest_says_what_the_archive_holds(site, tmp_path):
    path = backup(tmp_path / "backups")
    with tarfile.open(path) as tar:
        manifest = json.load(tar.extractfile("manifest.json"))
        names = tar.getnames()
    assert manifest["engine"] == connection.vendor
    assert manifest["versions"]["django"] and manifest["created"].endswith("Z")
    assert "games.0001_initial" in manifest["migrations"]
    listed = {e["path"]: e for e in manifest["media"]}
    assert set(listed) == {"media/" + name for name in backup_helpers.files(site)}
    assert set(names) == {*listed, manifest["database"]["path"], "manifest.json"}
    cover = Game.objects.get(title="Drumlin").cover
    entry = listed["media/" + cover.name]
    assert entry["sha256"] == hashlib.sha256((site / cover.name).read_bytes()).hexdigest()


# -- refusals that change nothing ------------------------------------------------------------------


@pytest.fixture
def archived(site, tmp_path):
    """(the site's archive, the site's state right after it was taken)."""
    path = backup(tmp_path / "backups")
    return path, backup_helpers.site_state(site)


def assert_unchanged(site, state, tmp_path):
    assert backup_helpers.site_state(site) == state
    assert not list(Path(site).parent.glob(".ludo-restore-*"))


def _rewrite(source: Path, target: Path, change, list_new: bool = True) -> Path:
    """A copy of the archive ``source`` through ``change(members, manifest)``, which edits
    the list of (TarInfo, bytes) and the manifest; the manifest lists the new regular
    media members (``list_new``) with their right checksums."""

    with tarfile.open(source) as tar:
        members = [(info, tar.extractfile(info).read()) for info in tar.getmembers()]
    manifest = json.loads(dict((i.name, d) for i, d in members)["manifest.json"])
    members = [(i, d) for i, d in members if i.name != "manifest.json"]
    members = change(members, manifest) or members
    listed = {e["path"] for e in manifest["media"]}
    for info, data in members:
        if list_new and info.isreg() and info.name.startswith("media/") and info.name not in listed:
            manifest["media"].append({"path": info.name, "size": len(data), "sha256": hashlib.sha256(data).hexdigest()})
    with tarfile.open(target, "w", format=tarfile.PAX_FORMAT) as tar:
        for info, data in members:
            info.size = len(data) if info.isreg() else 0
            tar.addfile(info, io.BytesIO(data) if info.isreg() else None)
        data = json.dumps(manifest).encode()
        info = tarfile.TarInfo("manifest.json")
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    return target


def restore_refused(path: Path, *words: str) -> str:
    with pytest.raises(CommandError) as refused:
        call_command("restore", str(path), "--force", stdout=io.StringIO())
    message = str(refused.value)
    assert "Nothing was changed" in message, message
    for word in words:
        assert word in message, message
    return message


@pytest.mark.parametrize("which", ["media", "database"])
def test_an_altered_member_is_refused_even_with_force_and_changes_nothing(archived, tmp_path, which):
    path, state = archived
    with tarfile.open(path) as tar:
        info = next(i for i in tar.getmembers() if i.name.startswith(f"{which}/"))
    with open(path, "r+b") as raw:  # one byte changed in place: same size, other checksum
        raw.seek(info.offset_data + info.size // 2)
        byte = raw.read(1)
        raw.seek(-1, 1)
        raw.write(bytes([byte[0] ^ 0xFF]))
    restore_refused(path, "SHA-256", info.name)
    assert_unchanged(Path(settings.MEDIA_ROOT), state, tmp_path)
    with pytest.raises(CommandError):
        call_command("restore", str(path), "--check", stdout=io.StringIO())


def _traversal(name):
    def change(members, manifest):
        info = tarfile.TarInfo(name)
        return [*members, (info, b"owned")]
    return change


def _link(kind):
    def change(members, manifest):
        link = tarfile.TarInfo("media/covers/evil.png")
        link.type, link.linkname = kind, "/etc/passwd" if kind == tarfile.SYMTYPE else "manifest.json"
        return [*members, (link, b"")]
    return change


def _listed_only(members, manifest):
    """A path out of the media folder in the manifest alone (the member is named safely)."""
    manifest["media"][0]["path"] = "media/../../escaped.png"


@pytest.mark.parametrize("change", [
    _traversal("media/../../escaped.txt"), _traversal("/tmp/escaped-ludo-backup.txt"),
    _traversal("media/covers/../../../escaped.txt"), _traversal("media//covers/x.png"),
    _link(tarfile.SYMTYPE), _link(tarfile.LNKTYPE), _listed_only,
], ids=["dotdot", "absolute", "nested-dotdot", "empty-part", "symlink", "hardlink", "manifest-path"])
def test_paths_out_of_the_media_folder_and_links_are_refused_and_change_nothing(archived, tmp_path, change):
    path, state = archived
    crafted = _rewrite(path, tmp_path / "crafted.tar", change)
    restore_refused(crafted)
    assert_unchanged(Path(settings.MEDIA_ROOT), state, tmp_path)
    assert not any(p.exists() for p in (tmp_path / "escaped.txt", tmp_path.parent / "escaped.txt",
                                        Path("/tmp/escaped-ludo-backup.txt"), tmp_path / "escaped.png"))


def test_an_archive_of_the_other_engine_is_refused_and_changes_nothing(archived, tmp_path):
    path, state = archived
    other = "sqlite" if connection.vendor == "postgresql" else "postgresql"

    def change(members, manifest):
        manifest["engine"] = other

    restore_refused(_rewrite(path, tmp_path / "other.tar", change), f"holds a {other} database")
    assert_unchanged(Path(settings.MEDIA_ROOT), state, tmp_path)


def test_an_archive_of_a_newer_version_is_refused_and_changes_nothing(archived, tmp_path):
    path, state = archived

    def change(members, manifest):
        manifest["migrations"].append("games.9999_from_the_future")

    restore_refused(_rewrite(path, tmp_path / "newer.tar", change), "newer version", "9999_from_the_future")
    assert_unchanged(Path(settings.MEDIA_ROOT), state, tmp_path)


def test_a_member_the_manifest_does_not_list_is_refused(archived, tmp_path):
    path, state = archived

    def change(members, manifest):
        manifest["media"] = manifest["media"][1:]  # the first file is still in the tar

    restore_refused(_rewrite(path, tmp_path / "extra.tar", change, list_new=False), "does not list")
    assert_unchanged(Path(settings.MEDIA_ROOT), state, tmp_path)


def test_a_restore_over_a_site_that_is_not_empty_needs_force_and_without_it_changes_nothing(archived, tmp_path):
    path, state = archived
    with pytest.raises(CommandError) as refused:
        call_command("restore", str(path), stdout=io.StringIO())
    assert "not empty" in str(refused.value) and "--force" in str(refused.value)
    assert "auth.user" in str(refused.value) and "Nothing was changed" in str(refused.value)
    assert_unchanged(Path(settings.MEDIA_ROOT), state, tmp_path)


def test_an_empty_database_with_files_in_the_media_folder_is_refused_without_force(tmp_path, media_root):
    folder = media_root
    archive_path = backup(tmp_path / "empty-backups")
    (folder / "covers").mkdir(parents=True)
    (folder / "covers" / "kept.png").write_bytes(png("red"))
    with pytest.raises(CommandError, match="media folder .* is not empty"):
        call_command("restore", str(archive_path), stdout=io.StringIO())
    assert (folder / "covers" / "kept.png").read_bytes() == png("red")


# -- writing: atomic, named, pruned -----------------------------------------------------------------


def test_a_failed_backup_leaves_no_archive_and_says_why(site, tmp_path, monkeypatch):
    """The disk fills up as the last member is written (a real full disk cannot be made here)."""

    def full(self, manifest):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(backup_archive.Writer, "add_manifest", full)
    folder = tmp_path / "backups"
    with pytest.raises(CommandError, match="No space left on device.*No archive was written"):
        call_command("backup", "--dir", str(folder), stdout=io.StringIO())
    assert list(folder.iterdir()) == []


def test_the_command_exits_non_zero_with_the_reason(tmp_path):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x")
    env = base_env({"DATABASE_URL": f"sqlite:///{tmp_path / 'x.sqlite3'}", "MEDIA_ROOT": str(tmp_path / "m")})
    result = subprocess.run([sys.executable, "manage.py", "backup", "--dir", str(blocker)], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode != 0 and "No archive was written" in result.stderr
    assert blocker.read_text() == "x"


def test_keep_deletes_only_the_oldest_archives(tmp_path, media_root):
    folder = tmp_path / "backups"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine")
    (folder / "ludo-backup-old.tar").write_text("not one of ours by its name")
    for day in (1, 2, 3, 4):
        result = service.make_backup(folder, keep=2, now=datetime(2026, 11, day, 14, 20, tzinfo=UTC))
    assert [p.name for p in result.pruned] == ["ludo-backup-2026-11-02T142000Z.tar"]
    assert sorted(p.name for p in folder.iterdir()) == [
        "ludo-backup-2026-11-03T142000Z.tar", "ludo-backup-2026-11-04T142000Z.tar", "ludo-backup-old.tar",
        "notes.txt",
    ]
    with pytest.raises(service.BackupError, match="already exists"):
        service.make_backup(folder, now=datetime(2026, 11, 4, 14, 20, tzinfo=UTC))


def test_a_backup_folder_inside_the_media_folder_is_refused(media_root):
    with pytest.raises(service.BackupError, match="inside the media folder"):
        service.make_backup(media_root / "backups")
    assert not (media_root / "backups").exists()


@pytest.mark.one_stack  # SQLite files of its own, whatever the suite's stack
def test_an_archive_of_an_older_release_is_restored_then_migrated_forward(tmp_path, _migrated_sqlite_template):
    """A site one migration behind (as an archive from the release before would be):
    restored as archived, then brought to this code's migrations."""
    older = tmp_path / "older.sqlite3"
    older.write_bytes(_migrated_sqlite_template.read_bytes())
    site_env = base_env({"DATABASE_URL": f"sqlite:///{older}", "MEDIA_ROOT": str(tmp_path / "m1")})
    manage("migrate", "ludo", "zero", "-v", "0", env=site_env)
    manage("backup", "--dir", str(tmp_path / "b"), env=site_env)
    restored_env = base_env({"DATABASE_URL": f"sqlite:///{tmp_path / 'new.sqlite3'}", "MEDIA_ROOT": str(tmp_path / "m2")})
    said = manage("restore", str(next((tmp_path / "b").glob("*.tar"))), env=restored_env).stdout
    ludo_migrations = sorted(p.stem for p in (ROOT / "ludo" / "migrations").glob("[0-9][0-9][0-9][0-9]_*.py"))
    assert ludo_migrations[0] == "0001_profile_language"
    names = ", ".join(f"ludo.{name}" for name in ludo_migrations)
    assert f"applied {len(ludo_migrations)} newer migrations: {names}" in said
    shown = manage("showmigrations", "ludo", env=restored_env).stdout
    assert all(f"[X] {name}" in shown for name in ludo_migrations)
