"""The lobby in a real Chromium against a live daphne and worker: a new table shows
up in another visitor's list without a reload, and changes there as it fills and
starts; the create form shows the chosen game's settings and explanations; my
games say whose turn it is; phone and desktop screenshots; no console error."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.games.ui_server import DESKTOP, PHONE, guest_page, live_site, new_page  # noqa: F401  (fixture)

pytestmark = pytest.mark.browser


def test_a_new_table_appears_in_the_lobby_without_a_reload(live_site, chromium):
    # Ada has no name yet: she may watch, not sit or create.
    ada = new_page(chromium, live_site, "test_browser_lobby-ada", viewport=PHONE)
    ada.page.goto(live_site.url("/jouer/"))
    assert ada.page.locator("[data-create-form] button[type='submit']").is_disabled()
    assert ada.page.get_by_role("link", name="Jouer en invité").is_visible()
    expect(ada.page.locator("[data-lobby-list]")).to_contain_text("Aucune table pour l’instant")
    ada.screenshot("lobby-empty-phone")

    zoe = guest_page(chromium, live_site, "Zoé", label="test_browser_lobby-zoe")
    form = zoe.page.locator("[data-create-form]")
    # Only the chosen game's settings are shown, with the explanation of each option.
    form.locator("select[name='game']").select_option("drumlin")
    drumlin = form.locator("[data-game-settings='drumlin']")
    expect(drumlin).to_be_visible()
    expect(form.locator("[data-game-settings='drekki']")).to_be_hidden()
    expect(drumlin).to_contain_text("Règles Clou 1986")
    expect(drumlin).to_contain_text("Départ libre sur un de ses éléphants")
    expect(form.locator("[data-seat-row='1']")).to_be_visible()
    expect(form.locator("[data-seat-row='2']")).to_be_hidden()
    # Drekki is for 2 to 6: choosing 4 players shows three seat rows.
    form.locator("select[name='game']").select_option("drekki")
    form.locator("select[name='seats-drekki']").select_option("4")
    expect(form.locator("[data-seat-row='3']")).to_be_visible()
    expect(form.locator("[data-seat-row='4']")).to_be_hidden()
    form.locator("select[name='game']").select_option("drumlin")
    zoe.page.set_viewport_size(PHONE)
    zoe.screenshot("lobby-form-phone")
    zoe.page.set_viewport_size(DESKTOP)
    form.locator("select[name='seat-1']").select_option("")
    form.get_by_role("button", name="Créer la table").click()
    zoe.page.wait_for_url(re.compile(r"/jouer/table/\d+/$"))
    number = int(zoe.page.locator("[data-table-page]").get_attribute("data-table"))

    # Ada's list shows it, without a reload, with its free seat.
    row = ada.page.locator(f"[data-lobby-list] [data-table-id='{number}']")
    expect(row).to_contain_text("Drumlin")
    expect(row).to_contain_text("1 place libre")
    expect(row.locator("a.join")).to_have_text("Rejoindre")
    expect(row).to_contain_text("hôte : Zoé")

    # Zoé gives the free seat to a bot and starts: the row says the game is in play.
    zoe.page.locator("[data-bot-level]").select_option("easy")
    zoe.page.locator("[data-add-bot='1']").click()
    zoe.page.locator("[data-start]:not([disabled])").click()
    expect(row).to_contain_text("en cours")
    expect(row.locator("a.join")).to_have_text("Regarder")
    ada.screenshot("lobby-live-phone")

    # In Zoé's lobby the game is one of hers, with whose turn it is.
    zoe.page.wait_for_selector("[data-status][data-turn='true']")
    zoe.page.goto(live_site.url("/jouer/"))
    mine = zoe.page.locator(".my-tables")
    expect(mine).to_contain_text(f"table {number}")
    expect(mine).to_contain_text("à vous de jouer")
    zoe.screenshot("lobby-desktop", full_page=True)

    # Ada follows the link and watches: a spectator has no game buttons.
    row.locator("a.join").click()
    ada.page.wait_for_url(live_site.url(f"/jouer/table/{number}/"))
    expect(ada.page.locator("[data-status]")).to_contain_text("Vous regardez")
    assert ada.page.locator("[data-actions]").is_hidden()
    for probe in (ada, zoe):
        probe.assert_no_console_errors()


def test_the_lobby_speaks_english_under_en(live_site, chromium):
    leo = guest_page(chromium, live_site, "Leo", label="test_browser_lobby-leo")
    leo.page.goto(live_site.url("/en/play/"))
    expect(leo.page.locator("h1")).to_have_text("Play")
    expect(leo.page.locator("#quick-title")).to_have_text("Play against a bot now")
    expect(leo.page.locator("[data-lobby-state]")).to_have_text(
        "This list follows the tables as they change.")
    leo.page.locator("[data-quick-form] select[name='game']").select_option("drumlin")
    leo.page.locator("[data-quick-form] button[type='submit']").click()
    leo.page.wait_for_url(re.compile(r"/en/play/table/\d+/$"))
    expect(leo.page.locator("[data-status]")).to_have_text("Your turn.", timeout=15_000)
    expect(leo.page.locator("[data-guide]")).to_contain_text("Your turn: choose a piece")
    leo.assert_no_console_errors()
