"""The table page's socket in a real Chromium against a real site: a page whose
hello is refused catches up without a reload (issue 28: "a page can stay deaf
until reloaded"), and a page signed out elsewhere says so (issue 29, finding 4).

The hello is refused as the reproduction of issue 28 did it: the person's
message budget is spent on another socket of theirs (the site runs with a small
LUDO_WS_PERSON_RATE_LIMIT) and the page's socket is then dropped (a proxy in
the browser closes it, as a network hiccup would); its new socket's hello is
answered ``rate_limited``.
"""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.games.test_browser_ratings import sign_up
from tests.games.ui_server import LiveSite, guest_page, live_site  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.both_stacks]

PERSON_BUDGET = 30  # messages per 20 s over all of a person's sockets, on this site


@pytest.fixture
def server_env(server_env: dict[str, str]) -> dict[str, str]:
    return {**server_env, "LUDO_WS_PERSON_RATE_LIMIT": str(PERSON_BUDGET)}


def api(page: Any, site: LiveSite, path: str, body: dict | None = None) -> dict:
    if body is None:
        response = page.request.get(site.url(path))
    else:
        page.request.get(site.url("/api/games/"))  # the CSRF cookie
        token = next(c["value"] for c in page.context.cookies() if c["name"] == "csrftoken")
        response = page.request.post(site.url(path), data=json.dumps(body),
                                     headers={"X-CSRFToken": token, "Content-Type": "application/json"})
    assert response.ok, response.text()
    return response.json()


def my_turn(page: Any, site: LiveSite, table: int, timeout: float = 30) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        state = api(page, site, f"/api/tables/{table}/")
        if state["status"] == "running" and state["seat"] in state["to_act"]:
            return state
        assert time.monotonic() < deadline, state
        time.sleep(0.2)


def spend_the_budget(site: LiveSite, table: int, session: str) -> None:
    """Another socket of the same person, saying more than the person may."""
    from websockets.sync.client import connect

    with connect(site.server.ws_url(f"/ws/tables/{table}/"), origin=site.server.origin,
                 additional_headers={"Cookie": f"sessionid={session}"}, open_timeout=10) as ws:
        for n in range(PERSON_BUDGET + 5):
            ws.send(json.dumps({"t": "ping", "id": n}))
        while json.loads(ws.recv(10)).get("code") != "rate_limited":
            pass


def test_a_page_whose_hello_is_rate_limited_catches_up_without_a_reload(chromium, live_site):
    site = live_site
    zoe = guest_page(chromium, site, "Zoé")
    page = zoe.page
    routes: list[Any] = []
    heard: list[dict] = []

    def through(ws: Any) -> None:  # every table socket of the page, passed through, its frames noted
        server = ws.connect_to_server()
        ws.on_message(lambda message: server.send(message))
        server.on_message(lambda message: (heard.append(json.loads(message)), ws.send(message)))
        routes.append(ws)

    page.route_web_socket(re.compile(r"/ws/tables/"), through)
    table = api(page, site, "/api/tables/quick/", {"game": "quatre-en-ligne", "level": "easy"})["table"]
    page.goto(site.url(f"/jouer/table/{table}/"))
    state = my_turn(page, site, table)
    expect(page.locator("[data-table-page]")).to_have_attribute("data-v", str(state["v"]))

    session = next(c["value"] for c in page.context.cookies() if c["name"] == "sessionid")
    spend_the_budget(site, table, session)
    heard.clear()
    routes[-1].close()  # the page's socket drops; the page opens another at once
    deadline = time.monotonic() + 20
    while not any(f.get("t") == "error" and f.get("code") == "rate_limited" for f in heard):
        assert time.monotonic() < deadline, f"the new socket's hello was not refused: {heard}"
        page.wait_for_timeout(100)

    # Meanwhile the table moves on (Zoé plays from another device, the bot answers).
    moved = api(page, site, f"/api/tables/{table}/move/", {"move": state["legal"][0], "v": state["v"]})
    after = moved["result"]
    # The page follows without a reload: its hello is said again once the budget allows.
    deadline = time.monotonic() + 45
    while int(page.locator("[data-table-page]").get_attribute("data-v")) < after:
        assert time.monotonic() < deadline, "the page stayed a version behind"
        page.wait_for_timeout(200)
    expect(page.locator("[data-connection]")).to_have_attribute("data-state", "open")
    zoe.assert_no_console_errors()


def test_a_page_signed_out_in_another_tab_says_so_and_stops(chromium, live_site):
    site = live_site
    bob = sign_up(chromium, site, "bobette")
    page = bob.page
    table = api(page, site, "/api/tables/quick/", {"game": "quatre-en-ligne", "level": "easy"})["table"]
    page.goto(site.url(f"/jouer/table/{table}/"))
    connection = page.locator("[data-connection]")
    expect(connection).to_have_attribute("data-state", "open")
    other = page.context.new_page()
    other.goto(site.url("/"))
    other.locator(f"form[action='{reverse('logout')}'] button").click()
    expect(connection).to_have_attribute("data-state", "signed_out", timeout=10_000)
    expect(connection).to_contain_text("déconnecté")
    page.wait_for_timeout(2_000)  # no reconnection as a visitor
    expect(connection).to_have_attribute("data-state", "signed_out")
    bob.assert_no_console_errors()
