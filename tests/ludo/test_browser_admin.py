"""A host logs in through the site's form and works in the admin, in Chromium,
with no console error (Django's admin must live with our CSP too)."""

from __future__ import annotations

import pytest

from tests.servers import manage

pytestmark = pytest.mark.browser
HOST_PASSWORD = "a long host passphrase for the test"


def test_a_host_logs_in_and_reaches_the_admin_without_console_errors(server_env, daphne_server, browser_page):
    manage("create_staff", "odile", "odile@example.org", "--password-env", "HOST_PASSWORD",
           env={**server_env, "HOST_PASSWORD": HOST_PASSWORD})
    page = browser_page.page
    page.goto(daphne_server.url("/compte/connexion/"))
    page.get_by_label("Nom d’utilisateur").fill("odile")
    page.get_by_label("Mot de passe").fill(HOST_PASSWORD)
    page.get_by_role("button", name="Connexion").click()
    page.wait_for_url(daphne_server.url("/"))
    # The hosts' menu: the boxes to count beside the admin, the header still one row.
    boxes = page.get_by_role("link", name="Boîtes", exact=True)
    assert boxes.is_visible() and boxes.get_attribute("href") == "/boites/"
    header = page.locator(".site-header").bounding_box()
    assert header["height"] < 90, header
    browser_page.screenshot("home-host")
    page.get_by_role("link", name="Administration").click()
    page.wait_for_url(daphne_server.url("/admin/"))
    assert page.locator("#site-name").is_visible()
    browser_page.screenshot("admin-index")
    browser_page.assert_no_console_errors()


def test_an_anonymous_visitor_is_sent_to_the_admin_login(daphne_server, browser_page):
    page = browser_page.page
    page.goto(daphne_server.url("/admin/"))
    assert "/admin/login/" in page.url
    browser_page.assert_no_console_errors()
