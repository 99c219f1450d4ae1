"""The Drekki board's control for the duel's burned mage, in a real Chromium.

The board module is loaded on its own (no site, no socket): a tiny page served
from static/ mounts it and feeds it the views the engine gives each seat when a
duel's charm breaks and the dragon faces the loser's mage. The winner gets one
button per mage it may burn, in the order of its legal moves; the other player
and a spectator see who chooses and between which mages, with no button; a
click sends the move. Screenshots at 1280x800 and 390x844 go to
artifacts/screenshots/.
"""

from __future__ import annotations

import functools
import json
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from games.engines.drekki import RULES
from tests.games.test_drekki_bot import broken_duel
from tests.servers import ROOT, BrowserPage

pytestmark = pytest.mark.browser

PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<link rel="icon" href="data:,"><link rel="stylesheet" href="/css/site.css">
<link rel="stylesheet" href="/css/table.css"><link rel="stylesheet" href="/css/boards-drekki.css"></head>
<body><main class="container" id="host"></main>
<script type="module">
import { mount } from "/js/boards/drekki.js";
window.sent = [];
window.mountBoard = (seat) => {
  window.board = mount(document.getElementById("host"), { seat, onMove: (m) => window.sent.push(m), announce: () => {} });
};
window.ready = true;
</script></body></html>"""


class Handler(SimpleHTTPRequestHandler):
    def do_GET(self) -> None:
        if self.path == "/board.html":
            body = PAGE.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        super().do_GET()

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def static_site():
    handler = functools.partial(Handler, directory=str(ROOT / "static"))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def show(page: Any, base: str, seat: int | None, view: dict[str, Any]) -> None:
    page.goto(f"{base}/board.html")
    page.wait_for_function("window.ready === true")
    page.evaluate(f"window.mountBoard({json.dumps(seat)})")
    ctx = {
        "version": 7,
        "legalMoves": view["legal_moves"],
        "toAct": view["to_act"],
        "players": [{"seat": 0, "name": "Zoé", "isBot": False, "connected": True},
                    {"seat": 1, "name": "Ana", "isBot": False, "connected": True}],
        "interactive": seat is not None,
    }
    page.evaluate("([view, ctx]) => window.board.update(view, ctx)", [view, ctx])


def test_the_winner_clicks_the_mage_that_takes_the_tile(static_site, browser_page: BrowserPage):
    page = browser_page.page
    state = broken_duel()
    show(page, static_site, 1, RULES.view(state, 1))
    box = page.locator('[data-dk="choice"]')
    assert box.is_visible()
    assert box.get_attribute("data-choice") == "burn"
    buttons = box.locator("button[data-move]")
    assert [buttons.nth(k).get_attribute("data-move") for k in range(buttons.count())] == ["burn B2", "burn B1"]
    assert buttons.nth(0).inner_text().strip() == "Mage B2 takes the tile"
    assert "Ana takes the tile (2 burns)" in box.inner_text()
    assert page.locator('[data-dk="prompt"]').inner_text() == "Your charm broke: choose which of your mages takes the tile."
    assert page.locator('[data-dk="auction"]').is_hidden()
    browser_page.screenshot("burn-choice-desktop")
    page.set_viewport_size({"width": 390, "height": 844})
    browser_page.screenshot("burn-choice-phone")
    buttons.nth(1).click()
    assert page.evaluate("window.sent") == ["burn B1"]
    assert page.locator("button[data-move]:not([disabled])").count() == 0  # one move per version
    browser_page.assert_no_console_errors()


@pytest.mark.parametrize("seat", [0, None])
def test_the_others_see_who_chooses_and_between_which_mages(static_site, browser_page: BrowserPage, seat):
    page = browser_page.page
    state = broken_duel()
    show(page, static_site, seat, RULES.view(state, seat))
    box = page.locator('[data-dk="choice"]')
    assert box.is_visible()
    assert box.locator("button").count() == 0
    assert [p.strip() for p in box.locator(".dk-burn-choice").all_inner_texts()] == [
        "Mage B2 takes the tile", "Mage B1 takes the tile"]
    assert page.locator('[data-dk="prompt"]').inner_text() == "Ana picks which of their mages takes the tile."
    # The cards are face up on the table while the winner chooses.
    assert page.locator(".dk-plate .dk-revealed").count() == 4
    if seat is None:
        browser_page.screenshot("burn-choice-spectator")
    after = RULES.play(state, 1, "burn B1")
    show(page, static_site, seat, RULES.view(after, seat))
    assert page.locator('[data-dk="choice"]').is_hidden()
    assert "mage B1 is burned" in page.locator('[data-dk="reveal"]').inner_text()
    browser_page.assert_no_console_errors()
