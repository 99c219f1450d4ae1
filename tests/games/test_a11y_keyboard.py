"""Keyboard alone and a screen reader's live region, on the five boards, in a real
Chromium against a live daphne and worker (the bots play): for each game a guest,
Zoé, opens a table against an easy bot and, with the keyboard only, Tabs to the
board (one Tab stop: the next Tab leaves it), walks to a marked square (or card)
with the arrow keys, and plays with Enter; Escape lets a selection go. The polite
live region (static/js/table/speech.js) then says the bot's answer in words.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from games import bots, engines
from tests.a11y import start_live_site, stop_live_site
from tests.games.live_helpers import Guest
from tests.servers import ARTIFACTS, _fresh_server_env

pytestmark = [pytest.mark.browser, pytest.mark.one_stack]

DESKTOP = {"width": 1280, "height": 800}
SHOTS = ARTIFACTS / "a11y"
SHOTS.mkdir(parents=True, exist_ok=True)


@pytest.fixture(scope="module")
def site(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory,
         _server_postgres_url: Any) -> Iterator[Any]:
    env = _fresh_server_env(request, tmp_path_factory.mktemp("a11y-keys"), _server_postgres_url, "_keys")
    server, worker = start_live_site({**env, "LUDO_BOT_THINK_MS": "100"})
    try:
        yield server
    finally:
        stop_live_site(server, worker)


@pytest.fixture(scope="module")
def zoe(site: Any, chromium: Any) -> Iterator[tuple[Guest, Any]]:
    guest = Guest(site, "Zoé")
    context = chromium.new_context(viewport=DESKTOP, locale="fr-FR")
    context.set_default_timeout(15_000)
    context.add_cookies([{"name": k, "value": v, "url": site.url("/")} for k, v in guest.cookies.items()])
    try:
        yield guest, context
    finally:
        context.close()


@pytest.fixture
def new_zoe(site: Any, chromium: Any) -> Iterator[tuple[Guest, Any]]:
    """A Zoé of her own for one test (a table a test: the module's Zoé would spend her
    budget of new tables)."""
    guest = Guest(site, "Zoé")
    context = chromium.new_context(viewport=DESKTOP, locale="fr-FR")
    context.set_default_timeout(15_000)
    context.add_cookies([{"name": k, "value": v, "url": site.url("/")} for k, v in guest.cookies.items()])
    try:
        yield guest, context
    finally:
        context.close()


def open_table(site: Any, zoe: tuple[Guest, Any], game: str, **fields: Any) -> tuple[Any, int]:
    guest, context = zoe
    table = guest.quick(game, level="easy", **fields)["table"]
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    page.goto(site.url(f"/jouer/table/{table}/"))
    page.wait_for_selector("[data-status][data-turn='true']")
    return page, table


def version(page: Any) -> int:
    return int(page.locator("[data-table-page]").get_attribute("data-v"))


def focused(page: Any) -> dict[str, Any]:
    return page.evaluate("""() => {
      const a = document.activeElement;
      const cell = a && a.closest ? a.closest('[data-square], [data-base]') : null;
      return {tag: a ? a.tagName : null, square: cell ? (cell.dataset.square || 'base') : null,
              inBoard: Boolean(a && a.closest && a.closest('.board-host')),
              key: a && a.dataset ? a.dataset.key || null : null, text: a ? (a.textContent || '').trim() : ''};
    }""")


def tab_to_board(page: Any, limit: int = 80) -> dict[str, Any]:
    """Tab from the top of the page until the focus is in the board; return where it is."""
    page.locator("body").focus()
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    for _ in range(limit):
        page.keyboard.press("Tab")
        here = focused(page)
        if here["inBoard"]:
            return here
    raise AssertionError("Tab never reached the board")


def assert_one_tab_stop(page: Any) -> None:
    """The board's squares are one Tab stop: the next Tab leaves them, Shift+Tab comes back."""
    start = focused(page)
    page.keyboard.press("Tab")
    after = focused(page)
    assert after["square"] is None, f"a second Tab stop on the board's squares: {start} then {after}"
    page.keyboard.press("Shift+Tab")
    assert focused(page)["square"] == start["square"]


def walk_to(page: Any, selector: str, limit: int = 60) -> str:
    """Arrow keys from the focused square to the first square matching ``selector`` (the
    direction with the larger distance on screen first); return its name."""
    target = page.locator(selector).first
    name = target.get_attribute("data-square")
    for _ in range(limit):
        here = focused(page)["square"]
        if here == name:
            return name
        a = page.locator(f"[data-square='{here}']").first.bounding_box()
        b = target.bounding_box()
        dx, dy = (b["x"] + b["width"] / 2) - (a["x"] + a["width"] / 2), (b["y"] + b["height"] / 2) - (a["y"] + a["height"] / 2)
        if abs(dx) >= abs(dy):
            page.keyboard.press("ArrowRight" if dx > 0 else "ArrowLeft")
        else:
            page.keyboard.press("ArrowDown" if dy > 0 else "ArrowUp")
    raise AssertionError(f"the arrows never reached {name} (at {focused(page)})")


def play_squares(page: Any, movable: str, target: str, selected: str) -> None:
    """Select a piece that can move and play it to a marked destination, keyboard only; the
    selection is first let go with Escape once, to check that Escape cancels."""
    before = version(page)
    escaped = False
    for _ in range(6):
        if version(page) != before:
            return
        if page.locator(selected).count():
            if not escaped:
                page.keyboard.press("Escape")
                page.wait_for_function(f"() => !document.querySelector(\"{selected}\")")
                escaped = True
                continue
            walk_to(page, target)
        elif page.locator(target).count():
            walk_to(page, target)
        else:
            walk_to(page, movable)
        page.keyboard.press("Enter")
        page.wait_for_timeout(150)
    page.wait_for_function("(v) => Number(document.querySelector('[data-table-page]').dataset.v) > v", arg=before)


def wait_for_bot_words(page: Any, count_before: int) -> str:
    """The live region's newest line once it holds more lines than before (the bot answered)."""
    page.wait_for_function(
        "(n) => document.querySelectorAll('[data-speech] p').length > n", arg=count_before, timeout=20_000)
    return page.locator("[data-speech] p").last.inner_text()


def speech_lines(page: Any) -> list[str]:
    return page.locator("[data-speech] p").all_inner_texts()


def said_count(page: Any) -> int:
    """How many lines the polite region has said since the page opened (it keeps the last few)."""
    return int(page.locator("[data-speech]").get_attribute("data-said") or 0)


def new_lines(page: Any, since: int) -> list[str]:
    """The lines said after the ``since``-th (of those the region still keeps)."""
    return page.evaluate("""(since) => {
      const region = document.querySelector('[data-speech]');
      const fresh = Number(region.dataset.said || 0) - since;
      const lines = [...region.querySelectorAll('p')].map((p) => p.textContent);
      return fresh > 0 ? lines.slice(-fresh) : [];
    }""", since)


def wait_said_more(page: Any, count: int) -> None:
    page.wait_for_function("(n) => Number(document.querySelector('[data-speech]').dataset.said || 0) > n",
                           arg=count, timeout=20_000)


def check_speech(page: Any, mine_before: int) -> None:
    """After Zoé's move: her move and the bot's answer are said in words, not in notation."""
    words = wait_for_bot_words(page, mine_before + 1)
    lines = speech_lines(page)
    assert any(line.startswith("Zoé") for line in lines), lines
    assert "robot" in words and not words.startswith("Zoé"), f"not the bot's move: {words!r} in {lines}"
    assert not re.fullmatch(r"[\w*,>:/=-]+", words), f"notation, not words: {words!r}"
    assert page.locator("[data-speech]").get_attribute("aria-live") == "polite"


# A piece that can move (framed), a destination of the selected piece (a dot), the selection.
KARO_FROM_TO = (".karo-cell:has(.karo-movable)", ".karo-cell:has(.karo-dest)", ".karo-cell:has(.karo-selected)")

LUMINANCE = """(selector) => {
  const node = document.querySelector(selector);
  if (!node) return null;
  const [r, g, b] = getComputedStyle(node).fill.match(/[\\d.]+/g).slice(0, 3).map(Number).map((c) => {
    c /= 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}"""


def check_not_by_colour_alone(page: Any, game: str) -> None:
    """The two sides (or Drekki's three power colours) differ by more than hue: a shape, or
    a solid against an outlined piece whose lightness differs at least 3:1 (grey to a
    colour-blind eye, still two kinds)."""
    if game == "quatre-en-ligne":
        tags = page.evaluate("""() => [0, 1].map((s) => [...new Set([...document.querySelectorAll(
            `.board-host .karo-piece--p${s} .karo-piece-body`)].map((n) => n.tagName))])""")
        assert tags == [["circle"], ["polygon"]], tags
    elif game == "drumlin":
        light = page.evaluate(LUMINANCE, ".board-host .piece.pink .body")
        dark = page.evaluate(LUMINANCE, ".board-host .piece.violet .body")
        assert light is not None and dark is not None
        assert (light + 0.05) / (dark + 0.05) >= 3, (light, dark)
    elif game == "drekki":
        shapes = page.evaluate("""() => Object.fromEntries(['yellow', 'red', 'black'].map((c) => {
            const n = document.querySelector(`.board-host .dk-shape-${c}`);
            return [c, n ? n.tagName + (n.getAttribute('points') ? ':poly' : '') + (n.getAttribute('d') ? ':path' : '')
                               + (n.tagName === 'rect' ? '' : '') : null];
        }))""")
        seen = [v for v in shapes.values() if v]
        assert len(seen) == len(set(seen)) >= 2, shapes
        labels = page.locator(".board-host .dk-cards button").all_inner_texts()
        assert all(re.search(r"(jaune|rouge|noir)", text, re.I) for text in labels), labels


@pytest.mark.parametrize("game", ["drumlin", "quatre-en-ligne", "eclaircissement"])
def test_a_move_on_a_grid_board_with_the_keyboard_alone_and_the_bots_answer_said(site, zoe, game):
    page, _ = open_table(site, zoe, game)
    here = tab_to_board(page)
    assert here["square"], f"the first Tab stop in the board is not a square: {here}"
    assert_one_tab_stop(page)
    said = len(speech_lines(page))
    if game == "drumlin":
        play_squares(page, "[data-square].movable", "[data-square].target", "[data-square].selected")
    elif game == "quatre-en-ligne":  # its first moves place a piece on a free tile: one Enter
        play_squares(page, ".karo-cell.is-actionable", ".karo-cell.is-actionable", ".karo-cell:has(.karo-selected)")
    else:
        play_squares(page, *KARO_FROM_TO)
    page.screenshot(path=str(SHOTS / f"keyboard-{game}.png"))
    check_speech(page, said)
    check_not_by_colour_alone(page, game)
    assert not page.errors, page.errors
    page.close()


def test_rampants_et_sauteurs_setup_then_a_move_with_the_keyboard_alone(site, zoe):
    page, _ = open_table(site, zoe, "rampants-sauteurs")
    tab_to_board(page)
    assert_one_tab_stop(page)
    # The secret setup: Enter turns a start piece over (twice: as it was), Tab reaches "Confirm".
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")
    before = version(page)
    for _ in range(6):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.dataset.action === 'confirm-layout'"):
            break
    page.keyboard.press("Enter")
    page.wait_for_function("(v) => Number(document.querySelector('[data-table-page]').dataset.v) > v", arg=before)
    page.wait_for_selector("[data-status][data-turn='true'] , [data-outcome]:not([hidden])")
    page.wait_for_selector(".karo-cell.is-actionable")
    tab_to_board(page)
    said = len(speech_lines(page))
    play_squares(page, *KARO_FROM_TO)
    page.screenshot(path=str(SHOTS / "keyboard-rampants-sauteurs.png"))
    check_speech(page, said)
    assert not page.errors, page.errors
    page.close()


def test_drekki_a_card_laid_with_the_keyboard_alone_the_hand_one_tab_stop(site, zoe):
    page, _ = open_table(site, zoe, "drekki", seats=3)  # a hand of cards (two players hold piles)
    page.wait_for_selector(".dk-cards button[data-move]")
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    for _ in range(80):
        page.keyboard.press("Tab")
        if page.evaluate("() => Boolean(document.activeElement.closest('.dk-cards'))"):
            break
    else:
        raise AssertionError("Tab never reached the hand")
    first = focused(page)["key"]
    check_not_by_colour_alone(page, "drekki")
    page.keyboard.press("Tab")
    assert not page.evaluate("() => Boolean(document.activeElement.closest('.dk-cards'))"), \
        "the hand is more than one Tab stop"
    page.keyboard.press("Shift+Tab")
    assert focused(page)["key"] == first
    page.keyboard.press("ArrowRight")
    second = focused(page)["key"]
    assert second != first and second.startswith("play "), second
    page.keyboard.press("ArrowLeft")
    assert focused(page)["key"] == first
    before = version(page)
    page.keyboard.press("Enter")
    page.wait_for_function("(v) => Number(document.querySelector('[data-table-page]').dataset.v) > v", arg=before)
    page.screenshot(path=str(SHOTS / "keyboard-drekki.png"))
    # Drekki's cards are laid face down and revealed together: what is said is in words.
    page.wait_for_function("() => document.querySelectorAll('[data-speech] p').length > 0", timeout=20_000)
    assert all(not re.fullmatch(r"[\w ]+\d", line) for line in speech_lines(page)), speech_lines(page)
    assert not page.errors, page.errors
    page.close()


def test_resigning_with_the_keyboard_is_two_presses_on_one_button_and_the_end_is_said(site, zoe):
    page, _ = open_table(site, zoe, "quatre-en-ligne")
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    for _ in range(80):
        page.keyboard.press("Tab")
        if page.evaluate("() => 'resign' in document.activeElement.dataset"):
            break
    else:
        raise AssertionError("Tab never reached Resign")
    page.keyboard.press("Enter")  # armed: the button now asks to confirm, and keeps the focus
    page.wait_for_function("() => 'resign' in document.activeElement.dataset"
                           " && document.activeElement.classList.contains('danger')")
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-outcome]:not([hidden])")
    title = page.locator("[data-outcome-title]").inner_text()
    page.wait_for_function("(t) => [...document.querySelectorAll('[data-speech] p')].some((p) => p.textContent.startsWith(t))",
                           arg=title)
    assert not page.errors, page.errors
    page.close()


# -- a whole game to its end, every move typed in the move box (static/js/table/typed.js) --------

def snapshot(guest: Guest, table: int) -> dict[str, Any]:
    status, snap = guest.api("GET", f"/api/tables/{table}/")
    assert status == 200, snap
    return snap


def wait_turn_or_end(page: Any, after: int) -> None:
    """Until the page shows a version after ``after`` and it is Zoé's turn there, or the end."""
    page.wait_for_function("""(v) => {
      const root = document.querySelector('[data-table-page]');
      if (Number(root.dataset.v) <= v) return false;
      return document.querySelector('[data-status]').dataset.turn === 'true'
        || !document.querySelector('[data-outcome]').hidden;
    }""", arg=after, timeout=30_000)


def type_move(page: Any, move: str, typed: str | None = None) -> None:
    """Focus the move box by Tab from the board, type the move, press Enter (keyboard only)."""
    box = page.locator("[data-typed-input]")
    for _ in range(40):
        if page.evaluate("() => document.activeElement && document.activeElement.matches('[data-typed-input]')"):
            break
        page.keyboard.press("Tab")
    else:
        raise AssertionError("Tab never reached the move box")
    page.keyboard.type(typed if typed is not None else move)
    assert box.input_value() == (typed if typed is not None else move)
    page.keyboard.press("Enter")


# A setup that leaves its player no move (crawlers behind, jumpers in front, walled in).
STUCK_SETUP = {"rampants-sauteurs": "CCC/JJJ"}


@pytest.mark.parametrize("game", ["drumlin", "quatre-en-ligne", "eclaircissement", "rampants-sauteurs", "drekki"])
def test_a_whole_game_typed_with_the_keyboard_alone_and_every_move_said(site, new_zoe, game):
    """Zoé plays a whole game against the easy bot with the keyboard alone, every move
    typed (a greedy player chooses them; the game ends in 11 to 55 moves of hers): the move box
    (labelled, with the legal moves as its completion list) takes each move, a wrong one
    is refused in words and changes nothing, Alt+P reads the position, and the polite
    region says every move of hers and of the bot, and the result."""
    guest, _ = new_zoe
    page, table = open_table(site, new_zoe, game)
    rules = engines.get(game)
    chooser = bots.make("greedy", rules, seed=7)
    box = page.locator("[data-typed-input]")
    assert page.locator("label[for='typed-move']").inner_text().strip()
    # Everything the assertive line above the board says, kept (it is emptied after a while).
    page.evaluate("""() => {
      window.announced = [];
      const node = document.querySelector('[data-announce]');
      new MutationObserver(() => { if (node.textContent) window.announced.push(node.textContent); })
        .observe(node, {childList: true, characterData: true, subtree: true});
    }""")
    typed = 0
    bot_turns_heard = 0  # the bot's turns while Zoé typed (the region says each)
    checked_refusal = False
    heard: list[str] = []  # what the polite region said while Zoé played by keyboard
    said = 0
    while True:
        if typed:  # keep what was said since the last look (the region keeps a few lines only)
            heard.extend(new_lines(page, said))
            said = said_count(page)
        snap = snapshot(guest, table)
        if snap["status"] != "running":
            break
        assert typed <= 300, f"{game}: no end after {typed} moves of Zoé"
        if 0 not in snap["to_act"]:
            bot_turns_heard += 1 if typed else 0
            wait_turn_or_end(page, snap["v"])
            continue
        move = chooser.choose(snap["view"], 0)
        if move == STUCK_SETUP.get(game):
            # The greedy chooser takes this setup whenever the bot has set up first, and
            # when the easy bot draws the same one (1 deal in 20) neither side can move:
            # a draw before Zoé types a second move. She sets up so that she can move.
            move = "CJC/CJJ"
        assert move in snap["legal"], (move, snap["legal"])
        page.wait_for_function("(v) => Number(document.querySelector('[data-table-page]').dataset.v) >= v", arg=snap["v"])
        if version(page) != snap["v"]:
            continue  # the table moved on meanwhile (Drekki's live auction): look again
        # The move is among the box's completions (the legal moves, in notation).
        try:
            page.wait_for_function(
                "(m) => [...document.querySelectorAll('[data-typed-list] option')].some((o) => o.value === m)",
                arg=move, timeout=5_000)
        except PlaywrightTimeout:
            if version(page) != snap["v"]:
                continue  # the table moved on while we looked
            raise AssertionError(f"{move!r} not offered at v{snap['v']}: " + str(page.evaluate(
                "() => [[...document.querySelectorAll('[data-typed-list] option')].map((o) => o.value),"
                " document.querySelector('[data-status]').textContent, document.querySelector('[data-typed-form]').hidden]")))
        if not checked_refusal and typed == 2:  # (a few pieces on the board by then)
            # A move that is no move: refused in words, in the box and the live line; nothing sent.
            hers = page.locator("[data-moves] li[data-seat='0']").count()
            type_move(page, "", typed="zz9")
            page.wait_for_function("() => document.querySelector('[data-typed-error]').textContent.includes('zz9')")
            assert box.get_attribute("aria-invalid") == "true"
            page.wait_for_function("() => window.announced.some((text) => text.includes('zz9'))")
            assert page.locator("[data-moves] li[data-seat='0']").count() == hers
            if game != "drekki":  # (Drekki's bots may speak meanwhile)
                assert snapshot(guest, table)["v"] == snap["v"]
            box.fill("")
            # Alt+P reads the position into the polite region.
            said = said_count(page)
            page.keyboard.press("Alt+P")
            wait_said_more(page, said)
            # The reading is one of the lines said since (a Drekki bot may speak right after it).
            fresh = new_lines(page, said)
            if game == "drekki":  # the hand and the mages, in words
                assert any("Zoé" in line and len(line) > 40 for line in fresh), fresh
            else:  # the squares taken, each with what stands there
                assert any(re.search(r"\b[a-h]\d+\b|\b\d,\d\b", line) and len(line) > 40 for line in fresh), fresh
            checked_refusal = True
        said = said_count(page)
        # Lower case and no notation quirks needed: the box matches case and spaces aside.
        type_move(page, move, typed=move if typed % 2 else move.lower() if move.lower() != move else move)
        typed += 1
        if game != "drekki":  # (Drekki's live auction may take the version first: the page plays it again)
            wait_said_more(page, said)  # her move, said
            assert any(line.startswith("Zoé") for line in new_lines(page, said)), speech_lines(page)
        wait_turn_or_end(page, snap["v"])
    page.wait_for_selector("[data-outcome]:not([hidden])")
    heard.extend(new_lines(page, said))
    if bot_turns_heard:
        assert any("robot" in line for line in heard), heard
    assert any(line.startswith("Zoé") for line in heard), heard
    assert checked_refusal, f"{game}: the game ended after {typed} moves of Zoé ({snap['status']}, {snap['outcome']})"
    page.wait_for_selector("[data-outcome]:not([hidden])")
    title = page.locator("[data-outcome-title]").inner_text()
    page.wait_for_function(
        "(t) => [...document.querySelectorAll('[data-speech] p')].some((p) => p.textContent.startsWith(t))", arg=title)
    assert page.locator("[data-typed-form]").is_hidden()
    lines = speech_lines(page)
    assert not any(re.fullmatch(r"[\w*,>:/=-]+", line) for line in lines), lines
    if game == "drekki":
        # The bids and withdrawals are said once, in the polite region, not again by the board.
        announced = page.evaluate("() => window.announced")
        assert not [t for t in announced if re.search(r"\bannonce \d+\.|se retire\.", t)], announced
        assert any(re.search(r"mise \d+|se retire", line) for line in heard), heard
    page.screenshot(path=str(SHOTS / f"typed-{game}.png"))
    assert not page.errors, page.errors
    page.close()
