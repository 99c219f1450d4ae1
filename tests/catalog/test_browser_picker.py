"""The picker on a phone (390x844), in a real Chromium: a group of three asks for
something to think about in an hour; the answer opens on the first screen with
the first pick, its one-line facts, its "Pourquoi" and (issue #26) the word that
its only box on the shelf is incomplete, and neither the form nor the answer has
an axe-core (WCAG 2.2 A/AA) violation; ticking "jeux coopératifs" keeps only the
co-operative box, its reason on the first screen. Screenshots at phone and desktop sizes."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.a11y import at_least, describe, install_axe, violations
from tests.servers import ROOT, DaphneServer

# Markup and layout only: the same on either stack.
pytestmark = [pytest.mark.browser, pytest.mark.one_stack]

SETUP = """
from boxes.models import BoxState
from catalog.collection.models import Game
from catalog.shelves import services
for title, low, high, t_min, t_max, age, weight in [
    ("Race for the Galaxy", 2, 4, 30, 60, 12, "3"), ("Istanbul", 2, 5, 40, 60, 10, "3"),
    ("Res Arcana", 2, 4, 30, 60, 12, "3"), ("Pandemic Legacy: Season 1", 2, 4, 60, 60, 13, "3"),
    ("Azul", 2, 4, 30, 45, 8, "2"),
]:
    g = Game(title=title, min_players=low, max_players=high, min_time=t_min, max_time=t_max, min_age=age,
             weight=weight, rating=7.8, rating_count=20000, owned_count=40000)
    g.save()
    copy = services.add_copy(g, "A1")
    if weight == "3":  # every box a thinky group may be offered misses a part, still playable
        BoxState.objects.create(copy=copy, incomplete=True)
island = Game(title="Forbidden Island", bgg_id=65244, min_players=2, max_players=4, min_time=30, max_time=30,
              min_age=10, weight="2", rating=6.8, rating_count=20000, owned_count=40000)  # co-operative (the list)
island.save()
services.add_copy(island, "A1")
"""


def test_three_thinkers_see_their_first_pick_and_why_on_the_first_phone_screen(server_env, chromium):
    subprocess.run([sys.executable, "manage.py", "shell", "-c", SETUP], env=server_env, cwd=ROOT,
                   capture_output=True, text=True, check=True)
    context = chromium.new_context(viewport={"width": 390, "height": 844}, locale="fr-FR")
    context.set_default_timeout(10_000)
    install_axe(context)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        with DaphneServer(server_env) as server:
            page.goto(server.url("/catalogue/quoi-jouer/"))
            found = violations(page)
            assert not at_least(found, "moderate"), describe(found, "picker form")
            page.get_by_label("Combien êtes-vous ?").select_option("3")
            page.get_by_label("Âge du plus jeune").fill("14")
            page.locator("#id_mood").select_option("thinky")
            page.get_by_role("button", name="Proposer des jeux").click()
            first = page.locator("#picks .pick").first
            first.wait_for()
            # The answer's address ends in #picks: wait until the browser has scrolled there
            # (the answer at the top, or the page at its end).
            page.wait_for_function("""() => document.querySelector('#picks').getBoundingClientRect().top < 60
              || window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 2""")
            assert first.locator("h3").inner_text() in ("Race for the Galaxy", "Istanbul", "Res Arcana")
            assert "Pandemic Legacy" not in page.locator("#picks").inner_text()  # a campaign: not unless asked
            # On the first screen: the first pick's name, its facts line and why.
            for part in (first.locator("h3"), first.locator(".facts"), first.locator("[data-box-incomplete]"),
                         first.locator(".why")):
                box = part.bounding_box()
                assert box and 0 <= box["y"] and box["y"] + box["height"] <= 844, part
            assert "–60 min, " in first.locator(".facts").inner_text()  # "2–4 joueurs, 30–60 min, dès 12 ans"
            assert "Pourquoi" in first.locator(".why").inner_text()
            assert first.locator("[data-box-incomplete]").inner_text().startswith("Boîte incomplète")
            found = violations(page)
            assert not at_least(found, "moderate"), describe(found, "picker answer")
            page.screenshot(path=str(ROOT / "artifacts" / "screenshots" / "test_browser_picker-phone.png"), full_page=False)
            # An option ticked: only the co-operative game, saying so, still on the first screen.
            page.locator("#id_mood").select_option("anything")
            page.get_by_label("jeux coopératifs").check()
            page.get_by_role("button", name="Proposer des jeux").click()
            page.wait_for_url("**like=coop**")
            picks = page.locator("#picks .pick")
            picks.first.wait_for()
            assert picks.count() == 1 and picks.first.locator("h3").inner_text() == "Forbidden Island"
            why = picks.first.locator(".why")
            assert "coopératif" in why.inner_text()
            box = why.bounding_box()
            assert box and 0 <= box["y"] and box["y"] + box["height"] <= 844
            found = violations(page)
            assert not at_least(found, "moderate"), describe(found, "picker with an option")
            page.set_viewport_size({"width": 1280, "height": 800})
            page.screenshot(path=str(ROOT / "artifacts" / "screenshots" / "test_browser_picker-desktop.png"), full_page=False)
    finally:
        context.close()
    assert not errors
