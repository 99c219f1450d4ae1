"""The table page as a newcomer meets it, in a real Chromium on a live site, on a phone
(390x844) and a desktop (1280x800): for each game the top of the board is in view
without scrolling, an illegal click is explained in words in view, the moves are
listed in words (the notation as their title), and a draw offer reaches the other
player as a banner at the board that names who offered.

Screenshots of each board at both sizes go to artifacts/screens/ in the checkout, or to
the folder named by the LUDO_SCREENS variable.
"""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.games.ui_server import DESKTOP, PHONE, LiveSite, guest_page  # noqa: F401
from tests.games.module_site import live_site, module_live_site, shared_live_site  # noqa: F401  (fixtures)
from tests.servers import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.one_stack]

SHOTS = Path(os.environ.get("LUDO_SCREENS") or ARTIFACTS / "screens")
SIZES = {"phone": PHONE, "desktop": DESKTOP}


def api(probe: Any, site: LiveSite, path: str, body: dict | None = None) -> dict:
    """GET (body None) or POST the table API from the page's session, with its CSRF token."""
    page = probe.page
    if body is None:
        response = page.request.get(site.url(path))
    else:
        page.request.get(site.url("/api/games/"))  # sets the csrftoken cookie
        token = next(c["value"] for c in page.context.cookies() if c["name"] == "csrftoken")
        response = page.request.post(site.url(path), data=json.dumps(body),
                                     headers={"X-CSRFToken": token, "Content-Type": "application/json"})
    assert response.ok, response.text()
    return response.json()


def quick_table(probe: Any, site: LiveSite, slug: str, seats: int | None = None) -> int:
    body = {"game": slug, "level": "easy"}
    if seats:
        body["seats"] = seats
    table = api(probe, site, "/api/tables/quick/", body)
    probe.page.goto(site.url(f"/jouer/table/{table['table']}/"))
    return table["table"]


def wait_for_turn(probe: Any, site: LiveSite, table: int, timeout: float = 30.0) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        state = api(probe, site, f"/api/tables/{table}/")
        if state["status"] == "running" and state["seat"] in state["to_act"] and state["legal"]:
            # The page shows that version too, and its board has drawn it. A socket that
            # missed a broadcast catches up at its next presence refresh (games.sockets
            # TOUCH_EVERY, 20 s, then the page's next ping and the 2 s batch). On a loaded
            # CI machine with Redis a page has stayed a version behind for over 60 s (an
            # open bug, in the session notes): past 30 s, the test reloads the page as a
            # player would, since what it checks is the guidance, not the delivery.
            # At least that version: a move of hers still in flight when the state was read
            # (Rampants et Sauteurs' layout, confirmed both at once) puts the page past it.
            shown = ("v => { const page = document.querySelector('[data-table-page]');"
                     " return !!page && Number(page.dataset.v) >= v; }")
            try:
                probe.page.wait_for_function(shown, arg=state["v"], timeout=30_000)
            except PlaywrightTimeout:
                print(f"page still behind v{state['v']} after 30 s: reloaded")
                probe.page.reload()
                probe.page.wait_for_function(shown, arg=state["v"], timeout=30_000)
            probe.page.wait_for_selector("[data-status][data-turn='true']")
            return state
        assert time.monotonic() < deadline, f"never my turn: {state['status']} {state['to_act']}"
        time.sleep(0.1)


def in_viewport(page: Any, locator: Any) -> bool:
    box = locator.bounding_box()
    size = page.viewport_size
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= size["height"] and box["height"] > 0


def board_top_in_view(page: Any) -> None:
    """The top of the board (its first 100 px at least) is in the viewport, unscrolled."""
    assert page.evaluate("() => window.scrollY") == 0
    host = page.locator(".board-host").first
    host.wait_for()
    box = host.bounding_box()
    assert box["y"] >= 0 and box["y"] + 100 <= page.viewport_size["height"], box


def shoot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def assert_reason_in_view(page: Any, pattern: str) -> None:
    announce = page.locator("[data-announce]")
    try:
        announce.filter(has_text=re.compile(pattern)).wait_for()
    except Exception:
        shoot(page, "failed-refusal")
        seen = page.evaluate("""() => ({v: document.querySelector('[data-table-page]').dataset.v,
            board: Object.assign({}, (document.querySelector('.board-host > *') || {dataset: {}}).dataset)})""")
        raise AssertionError(f"no reason matching {pattern!r}: {announce.inner_text()!r}; page: {seen}") from None
    assert in_viewport(page, announce), announce.bounding_box()


def tap_a_card_that_is_no_move(page: Any) -> None:
    """Tap the first card of the hand that is no move (it says why). The bots' answers
    redraw the hand (a new round deals new cards): a card taken away between finding it
    and tapping it is looked for again, as a person would tap the one now there."""
    problems = []
    for _ in range(3):
        card = page.locator(".board-host button[data-why]").first
        try:
            card.wait_for(state="visible", timeout=10_000)
            page.wait_for_function("() => !document.querySelector('.board-host button[data-why]').disabled")
            card.click(force=True, timeout=5_000)
            return
        except Exception as error:  # noqa: BLE001 - Playwright's errors and timeouts alike: look again
            problems.append(str(error).splitlines()[0])
            problems.append(page.evaluate("""() => {
                const b = document.querySelector('.board-host button[data-why]');
                const host = document.querySelector('.board-host > *');
                return {v: document.querySelector('[data-table-page]').dataset.v, card: b && b.outerHTML.slice(0, 120),
                        box: b && JSON.stringify(b.getBoundingClientRect()), phase: host && host.dataset.phase};
            }"""))
    shoot(page, "failed-card-tap")
    raise AssertionError(f"no card of the hand could be tapped: {problems}")


@pytest.mark.parametrize("size", ["phone", "desktop"])
@pytest.mark.parametrize("slug", ["drumlin", "rampants-sauteurs", "eclaircissement", "quatre-en-ligne", "drekki"])
def test_board_in_view_and_a_refusal_explained_in_view(live_site, chromium, slug, size):  # noqa: F811
    zoe = guest_page(chromium, live_site, "Zoé", label=f"{slug}-{size}", viewport=SIZES[size])
    page = zoe.page
    table = quick_table(zoe, live_site, slug, seats=3 if slug == "drekki" else None)
    page.locator(".board-host").first.wait_for()
    page.wait_for_timeout(300)
    board_top_in_view(page)
    # The players strip is one line on the phone and names each seat (bots by name and level).
    if size == "phone":
        strip = page.locator("[data-strip]")
        assert strip.is_visible()
        assert strip.bounding_box()["height"] < 60
        assert "(robot, facile)" in strip.inner_text()
    if slug == "rampants-sauteurs":
        wait_for_turn(zoe, live_site, table)
        page.locator('.board-host button[data-action="confirm-layout"]').click()
    if slug == "quatre-en-ligne":
        state = wait_for_turn(zoe, live_site, table)
        # Placement: a tile with a piece on it is refused; if none yet, place one first.
        taken = [p["square"] for p in state["view"]["board"]["pieces"]]
        if not taken:
            page.locator('.board-host [data-square="0,0"]').click()
            page.wait_for_function("() => document.querySelectorAll('[data-moves] li[data-v]').length > 0")
            state = wait_for_turn(zoe, live_site, table)
            taken = [p["square"] for p in state["view"]["board"]["pieces"]]
        page.locator(f'.board-host [data-square="{taken[0]}"]').click()
        assert_reason_in_view(page, "n'est pas libre")
    elif slug == "drekki":
        state = wait_for_turn(zoe, live_site, table)
        page.locator(".board-host button[data-move^='play']").first.click()
        # Once the cards are laid, a card of the hand is no move: the board says why.
        # (aria-disabled: Playwright would wait for it to be enabled; a person just taps it.)
        tap_a_card_that_is_no_move(page)
        assert_reason_in_view(page, ".")
    else:
        wait_for_turn(zoe, live_site, table)
        square = {"drumlin": "a10", "rampants-sauteurs": "a8", "eclaircissement": "c5"}[slug]
        version = page.locator("[data-table-page]").get_attribute("data-v")
        page.locator(f'.board-host [data-square="{square}"]').click()
        try:
            page.locator("[data-announce]").filter(has_text=square).wait_for(timeout=5_000)
        except Exception:
            # A new version clears what was said about the last one: only then, click again.
            assert page.locator("[data-table-page]").get_attribute("data-v") != version, "the click was not explained"
            wait_for_turn(zoe, live_site, table)
            page.locator(f'.board-host [data-square="{square}"]').click()
        assert_reason_in_view(page, square)
    shoot(page, f"{slug}-{size}-refusal")
    page.evaluate("() => window.scrollTo(0, 0)")
    page.wait_for_timeout(200)
    shoot(page, f"{slug}-{size}")
    # The moves are listed in words, the notation kept as each one's title. Where Zoé
    # moves first (Éclaircissement's first seat is drawn), she plays one first.
    if page.locator("[data-moves] li[data-v]").count() == 0:
        state = wait_for_turn(zoe, live_site, table)
        if state["status"] == "running" and not state.get("moves"):
            api(zoe, live_site, f"/api/tables/{table}/move/", {"move": state["legal"][0], "v": state["v"]})
    page.locator("[data-moves] li[data-v] .move-text").first.wait_for()
    first = page.locator("[data-moves] li[data-v] .move-text").first
    words = first.inner_text()
    notation = first.get_attribute("data-notation")
    if notation is not None:
        assert first.get_attribute("title") == notation and words != notation
    assert re.search(r"[a-zé]{3,}", words), words
    zoe.assert_no_console_errors()


def test_a_draw_offer_is_a_banner_naming_who_offered(live_site, chromium):  # noqa: F811
    zoe = guest_page(chromium, live_site, "Zoé", viewport=PHONE)
    ben = guest_page(chromium, live_site, "Ben", viewport=DESKTOP)
    table = api(zoe, live_site, "/api/tables/", {"game": "eclaircissement", "seats": 2})
    api(ben, live_site, f"/api/tables/{table['table']}/join/", {})
    api(zoe, live_site, f"/api/tables/{table['table']}/start/", {})
    zoe.page.goto(live_site.url(f"/jouer/table/{table['table']}/"))
    ben.page.goto(live_site.url(f"/jouer/table/{table['table']}/"))
    ben.page.locator("[data-draw='offer']").click()
    banner = zoe.page.locator("[data-banner]")
    banner.filter(has_text="Ben propose la nulle").wait_for()
    assert in_viewport(zoe.page, banner)
    assert banner.get_attribute("data-kind") == "draw"
    shoot(zoe.page, "draw-offer-phone")
    # Ben is told his offer waits; Zoé declines from the banner and it goes away for both.
    expect_text = ben.page.locator("[data-banner]")
    expect_text.filter(has_text="attente").wait_for()
    zoe.page.locator("[data-banner] [data-draw='decline']").click()
    zoe.page.wait_for_selector("[data-banner]", state="hidden")
    ben.page.wait_for_selector("[data-banner]", state="hidden")
    zoe.assert_no_console_errors()
    ben.assert_no_console_errors()
