"""The demo's Drumlin rules in a real Chromium: the French translation opens beside the
German 1986 rules, section by section, on a desktop; one column and a switch on a
phone. Screenshots of both go to artifacts/screenshots/."""

from __future__ import annotations

import subprocess
import sys

import pytest

from catalog import conf
from tests.servers import ROOT, DaphneServer

pytestmark = pytest.mark.browser

SETUP = """
import io
from catalog import demo
from catalog.rulebooks import demo_links
demo._boxes(io.StringIO()); demo._seeds(io.StringIO()); demo_links.link(io.StringIO())
"""


def test_the_drumlin_rules_open_side_by_side_and_switch_on_a_phone(server_env, browser_page):
    if not (conf.shared_dir() / "seeds").is_dir():
        pytest.skip("no seed rulebooks")
    subprocess.run([sys.executable, "manage.py", "shell", "-c", SETUP], env=server_env, cwd=ROOT,
                   capture_output=True, text=True, check=True)
    page = browser_page.page
    with DaphneServer(server_env) as server:
        page.goto(server.url("/catalogue/jeu/drumlin/regles/"))
        page.locator("[data-side-by-side]").first.click()
        page.wait_for_url("**/page/2/")
        setup = page.locator('section[data-pane="main"]', has=page.locator("h3", has_text="Mise en place"))
        beside = setup.locator("xpath=following-sibling::section[1]")
        assert beside.get_attribute("data-pane") == "other" and beside.get_attribute("lang") == "de"
        assert "Anfanqstellung" in beside.inner_text()
        contents = page.locator('section[data-pane="main"]', has=page.locator("h3", has_text="Contenu"))
        assert "Spielmaterial" in contents.locator("xpath=following-sibling::section[1]").inner_text()
        setup.scroll_into_view_if_needed()
        left, right = setup.bounding_box(), beside.bounding_box()
        assert right["x"] > left["x"] + left["width"] - 1 and abs(right["y"] - left["y"]) < 2
        titles = page.locator(".pane-title")
        assert "Français" in titles.nth(0).inner_text() and "Allemand" in titles.nth(1).inner_text()
        assert not page.locator("[data-pane-switch]").is_visible()
        assert "**" not in page.locator(".panes").inner_text()
        page.evaluate("window.scrollTo(0, 0)")
        browser_page.screenshot("desktop-1280x800", full_page=False)
        page.evaluate("document.querySelector('#s-2-4').scrollIntoView()")
        browser_page.screenshot("desktop-1280x800-setup", full_page=False)

        page.set_viewport_size({"width": 390, "height": 844})
        assert setup.is_visible() and not beside.is_visible()
        page.get_by_role("tab", name="Allemand").click()
        assert beside.is_visible() and not setup.is_visible()
        assert page.locator("h3", has_text="Anfanqstellung").is_visible()
        page.evaluate("window.scrollTo(0, 0)")
        browser_page.screenshot("phone-390x844-german", full_page=False)
        page.get_by_role("tab", name="Français").click()
        assert setup.is_visible() and not beside.is_visible()
        browser_page.screenshot("phone-390x844-french", full_page=False)

        # The rules search across languages, the language of each hit marked.
        page.goto(server.url("/catalogue/regles/recherche/?q=Elefant"))
        hits = page.locator("ol.rule-hits > li")
        languages = {hits.nth(i).get_attribute("data-language") for i in range(hits.count())}
        assert {"fr", "de"} <= languages
        assert page.locator("ol.rule-hits mark").first.is_visible()
        browser_page.screenshot("search-phone-390x844", full_page=False)
        page.set_viewport_size({"width": 1280, "height": 800})
        browser_page.screenshot("search-desktop-1280x800", full_page=False)
        page.goto(server.url("/catalogue/jeu/drumlin/regles/"))
        page.locator("table.glossary").scroll_into_view_if_needed()
        assert "Elefant" in page.locator("table.glossary").inner_text()
        browser_page.screenshot("glossary-desktop-1280x800", full_page=False)
    browser_page.assert_no_console_errors()
