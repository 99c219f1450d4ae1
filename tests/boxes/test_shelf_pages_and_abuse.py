"""The shelf check's pages as an attacker tries them: a guest, a player or
nobody acting as a host, another host's finished check, payloads that are no
label (garbage, another site, a box that does not exist, a body of megabytes,
no JSON), a request without its CSRF token, a flood of scans; and as a host
uses them: start, scan by JSON and by plain form, find a box by title, the
report's one-tap corrections."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from boxes import shelfcheck
from boxes.models import ShelfCheck, ShelfCorrection, ShelfScan, UnknownLabel
from catalog.shelves import qr
from catalog.shelves import services as shelves
from catalog.shelves.models import Copy
from tests.boxes.conftest import game

pytestmark = pytest.mark.django_db


def login(client, who: str):
    from django.contrib.auth import get_user_model

    client.force_login(get_user_model().objects.get(username=who))
    return client


def scan(client, check, text, shelf="D5", typed=True, **extra):
    """A scan as the page sends it: typed by the host, or read by the camera (``typed`` False)."""
    body = {"text": text, "shelf": shelf, "typed": typed}
    return client.post(reverse("boxes:shelf_scan", args=[check.pk]), json.dumps(body),
                       content_type="application/json", HTTP_ACCEPT="application/json", **extra)


@pytest.fixture
def stray(db):
    return shelves.add_copy(game("Karo", "karo"), "C2")


@pytest.fixture
def check(alice, box, stray):
    return shelfcheck.start(alice, "D")


def nothing_written():
    return not ShelfScan.objects.exists() and not UnknownLabel.objects.exists() \
        and not ShelfCorrection.objects.exists()


def test_the_paths_are_french_first():
    assert reverse("boxes:shelf_checks") == "/boites/recolements/"
    assert reverse("boxes:shelf_report", args=[3]) == "/boites/recolements/3/bilan/"


def test_only_hosts_reach_the_shelf_check(client, alice, bob, check, box, stray):
    gets = [reverse("boxes:shelf_checks"), reverse("boxes:shelf_scanner", args=[check.pk]),
            reverse("boxes:shelf_report", args=[check.pk]), reverse("boxes:shelf_find", args=[check.pk]) + "?q=dru",
            reverse("boxes:shelf_tally", args=[check.pk]) + "?rayon=D5"]
    posts = [(reverse("boxes:shelf_checks"), {"scope": ""}),
             (reverse("boxes:shelf_correct", args=[check.pk]), {"copy": box.pk, "action": "missing"}),
             (reverse("boxes:shelf_finish", args=[check.pk]), {})]
    for who in (None, "bob"):
        if who:
            login(client, who)
        expected = 403 if who else 302
        for url in gets:
            assert client.get(url).status_code == expected, url
        for url, data in posts:
            assert client.post(url, data).status_code == expected, url
        assert scan(client, check, str(box.pk)).status_code == expected
    assert ShelfCheck.objects.count() == 1 and nothing_written()
    assert Copy.objects.get(pk=box.pk).status == Copy.Status.AVAILABLE and not ShelfCheck.objects.get().finished


def test_a_host_starts_a_check_and_scans_by_json(client, alice, box, stray):
    login(client, "alice")
    answer = client.post(reverse("boxes:shelf_checks"), {"scope": "d"})
    check = ShelfCheck.objects.get()
    assert answer.status_code == 302 and answer.url == reverse("boxes:shelf_scanner", args=[check.pk])
    assert (check.scope, check.started_by) == ("D", alice)
    page = client.get(answer.url).content.decode()
    assert "Je suis au rayon" in page and "shelfcheck.js" in page and 'aria-live="assertive"' in page
    ok = scan(client, check, qr.rules_address(box.game, "fr", box)).json()
    assert (ok["kind"], ok["message"], ok["title"], ok["tally"]) == (
        "ok", "D5 ✓", "Drumlin", {"shelf": "D5", "seen": 1, "expected": 1})
    wrong = scan(client, check, qr.rules_address(stray.game, "en", stray), shelf="d7").json()
    assert (wrong["kind"], wrong["message"], wrong["shelf"]) == ("misplaced", "Appartient à C2", "D7")
    assert client.get(reverse("boxes:shelf_tally", args=[check.pk]), {"rayon": "D5"}).json()["seen"] == 1
    assert client.get(reverse("boxes:shelf_tally", args=[check.pk]), {"rayon": "E1"}).status_code == 400


def test_a_bad_scope_is_told_and_starts_nothing(client, alice):
    login(client, "alice")
    answer = client.post(reverse("boxes:shelf_checks"), {"scope": "D <script>"}, follow=True)
    assert "ni une allée" in answer.content.decode() and not ShelfCheck.objects.exists()


def test_what_is_no_label_is_an_unknown_label_and_changes_no_box(client, alice, check, box):
    login(client, "alice")
    for text in ("https://evil.example/catalogue/jeu/drumlin/regles/?exemplaire=%d" % box.pk, "99999999",
                 "DROP TABLE", "\u202e\u0000"):
        answer = scan(client, check, text)
        assert answer.status_code == 200 and answer.json()["kind"] == "unknown", text
        assert answer.json()["message"] == "Étiquette inconnue"
    assert UnknownLabel.objects.count() == 4 and not ShelfScan.objects.exists()
    assert UnknownLabel.objects.filter(text="\ufffd\ufffd").exists()  # what cannot be shown, replaced
    box.refresh_from_db()
    assert (box.shelf, box.status) == ("D5", "available")


def test_a_bare_number_the_camera_read_is_another_librarys_sticker_not_a_box(client, alice, check, box):
    """Another library's QR sticker that holds only its inventory number ("7") read
    by the camera is an unknown label: it does not count box 7 of this house as
    seen (it did, so that box was never listed as not seen). Typed by the host, or
    sent without saying it was typed, the number is a box number only when typed."""
    login(client, "alice")
    for body in ({"text": str(box.pk), "shelf": "D5", "typed": False}, {"text": str(box.pk), "shelf": "D5"}):
        answer = client.post(reverse("boxes:shelf_scan", args=[check.pk]), json.dumps(body),
                             content_type="application/json", HTTP_ACCEPT="application/json")
        assert answer.status_code == 200 and answer.json()["kind"] == "unknown", answer.content
    assert not ShelfScan.objects.exists() and UnknownLabel.objects.get().text == str(box.pk)
    assert scan(client, check, str(box.pk), typed=True).json()["kind"] == "ok"
    assert ShelfScan.objects.get().copy_id == box.pk


def test_malformed_and_huge_scans_are_refused_with_nothing_written(client, alice, check, box):
    login(client, "alice")
    url = reverse("boxes:shelf_scan", args=[check.pk])
    huge = scan(client, check, "x" * 100_000)
    assert huge.status_code == 413 and "error" in huge.json()
    for body in ("not json", "[1, 2]", json.dumps({"text": 5, "shelf": "D5"}), json.dumps({"text": "1"}),
                 b"\xff\xfe"):
        answer = client.post(url, body, content_type="application/json", HTTP_ACCEPT="application/json")
        assert answer.status_code == 400 and answer.json()["error"], body
    for shelf in ("", "E5", "5", "D5D5", "../"):
        answer = scan(client, check, str(box.pk), shelf=shelf)
        assert answer.status_code == 400 and answer.json()["error"], shelf
    assert scan(client, check, "  ").status_code == 400
    assert nothing_written()


def test_scanning_the_same_box_again_is_one_sighting(client, alice, hugo, check, box):
    login(client, "alice")
    assert scan(client, check, str(box.pk), shelf="D6").json()["kind"] == "misplaced"
    login(client, "hugo")
    again = scan(client, check, str(box.pk)).json()
    assert again["again"] and again["kind"] == "ok"
    row = ShelfScan.objects.get()
    assert (row.shelf, row.times, row.scanned_by.username) == ("D5", 2, "hugo")


def test_another_hosts_finished_check_takes_no_scan_and_no_correction(client, alice, hugo, check, box, stray):
    shelfcheck.scan(check.pk, alice, str(stray.pk), "D5")
    shelfcheck.finish(check.pk, alice)
    login(client, "hugo")
    refused = scan(client, check, str(box.pk))
    assert refused.status_code == 409 and "terminé" in refused.json()["error"]
    for data in ({"copy": stray.pk, "action": "move"}, {"copy": box.pk, "action": "missing"}):
        page = client.post(reverse("boxes:shelf_correct", args=[check.pk]), data, follow=True)
        assert "terminé" in page.content.decode()
    assert client.post(reverse("boxes:shelf_finish", args=[check.pk])).status_code == 302
    assert client.get(reverse("boxes:shelf_scanner", args=[check.pk])).url == reverse(
        "boxes:shelf_report", args=[check.pk])
    report = client.get(reverse("boxes:shelf_report", args=[check.pk])).content.decode()
    assert "Karo" in report and "La ranger en D5" not in report and "Déclarer manquante" not in report
    stray.refresh_from_db()
    box.refresh_from_db()
    assert (stray.shelf, box.status, ShelfScan.objects.count(), ShelfCorrection.objects.count()) == (
        "C2", "available", 1, 0)
    assert ShelfCheck.objects.get().finished_by == alice


def test_a_scan_without_its_csrf_token_is_refused(alice, check, box):
    client = Client(enforce_csrf_checks=True)
    login(client, "alice")
    assert scan(client, check, str(box.pk)).status_code == 403
    page = client.get(reverse("boxes:shelf_scanner", args=[check.pk]))
    token = page.context["csrf_token"]
    assert scan(client, check, str(box.pk), HTTP_X_CSRFTOKEN=str(token)).status_code == 200
    assert ShelfScan.objects.count() == 1


def test_a_flood_of_scans_is_slowed_down(client, alice, settings, check, box):
    settings.LUDO_RATE_LIMITS = {"boxes-shelf-scan": {"person": (3, 60), "address": None}}
    login(client, "alice")
    assert [scan(client, check, str(box.pk)).status_code for _ in range(4)] == [200, 200, 200, 429]
    too_many = scan(client, check, str(box.pk))
    assert too_many.status_code == 429 and too_many["Retry-After"] and too_many.json()
    assert ShelfScan.objects.get().times == 3


def test_without_javascript_the_form_records_a_typed_number(client, alice, check, box):
    login(client, "alice")
    answer = client.post(reverse("boxes:shelf_scan", args=[check.pk]), {"text": str(box.pk), "shelf": "d5"},
                         follow=True)
    assert answer.redirect_chain[-1][0].endswith("?rayon=D5")
    text = answer.content.decode()
    assert "D5 ✓ · Drumlin" in text and 'value="D5"' in text and "1 sur 1 vues en D5" in text
    for shelf, said in (("E9", "ne fait pas partie"), ("Z9&x=<b>", "Dites devant quel rayon")):
        refused = client.post(reverse("boxes:shelf_scan", args=[check.pk]), {"text": "1", "shelf": shelf},
                              follow=True)
        assert said in refused.content.decode() and "<b>" not in refused.redirect_chain[-1][0]
    assert ShelfScan.objects.count() == 1


def test_a_long_shelf_code_the_catalogue_allows_is_kept_whole_between_scans(client, alice):
    """The catalogue takes shelves of up to three letters and three digits (ABC123):
    the page that says where the host stands keeps such a code whole (it was cut
    to four characters, and the next scans recorded the boxes on another shelf)."""
    far = shelves.add_copy(game("Karo", "karo"), "AB123")
    check = shelfcheck.start(alice, "AB")
    login(client, "alice")
    answer = client.post(reverse("boxes:shelf_scan", args=[check.pk]), {"text": str(far.pk), "shelf": "ab123"},
                         follow=True)
    assert answer.redirect_chain[-1][0].endswith("?rayon=AB123")
    page = answer.content.decode()
    assert "AB123 ✓" in page and 'value="AB123"' in page
    field = page[page.index('id="shelf"'):]
    length = int(field[field.index('maxlength="') + 11:].split('"')[0])
    assert length >= len("ABC123#")


def test_a_box_is_found_by_its_title_for_a_label_the_camera_cannot_read(client, alice, check, box, stray):
    login(client, "alice")
    url = reverse("boxes:shelf_find", args=[check.pk])
    found = client.get(url, {"q": "drum"}).json()["boxes"]
    assert found == [{"copy": box.pk, "title": "Drumlin", "shelf": "D5"}]
    assert client.get(url, {"q": "d"}).json() == {"boxes": []}
    assert client.get(url, {"q": "x" * 5000}).json() == {"boxes": []}
    assert client.get(reverse("boxes:shelf_find", args=[999999]), {"q": "drum"}).status_code == 404


def test_the_report_corrects_in_one_tap_each(client, alice, check, box, stray):
    shelfcheck.scan(check.pk, alice, str(stray.pk), "D5")
    login(client, "alice")
    url = reverse("boxes:shelf_report", args=[check.pk])
    page = client.get(url).content.decode()
    assert "vue en D5, le catalogue dit C2" in page and "La ranger en D5 au catalogue" in page
    assert "Déclarer manquante<span class=\"visually-hidden\">: Drumlin (D5)</span>" in page
    correct = reverse("boxes:shelf_correct", args=[check.pk])
    moved = client.post(correct, {"copy": stray.pk, "action": "move", "rayon": "D"}, follow=True)
    assert moved.redirect_chain[-1][0] == url + "?rayon=D"
    assert "la boîte est maintenant au rayon D5" in moved.content.decode()
    assert Copy.objects.get(pk=stray.pk).shelf == "D5"
    client.post(correct, {"copy": box.pk, "action": "missing"})
    assert Copy.objects.get(pk=box.pk).status == Copy.Status.QUARANTINE
    page = client.get(url).content.decode()
    assert "rayon C2 → D5 au catalogue" in page and "déclarée manquante (en quarantaine)" in page
    for data in ({"copy": "abc", "action": "move"}, {"action": "move"}):
        assert client.post(correct, data).status_code == 404
    again = client.post(correct, {"copy": stray.pk, "action": "move"}, follow=True)
    assert "déjà été corrigée" in again.content.decode()
    assert ShelfCorrection.objects.count() == 2
    finished = client.post(reverse("boxes:shelf_finish", args=[check.pk]), follow=True).content.decode()
    assert "Récolement terminé." in finished
    listing = client.get(reverse("boxes:shelf_checks")).content.decode()
    assert "Récolements terminés" in listing


def test_a_check_that_does_not_exist_is_not_found(client, alice):
    login(client, "alice")
    for name in ("shelf_scanner", "shelf_report"):
        assert client.get(reverse(f"boxes:{name}", args=[424242])).status_code == 404
    answer = client.post(reverse("boxes:shelf_scan", args=[424242]), "{}", content_type="application/json")
    assert answer.status_code == 404


def test_stray_characters_in_the_filters_reach_no_query(client, alice, check, box):
    login(client, "alice")
    for url, params in ((reverse("boxes:shelf_report", args=[check.pk]), {"rayon": "D\x00"}),
                        (reverse("boxes:shelf_scanner", args=[check.pk]), {"rayon": "D5\x00"}),
                        (reverse("boxes:shelf_find", args=[check.pk]), {"q": "dru\x00mlin"})):
        assert client.get(url, params).status_code == 200, url
    assert client.get(reverse("boxes:shelf_tally", args=[check.pk]), {"rayon": "\x00"}).status_code == 400


def test_the_shelf_check_speaks_english_under_en(client, alice, check, stray):
    login(client, "alice")
    page = client.get(f"/en/boxes/shelf-checks/{check.pk}/").content.decode()
    assert "I am at shelf" in page and 'data-scan-url="/en/boxes/shelf-checks/' in page
    typed = {"text": str(stray.pk), "shelf": "D5", "typed": True}
    answer = client.post(f"/en/boxes/shelf-checks/{check.pk}/scan/", json.dumps(typed),
                         content_type="application/json").json()
    assert (answer["message"], answer["tally"]["expected"]) == ("Belongs in C2", 1)
    assert "On the wrong shelf" in client.get(f"/en/boxes/shelf-checks/{check.pk}/report/").content.decode()


def test_the_admin_keeps_shelf_checks_as_records(client, alice, check, box):
    """The admin shows a check and its corrections, read only: not even a superuser
    deletes one (its corrections would go with it, leaving the boxes it marked
    missing in quarantine with no record of why)."""
    from django.contrib.auth import get_user_model

    shelfcheck.mark_missing(check.pk, alice, box.pk)
    root = get_user_model().objects.create_superuser("root", "root@example.org", "a long password 1234")
    client.force_login(root)
    page = client.get(reverse("admin:boxes_shelfcheck_change", args=[check.pk]))
    assert page.status_code == 200 and 'name="_save"' not in page.content.decode()
    assert client.get(reverse("admin:boxes_shelfcheck_delete", args=[check.pk])).status_code == 403
    changelist = reverse("admin:boxes_shelfcheck_changelist")
    client.post(changelist, {"action": "delete_selected", "_selected_action": [check.pk], "post": "yes"})
    assert ShelfCheck.objects.filter(pk=check.pk).exists() and ShelfCorrection.objects.count() == 1
