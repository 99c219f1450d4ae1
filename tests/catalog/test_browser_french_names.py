"""A host on a phone, in a real Chromium: the list of games with no French name
shows the most owned game and its form on the first screen, and what the look-ups
found for a game (a title a page suggested, to check on the box); the host adds the French
name in one step and the game leaves the list. axe-core finds no WCAG
violation on a phone or a desktop."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.a11y import describe, install_axe, violations
from tests.servers import ROOT, DaphneServer

pytestmark = pytest.mark.browser

PASSWORD = "a long host passphrase for the names page"
SETUP = f"""
import json
from django.urls import reverse
from django.utils import translation
from catalog.collection.models import Game, GameName, refresh_titles
from ludo.accounts import create_staff_account
create_staff_account("odile", "odile@example.org", {PASSWORD!r})
catan = Game(title="Catan", owned_count=165000); catan.save()
GameName.objects.create(game=catan, language="fr", name="Catan", primary=True); refresh_titles([catan])
operation = Game(title="Operation", year=1965, owned_count=6522); operation.save()
Game(title="Pendulum", bgg_id=312804, owned_count=6000).save()  # a doubtful title in the shipped research log
for n in range(40):
    Game(title=f"Game number {{n}}", owned_count=1000 - n).save()
with translation.override("fr"):
    print(json.dumps({{"pk": operation.pk, "url": reverse("catalog:french_names")}}))
"""


def test_a_host_adds_a_french_name_from_the_phone(server_env, browser_page):
    done = subprocess.run([sys.executable, "manage.py", "shell", "-c", SETUP], env=server_env, cwd=ROOT,
                          capture_output=True, text=True, check=True)
    made = json.loads(done.stdout.strip().splitlines()[-1])
    page = browser_page.page
    install_axe(page.context)
    with DaphneServer(server_env) as server:
        page.goto(server.url("/compte/connexion/"))
        page.get_by_label("Nom d’utilisateur").fill("odile")
        page.get_by_label("Mot de passe").fill(PASSWORD)
        page.get_by_role("button", name="Connexion").click()
        page.wait_for_url(server.url("/"))

        page.set_viewport_size({"width": 390, "height": 844})
        page.goto(server.url(made["url"]))
        first = page.locator(".naming-item").first
        assert "Operation" in first.inner_text() and "Catan" not in page.locator(".naming-list").inner_text()
        name, source = page.locator(f"#name-{made['pk']}"), page.locator(f"#source-{made['pk']}")
        button = first.get_by_role("button")
        for part in (page.locator("h1"), name, source, button):  # the first screen, no scrolling
            box = part.bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390
            assert box["y"] + box["height"] <= 844
        pendulum = page.locator(".naming-item").nth(1)
        assert "Pendulum" in pendulum.inner_text() and "Une page a suggéré le titre français" in pendulum.inner_text()
        assert pendulum.locator("input[name=name]").input_value() == ""  # never filled in for the host
        pendulum.locator("summary").click()  # the look-up's note opens
        found = violations(page)
        assert not found, describe(found, "phone")
        browser_page.screenshot("phone", full_page=False)

        name.fill("Docteur Maboul")
        source.select_option("edition")
        button.click()
        page.wait_for_load_state()
        assert "Docteur Maboul" in page.locator(".messages").inner_text()
        assert "Operation" not in page.locator(".naming-list").inner_text()

        page.set_viewport_size({"width": 1280, "height": 800})
        found = violations(page)
        assert not found, describe(found, "desktop")
        browser_page.screenshot("desktop", full_page=False)
    browser_page.assert_no_console_errors()
