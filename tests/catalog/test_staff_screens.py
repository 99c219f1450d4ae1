"""The hosts' screens: add a game with its copies, upload a scan, link a translation,
report a missing part."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from catalog.collection.models import Game
from catalog.rulebooks.models import Document
from catalog.shelves.models import Copy, MissingPart
from tests.catalog.test_ocr import born_digital_pdf

pytestmark = pytest.mark.django_db


def inline_management(prefix: str, total: int = 0) -> dict:
    return {f"{prefix}-TOTAL_FORMS": str(total), f"{prefix}-INITIAL_FORMS": "0",
            f"{prefix}-MIN_NUM_FORMS": "0", f"{prefix}-MAX_NUM_FORMS": "1000"}


def test_a_host_adds_a_game_with_a_copy(client, alice):
    client.force_login(alice)
    data = {
        "title": "Karo", "title_fr": "", "title_de": "", "title_en": "", "other_names": "", "kind": "standalone",
        "min_players": "2", "max_players": "2", "min_time": "15", "max_time": "30",
        **inline_management("names"), **inline_management("editions"), **inline_management("copies", 1),
        "copies-0-shelf": "K2#", "copies-0-status": "available", "copies-0-condition": "good",
        "copies-0-contents": "24 tiles\n12 pieces", "copies-0-price": "12.00",
    }
    response = client.post("/admin/catalog/game/add/", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    copy = Copy.objects.get()
    assert copy.game.title == "Karo" and copy.shelf == "K2#" and copy.contents_list() == ["24 tiles", "12 pieces"]


def test_a_bad_shelf_code_is_refused_and_nothing_is_saved(client, alice):
    client.force_login(alice)
    data = {
        "title": "Karo", "kind": "standalone", **inline_management("names"), **inline_management("editions"),
        **inline_management("copies", 1),
        "copies-0-shelf": "shelf five", "copies-0-status": "available", "copies-0-condition": "good",
    }
    response = client.post("/admin/catalog/game/add/", data)
    assert response.status_code == 200
    assert not Game.objects.exists() and not Copy.objects.exists()


def test_a_host_uploads_a_scan_and_it_waits_for_the_worker(client, alice, drumlin):
    client.force_login(alice)
    scan = SimpleUploadedFile("regle.pdf", born_digital_pdf("Le dragon vole au-dessus des cases."), "application/pdf")
    response = client.post("/admin/catalog/document/add/", {
        "game": drumlin.pk, "title": "Règle", "kind": "rules", "language": "fr", "visibility": "public",
        "translator": "", "source": "", "licence_note": "", "upload": [scan],
        **inline_management("files"),
    })
    assert response.status_code == 302, response.content.decode()[:3000]
    document = Document.objects.get()
    assert document.status == Document.Status.PENDING and document.files.get().original_name == "regle.pdf"


def test_an_upload_that_is_not_a_scan_is_refused_in_the_form(client, alice, drumlin):
    client.force_login(alice)
    response = client.post("/admin/catalog/document/add/", {
        "game": drumlin.pk, "title": "Règle", "kind": "rules", "language": "fr", "visibility": "public",
        "upload": [SimpleUploadedFile("virus.exe", b"MZ\x90\x00 not a scan")], **inline_management("files"),
    })
    assert response.status_code == 200 and "neither a PDF nor an image" in response.content.decode()
    assert not Document.objects.exists()


def test_a_host_links_a_translation_to_its_original(client, alice, drumlin, text_document):
    original = text_document(drumlin, "Der Drache fliegt.", language="de", title="Spielregel")
    translation = text_document(drumlin, "Le dragon vole.", language="fr", title="Règle")
    client.force_login(alice)
    base = {"game": drumlin.pk, "title": "Règle", "kind": "translation", "language": "fr", "visibility": "public",
            **inline_management("files")}
    refused = client.post(f"/admin/catalog/document/{translation.pk}/change/", {**base, "original": translation.pk})
    assert refused.status_code == 200
    response = client.post(f"/admin/catalog/document/{translation.pk}/change/", {**base, "original": original.pk})
    assert response.status_code == 302
    translation.refresh_from_db()
    assert translation.original == original


def test_a_host_reports_a_missing_part_from_the_game_page(client, alice, bob, drumlin):
    from catalog.shelves import services

    copy = services.add_copy(drumlin, "D5")
    client.force_login(bob)
    client.post(f"/catalogue/exemplaire/{copy.pk}/manque/", {"description": "one pink piece"})
    assert not MissingPart.objects.exists()
    client.force_login(alice)
    response = client.post(f"/catalogue/exemplaire/{copy.pk}/manque/", {"description": "one pink piece"})
    assert response.status_code == 302
    part = MissingPart.objects.get()
    assert part.reported_by == alice and part.copy == copy
    assert "one pink piece" in client.get(drumlin.get_absolute_url()).content.decode()
