"""The banner at the board (static/js/table/main.js), in a real Chromium against a
scripted table socket (the helpers of test_browser_shell.py): a draw offer names who
offered and carries the answer; a seat handed to a bot says whose, and the seat keeps
the person's name with a "(robot)" mark; time trouble names who is short of time; a
rematch offer names who offered, and the result names the person whose seat a bot
finished. Each time the banner is inside the viewport, on a phone too."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.games.test_browser_shell import board, frame, open_table

pytestmark = pytest.mark.browser


def in_viewport(page: Any, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    height = page.viewport_size["height"]
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height


def with_bot(data: dict[str, Any]) -> dict[str, Any]:
    """Léo's seat (1) handed to an easy bot: the server keeps his name on it."""
    data["seats"][1] = {**data["seats"][1], "bot": "easy"}
    return data


@pytest.mark.parametrize("viewport", [{"width": 390, "height": 844}, {"width": 1280, "height": 800}])
def test_offers_handover_time_trouble_and_the_end_are_banners_naming_who(daphne_server, browser_page, viewport):
    page = browser_page.page
    page.set_viewport_size(viewport)
    hello = frame("state", 5, ["e2-e3"], to_act=(0,))
    hello["draw_offers"] = [1]
    table = open_table(daphne_server, browser_page, "drumlin", lambda: hello)
    expect(board(page)).to_have_attribute("data-version", "5")

    # Léo offers a draw: Zoé reads who, and answers from the banner.
    banner = page.locator("[data-banner]")
    expect(banner).to_have_attribute("data-kind", "draw")
    expect(page.locator("[data-banner-text]")).to_have_text("Léo propose la nulle.")
    assert in_viewport(page, "[data-banner]")
    page.locator("[data-banner] [data-draw='decline']").click()
    page.wait_for_timeout(200)
    assert {"t": "draw", "action": "decline"}.items() <= table.received[-1].items()

    # The offer is gone; Léo has been away too long and his seat goes to a bot.
    handed = with_bot(frame("update", 6, ["e2-e3"], events=[{"v": 6, "kind": "kick", "seat": 1, "at": None}]))
    table.send(handed)
    expect(banner).to_have_attribute("data-kind", "handover")
    expect(page.locator("[data-banner-text]")).to_have_text(
        "Léo est absent depuis trop longtemps : un robot joue à sa place.")
    expect(page.locator("[data-players] [data-seat='1'] .player-name")).to_have_text("Léo (robot)")
    assert in_viewport(page, "[data-banner]")

    # Time trouble: the bot's seat has 15 s left on a running clock.
    short = with_bot(frame("update", 7, [], to_act=(1,)))
    short["clock"] = {"kind": "game", "base": 300, "increment": 0, "server_time": "2026-01-01T00:00:00+00:00",
                      "seats": [{"ms": 250_000, "running": False}, {"ms": 15_000, "running": True}]}
    table.send(short)
    expect(banner).to_have_attribute("data-kind", "time")
    expect(page.locator("[data-banner-text]")).to_contain_text("Il reste moins de 20 secondes à Léo (robot).")
    assert in_viewport(page, "[data-banner]")

    # The end: the result names Léo, whose seat the bot finished, and his rematch offer.
    over = with_bot(frame("update", 8, [], to_act=(), status="finished"))
    over["outcome"] = {"winners": [1], "scores": [0, 1], "reason": "base-line"}
    over["rematch_offers"] = [1]
    table.send(over)
    expect(page.locator("[data-outcome-text]")).to_have_text(
        "Gagnant, Léo (robot) : le Drumlin a atteint la ligne de base.")
    expect(page.locator("[data-banner-text]")).to_contain_text("Léo (robot) propose une revanche.")
    assert in_viewport(page, "[data-outcome]")
    browser_page.assert_no_console_errors()
