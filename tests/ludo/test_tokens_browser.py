"""A real browser (Chromium) opens a socket with a token the way docs/api.md
says browsers must: as the subprotocol ``ludo.bearer.<token>`` after ``ludo``."""

from __future__ import annotations

import json
from urllib.request import Request, urlopen

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.both_stacks]

OPEN_AND_PING = """async ([url, protocols]) => await new Promise((resolve) => {
  const socket = new WebSocket(url, protocols);
  socket.onopen = () => socket.send(JSON.stringify({t: "ping", id: "b1"}));
  socket.onmessage = (event) => { resolve({protocol: socket.protocol, frame: JSON.parse(event.data)}); socket.close(); };
  socket.onclose = (event) => resolve({closed: event.code});
})"""


def guest_token(server, name: str) -> str:
    request = Request(server.url("/api/guest"), data=json.dumps({"name": name}).encode(),
                      headers={"Content-Type": "application/json"}, method="POST")
    with urlopen(request, timeout=10) as answer:
        return json.load(answer)["token"]


def test_chromium_opens_a_socket_with_the_token_subprotocol_and_a_bad_one_is_refused(daphne_server, browser_page):
    token = guest_token(daphne_server, "Navigateur")
    page = browser_page.page
    page.goto(daphne_server.url("/"))
    url = daphne_server.ws_url("/ws/ping/")
    opened = page.evaluate(OPEN_AND_PING, [url, ["ludo", f"ludo.bearer.{token}"]])
    assert opened["protocol"] == "ludo" and opened["frame"]["t"] == "pong", opened
    refused = page.evaluate(OPEN_AND_PING, [url, ["ludo", "ludo.bearer.ludo_gst_" + "Z" * 40]])
    assert refused == {"closed": 1006}
    # Failed handshakes are logged by the browser itself; nothing else went wrong.
    assert all("WebSocket connection" in line for line in browser_page.console_errors), browser_page.console_errors
