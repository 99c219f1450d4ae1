"""In a real Chromium on a phone-sized screen (390x844) against a real daphne: a
new player signs up with an address, the worker sends the confirmation link
(the console backend prints it), the player follows it, confirms, and the
account page then says the address is confirmed."""

from __future__ import annotations

import re

import pytest

from tests.ludo.test_browser_account import body_of, last_email
from tests.servers import DaphneServer, free_port, manage

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
PASSWORD = "correct horse battery staple"
SEND_OUTBOX = "from ludo import worker; worker.run_once(['bookings.emails'])"


def test_a_new_account_confirms_its_address_from_the_emailed_link(server_env, browser_page):
    port = free_port()
    env = {**server_env, "SITE_URL": f"http://127.0.0.1:{port}"}
    with DaphneServer(env, port=port) as server:
        page = browser_page.page
        page.set_viewport_size(PHONE)
        page.goto(server.url("/compte/inscription/"))
        page.fill("input[name=username]", "nina")
        page.fill("input[name=email]", "nina@example.org")
        page.fill("input[name=password1]", PASSWORD)
        page.fill("input[name=password2]", PASSWORD)
        page.locator("main form button[type=submit]").click()
        page.wait_for_url(server.url("/"))
        assert "nina@example.org" in page.locator("body").inner_text()  # "a link is on its way"

        page.goto(server.url("/compte/"))
        assert page.get_by_role("button", name="Renvoyer le lien").count() == 1  # not confirmed yet

        message = last_email(manage("shell", "-c", SEND_OUTBOX, env=env).stdout)
        assert message["To"] == "nina@example.org"
        link = re.search(rf"http://127\.0\.0\.1:{port}/compte/adresse/valider/\S+/", body_of(message)).group(0)
        page.goto(link)
        assert page.locator("h1").inner_text() == "Confirmer mon adresse"
        confirm = page.get_by_role("button", name="Confirmer cette adresse")
        box = confirm.bounding_box()  # the one thing this page is for, on the first screen
        assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= PHONE["height"], box
        confirm.click()
        page.wait_for_url("**/compte/")
        assert "Votre adresse nina@example.org est confirmée." in page.locator("body").inner_text()
        assert page.get_by_text("Votre adresse est confirmée.").count() == 1
        assert page.get_by_role("button", name="Renvoyer le lien").count() == 0
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"the account page scrolls sideways on a phone ({width}px)"
        browser_page.screenshot("signup-confirmed-phone")
        browser_page.assert_no_console_errors()
