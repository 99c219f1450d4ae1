"""A guest on the French site, in a real Chromium: types the name on the French box,
sees that game first under its French name, opens it, then asks the picker for 12
players and is offered tables. Screenshots at phone and desktop sizes."""

from __future__ import annotations

import subprocess
import sys

import pytest

from ludo.typography import french as typeset
from tests.servers import ROOT, DaphneServer

pytestmark = pytest.mark.browser

SETUP = """
from catalog.collection.models import Game, GameName, refresh_titles
from catalog.shelves import services
def game(title, owned, french=None, **fields):
    g = Game(title=title, owned_count=owned, min_time=30, max_time=60, min_age=8, **fields); g.save()
    if french:
        GameName.objects.create(game=g, language="fr", name=french, primary=True)
        refresh_titles([g])
    services.add_copy(g, f"A{g.pk}")
    return g
game("Ticket to Ride", 160000, "Les Aventuriers du Rail", min_players=2, max_players=5, weight="1.8", rating=7.4, rating_count=500)
game("Ticket to Ride: Europe", 90000, "Les Aventuriers du Rail : Europe", min_players=2, max_players=5, weight="1.9", rating=7.5, rating_count=500)
game("Aventuriers du rail (fan edition)", 105, min_players=2, max_players=4)
game("The Werewolves of Miller's Hollow", 50000, "Les Loups-Garous de Thiercelieux", min_players=8, max_players=18, weight="1.3", rating=6.6, rating_count=500)
game("Codenames", 150000, min_players=2, max_players=8, weight="1.3", rating=7.6, rating_count=500)
game("Dixit", 100000, min_players=3, max_players=6, weight="1.2", rating=7.3, rating_count=500)
game("Azul", 120000, min_players=2, max_players=4, weight="1.8", rating=7.8, rating_count=500)
game("Wingspan", 110000, min_players=1, max_players=5, weight="2.4", rating=8.1, rating_count=500)
game("Just One", 60000, min_players=3, max_players=7, weight="1.1", rating=7.6, rating_count=500)
game("Skull", 40000, min_players=3, max_players=6, weight="1.1", rating=7.1, rating_count=500)
"""


def test_a_guest_finds_the_french_box_name_opens_it_and_the_picker_proposes_tables(server_env, browser_page):
    subprocess.run([sys.executable, "manage.py", "shell", "-c", SETUP], env=server_env, cwd=ROOT,
                   capture_output=True, text=True, check=True)
    page = browser_page.page
    with DaphneServer(server_env) as server:
        page.goto(server.url("/catalogue/"))
        page.get_by_label("Titre").fill("aventuriers du rail")
        with page.expect_navigation():
            page.get_by_role("button", name="Chercher").click()
        first = page.locator(".game-card").first
        assert first.locator("h3 a").inner_text() == "Les Aventuriers du Rail"
        assert "Ticket to Ride" in first.inner_text()  # the original name, beside it
        browser_page.screenshot("search-desktop")
        page.set_viewport_size({"width": 390, "height": 844})
        browser_page.screenshot("search-phone")
        page.set_viewport_size({"width": 1280, "height": 800})

        with page.expect_navigation():
            first.locator("h3 a").click()
        assert page.locator("h1").inner_text().startswith("Les Aventuriers du Rail")
        assert "Titre original" in page.content()
        browser_page.screenshot("game-desktop")

        page.goto(server.url("/catalogue/quoi-jouer/"))
        page.get_by_label("Combien êtes-vous ?").select_option("12")
        with page.expect_navigation():
            page.get_by_role("button", name="Proposer des jeux").click()
        page.get_by_role("heading", name="Ou répartis en plusieurs tables").wait_for()
        tables = page.locator(".split .table")
        assert tables.count() >= 2
        assert "Pourquoi" in tables.first.inner_text()
        heading = page.locator(".split").first.locator("h3").first.inner_text()
        assert heading.startswith(typeset("2 tables : 6 + 6"))
        browser_page.screenshot("picker-desktop")
        page.set_viewport_size({"width": 390, "height": 844})
        browser_page.screenshot("picker-phone")
    browser_page.assert_no_console_errors()
