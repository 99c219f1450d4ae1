"""The boxes' pages as an attacker tries them: a guest or a player acting as a
host, a stale count page, a flood of guest reports from many addresses, copy
ids enumerated, a photo that is no image; and the CSV import with bad rows."""

from __future__ import annotations

import io

import pytest
from django.core import mail
from django.urls import reverse

from boxes import counting, csvimport, guests, summary
from boxes.models import BoxState, ContentItem, Count, GuestReport, Shortfall, StrayPiece
from catalog.shelves.models import MissingPart
from games.bookings import emails as booking_emails
from games.bookings import outbox
from ludo.typography import french as typeset
from tests.boxes.conftest import game

pytestmark = pytest.mark.django_db



def png() -> io.BytesIO:
    from PIL import Image

    data = io.BytesIO()
    Image.new("RGB", (8, 8), (120, 40, 160)).save(data, "PNG")
    data.seek(0)
    data.name = "piece.png"
    return data


def login(client, who: str):
    from django.contrib.auth import get_user_model

    client.force_login(get_user_model().objects.get(username=who))
    return client


def post_count(client, copy, version, **found):
    data = {"version": version}
    for n, (label, value) in enumerate(found.items()):
        data[f"item-{n}"] = label
        data[f"found-{n}"] = value
    return client.post(reverse("boxes:count", args=[copy.pk]), data)


def test_the_count_page_for_a_host_and_nobody_else(client, alice, bob, box):
    url = reverse("boxes:count", args=[box.pk])
    assert url == f"/boites/boite/{box.pk}/compter/"
    assert client.get(url).status_code == 302  # a guest is sent to log in
    assert client.post(url, {"version": 0, "all_there": "1"}).status_code == 302
    login(client, "bob")
    assert client.get(url).status_code == 403
    assert client.post(url, {"version": 0, "all_there": "1"}).status_code == 403
    assert client.get(reverse("boxes:to_count")).status_code == 403
    assert client.post(reverse("boxes:blocking", args=[1])).status_code == 403
    assert not Count.objects.exists()
    client.logout()
    login(client, "alice")
    page = client.get(url)
    assert page.status_code == 200 and "pièces violettes" in page.content.decode()
    assert client.post(url, {"version": 0, "all_there": "1"}).status_code == 302
    assert Count.objects.get().complete


def test_the_menu_leads_a_host_to_the_boxes_and_nobody_else(client, alice, bob):
    link = f'href="{reverse("boxes:to_count")}"'
    assert link not in client.get("/").content.decode()
    login(client, "bob")
    assert link not in client.get("/").content.decode()
    login(client, "alice")
    home = client.get("/").content.decode()
    assert link in home and ">Boîtes</a>" in home


def test_a_stale_count_page_is_told_and_writes_nothing(client, alice, hugo, box):
    login(client, "hugo")
    counting.record_count(box, alice, 0, None)  # alice saved first
    answer = post_count(client, box, 0, **{"tablier de jeu": 1, "pièces roses": 0, "pièces violettes": 12,
                                           "Drumlin": 1})
    assert answer.status_code == 302
    page = client.get(answer.url)
    assert "alice a compté cette boîte" in page.content.decode()
    assert Count.objects.count() == 1 and not MissingPart.objects.exists()


def test_bad_counts_come_back_with_what_was_typed(client, alice, box):
    login(client, "alice")
    answer = post_count(client, box, 0, **{"tablier de jeu": "1", "pièces roses": "-3", "pièces violettes": "9999",
                                           "Drumlin": ""})
    assert answer.status_code == 400
    text = answer.content.decode()
    assert "en dessous de zéro" in text and "faute de frappe" in text and "dites combien" in text
    assert 'value="-3"' in text
    assert not Count.objects.exists() and BoxState.objects.get(copy=box).version == 0


def test_enumerating_copy_ids_finds_nothing_more_than_the_labels_say(client, alice, box, evening):
    counting.record_count(box, alice, 0, {"tablier de jeu": counting.Found(1), "pièces roses": counting.Found(12),
                                          "pièces violettes": counting.Found(11), "Drumlin": counting.Found(1)})
    for pk in (box.pk + 1, box.pk + 1000, 0):
        assert client.get(reverse("boxes:guest_missing", args=[pk])).status_code == 404
    page = client.get(reverse("boxes:guest_missing", args=[box.pk])).content.decode()
    assert "Drumlin" in page and "D5" in page
    assert "Ana" not in page and "séance" not in page  # no blame shown to guests
    rules = client.get(box.game.rules_url() + f"?exemplaire={box.pk}").content.decode()
    assert typeset("Il manque une pièce ?") in rules
    assert "Ana" not in rules and "Compter cette boîte" not in rules


def test_a_guest_reports_a_missing_piece_with_a_photo_and_a_host_confirms(client, alice, box, evening):
    url = reverse("boxes:guest_missing", args=[box.pk])
    answer = client.post(url, {"description": "un pion violet", "photo": png()})
    assert answer.status_code == 200 and "Merci" in answer.content.decode()
    report = GuestReport.objects.get()
    assert report.photo.name.startswith("boxes/reports/") and report.photo.name.endswith(".png")
    assert not Shortfall.objects.exists()  # nothing changes before a host confirms
    assert client.get(reverse("boxes:report_photo", args=[report.pk])).status_code == 302
    login(client, "alice")
    assert client.get(reverse("boxes:report_photo", args=[report.pk])).status_code == 200
    client.post(reverse("boxes:reports"), {"report": report.pk, "action": "confirm"})
    client.post(reverse("boxes:reports"), {"report": report.pk, "action": "confirm"})  # twice: once
    shortfall = Shortfall.objects.get()
    assert list(shortfall.sessions.all()) == [evening] and shortfall.label == "un pion violet"
    assert BoxState.objects.get(copy=box).incomplete


def test_a_photo_that_is_no_image_is_refused_and_nothing_is_kept(client, box):
    fake = io.BytesIO(b"<script>alert(1)</script>" * 10)
    fake.name = "piece.png"
    answer = client.post(reverse("boxes:guest_missing", args=[box.pk]), {"description": "un dé", "photo": fake})
    assert answer.status_code == 400
    assert not GuestReport.objects.exists()


def test_a_found_piece_names_its_game_for_the_host(client, alice, box, drumlin):
    client.post(reverse("boxes:guest_found", args=[box.pk]), {"description": "un pion rose", "belongs_to": "Drumlin"})
    report = GuestReport.objects.get(kind="found")
    guests.confirm(report.pk, alice)
    assert StrayPiece.objects.get().belongs_to == drumlin


def test_a_flood_of_reports_from_many_addresses_is_capped(client, box, settings):
    settings.LUDO_RATE_LIMITS = {"boxes-guest-report": {"person": None, "address": (3, 3600)}}
    url = reverse("boxes:guest_missing", args=[box.pk])
    answers = [client.post(url, {"description": f"pièce {i}"}, REMOTE_ADDR=f"203.0.113.{i // 3}")
               for i in range(3 * 6)]
    assert [a.status_code for a in answers[:3]] == [200, 200, 200]
    assert GuestReport.objects.count() == guests.PENDING_PER_COPY  # ten addresses' worth, then no more
    assert b"beaucoup de signalements" in answers[-1].content
    over = client.post(url, {"description": "encore"}, REMOTE_ADDR="203.0.113.0")
    assert over.status_code == 429  # and one address is rate-limited on its own


def test_the_csv_import_skips_only_the_games_with_bad_rows(db, drumlin):
    karo = game("Karo", "karo")
    before = list(ContentItem.objects.filter(game=drumlin).values_list("label", flat=True))
    report = csvimport.import_text(
        "game,group,label,quantity,essential\n"
        "karo,Pions,pions rouges,8,\n"
        "karo,Pions,pions blancs,8,\n"
        "drumlin,Pièces,pièces roses,douze,\n"
        "drumlin,Pièces,pièces violettes,12,\n"
        "Monopoly Galactique,,dé,2,\n"
        "karo,Plaquettes,plaquettes,24,oui\n"
    )
    assert report.games == 1 and report.items == 3
    assert any("line 4" in e and "douze" in e for e in report.errors)
    assert any("Monopoly Galactique" in e for e in report.errors)
    assert list(ContentItem.objects.filter(game=drumlin).values_list("label", flat=True)) == before
    assert ContentItem.objects.filter(game=karo, essential=True).get().label == "plaquettes"
    assert csvimport.import_text("name,count\nx,1\n").errors[0].startswith("the header lacks")


def test_the_shipped_contents_load_once(db):
    from boxes import demo

    for slug in ("drumlin", "drekki", "karo", "rampants-et-sauteurs", "eclaircissement", "quatre-en-ligne"):
        game(slug.title(), slug)
    out = io.StringIO()
    demo.load(out)
    demo.load(out)
    assert ContentItem.objects.filter(game__slug="drekki").count() == 4
    assert ContentItem.objects.get(game__slug="drumlin", label="pièces violettes").quantity == 12
    assert ContentItem.objects.count() == 22


def test_the_weekly_summary_goes_to_each_host_once_a_week(alice, hugo, bob, box, evening):
    counting.record_count(box, alice, 0, {"tablier de jeu": counting.Found(1), "pièces roses": counting.Found(12),
                                          "pièces violettes": counting.Found(11), "Drumlin": counting.Found(1)})
    from datetime import timedelta

    from django.utils import timezone

    next_week = timezone.now() + timedelta(days=7)
    assert summary.queue_week(next_week) == 2
    assert summary.queue_week(next_week) == 0  # a second worker, the same week: nothing more
    rows = outbox.OutgoingEmail.objects.filter(kind=summary.KIND)
    assert sorted(rows.values_list("to", flat=True)) == ["alice@example.org", "hugo@example.org"]
    for row in rows:
        booking_emails.deliver(outbox.claim_one(row.pk))
    assert len(mail.outbox) == 2
    assert "1 × pièces violettes" in mail.outbox[0].body and "Drumlin" in mail.outbox[0].body
    assert mail.outbox[0].subject.startswith("Les boîtes cette semaine")


def test_one_host_that_cannot_be_queued_does_not_stop_the_others(alice, hugo, box, monkeypatch):
    real = outbox.enqueue

    def failing(kind, to, **kw):
        if to == "alice@example.org":
            raise RuntimeError("bad row")
        return real(kind, to, **kw)

    monkeypatch.setattr(outbox, "enqueue", failing)
    summary.queue_week()
    assert list(outbox.OutgoingEmail.objects.values_list("to", flat=True)) == ["hugo@example.org"]


def test_the_exports_escape_formulas(client, alice, box):
    from boxes import contents

    contents.set_copy_items(box, [contents.Line("", "=HYPERLINK(1)", 2)])
    counting.record_count(box, alice, 0, {"=HYPERLINK(1)": counting.Found(1)})
    login(client, "alice")
    text = client.get(reverse("boxes:missing_csv")).content.decode()
    assert "'=HYPERLINK(1)" in text and "D5" in text
    listing = client.get(reverse("boxes:not_counted_csv") + "?mois=1").content.decode()
    assert "D5" not in listing  # just counted


def test_a_host_writes_a_games_contents_on_a_phone_form_and_a_player_cannot(client, alice, bob, drumlin):
    url = reverse("boxes:game_contents", args=["drumlin"])
    login(client, "bob")
    assert client.post(url, {"text": "1 dé"}).status_code == 403
    client.logout()
    login(client, "alice")
    page = client.get(url).content.decode()
    assert "Pièces: 12 pièces violettes" in page and "!Plateau: 1 tablier de jeu" in page
    refused = client.post(url, {"text": "Pions: 12 pions\ndouze cartes"})
    assert refused.status_code == 400 and "ligne 2" in refused.content.decode()
    assert len(ContentItem.objects.filter(game=drumlin)) == 4  # nothing changed
    assert client.post(url, {"text": "Pions: 12 pions violets\n!1 plateau"}).status_code == 302
    assert [(i.group, i.label, i.quantity, i.essential) for i in ContentItem.objects.filter(game=drumlin)] == [
        ("Pions", "pions violets", 12, False), ("", "plateau", 1, True)]


def test_a_player_cannot_see_or_handle_the_guests_reports(client, bob, box):
    guests.report(box, "missing", "un dé")
    login(client, "bob")
    report = GuestReport.objects.get()
    assert client.get(reverse("boxes:reports")).status_code == 403
    assert client.post(reverse("boxes:reports"), {"report": report.pk, "action": "confirm"}).status_code == 403
    assert client.get(reverse("boxes:missing_csv")).status_code == 403
    report.refresh_from_db()
    assert report.status == "pending" and not Shortfall.objects.exists()


def test_the_demo_count_ties_the_violet_piece_to_its_session(alice, db):
    from boxes import demo, tracing
    from catalog.shelves import services as shelves

    for slug in ("drumlin", "drekki", "karo"):
        shelves.add_copy(game(slug.title(), slug), "D5")
    out = io.StringIO()
    demo.load(out)
    demo.load(out)
    shortfall = Shortfall.objects.get()
    assert shortfall.label == "pièces violettes" and shortfall.sessions.get().title == "Soirée Drumlin"
    assert tracing.describe(list(shortfall.sessions.all()), [], None).startswith("manquant depuis la séance du")



def test_the_contents_admin_lists_a_games_items(client, alice, drumlin):
    login(client, "alice")
    page = client.get(reverse("admin:boxes_contentitem_changelist") + "?q=Drumlin").content.decode()
    assert "pièces violettes" in page


def test_an_items_picture_is_stored_under_a_random_name_and_shown_on_the_count_page(client, alice, box, drumlin):
    from django.core.files.uploadedfile import SimpleUploadedFile

    item = ContentItem.objects.get(game=drumlin, label="Drumlin")
    item.picture = SimpleUploadedFile("my drumlin.png", png().read(), "image/png")
    item.save()
    assert item.picture.name.startswith("boxes/items/") and "drumlin" not in item.picture.name
    url = reverse("boxes:item_picture", args=[item.pk])
    assert client.get(url).status_code == 200  # the game's picture, for anyone
    plain = ContentItem.objects.get(game=drumlin, label="pièces roses")
    assert client.get(reverse("boxes:item_picture", args=[plain.pk])).status_code == 404
    login(client, "alice")
    assert f'src="{url}"' in client.get(reverse("boxes:count", args=[box.pk])).content.decode()


def test_a_stale_session_of_a_former_host_cannot_save_a_count(client, alice, box):
    login(client, "alice")
    url = reverse("boxes:count", args=[box.pk])
    assert client.get(url).status_code == 200
    alice.is_staff = False  # no longer a host, the browser still logged in
    alice.save()
    assert client.post(url, {"version": 0, "all_there": "1", "counted_by": "999"}).status_code == 403
    assert not Count.objects.exists()
