"""The rulebook reader in a real Chromium: original and translation side by side on
a wide screen, one at a time with a switch on a phone; no CSP error."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.servers import ROOT, DaphneServer

pytestmark = pytest.mark.browser

SETUP = """
from catalog.collection.models import Game
from catalog.rulebooks import services
from catalog.rulebooks.uploads import Upload
game = Game(title="Drumlin"); game.save()
original = services.add_text_document(game, Upload("de.txt", "Der Drache fliegt über das Feld.".encode()),
                                      title="Spielregel", language="de")
translation = services.add_text_document(game, Upload("fr.txt", "Le dragon survole la case.".encode()),
                                         title="Règle", language="fr")
services.link_translation(translation, original)
print(translation.pk)
"""


def test_the_reader_shows_both_sides_on_a_desktop_and_switches_on_a_phone(server_env, browser_page):
    done = subprocess.run([sys.executable, "manage.py", "shell", "-c", SETUP], env=server_env, cwd=ROOT,
                          capture_output=True, text=True, check=True)
    pk = int(done.stdout.strip().splitlines()[-1])
    page = browser_page.page
    with DaphneServer(server_env) as server:
        page.goto(server.url(f"/catalogue/regles/{pk}/page/1/"))
        main, other = page.locator('section[data-pane="main"]').first, page.locator('section[data-pane="other"]').first
        assert "Le dragon survole" in main.inner_text() and "Der Drache fliegt" in other.inner_text()
        left, right = main.bounding_box(), other.bounding_box()
        assert right["x"] > left["x"] + left["width"] - 1 and abs(right["y"] - left["y"]) < 2
        assert not page.locator("[data-pane-switch]").is_visible()
        browser_page.screenshot("reader-desktop")

        page.set_viewport_size({"width": 390, "height": 844})
        assert main.is_visible() and not other.is_visible()
        page.get_by_role("tab", name="Allemand").click()
        assert other.is_visible() and not main.is_visible()
        browser_page.screenshot("reader-phone-original")
        page.get_by_role("tab", name="Français").click()
        assert main.is_visible() and not other.is_visible()
    browser_page.assert_no_console_errors()
