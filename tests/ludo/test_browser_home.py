"""The home page in a real Chromium, served by a real daphne: both languages,
the language switch by clicking, no console error (a CSP violation is one),
and screenshots on a phone and on a desktop (artifacts/screenshots/)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser


@pytest.fixture
def daphne_server(shared_daphne_server):
    """One server for the module (the tests only read pages)."""
    return shared_daphne_server

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


def test_it_shows_the_home_page_in_french_and_english_and_switches_by_clicking(daphne_server, browser_page):
    page = browser_page.page
    page.goto(daphne_server.url("/"))
    assert page.locator("html").get_attribute("lang") == "fr"
    assert page.locator("h1").inner_text() == "Venez jouer"
    nav = page.get_by_role("navigation", name="Navigation principale")
    for label in ("Catalogue", "Jouer", "Sessions"):
        assert nav.get_by_role("link", name=label).is_visible()
    assert page.get_by_role("link", name="Connexion").is_visible()
    # The stylesheet applied (a CSP block or a 404 would leave the header unstyled).
    assert page.locator(".site-header").evaluate("e => getComputedStyle(e).display") == "flex"

    page.set_viewport_size(PHONE)
    browser_page.screenshot("home-fr-phone")
    page.set_viewport_size(DESKTOP)
    browser_page.screenshot("home-fr-desktop")

    page.get_by_role("button", name="EN").click()
    page.wait_for_url(daphne_server.url("/en/"))
    assert page.locator("html").get_attribute("lang") == "en"
    assert page.locator("h1").inner_text() == "Come and play"
    assert page.get_by_role("link", name="Log in").is_visible()
    browser_page.screenshot("home-en-desktop")
    page.set_viewport_size(PHONE)
    browser_page.screenshot("home-en-phone")

    # Follow a translated path and switch back: the French twin of the same page. On the
    # phone the header's links are behind its menu button.
    page.get_by_role("button", name="Menu").click()
    page.get_by_role("link", name="Log in").click()
    page.wait_for_url(daphne_server.url("/en/account/login/"))
    page.get_by_role("button", name="Menu").click()
    page.get_by_role("button", name="FR").click()
    page.wait_for_url(daphne_server.url("/compte/connexion/"))
    assert page.locator("h1").inner_text() == "Connexion"

    browser_page.assert_no_console_errors()


def test_it_reports_a_csp_violation_as_a_console_error(daphne_server, browser_page):
    """The probe itself works: an inline script on one of our pages is refused and reported."""
    page = browser_page.page
    page.goto(daphne_server.url("/"))
    with page.expect_console_message(lambda message: "Content Security Policy" in message.text):
        page.evaluate(
            "() => { const s = document.createElement('script');"
            " s.textContent = 'window.ran = 1'; document.body.append(s); }"
        )
    assert page.evaluate("() => window.ran") is None
    assert any("Content Security Policy" in error for error in browser_page.console_errors), browser_page.console_errors
