"""The replay page in a real Chromium: a finished Drumlin game (played through the
HTTP API by two guests) stepped forward and back, a jump to a move, autoplay, a
shareable link to one move, the keyboard, and the export."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.games.tables_helpers import short_game
from tests.games.ui_server import DESKTOP, PHONE, guest_page, live_site  # noqa: F401  (fixture)

pytestmark = pytest.mark.browser
BOARD_HTML = "nodes => nodes.map(n => n.innerHTML).join()"


def api(site: Any, page: Any, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    """A call to the HTTP API as this browser's person (their cookies, their CSRF token)."""
    if body is None:
        response = page.request.get(site.url(path))
    else:
        if not any(c["name"] == "csrftoken" for c in page.context.cookies()):
            page.request.get(site.url("/api/games/"))
        token = next(c["value"] for c in page.context.cookies() if c["name"] == "csrftoken")
        response = page.request.post(site.url(path), data=json.dumps(body),
                                     headers={"X-CSRFToken": token, "Content-Type": "application/json"})
    assert response.ok, response.text()
    return response.json()


def finished_game(site: Any, zoe: Any, leo: Any) -> tuple[int, list[tuple[int, str]]]:
    table = api(site, zoe, "/api/tables/", {"game": "drumlin"})
    number = table["table"]
    api(site, leo, f"/api/tables/{number}/join/", {})
    version = api(site, zoe, f"/api/tables/{number}/start/", {})["table"]["v"]
    moves = short_game("drumlin", 2, seed=4, decisive=True)
    for seat, move in moves:
        player = zoe if seat == 0 else leo
        version = api(site, player, f"/api/tables/{number}/move/", {"move": move, "v": version})["result"]
    assert api(site, zoe, f"/api/tables/{number}/")["status"] == "finished"
    return number, moves


def position(page: Any) -> str:
    return page.locator("[data-position]").inner_text()


def test_the_replay_steps_through_a_finished_game(live_site, chromium):
    zoe = guest_page(chromium, live_site, "Zoé", label="test_browser_replay-zoe")
    leo = guest_page(chromium, live_site, "Léo", label="test_browser_replay-leo")
    number, moves = finished_game(live_site, zoe.page, leo.page)
    count = len(moves)

    page = zoe.page
    page.goto(live_site.url(f"/jouer/table/{number}/revoir/"))
    expect(page.locator("[data-position]")).to_have_text("Début de la partie")
    assert page.locator("[data-square] .piece").count() == 24
    assert page.locator("[data-moves] li").count() == count + 1
    assert page.locator("[data-go='prev']").is_disabled()

    # Step forward: Léo (pink) placed the Drumlin first.
    page.locator("[data-go='next']").click()
    expect(page.locator("[data-position]")).to_have_text(f"Coup 1 sur {count}")
    # The move in words (Drumlin's first move places the Drumlin), its notation as the title.
    expect(page.locator("[data-replay-status]")).to_have_text(f"Léo place le Drumlin en {moves[0][1][1:]}.")
    expect(page.locator("[data-moves] li[data-step='1'] .move-text")).to_have_attribute("title", moves[0][1])
    placed = moves[0][1][1:]
    assert page.locator(f"[data-square='{placed}'] .drumlin-stone").count() == 1
    assert "last" in page.locator(f"[data-square='{placed}']").get_attribute("class")

    # To the end, and one back.
    page.locator("[data-go='last']").click()
    expect(page.locator("[data-position]")).to_have_text(f"Coup {count} sur {count}")
    assert page.locator("[data-go='next']").is_disabled()
    assert "Gagnant" in page.locator("[data-outcome]").inner_text()
    page.locator("[data-go='prev']").click()
    expect(page.locator("[data-position]")).to_have_text(f"Coup {count - 1} sur {count}")

    # Jump to a move from the list; the address names it, so the link can be shared.
    page.locator("[data-moves] li[data-step='3'] button").click()
    expect(page.locator("[data-position]")).to_have_text(f"Coup 3 sur {count}")
    assert re.search(r"[?&]step=3\b", page.url)
    shared = page.locator("[data-share-link]").input_value()
    assert shared == page.url
    board_at_3 = page.locator("[data-square] .sq-pieces").evaluate_all(BOARD_HTML)

    # Someone else opens the link: the same move, the same board.
    leo.page.goto(shared)
    expect(leo.page.locator("[data-position]")).to_have_text(f"Coup 3 sur {count}")
    assert leo.page.locator("[data-square] .sq-pieces").evaluate_all(BOARD_HTML) == board_at_3

    # The keyboard: arrows step, Home and End jump.
    page.locator("body").press("ArrowRight")
    expect(page.locator("[data-position]")).to_have_text(f"Coup 4 sur {count}")
    page.locator("body").press("Home")
    expect(page.locator("[data-position]")).to_have_text("Début de la partie")

    # Autoplay from two moves before the end runs to the end and stops there.
    page.locator(f"[data-moves] li[data-step='{count - 2}'] button").click()
    page.locator("[data-go='play']").click()
    expect(page.locator("[data-go='play']")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("[data-position]")).to_have_text(f"Coup {count} sur {count}", timeout=10_000)
    expect(page.locator("[data-go='play']")).to_have_attribute("aria-pressed", "false", timeout=5_000)

    # The export: the whole log as JSON, with the moves since the game is over.
    href = page.locator("[data-export]").get_attribute("href")
    assert href == f"/api/tables/{number}/export/"
    exported = page.request.get(live_site.url(href)).json()
    assert exported["format"] == "ludo-table/1"
    assert [a["move"] for a in exported["actions"] if a["kind"] == "move"] == [m for _, m in moves]

    page.set_viewport_size(PHONE)
    zoe.screenshot("replay-phone")
    page.set_viewport_size(DESKTOP)
    zoe.screenshot("replay-desktop", full_page=False)
    zoe.assert_no_console_errors()
    leo.assert_no_console_errors()
