"""import_rulebook: the seed OCR texts become documents, noise marked, text kept."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command

from catalog.errors import CatalogError
from catalog.rulebooks import rules_search, services
from catalog.rulebooks.models import Document
from catalog.rulebooks.uploads import Upload
from tests.conftest import require

pytestmark = pytest.mark.django_db


def seed(shared_dir, prefix: str):
    files = sorted((shared_dir / "seeds").glob(f"{prefix}*.txt"))
    require(bool(files), f"seed {prefix} missing from {shared_dir / 'seeds'}")
    return files[0]


def run(*args) -> str:
    out = io.StringIO()
    call_command("import_rulebook", *map(str, args), stdout=out)
    return out.getvalue()


@pytest.mark.parametrize("prefix, language", [("000", "fr"), ("001", "fr"), ("002", "fr"), ("003", "de"), ("004", "fr")])
def test_every_seed_imports_with_its_whole_text(drumlin, shared_dir, prefix, language):
    path = seed(shared_dir, prefix)
    output = run("drumlin", path, "--language", language)
    document = Document.objects.get()
    assert document.status == Document.Status.DONE and f"document {document.pk}" in output
    raw = path.read_text(encoding="utf-8")
    kept = "".join(p.text for p in document.pages.all())
    assert "".join(kept.split()) == "".join(raw.split())  # nothing dropped, only split into pages
    with document.files.get().file.open("rb") as handle:
        assert handle.read() == path.read_bytes()


def test_the_advert_page_is_marked_not_removed(drumlin, shared_dir):
    run("drumlin", seed(shared_dir, "000"), "--language", "fr")
    first = Document.objects.get().pages.get(number=1)
    assert "escaleajeux" in first.text
    assert [n["reason"] for n in first.noise] == ["advert"]
    assert rules_search.search_rules("ludothèque") == []
    assert rules_search.search_rules("éléphants")


def test_export_markers_and_repeated_labels_are_marked(drumlin, shared_dir):
    run("drumlin", seed(shared_dir, "001"), "--language", "fr")
    pages = list(Document.objects.get().pages.all())
    marker = pages[0].noise[0]
    assert marker["reason"] == "marker" and pages[0].text[marker["start"]:marker["end"]].startswith("<|")
    repeated = [n for p in pages for n in p.noise if n["reason"] == "repeated-line"]
    assert repeated and all(
        p.text[n["start"]:n["end"]].strip() == "Ligne de base rose" for p in pages for n in p.noise
        if n["reason"] == "repeated-line"
    )


def test_odd_bytes_and_characters_do_not_crash(drumlin, tmp_path):
    path = tmp_path / "odd.txt"
    path.write_bytes(b"R\xe8gle du jeu \x00\x07 \xff\xfe\n\n\n\nPage 2 \xe2\x80\x94 fin\r\n12\r\n")
    run("drumlin", path, "--language", "fr")
    pages = list(Document.objects.get().pages.all())
    assert pages[0].text.startswith("Règle du jeu")
    assert "\x00" not in pages[0].text and "\x07" not in pages[0].text
    assert [n["reason"] for n in pages[1].noise] == ["page-number"]


def test_a_translation_is_linked_to_its_original(drumlin, shared_dir):
    run("drumlin", seed(shared_dir, "003"), "--language", "de", "--kind", "summary")
    original = Document.objects.get()
    run("drumlin", seed(shared_dir, "000"), "--language", "fr", "--kind", "translation",
        "--translation-of", original.pk, "--translator", "François Haffner")
    translation = Document.objects.exclude(pk=original.pk).get()
    assert translation.original == original and translation.translator == "François Haffner"


def test_bad_arguments_change_nothing(drumlin, tmp_path):
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    binary = tmp_path / "blob.txt"
    binary.write_bytes(b"\x00\x01\x02" * 100)
    for args, message in [
        (("nosuchgame", empty, "--language", "fr"), "no game"),
        (("drumlin", tmp_path / "missing.txt", "--language", "fr"), "no such file"),
        (("drumlin", empty, "--language", "fr"), "empty"),
        (("drumlin", binary, "--language", "fr"), "binary"),
        (("drumlin", empty, "--language", "fr", "--translation-of", "999"), "no document"),
    ]:
        with pytest.raises(CommandError, match=message):
            run(*args)
    assert not Document.objects.exists()


def test_the_bgg_id_names_the_game_too(drumlin, tmp_path):
    path = tmp_path / "r.txt"
    path.write_text("Le dragon vole.", encoding="utf-8")
    run(5012, path, "--language", "fr", "--visibility", "staff")
    assert Document.objects.get().visibility == "staff"
    with pytest.raises(CatalogError):
        services.add_text_document(drumlin, Upload("x.txt", b"   \n "), title="x", language="fr")
