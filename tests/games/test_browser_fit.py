"""Every table fits the screen it is played on, in a real Chromium on a live site: for
each of the five games, the whole board (and, in Drekki, the player's own hand) is
within the first screen without scrolling, and nothing spills sideways:

- a live table on a phone (390x844), a tablet held upright (768x1024) and one in
  landscape (1024x768); on a small phone (360x640) the board may scroll (the issue
  allows it there only), but it starts in the top half and nothing spills sideways;
- its replay and the game's lesson on a phone;
- a pass-and-play table on a tablet in landscape (1024x768) once the page says whose
  turn it is;
- the site's header is one row on a phone, its menu opens with its button.

One live site (daphne and the worker) and one browser for the module. Screenshots go to
artifacts/screens/fit/ (or the folder named by LUDO_SCREENS).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.games.ui_server import PHONE, LiveSite, guest_page, new_page, shared_live_site  # noqa: F401  (fixture)
from tests.servers import ARTIFACTS

# What it checks (markup, contrast, layout) is the same on either stack: CI runs it once.
pytestmark = [pytest.mark.browser, pytest.mark.one_stack]

GAMES = ("drekki", "drumlin", "quatre-en-ligne", "rampants-sauteurs", "eclaircissement")
# The board itself: the SVG each board module draws (static/js/boards/).
BOARD = {"drekki": ".dk-table", "drumlin": ".board-svg"}
HAND = '[data-dk="hand"]'
TABLET_UPRIGHT = {"width": 768, "height": 1024}
TABLET_LANDSCAPE = {"width": 1024, "height": 768}
SMALL_PHONE = {"width": 360, "height": 640}
SHOTS = Path(os.environ.get("LUDO_SCREENS") or ARTIFACTS / "screens") / "fit"


def board_of(slug: str) -> str:
    return BOARD.get(slug, ".karo-svg")


def shoot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def first_screen(page: Any, selector: str) -> dict[str, float]:
    """Where ``selector`` is in the unscrolled page (getBoundingClientRect), the viewport's
    size, and how wide the page's content is."""
    return page.evaluate(
        """(selector) => {
             window.scrollTo(0, 0);
             const node = document.querySelector(selector);
             const box = node ? node.getBoundingClientRect() : null;
             return {top: box && box.top, bottom: box && box.bottom, left: box && box.left, right: box && box.right,
                     height: box && box.height, scrollY: window.scrollY, innerWidth: window.innerWidth,
                     innerHeight: window.innerHeight, scrollWidth: document.scrollingElement.scrollWidth};
           }""", selector)


def assert_fits(page: Any, selector: str, what: str) -> None:
    """``selector`` is entirely within the first screen, and the page does not scroll sideways."""
    seen = first_screen(page, selector)
    assert seen["height"], f"{what}: {selector} is not drawn ({seen})"
    assert seen["scrollY"] == 0, seen
    assert seen["top"] >= 0 and seen["bottom"] <= seen["innerHeight"], f"{what}: {selector} is not on the first screen: {seen}"
    assert seen["left"] >= 0 and seen["right"] <= seen["innerWidth"], f"{what}: {selector} spills sideways: {seen}"
    assert seen["scrollWidth"] <= seen["innerWidth"], f"{what}: the page scrolls sideways: {seen}"


def close(site: LiveSite, probe: Any) -> None:
    """Close a page's browser context at the end of a test (the module's site lives on)."""
    site.pages.remove(probe)
    probe.page.context.close()


def api(probe: Any, site: LiveSite, path: str, body: dict) -> dict:
    page = probe.page
    page.request.get(site.url("/api/games/"))  # sets the csrftoken cookie
    token = next(c["value"] for c in page.context.cookies() if c["name"] == "csrftoken")
    response = page.request.post(site.url(path), data=json.dumps(body),
                                 headers={"X-CSRFToken": token, "Content-Type": "application/json"})
    assert response.ok, response.text()
    return response.json()


def fits_on_tablets(page, slug: str, kind: str) -> None:
    """The board on the first screen of an upright and a landscape tablet."""
    for size, viewport in (("tablet-upright", TABLET_UPRIGHT), ("tablet-landscape", TABLET_LANDSCAPE)):
        page.set_viewport_size(viewport)
        page.wait_for_timeout(300)
        assert_fits(page, board_of(slug), f"{slug} {kind}, {size}")
        shoot(page, f"{kind}-{slug}-{size}")
    page.set_viewport_size(PHONE)


@pytest.mark.parametrize("slug", GAMES)
def test_a_live_table_and_its_replay_fit_phones_and_tablets(chromium, shared_live_site, slug):
    site = shared_live_site
    zoe = guest_page(chromium, site, "Zoé", label=f"fit-live-{slug}", viewport=PHONE)
    page = zoe.page
    body = {"game": slug, "level": "easy", **({"seats": 3} if slug == "drekki" else {})}
    table = api(zoe, site, "/api/tables/quick/", body)["table"]
    page.goto(site.url(f"/jouer/table/{table}/"))
    # Zoé's turn: the page says so, and her board (and hand) are drawn for it.
    page.wait_for_selector("[data-status][data-turn='true']", timeout=30_000)
    page.locator(board_of(slug)).wait_for()
    if slug == "drekki":
        expect(page.locator(f"{HAND} [data-move]").first).to_be_visible()
    page.wait_for_timeout(300)  # the board's ResizeObserver has drawn at this size
    for size, viewport in (("phone", PHONE), ("tablet-upright", TABLET_UPRIGHT), ("small-phone", SMALL_PHONE),
                           ("tablet-landscape", TABLET_LANDSCAPE)):
        page.set_viewport_size(viewport)
        page.wait_for_timeout(300)
        if size == "small-phone":
            # The issue allows the board to scroll there only: it starts on the first
            # screen and nothing spills sideways.
            seen = first_screen(page, board_of(slug))
            assert 0 <= seen["top"] < seen["innerHeight"] / 2, f"{slug} live, {size}: {seen}"
            assert seen["right"] <= seen["innerWidth"] and seen["scrollWidth"] <= seen["innerWidth"], seen
        else:
            assert_fits(page, board_of(slug), f"{slug} live, {size}")
            if slug == "drekki":
                assert_fits(page, HAND, f"{slug} live, {size}")
        shoot(page, f"live-{slug}-{size}")
    # The site's header and the table's title row are one row each on the phone.
    page.set_viewport_size(PHONE)
    assert page.locator(".site-header").bounding_box()["height"] < 60
    assert page.locator(".table-head").bounding_box()["height"] < 50
    # The table's links are folded behind a button, and open with it.
    links = page.locator("#table-links")
    expect(links).to_be_hidden()
    page.locator("[aria-controls='table-links']").click()
    expect(links.get_by_role("link", name="Toutes les tables")).to_be_visible()

    # The replay, at its start and at its end: the board stays on the first screen, on the
    # phone and on both tablets.
    api(zoe, site, f"/api/tables/{table}/resign/", {})
    page.goto(site.url(f"/jouer/table/{table}/revoir/"))
    page.locator(board_of(slug)).wait_for()
    page.wait_for_timeout(300)
    assert_fits(page, board_of(slug), f"{slug} replay, phone")
    last = page.locator("[data-go='last']")
    if last.is_enabled():  # the bots may have moved before Zoé resigned
        last.click()
        page.wait_for_timeout(300)
        assert_fits(page, board_of(slug), f"{slug} replay end, phone")
    shoot(page, f"replay-{slug}-phone")
    fits_on_tablets(page, slug, "replay")
    zoe.assert_no_console_errors()
    close(site, zoe)


@pytest.mark.parametrize("slug", GAMES)
def test_a_lesson_fits_a_phone_and_tablets(chromium, shared_live_site, slug):
    probe = new_page(chromium, shared_live_site, f"fit-lesson-{slug}", viewport=PHONE)
    page = probe.page
    page.goto(shared_live_site.url(f"/jouer/apprendre/{slug}/"))
    page.locator(board_of(slug)).wait_for()
    page.wait_for_timeout(300)
    assert_fits(page, board_of(slug), f"{slug} lesson, phone")
    shoot(page, f"lesson-{slug}-phone")
    fits_on_tablets(page, slug, "lesson")
    probe.assert_no_console_errors()
    close(shared_live_site, probe)


@pytest.mark.parametrize("slug", GAMES)
def test_pass_and_play_on_a_landscape_tablet_shows_the_board_and_the_hand_of_whoever_plays(
        chromium, shared_live_site, slug):
    probe = new_page(chromium, shared_live_site, f"fit-pass-{slug}", viewport=TABLET_LANDSCAPE)
    page = probe.page
    page.goto(shared_live_site.url("/salon/nouveau/?mode=pass"))
    page.locator("input[name=mode][value=pass]").check()
    page.select_option("#living-game", slug)
    names = ["Zoé", "Ben", "Léa"] if slug == "drekki" else ["Zoé", "Ben"]
    page.fill("#living-seats", str(len(names)))
    for index, name in enumerate(names):
        page.fill(f"#name-{index}", name)
    page.get_by_role("button", name="Ouvrir la table").click()
    page.wait_for_url(re.compile(r".*/jouer/table/\d+/$"))
    # Whoever plays first takes the tablet (games with secrets cover the board until
    # they tap); then the page says it is their turn.
    status = page.locator("[data-status][data-turn='true']")
    go = page.locator("[data-pass-go]")
    page.wait_for_selector("[data-pass-go]:visible, [data-status][data-turn='true']", timeout=30_000)
    if go.is_visible():
        go.click()
    expect(status).to_have_text(re.compile(f"^À ({'|'.join(names)}) de jouer"), timeout=30_000)
    page.locator(board_of(slug)).wait_for()
    if slug == "drekki":
        expect(page.locator(f"{HAND} [data-move]").first).to_be_visible()
        assert_fits(page, HAND, f"{slug} pass-and-play, 1024x768")
    page.wait_for_timeout(300)
    assert_fits(page, board_of(slug), f"{slug} pass-and-play, 1024x768")
    # The other people on the same tablet are not "away" on the board.
    assert "absent" not in page.locator(".board-host").inner_text()
    shoot(page, f"pass-{slug}-tablet")
    probe.assert_no_console_errors()
    close(shared_live_site, probe)


def test_the_site_header_is_one_row_on_a_phone_and_its_menu_opens(chromium, shared_live_site):
    probe = new_page(chromium, shared_live_site, "fit-header", viewport=PHONE)
    page = probe.page
    page.goto(shared_live_site.url("/"))
    header = page.locator(".site-header")
    assert header.bounding_box()["height"] < 60
    nav = page.get_by_role("navigation", name="Navigation principale")
    expect(nav).to_be_hidden()
    button = page.get_by_role("button", name="Menu")
    button.click()
    expect(button).to_have_attribute("aria-expanded", "true")
    expect(nav.get_by_role("link", name="Jouer")).to_be_visible()
    # Escape folds it again and gives the focus back to the button.
    nav.get_by_role("link", name="Jouer").focus()
    page.keyboard.press("Escape")
    expect(nav).to_be_hidden()
    expect(button).to_be_focused()
    assert first_screen(page, ".site-header")["scrollWidth"] <= PHONE["width"]
    # On a desktop everything is on the header's row, no button.
    page.set_viewport_size({"width": 1280, "height": 800})
    expect(nav).to_be_visible()
    expect(button).to_be_hidden()
    probe.assert_no_console_errors()
    close(shared_live_site, probe)
