"""The shelf check's services: what a label reads as, which boxes a check
expects, a scan's verdict (idempotent, the last shelf wins), the corrections
(one tap, one record), boxes marked missing, a finished check, and the report
in shelf order with a handful of queries whatever the number of boxes."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from boxes import labels, shelfcheck, shelfreport
from boxes.errors import BoxError
from boxes.models import ShelfCheck, ShelfCorrection, ShelfScan, UnknownLabel
from catalog.shelves import qr
from catalog.shelves import services as shelves
from catalog.shelves.models import Copy
from tests.boxes.conftest import game

pytestmark = pytest.mark.django_db


@pytest.fixture
def karo(db):
    return game("Karo", "karo")


def label(copy: Copy, language: str = "fr") -> str:
    """What the house's printed label of ``copy`` encodes (catalog/shelves/labels.py)."""
    return qr.rules_address(copy.game, language, copy)


# -- labels -------------------------------------------------------------------------------------

def test_the_houses_labels_read_as_their_box_in_both_languages(box):
    assert "/catalogue/jeu/drumlin/regles/?exemplaire=" in label(box)
    for language in ("fr", "en"):
        reading = labels.read(label(box, language))
        assert reading.copy == box and not reading.reason
    for typed in (str(box.pk), f"#{box.pk}", f"n° {box.pk}", f"  {box.pk} "):
        assert labels.read(typed).copy == box


def test_anything_else_is_an_unknown_label_with_its_reason(settings, box, karo):
    other = shelves.add_copy(karo, "K2")
    ours = label(box)
    cases = {
        ours.replace(settings.SITE_URL, "https://evil.example"): "Not a label of this house.",
        ours.replace(f"exemplaire={box.pk}", "exemplaire=999999"): "which the catalogue does not have",
        label(other).replace("/karo/", "/drumlin/"): "does not match box",  # a label naming the wrong game
        ours + "&x=1": "Not a label of this house.",
        ours.replace("?exemplaire", "?page=2&exemplaire"): "does not match box",
        "https://ludo.example/other": "Not a label of this house.",
        "garbage \x00 bytes": "Not a label of this house.",
        "x" * 5000: "Not a label of this house.",
        "999999": "No box number 999999",
        "1234567890": "Not a label",
        "": "Nothing was read",
    }
    with __import__("django.utils.translation", fromlist=["override"]).override("en"):
        for text, reason in cases.items():
            reading = labels.read(text)
            assert reading.copy is None and reason in reading.reason, (text[:80], reading.reason)
            assert len(reading.text) <= labels.LONGEST and "\x00" not in reading.text


# -- scope --------------------------------------------------------------------------------------

def test_a_scope_is_aisles_and_shelves_as_typed():
    assert shelfcheck.parse_scope(" d, e12;D  f5# ") == ["D", "E12", "F5"]
    assert shelfcheck.parse_scope("") == []
    for bad in ("5D", "D1234", "ABCD", "D-5", "<script>"):
        with pytest.raises(BoxError):
            shelfcheck.parse_scope(bad)
    with pytest.raises(BoxError):
        shelfcheck.parse_scope(" ".join(f"A{n}" for n in range(40)))


def test_an_aisle_is_its_shelves_and_a_shelf_takes_the_boxes_behind_it(drumlin):
    for shelf in ("D1", "D5", "D5#", "D50", "DA1", "E5", "AD5"):
        shelves.add_copy(drumlin, shelf)

    def shelves_of(scope):
        return sorted(Copy.objects.filter(shelfcheck.scope_filter(scope)).values_list("shelf", flat=True))

    assert shelves_of("D") == ["D1", "D5", "D5#", "D50"]
    assert shelves_of("D5") == ["D5", "D5#"]
    assert shelves_of("D5 E5") == ["D5", "D5#", "E5"]
    assert len(shelves_of("")) == 7
    assert shelfcheck.in_scope("D", "D7") and not shelfcheck.in_scope("D", "DA1")
    assert shelfcheck.in_scope("D5", "D5") and not shelfcheck.in_scope("D5", "D50")


# -- scans --------------------------------------------------------------------------------------

def test_a_box_on_its_shelf_says_so_and_one_elsewhere_says_where_it_belongs(alice, box, karo):
    c2 = shelves.add_copy(karo, "C2")
    check = shelfcheck.start(alice, "")
    ok = shelfcheck.scan(check.pk, alice, label(box), "d5")
    assert (ok.kind, ok.message, ok.shelf, ok.title, ok.again) == ("ok", "D5 ✓", "D5", "Drumlin", False)
    assert ok.tally == {"shelf": "D5", "seen": 1, "expected": 1}
    wrong = shelfcheck.scan(check.pk, alice, label(c2, "en"), "D5")
    assert (wrong.kind, wrong.message, wrong.belongs) == ("misplaced", "Appartient à C2", "C2")
    assert wrong.tally == {"shelf": "D5", "seen": 1, "expected": 1}  # a stray box is no box of D5


def test_the_tally_counts_only_the_boxes_it_expects(alice, box, karo):
    """A box the catalogue says is away (lent, being played) found on its shelf is
    seen, but the tally is of the boxes expected there: never "2 of 1 seen"."""
    lent = shelves.add_copy(karo, "D5", status=Copy.Status.LENT)
    check = shelfcheck.start(alice, "D")
    assert shelfcheck.scan(check.pk, alice, label(box), "D5").tally == {"shelf": "D5", "seen": 1, "expected": 1}
    found = shelfcheck.scan(check.pk, alice, label(lent), "D5")
    assert found.kind == "ok"
    assert found.tally == {"shelf": "D5", "seen": 1, "expected": 1}
    report = shelfreport.report(check)
    assert (report.expected, report.seen, report.scanned) == (1, 1, 2)


def test_scanning_a_box_again_is_one_sighting_and_the_last_shelf_wins(alice, hugo, box):
    check = shelfcheck.start(alice, "")
    shelfcheck.scan(check.pk, alice, label(box), "C2")
    again = shelfcheck.scan(check.pk, hugo, str(box.pk), "D5")
    assert again.again and again.kind == "ok"
    row = ShelfScan.objects.get()
    assert (row.shelf, row.times, row.scanned_by) == ("D5", 2, hugo)


def test_a_box_hidden_behind_is_on_its_shelf(alice, drumlin):
    hidden = shelves.add_copy(drumlin, "D5#")
    check = shelfcheck.start(alice, "D5")
    verdict = shelfcheck.scan(check.pk, alice, label(hidden), "D5")
    assert (verdict.kind, verdict.message) == ("ok", "D5# ✓")
    assert verdict.tally == {"shelf": "D5", "seen": 1, "expected": 1}


def test_a_scan_needs_a_shelf_of_the_check_and_something_read(alice, box):
    check = shelfcheck.start(alice, "D")
    for shelf in ("", "5", "E5", "D5D", "<b>"):
        with pytest.raises(BoxError):
            shelfcheck.scan(check.pk, alice, label(box), shelf)
    with pytest.raises(BoxError):
        shelfcheck.scan(check.pk, alice, "   ", "D5")
    assert not ShelfScan.objects.exists() and not UnknownLabel.objects.exists()


def test_unknown_labels_are_kept_once_each_with_their_reason(alice, box):
    check = shelfcheck.start(alice, "")
    for shelf in ("D5", "D6"):
        verdict = shelfcheck.scan(check.pk, alice, "https://evil.example/catalogue/jeu/x/regles/?exemplaire=1", shelf)
        assert verdict.kind == "unknown" and verdict.copy_id is None and verdict.note
    shelfcheck.scan(check.pk, alice, "x" * 10_000, "D5")
    rows = list(UnknownLabel.objects.order_by("id"))
    assert len(rows) == 2 and rows[0].shelf == "D6" and len(rows[1].text) == 300
    assert not ShelfScan.objects.exists()


def test_an_unknown_labels_reason_is_said_in_the_language_of_whoever_reads_the_report(alice, box):
    """Kept as a code and its values, not in the words of the host who scanned: a check
    scanned on an English phone reads in French on a French host's report."""
    from django.utils import translation

    check = shelfcheck.start(alice, "")
    with translation.override("en"):
        shelfcheck.scan(check.pk, alice, "https://evil.example/catalogue/jeu/x/regles/?exemplaire=1", "D5")
        shelfcheck.scan(check.pk, alice, "99999", "D5")
    foreign, missing = UnknownLabel.objects.order_by("id")
    assert (foreign.why, missing.why, missing.why_args) == ("foreign", "no_number", {"n": "99999"})
    with translation.override("fr"):
        assert foreign.shown_reason == "Ce n’est pas une étiquette de la maison."
        assert "99999" in missing.shown_reason and "catalogue" in missing.shown_reason
    with translation.override("en"):
        assert foreign.shown_reason == "Not a label of this house."
    # A row kept before the codes shows its words as they were.
    UnknownLabel.objects.filter(pk=foreign.pk).update(why="", why_args={}, reason="Pas une étiquette.")
    foreign.refresh_from_db()
    assert foreign.shown_reason == "Pas une étiquette."


# -- corrections --------------------------------------------------------------------------------

@pytest.fixture
def misplaced(alice, box, karo):
    """A check of aisle D where the Karo box of C2 was found on D5."""
    stray = shelves.add_copy(karo, "C2")
    check = shelfcheck.start(alice, "D")
    shelfcheck.scan(check.pk, alice, label(stray), "D5")
    return check, stray


def test_moving_the_catalogue_to_where_the_box_was_found_is_one_tap_one_record(alice, hugo, misplaced):
    check, stray = misplaced
    done = shelfcheck.correct(check.pk, hugo, stray.pk, "move")
    assert (done.kind, done.shelf_before, done.shelf_after, done.made_by) == ("moved", "C2", "D5", hugo)
    stray.refresh_from_db()
    assert stray.shelf == "D5"
    with pytest.raises(BoxError, match="déjà été corrigée"):
        shelfcheck.correct(check.pk, alice, stray.pk, "move")
    assert ShelfCorrection.objects.count() == 1
    report = shelfreport.report(check)
    assert report.misplaced == 0 and not report.misplaced_rows and len(report.corrections) == 1


def test_putting_a_box_back_keeps_the_catalogue(alice, misplaced):
    check, stray = misplaced
    done = shelfcheck.correct(check.pk, alice, stray.pk, "put_back")
    assert (done.kind, done.shelf_after) == ("put_back", "C2")
    stray.refresh_from_db()
    assert stray.shelf == "C2"
    assert shelfreport.report(check).misplaced == 0
    with pytest.raises(BoxError):
        shelfcheck.correct(check.pk, alice, stray.pk, "move")
    assert ShelfCorrection.objects.count() == 1


def test_a_box_seen_elsewhere_after_its_correction_is_judged_anew(alice, misplaced):
    check, stray = misplaced
    shelfcheck.correct(check.pk, alice, stray.pk, "put_back")
    shelfcheck.scan(check.pk, alice, label(stray), "D7")
    assert shelfreport.report(check).misplaced == 1
    assert shelfcheck.scan(check.pk, alice, label(stray), "D7").kind == "misplaced"


def test_corrections_are_refused_for_what_needs_none(alice, box, misplaced):
    check, stray = misplaced
    shelfcheck.scan(check.pk, alice, label(box), "D5")
    for copy_id, action in ((box.pk, "move"), (stray.pk, "burn"), (999999, "move")):
        with pytest.raises(BoxError):
            shelfcheck.correct(check.pk, alice, copy_id, action)
    box.refresh_from_db()
    assert box.shelf == "D5" and not ShelfCorrection.objects.exists()


def test_a_box_not_seen_is_marked_missing_and_comes_back_when_seen(alice, box):
    check = shelfcheck.start(alice, "D")
    done = shelfcheck.mark_missing(check.pk, alice, box.pk)
    assert (done.kind, done.status_before) == ("missing", "available")
    box.refresh_from_db()
    assert box.status == Copy.Status.QUARANTINE
    with pytest.raises(BoxError):
        shelfcheck.mark_missing(check.pk, alice, box.pk)
    assert ShelfCorrection.objects.count() == 1
    report = shelfreport.report(check)
    assert report.not_seen == 0 and report.away == 1
    found = shelfcheck.scan(check.pk, alice, label(box), "D5")
    assert found.kind == "ok" and found.note
    box.refresh_from_db()
    assert box.status == Copy.Status.AVAILABLE and not ShelfCorrection.objects.exists()


def test_only_boxes_expected_and_not_seen_can_be_marked_missing(alice, box, karo):
    elsewhere = shelves.add_copy(karo, "C2")
    lent = shelves.add_copy(karo, "D6", status=Copy.Status.LENT)
    check = shelfcheck.start(alice, "D")
    shelfcheck.scan(check.pk, alice, label(box), "D5")
    for copy in (box, elsewhere, lent):
        with pytest.raises(BoxError):
            shelfcheck.mark_missing(check.pk, alice, copy.pk)
    assert list(Copy.objects.order_by("id").values_list("status", flat=True)) == ["available", "available", "lent"]


def test_a_finished_check_takes_no_more_scans_or_corrections(alice, hugo, misplaced, box):
    check, stray = misplaced
    finished = shelfcheck.finish(check.pk, alice)
    assert finished.finished and finished.finished_by == alice and finished.finished_at
    for action in (lambda: shelfcheck.scan(check.pk, hugo, label(box), "D5"),
                   lambda: shelfcheck.correct(check.pk, hugo, stray.pk, "move"),
                   lambda: shelfcheck.mark_missing(check.pk, hugo, box.pk),
                   lambda: shelfcheck.finish(check.pk, hugo)):
        with pytest.raises(BoxError, match="finished|terminé"):
            action()
    stray.refresh_from_db()
    assert stray.shelf == "C2" and ShelfScan.objects.count() == 1
    assert ShelfCheck.objects.get().finished_by == alice


# -- the report ---------------------------------------------------------------------------------

def test_the_report_lists_what_was_found_in_shelf_order(alice, drumlin, karo):
    for shelf in ("A10", "A2", "A1", "B1", "A2#"):
        shelves.add_copy(drumlin, shelf)
    shelves.add_copy(karo, "A3", status=Copy.Status.LENT)
    seen = shelves.add_copy(karo, "B2")
    check = shelfcheck.start(alice, "A B")
    shelfcheck.scan(check.pk, alice, label(seen), "B2")
    shelfcheck.scan(check.pk, alice, "not a label", "A1")
    report = shelfreport.report(check)
    assert (report.expected, report.seen, report.not_seen, report.misplaced, report.unknown, report.away) == (
        6, 1, 5, 0, 1, 1)
    assert [c.shelf for c in report.not_seen_rows] == ["A1", "A2", "A2#", "A10", "B1"]
    assert [c.shelf for c in shelfreport.report(check, shelf="A", shown=2).not_seen_rows] == ["A1", "A2"]


def test_the_boxes_on_the_wrong_shelf_shown_are_the_first_in_shelf_order(alice, karo):
    """More boxes on the wrong shelf than the page shows: those shown are the first
    in shelf order (A2 before A10), not the first in the alphabet's (A10 before A2)."""
    boxes = [shelves.add_copy(karo, "C2") for _ in range(3)]
    check = shelfcheck.start(alice, "")
    for copy, shelf in zip(boxes, ("A10", "A10", "A2"), strict=True):
        shelfcheck.scan(check.pk, alice, label(copy), shelf)
    report = shelfreport.report(check, shown=2)
    assert report.misplaced == 3
    assert [(s.shelf, s.copy_id) for s in report.misplaced_rows] == [("A2", boxes[2].pk), ("A10", boxes[0].pk)]
    assert [s.shelf for s in shelfreport.report(check, shelf="A1", shown=2).misplaced_rows] == ["A10", "A10"]


def test_the_report_and_a_scan_cost_the_same_few_queries_for_3_or_60_boxes(alice, drumlin, karo):
    def queries(n):
        ShelfCheck.objects.all().delete()
        Copy.objects.all().delete()
        copies = [shelves.add_copy(drumlin if i % 2 else karo, f"D{i % 9 + 1}") for i in range(n)]
        check = shelfcheck.start(alice, "D")
        for copy in copies[: n // 2]:
            shelfcheck.scan(check.pk, alice, label(copy), "D1")
        shelfcheck.scan(check.pk, alice, "unknown", "D1")
        shelfcheck.mark_missing(check.pk, alice, copies[-1].pk)
        with CaptureQueriesContext(connection) as report:
            shelfreport.report(check)
        with CaptureQueriesContext(connection) as scan:
            shelfcheck.scan(check.pk, alice, label(copies[0]), "D2")
        return len(report), len(scan)

    assert queries(3) == queries(60)


def test_the_demo_has_a_shelf_check_in_progress_with_a_misplaced_box_and_an_unknown_label(alice, drumlin, karo):
    import io

    from boxes import demo

    shelves.add_copy(drumlin, "D5")
    shelves.add_copy(karo, "K2#")
    for shelf in ("D1", "D7#", "E1"):
        shelves.add_copy(game(f"Jeu {shelf}", f"jeu-{shelf.lower().rstrip('#')}"), shelf)
    out = io.StringIO()
    demo.load(out, alice)
    demo.load(out, alice)
    check = ShelfCheck.objects.get()
    assert (check.scope, check.finished, check.started_by) == ("D", False, alice)
    report = shelfreport.report(check)
    assert (report.expected, report.seen, report.scanned, report.not_seen, report.misplaced, report.unknown) == (
        3, 3, 4, 0, 1, 1)
    assert report.misplaced_rows[0].copy.game == karo and report.misplaced_rows[0].shelf == "D5"
    assert "ludotheque-voisine" in report.unknown_rows[0].text
    assert "shelf check of aisle D in progress" in out.getvalue()
