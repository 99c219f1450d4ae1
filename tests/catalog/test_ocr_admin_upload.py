"""Text exports (.txt, .md) uploaded from the admin: the same validation as
``manage.py import_rulebook`` and the same document; bad files are refused with a
clear error and change nothing."""

from __future__ import annotations

import io
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command

from catalog.rulebooks.models import Document, DocumentFile, DocumentPage

TEXT = "# Drumlin\n\nLe **dragon** vole au-dessus des cases.\n\n\n\nPage deux : l'éléphant dort.\n"

ADD_URL = "/admin/catalog/document/add/"


def form(drumlin, *files, **fields):
    data = {
        "game": drumlin.pk, "title": "Règle (export)", "kind": "rules", "language": "fr", "visibility": "public",
        "files-TOTAL_FORMS": "0", "files-INITIAL_FORMS": "0", "files-MIN_NUM_FORMS": "0", "files-MAX_NUM_FORMS": "1000",
        **fields,
    }
    if files:
        data["upload"] = list(files)
    return data


def upload(name: str, data: bytes) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data, content_type="application/octet-stream")


@pytest.mark.parametrize("name", ["regle.txt", "regle.md"])
def test_a_text_export_uploaded_in_the_admin_makes_the_document_the_command_makes(client, alice, drumlin, tmp_path, name):
    client.force_login(alice)
    response = client.post(ADD_URL, form(drumlin, upload(name, TEXT.encode("utf-8"))))
    assert response.status_code == 302, response.content.decode()[:2000]
    from_admin = Document.objects.get()
    path = tmp_path / name
    path.write_bytes(TEXT.encode("utf-8"))
    call_command("import_rulebook", "drumlin", str(path), "--language", "fr", stdout=io.StringIO())
    from_command = Document.objects.exclude(pk=from_admin.pk).get()
    for document in (from_admin, from_command):
        assert document.status == Document.Status.DONE and document.processed_at
        assert document.files.get().content_type == "text/plain"
    assert [(p.number, p.text, p.noise, p.method) for p in from_admin.pages.all()] == \
        [(p.number, p.text, p.noise, p.method) for p in from_command.pages.all()]
    assert from_admin.pages.count() == 2 and from_admin.pages.first().method == DocumentPage.Method.IMPORT
    with from_admin.files.get().file.open("rb") as handle:
        assert handle.read() == TEXT.encode("utf-8")


BAD = [
    ("empty.txt", b"", "is empty|est vide"),  # the admin's file field answers in French first
    ("junk.txt", bytes(range(256)) * 40, "binary file"),
    ("utf16-without-mark.txt", "Règle du jeu : le dragon vole.".encode("utf-16-le"), "binary file"),
    ("dos.txt", "Würfel über das Spielfeld, größer.".encode("cp850"), "encoding we cannot read"),
    ("blank.md", b"   \n\n \t\n", "no text in this file"),
]


@pytest.mark.parametrize("name, data, message", BAD)
def test_a_bad_text_export_is_refused_in_the_admin_and_changes_nothing(client, alice, drumlin, name, data, message):
    client.force_login(alice)
    response = client.post(ADD_URL, form(drumlin, upload(name, data)))
    assert response.status_code == 200
    errors = re.findall(r'<ul class="errorlist[^"]*"[^>]*>(.*?)</ul>', response.content.decode(), re.S)
    assert any(re.search(message, e) for e in errors), errors
    assert not Document.objects.exists() and not DocumentFile.objects.exists()


@pytest.mark.parametrize("name, data, message", BAD)
def test_the_command_refuses_the_same_files_with_the_same_words(drumlin, tmp_path, name, data, message):
    path = tmp_path / name
    path.write_bytes(data)
    with pytest.raises(CommandError, match=message):
        call_command("import_rulebook", "drumlin", str(path), "--language", "fr", stdout=io.StringIO())
    assert not Document.objects.exists()


def test_a_text_export_is_refused_beside_scans_or_on_a_document_with_files(client, alice, drumlin, tmp_path):
    client.force_login(alice)
    png = tmp_path / "p.png"
    from PIL import Image

    Image.new("L", (40, 40), 255).save(png)
    response = client.post(ADD_URL, form(drumlin, upload("a.txt", b"Le dragon."), upload("p.png", png.read_bytes())))
    assert "Déposez un export texte seul" in response.content.decode()  # the admin is in French
    assert not Document.objects.exists()
    path = tmp_path / "r.txt"
    path.write_text("Le dragon vole.", encoding="utf-8")
    call_command("import_rulebook", "drumlin", str(path), "--language", "fr", stdout=io.StringIO())
    document = Document.objects.get()
    change = f"/admin/catalog/document/{document.pk}/change/"
    data = form(drumlin, upload("b.txt", b"Autre texte."), title=document.title)
    data.update({"files-TOTAL_FORMS": "1", "files-INITIAL_FORMS": "1", "files-0-id": document.files.get().pk,
                 "files-0-document": document.pk})
    response = client.post(change, data)
    assert "a déjà des fichiers" in response.content.decode()
    assert document.pages.get().text == "Le dragon vole." and document.files.count() == 1


def test_a_document_made_empty_in_the_admin_takes_a_text_export_later(client, alice, drumlin):
    client.force_login(alice)
    assert client.post(ADD_URL, form(drumlin)).status_code == 302
    document = Document.objects.get()
    assert document.status == Document.Status.EMPTY
    response = client.post(f"/admin/catalog/document/{document.pk}/change/",
                           form(drumlin, upload("r.md", "Règle : le dragon vole.".encode("cp1252"))))
    assert response.status_code == 302
    document.refresh_from_db()
    assert document.status == Document.Status.DONE and document.pages.get().text == "Règle : le dragon vole."
