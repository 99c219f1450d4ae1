"""Private media (issue 18, finding 3): uploads stored under random names with the
extension of their real type, and every file served only through a view that checks
who may see it, with headers that keep a browser from running it."""

from __future__ import annotations

import importlib
import io
import re
from pathlib import Path

import pytest
from django.apps import apps
from django.core.files.base import ContentFile
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import get_resolver
from django.views.static import serve as static_serve
from PIL import Image

from catalog import media
from catalog.rulebooks import services
from catalog.rulebooks.models import Document, DocumentPage
from catalog.rulebooks.uploads import Upload

pytestmark = pytest.mark.django_db

RANDOM_NAME = re.compile(r"^[A-Za-z0-9_-]{22}\.(png|pdf|jpg|txt)$")


def png_bytes(size=(40, 30)) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", size, "white").save(buffer, "PNG")
    return buffer.getvalue()


# A real PNG with a script after its end: run as a page if served as text/html.
PNG_WITH_SCRIPT = png_bytes() + b"<script>document.title='owned'</script>"


@pytest.fixture(autouse=True)
def media_root(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


@pytest.fixture
def staff_scan(drumlin):
    return services.add_scanned_document(
        drumlin, [Upload("rules.html", PNG_WITH_SCRIPT)], title="Hosts' scan", language="fr",
        visibility=Document.Visibility.STAFF,
    )


def test_it_stores_an_upload_under_a_random_name_with_its_sniffed_extension(staff_scan):
    row = staff_scan.files.get()
    name = Path(row.file.name).name
    assert RANDOM_NAME.match(name) and name.endswith(".png"), row.file.name
    assert "rules" not in row.file.name and ".html" not in row.file.name
    assert row.original_name == "rules.html" and row.content_type == "image/png"


def test_two_uploads_of_the_same_name_get_unrelated_names(drumlin):
    names = {
        services.add_scanned_document(drumlin, [Upload("p.png", png_bytes())], title=f"S{i}",
                                      language="fr").files.get().file.name
        for i in range(2)
    }
    assert len(names) == 2


def test_a_staff_document_file_is_refused_to_others_at_every_address(client, bob, alice, staff_scan):
    row = staff_scan.files.get()
    addresses = [row.file.url, f"/catalogue/regles/{staff_scan.pk}/fichier/{row.pk}/"]
    for who in (None, bob):
        if who:
            client.force_login(who)
        for address in addresses:
            assert client.get(address).status_code == 404, (who, address)
    client.force_login(alice)
    for address in addresses:
        response = client.get(address)
        assert response.status_code == 200, address
        assert b"".join(response.streaming_content) == PNG_WITH_SCRIPT


def test_a_served_file_has_its_sniffed_type_and_cannot_run(client, alice, staff_scan):
    client.force_login(alice)
    response = client.get(staff_scan.files.get().file.url)
    assert response["Content-Type"] == "image/png"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Content-Security-Policy"].startswith("sandbox")
    assert response["Content-Disposition"].startswith("inline") and 'filename="rules.png"' in response["Content-Disposition"]


def test_a_public_rulebook_and_its_pages_follow_the_reader_rules(client, bob, drumlin):
    guests = services.add_scanned_document(
        drumlin, [Upload("scan.png", png_bytes())], title="Guests", language="fr",
        visibility=Document.Visibility.GUESTS,
    )
    page = DocumentPage(document=guests, number=1, method=DocumentPage.Method.OCR, text="x")
    page.image.save("p001.png", ContentFile(png_bytes()), save=False)
    page.thumbnail.save("p001-thumb.png", ContentFile(png_bytes()), save=False)
    page.save()
    assert RANDOM_NAME.match(Path(page.image.name).name)
    for address in (guests.files.get().file.url, page.image.url, page.thumbnail.url):
        client.logout()
        assert client.get(address).status_code == 404, address  # signed-in guests only
        client.force_login(bob)
        assert client.get(address).status_code == 200, address


def test_a_cover_is_served_to_everyone_under_a_random_name(client, drumlin):
    drumlin.cover = SimpleUploadedFile("evil.html", png_bytes(), "text/html")  # as the admin's form does
    drumlin.save()
    assert drumlin.cover.name.startswith("covers/") and RANDOM_NAME.match(Path(drumlin.cover.name).name)
    response = client.get(drumlin.cover.url)
    assert response.status_code == 200 and response["Content-Type"] == "image/png"


def test_a_file_of_the_media_folder_that_belongs_to_nothing_is_not_served(client, alice, media_root):
    (media_root / "covers").mkdir(parents=True)
    (media_root / "covers" / "stray.png").write_bytes(png_bytes())
    client.force_login(alice)
    assert client.get("/media/covers/stray.png").status_code == 404
    patterns = list(get_resolver().url_patterns)
    assert not any(getattr(p, "callback", None) is static_serve for p in patterns)


@pytest.mark.parametrize("mode, header", [("nginx", "X-Accel-Redirect"), ("sendfile", "X-Sendfile")])
def test_in_production_the_proxy_sends_the_file_from_an_internal_location(client, alice, settings, staff_scan,
                                                                            mode, header):
    settings.MEDIA_SERVE = mode
    row = staff_scan.files.get()
    client.force_login(alice)
    response = client.get(row.file.url)
    assert response.status_code == 200 and response.content == b""
    expected = "/_media/" + row.file.name if mode == "nginx" else row.file.path
    assert response[header] == expected
    assert response["Content-Type"] == "image/png" and response["X-Content-Type-Options"] == "nosniff"
    client.logout()
    response = client.get(row.file.url)
    assert response.status_code == 404 and header not in response


def test_a_pdf_is_offered_as_a_download_and_text_as_utf8_text(client, alice, drumlin):
    pdf = services.add_scanned_document(
        drumlin, [Upload("regles.PDF", b"%PDF-1.4\n%%EOF\n")], title="P", language="fr")
    text = services.add_text_document(drumlin, Upload("regles.md", "Les dragons volent.".encode()),
                                      title="T", language="fr")
    client.force_login(alice)
    response = client.get(pdf.files.get().file.url)
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"].startswith("attachment") and "regles.pdf" in response["Content-Disposition"]
    row = text.files.get()
    assert row.file.name.endswith(".txt")
    response = client.get(row.file.url)
    assert response["Content-Type"] == "text/plain; charset=utf-8"


migration = importlib.import_module("catalog.migrations.0008_private_media_names_h18")


def test_the_migration_renames_old_files_on_disk_and_in_rows_once(drumlin, media_root):
    document = services.add_scanned_document(
        drumlin, [Upload("a.png", png_bytes())], title="Old", language="fr")
    row = document.files.get()
    gone = services.add_scanned_document(
        drumlin, [Upload("b.png", png_bytes())], title="Gone", language="fr").files.get()
    # As the code before stored them: the uploader's name, here a misleading one.
    old = f"rulebooks/{drumlin.pk}/{document.pk}/rules.html"
    Path(row.file.path).rename(media_root / old)
    type(row).objects.filter(pk=row.pk).update(file=old)
    Path(gone.file.path).unlink()
    type(gone).objects.filter(pk=gone.pk).update(file=f"rulebooks/{drumlin.pk}/x/missing.png")

    migration.rename_files(apps, None)
    row.refresh_from_db()
    gone.refresh_from_db()
    assert RANDOM_NAME.match(Path(row.file.name).name) and row.file.name.endswith(".png")
    assert Path(row.file.path).read_bytes() == png_bytes() and not (media_root / old).exists()
    assert gone.file.name.endswith("missing.png")  # missing file: row left as it was

    renamed = row.file.name
    migration.rename_files(apps, None)
    row.refresh_from_db()
    assert row.file.name == renamed


def test_the_sniffer_knows_the_accepted_kinds():
    assert media.sniff(b"%PDF-1.7") == "application/pdf"
    assert media.sniff(png_bytes()[:16]) == "image/png"
    assert media.sniff(b"\xff\xd8\xff\xe0") == "image/jpeg"
    assert media.sniff(b"RIFF\x00\x00\x00\x00WEBPVP8 ") == "image/webp"
    assert media.sniff(b"II*\x00") == "image/tiff"
    assert media.sniff(b"<html><script>") is None
