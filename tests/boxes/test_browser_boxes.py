"""On a phone (390x844, touch) in a real Chromium against a real daphne: Alice,
a host, opens the Drumlin box's QR page, taps "Compter cette boîte", counts one
violet piece short, and sees it "manquant depuis la séance du samedi 14
novembre à 20:00 (Ana, Ben…)"; she marks the box not playable without it and
Drumlin leaves "À quoi on joue ?". Then the count page and the to-count list
pass axe-core and show what matters on the first screen. Screenshots in
artifacts/screenshots/."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.urls import reverse

from tests.a11y import at_least, describe, install_axe, violations
from tests.servers import BrowserPage, manage, recording

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
PASSWORD = "correct horse battery staple"

SEED = f"""
import json
from datetime import datetime, timedelta
from django.utils import timezone
from boxes import contents
from catalog.collection.models import Game
from catalog.shelves import services as shelves
from games.bookings import services
from games.bookings.services import copies
from ludo.accounts import create_staff_account
alice = create_staff_account("alice", "alice@example.org", "{PASSWORD}")
def box(title, slug, shelf, lines):
    g = Game(title=title, slug=slug, min_players=2, max_players=2, min_time=30, max_time=45, min_age=8,
             owned_count=900)
    g.save()
    contents.set_game_items(g, [contents.Line(*line) for line in lines])
    return shelves.add_copy(g, shelf)
drumlin = box("Drumlin", "drumlin", "D5", [("Plateau", "tablier de jeu", 1, True), ("Pièces", "pièces roses", 12),
              ("Pièces", "pièces violettes", 12), ("Pièces", "Drumlin", 1, True)])
drekki = box("Drekki", "drekki", "B3", [("Tuiles", "tuiles dragon", 27), ("Cartes", "cartes mage", 36),
             ("Jetons", "jetons larmes", 13), ("Règle", "règle du jeu", 1)])
def evening(copy, start, names):
    before = start - timedelta(days=1)
    s = services.create_session(alice, starts_at=start, ends_at=start + timedelta(hours=3), capacity=8,
                                title="Soirée", games=[copy.game], now=before)
    for i, name in enumerate(names):
        services.book(s.pk, name=name, email=f"guest{{i}}@example.org", seats=1, now=before)
    copies.reserve_copy(s.pk, copy.pk, alice, now=before)
evening(drumlin, timezone.make_aware(datetime(2026, 11, 14, 20, 0)), ["Ana", "Ben", "Chloé", "Dan"])
evening(drekki, timezone.now() - timedelta(days=2), ["Eve"])
print(json.dumps({{"drumlin": drumlin.pk, "drekki": drekki.pk}}))
"""


@pytest.fixture(scope="module")
def site(shared_daphne_server):
    out = manage("shell", "-c", SEED, env=shared_daphne_server.env).stdout.strip().splitlines()[-1]
    return shared_daphne_server, json.loads(out)


@pytest.fixture
def phone(chromium):
    context = chromium.new_context(viewport=PHONE, locale="fr-FR", is_mobile=True, has_touch=True)
    context.set_default_timeout(10_000)
    install_axe(context)
    probe = recording(BrowserPage(page=context.new_page(), name=Path(__file__).stem))
    try:
        yield probe.page, probe.console_errors
    finally:
        context.close()


def shot(page, name: str) -> None:
    from tests.servers import ARTIFACTS

    folder = ARTIFACTS / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"test_browser_boxes-{name}.png"), full_page=True)


def log_in(page, server) -> None:
    page.goto(server.url("/compte/connexion/"))
    page.fill("input[name=username]", "alice")
    page.fill("input[name=password]", PASSWORD)
    with page.expect_navigation():
        page.locator("form:has(input[name=password]) button[type=submit]").tap()


def picked(page, server) -> str:
    page.goto(server.url(reverse("catalog:pick") + "?players=2&minutes=60&youngest=12&mood=anything"))
    return page.locator("main").inner_text()


def test_a_host_counts_a_box_from_its_qr_page_one_piece_short(site, phone):
    server, ids = site
    page, errors = phone
    log_in(page, server)
    assert "Drumlin" in picked(page, server)

    page.goto(server.url(f"/catalogue/jeu/drumlin/regles/?exemplaire={ids['drumlin']}"))
    assert page.get_by_role("link", name="Il manque une pièce ?").is_visible()
    shot(page, "qr-page-phone")
    page.get_by_role("link", name="Compter cette boîte").tap()
    page.wait_for_url(f"**/boites/boite/{ids['drumlin']}/compter/")
    for label in ("tablier de jeu", "pièces roses", "pièces violettes", "Drumlin"):
        page.get_by_role("button", name=f"Les {'12' if 'pièces' in label else '1'} {label} y sont").tap()
    page.get_by_role("button", name="Un de moins : pièces violettes").tap()
    assert page.locator("#found-2").input_value() == "11"
    shot(page, "count-phone")
    with page.expect_navigation():
        page.get_by_role("button", name="Enregistrer le comptage").tap()

    missing = page.locator("[data-shortfall]")
    assert missing.count() == 1
    text = missing.inner_text()
    assert "1 × pièces violettes" in text
    assert "manquant depuis la séance du samedi 14 novembre à 20:00 (Ana, Ben, Chloé…)" in text
    shot(page, "counted-phone")
    with page.expect_navigation():
        page.get_by_role("button", name="Injouable sans").tap()
    assert "injouable" in page.locator(".meta").inner_text()
    assert "Drumlin" not in picked(page, server)
    page.goto(server.url("/catalogue/jeu/drumlin/"))
    assert "1 boîte est injouable" in page.locator("[data-box-notice]").inner_text()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert not errors, errors


@pytest.mark.one_stack
def test_the_count_page_and_the_to_count_list_pass_axe_and_fit_the_first_screen(site, phone):
    server, ids = site
    page, errors = phone
    log_in(page, server)
    url = server.url(f"/boites/boite/{ids['drekki']}/compter/")
    page.goto(url)
    # The first screen of a phone: what box, "all there", the first item with its stepper.
    for locator in (page.locator("h1"), page.get_by_role("button", name="Tout y est"),
                    page.get_by_role("button", name="Les 27 tuiles dragon y sont"),
                    page.get_by_role("button", name="Un de plus : tuiles dragon")):
        box = locator.bounding_box()
        assert box is not None and box["y"] + box["height"] <= PHONE["height"], locator
    assert "Drekki" in page.locator("h1").inner_text()
    found = at_least(violations(page), "moderate")
    assert not found, describe(found, url)
    page.set_viewport_size(DESKTOP)
    shot(page, "count-desktop")
    page.set_viewport_size(PHONE)

    listing = server.url("/boites/")
    page.goto(listing)
    rows = page.locator("[data-to-count] li")
    assert "B3" in rows.first.inner_text() and "Drekki" in rows.first.inner_text()
    assert rows.first.bounding_box()["y"] < PHONE["height"]
    found = at_least(violations(page), "moderate")
    assert not found, describe(found, listing)
    shot(page, "to-count-phone")
    page.set_viewport_size(DESKTOP)
    shot(page, "to-count-desktop")
    page.set_viewport_size(PHONE)

    report = server.url(f"/boites/boite/{ids['drekki']}/il-manque/")
    page.goto(report)
    assert page.get_by_label("Quelle pièce manque ?").bounding_box()["y"] < PHONE["height"]
    found = at_least(violations(page), "moderate")
    assert not found, describe(found, report)
    shot(page, "guest-report-phone")
    assert not errors, errors
