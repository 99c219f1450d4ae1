"""Drumlin in a real Chromium against a live daphne and worker: a person beats an
easy bot by clicking squares, to the end screen, with a reload in the middle; two
people play each other while a spectator watches the moves arrive; the board is
keyboard operable and explains an impossible move in words. Screenshots of the
board on a phone and a desktop go to artifacts/screenshots/."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from games import bots, engines
from ludo.typography import french as typeset
from tests.games.ui_server import DESKTOP, PHONE, TABLET, guest_page, live_site  # noqa: F401  (fixture)

pytestmark = pytest.mark.browser

RULES = engines.get("drumlin")
SQUARE = r"[a-h](?:10|[1-9])"
# A greedy player beats the easy bot in a median of about 14 of its turns; in 150
# games played offline, 3 went past 80 turns (at most 106) and 5 were lost or drawn.
MAX_TURNS = 200
SHOWS_MOVE = ("(move) => [...document.querySelectorAll('[data-moves] .move-text')]"
              ".some(e => e.dataset.notation === move)")


def table_id(page: Any) -> int:
    return int(page.locator("[data-table-page]").get_attribute("data-table"))


def table_data(site: Any, page: Any) -> dict[str, Any]:
    """The table as this browser's person sees it (their seat's view), from the HTTP API."""
    response = page.request.get(site.url(f"/api/tables/{table_id(page)}/"))
    assert response.ok, response.text()
    return response.json()


def move_count(page: Any) -> int:
    return page.locator("[data-moves] li[data-v]").count()


def is_selected(page: Any, square: str) -> bool:
    return "selected" in (page.locator(f"[data-square='{square}']").get_attribute("class") or "").split()


def click_move(page: Any, move: str) -> None:
    """Play ``move`` the way a person does: click its piece, then where it goes."""
    offered = page.locator(f"[data-choices] [data-move='{move}']")
    if offered.count():  # the chained departure: go on to the base line, or stop
        offered.click()
        return
    placed = re.fullmatch(rf"[*x]({SQUARE})", move)
    if placed:
        page.locator(f"[data-square='{placed[1]}']").click()
        return
    parts = re.fullmatch(rf"(?:EE|[EDO])({SQUARE})[-=]D?({SQUARE}|base)", move)
    assert parts, move
    origin, target = parts.groups()
    if not is_selected(page, origin):
        page.locator(f"[data-square='{origin}']").click()
    if target == "base":
        page.locator("[data-base].target").click()
    else:
        page.locator(f"[data-square='{target}']").click()
    choice = page.locator(f"[data-choices] [data-move='{move}']")
    if choice.count():
        choice.click()


def wait_for_my_turn_or_end(page: Any) -> None:
    page.wait_for_selector("[data-status][data-turn='true'], [data-outcome]:not([hidden])", timeout=20_000)


def play_greedy_turn(site: Any, page: Any, player: Any) -> str:
    data = table_data(site, page)
    assert data["seat"] in data["to_act"], data
    move = player.choose(data["view"], data["seat"])
    before = move_count(page)
    click_move(page, move)
    page.wait_for_function(
        "([n]) => document.querySelectorAll('[data-moves] li[data-v]').length > n",
        arg=[before], timeout=15_000,
    )
    return move


def test_a_person_beats_an_easy_bot_by_clicking_with_a_reload_in_the_middle(live_site, chromium):
    zoe = guest_page(chromium, live_site, "Zoé", label="test_browser_drumlin-zoe")
    page = zoe.page
    page.locator("[data-quick-form] select[name='game']").select_option("drumlin")
    page.locator("[data-quick-form] select[name='level']").select_option("easy")
    page.locator("[data-quick-form] button[type='submit']").click()
    page.wait_for_url(re.compile(r"/jouer/table/\d+/$"))
    wait_for_my_turn_or_end(page)
    # Pink (the bot) placed the Drumlin first; the move list says where.
    first = page.locator("[data-moves] li[data-v] .move-text").first
    assert re.fullmatch(r"\*" + SQUARE, first.get_attribute("data-notation"))
    assert re.fullmatch(r".+ place le Drumlin en " + SQUARE, first.inner_text())
    assert page.locator("[data-square]").count() == 80
    assert page.locator("[data-square] .piece").count() == 24

    player = bots.make("greedy", RULES, seed=1)
    played: list[str] = []
    for turn in range(MAX_TURNS):
        if page.locator("[data-outcome]").is_visible():
            break
        if turn == 3:
            page.set_viewport_size(PHONE)
            zoe.screenshot("drumlin-phone")
            page.set_viewport_size(TABLET)
            zoe.screenshot("drumlin-tablet", full_page=False)
            page.set_viewport_size(DESKTOP)
            zoe.screenshot("drumlin-desktop", full_page=False)
            # A reload in the middle of the game: same board, same moves, and it goes on.
            moves_before = page.locator("[data-moves]").inner_text()
            pieces_before = page.locator("[data-square] .piece").count()
            page.reload()
            wait_for_my_turn_or_end(page)
            page.wait_for_function("() => document.querySelectorAll('[data-moves] li[data-v]').length > 3")
            assert page.locator("[data-moves]").inner_text() == moves_before
            assert page.locator("[data-square] .piece").count() == pieces_before
        played.append(play_greedy_turn(live_site, page, player))
        wait_for_my_turn_or_end(page)
    outcome = page.locator("[data-outcome]")
    outcome.wait_for(state="visible")
    # The end screen says what the server recorded, from Zoé's side. She usually
    # wins; the easy bot plays with randomness and wins a few games in a hundred.
    final = table_data(live_site, page)
    assert final["status"] == "finished", final["status"]
    winners = final["outcome"]["winners"]
    result, title, text = (
        ("won", typeset("Vous avez gagné !"), typeset("Gagnant, Zoé : ")) if final["seat"] in winners
        else ("draw", "Partie nulle", "") if not winners
        else ("lost", "Vous avez perdu", "Gagnant, ")
    )
    assert outcome.get_attribute("data-result") == result, page.locator("[data-outcome-text]").inner_text()
    assert page.locator("[data-outcome-title]").inner_text() == title
    assert page.locator("[data-outcome-text]").inner_text().startswith(text)
    # Every move of the person is in the list (in words, the notation as each one's title).
    texts = page.locator("[data-moves] li[data-v] .move-text").evaluate_all("(nodes) => nodes.map((n) => n.title)")
    assert set(played) <= set(texts)
    zoe.screenshot("drumlin-end-desktop")
    page.set_viewport_size(PHONE)
    zoe.screenshot("drumlin-end-phone")
    page.set_viewport_size(DESKTOP)

    # A rematch: a new table, seats turned by one, so Zoé is pink and places the Drumlin.
    first = table_id(page)
    page.locator("[data-rematch]").click()
    page.wait_for_url(lambda url: re.search(r"/jouer/table/(\d+)/$", url) and not url.endswith(f"/{first}/"))
    wait_for_my_turn_or_end(page)
    assert "Posez le Drumlin" in page.locator("[data-guide]").inner_text()
    pink_base, violet_base = (page.locator(f"[data-base='{s}']").bounding_box()["y"] for s in (1, 0))
    assert pink_base > violet_base
    # Resigning takes two clicks, and the end screen says who lost.
    page.locator("[data-resign]").click()
    expect(page.locator("[data-resign]")).to_have_text("Oui, abandonner")
    page.locator("[data-resign]").click()
    expect(page.locator("[data-outcome]")).to_have_attribute("data-result", "lost")
    expect(page.locator("[data-outcome-title]")).to_have_text("Vous avez perdu")
    expect(page.locator("[data-outcome-text]")).to_contain_text("un joueur a abandonné")
    zoe.assert_no_console_errors()


def create_open_table(page: Any, site: Any) -> int:
    page.goto(site.url("/jouer/?game=drumlin"))
    form = page.locator("[data-create-form]")
    form.locator("select[name='game']").select_option("drumlin")
    form.locator("select[name='seat-1']").select_option("")
    form.locator("select[name='clock']").select_option("5+3")
    form.get_by_role("button", name="Créer la table").click()
    page.wait_for_url(re.compile(r"/jouer/table/\d+/$"))
    return table_id(page)


def test_two_people_play_each_other_while_a_spectator_watches(live_site, chromium):
    zoe = guest_page(chromium, live_site, "Zoé", label="test_browser_drumlin-two-zoe")
    leo = guest_page(chromium, live_site, "Léo", label="test_browser_drumlin-two-leo")
    watcher = guest_page(chromium, live_site, "Ada", label="test_browser_drumlin-two-ada", viewport=PHONE)
    number = create_open_table(zoe.page, live_site)
    zoe.page.locator("[data-setup]").wait_for(state="visible")
    assert f"/jouer/table/{number}/" in zoe.page.locator("[data-invite-link]").input_value()

    # Léo finds the table in the lobby without reloading it, and sits.
    leo.page.locator(f"[data-lobby-list] [data-table-id='{number}'] a.join").click()
    leo.page.wait_for_url(live_site.url(f"/jouer/table/{number}/"))
    leo.page.locator("[data-sit='1']").click()
    zoe.page.locator("[data-start]:not([disabled])").click()

    pink, violet = leo.page, zoe.page  # pink (seat 1) places the Drumlin first
    watcher.page.goto(live_site.url(f"/jouer/table/{number}/"))
    watcher.page.wait_for_selector("[data-square]")
    assert watcher.page.locator("[data-actions]").is_hidden()

    wait_for_my_turn_or_end(pink)
    # Both clocks are shown; only the one of the seat to act runs. Sound is off until asked.
    expect(pink.locator("[data-clock='1']")).to_have_attribute("data-running", "true")
    expect(pink.locator("[data-clock='0']")).to_have_attribute("data-running", "false")
    expect(pink.locator("[data-clock='0']")).to_have_text("5:00")
    assert re.fullmatch(r"[45]:\d\d", pink.locator("[data-clock='1']").inner_text())
    expect(pink.locator("[data-sound]")).to_have_attribute("aria-pressed", "false")
    # Presence: each player sees the other one here.
    expect(pink.locator("[data-players] [data-seat='0'] .presence")).to_have_class(re.compile("online"))
    # An impossible attempt is explained in words: the Drumlin goes on an empty square.
    pink.locator("[data-square='a10']").click()
    expect(pink.locator("[data-announce]")).to_contain_text("case vide")
    click_move(pink, "*e4")
    wait_for_my_turn_or_end(violet)

    # Violet plays with the keyboard: focus d5, Enter, arrow up twice, Enter.
    violet.locator("[data-square='d5']").focus()
    violet.keyboard.press("Enter")
    assert is_selected(violet, "d5")
    violet.keyboard.press("ArrowRight")
    violet.keyboard.press("ArrowLeft")
    violet.keyboard.press("ArrowUp")
    violet.keyboard.press("ArrowUp")
    zoe.screenshot("drumlin-keyboard-desktop", full_page=False)
    violet.keyboard.press("Enter")
    wait_for_my_turn_or_end(pink)
    assert pink.locator("[data-moves] li.last .move-text").get_attribute("data-notation") == "Ed5-d7"
    assert pink.locator("[data-moves] li.last .move-text").inner_text() == typeset("Zoé : éléphant d5 → d7")

    # The spectator sees the moves arrive, without reloading.
    watcher.page.wait_for_function(SHOWS_MOVE, arg="Ed5-d7")
    # A drag: pink's elephant from a6 down to a5.
    source = pink.locator("[data-square='a6']").bounding_box()
    target = pink.locator("[data-square='a5']").bounding_box()
    pink.mouse.move(source["x"] + source["width"] / 2, source["y"] + source["height"] / 2)
    pink.mouse.down()
    pink.mouse.move(target["x"] + target["width"] / 2, target["y"] + target["height"] / 2, steps=8)
    pink.mouse.up()
    # Each socket gets the update on its own: wait for the other player's too.
    watcher.page.wait_for_function(SHOWS_MOVE, arg="Ea6-a5")
    violet.wait_for_function(SHOWS_MOVE, arg="Ea6-a5")

    # Chat between the players; the spectator has a chat of their own.
    violet.locator("[data-chat-text]").fill("Bien joué !")
    violet.locator("[data-chat-text]").press("Enter")
    pink.locator("[data-chat-log]").get_by_text("Bien joué !").wait_for()
    assert "Bien joué" not in watcher.page.locator("[data-chat-log]").inner_text()
    watcher.screenshot("drumlin-spectator-phone")

    # A draw by agreement ends the game for both.
    violet.locator("[data-draw='offer']").click()
    pink.locator("[data-draw='accept']").click()
    for page in (violet, pink, watcher.page):
        page.locator("[data-outcome]").wait_for(state="visible")
        assert page.locator("[data-outcome]").get_attribute("data-result") == "draw"
    assert violet.locator("[data-outcome-title]").inner_text() == "Partie nulle"
    for probe in (zoe, leo, watcher):
        probe.assert_no_console_errors()
    # Zoé leaves: Léo sees her away.
    zoe.page.close()
    expect(pink.locator("[data-players] [data-seat='0'] .presence")).to_have_class(re.compile("away"))


# -- the board module on its own, on positions built with the engine ------------------------------

MOUNT = """async ([view, ctx, seat]) => {
  // As the table page does: the board's module and its stylesheet, then mount.
  const { loadBoard } = await import('/static/js/table/boards.js');
  const { mount } = await loadBoard('/static/', 'drumlin', ['/static/css/boards-drumlin.css']);
  if (window.__board) window.__board.destroy();
  const main = document.querySelector('main');
  main.replaceChildren();
  const host = document.createElement('div');
  host.className = 'board-host';
  main.append(host);
  window.__moves = [];
  window.__said = [];
  window.__board = mount(host, {seat, gettext: window.gettext,
    onMove: (move) => window.__moves.push(move), announce: (text) => window.__said.push(text)});
  window.__board.update(view, ctx);
}"""


def show(page: Any, text: str, seat: int | None, last: str | None = None) -> list[str]:
    """Mount the board for ``seat`` on the position ``text``; return that seat's legal moves."""
    state = RULES.parse_position(text)
    legal = RULES.legal_moves(state, seat) if seat is not None else []
    ctx = {"legalMoves": legal, "lastMove": last, "toAct": list(RULES.to_act(state)), "version": 1,
           "players": [{"seat": 0, "name": "Zoé", "isBot": False, "connected": True},
                       {"seat": 1, "name": "Léo", "isBot": False, "connected": True}],
           "outcome": None, "countdown": None, "interactive": seat is not None}
    page.evaluate(MOUNT, [RULES.view(state, seat), ctx, seat])
    return legal


def played(page: Any) -> list[str]:
    return page.evaluate("() => window.__moves")


def said(page: Any) -> str:
    return " | ".join(page.evaluate("() => window.__said"))


def targets(page: Any) -> set[str]:
    return set(page.locator("[data-square].target").evaluate_all("nodes => nodes.map(n => n.dataset.square)"))


def test_the_board_guides_every_kind_of_move(daphne_server, browser_page):
    page = browser_page.page
    page.goto(daphne_server.url("/jouer/"))

    # An elephant and a dragon share a1: a click shows where either may go; where both
    # may go, buttons ask which; a dragon may not end on the lone Drumlin (h1).
    legal = show(page, "e7/8/8/8/8/8/8/8/8/(DE)6* v - std -", 0)
    label = page.locator("[data-square='a1']").get_attribute("aria-label")
    assert "dragon violet" in label and "éléphant violet" in label and "valeur 3" in label
    page.locator("[data-square='a1']").click()
    assert targets(page) == {m.split("-")[1] for m in legal}
    page.locator("[data-square='a5']").click()
    choices = page.locator("[data-choices] [data-move]")
    assert sorted(choices.evaluate_all("nodes => nodes.map(n => n.dataset.move)")) == ["Da1-a5", "Ea1-a5"]
    assert played(page) == []
    page.locator("[data-choices] [data-move='Da1-a5']").click()
    assert played(page) == ["Da1-a5"]
    # h1 holds the lone Drumlin: only the elephant can go (and pick it up), no question asked.
    show(page, "e7/8/8/8/8/8/8/8/8/(DE)6* v - std -", 0)
    page.locator("[data-square='a1']").click()
    page.locator("[data-square='h1']").click()
    assert played(page) == ["Ea1-h1"]

    # A square a piece cannot reach is explained in words, and nothing is played.
    show(page, "e7/8/8/8/8/8/8/8/8/(DE)6* v - std -", 0)
    page.locator("[data-square='a1']").click()
    page.locator("[data-square='c3']").click()
    assert "ligne droite" in said(page) and played(page) == []
    page.locator("[data-square='e5']").click()
    assert "Vous n’avez pas de pièce en e5" in said(page) or "ligne droite" in said(page)

    # The exchange: the two elephants on a1 and the dragon on c2 change places (from either end).
    show(page, "e7/8/8/8/8/8/8/8/2D5/(EE)6* v - std -", 0)
    page.locator("[data-square='c2']").click()
    assert "a1" in targets(page)
    page.locator("[data-square='a1']").click()
    assert played(page) == ["EEa1=Dc2"]

    # The placement: every empty square is marked, one click places.
    legal = show(page, "e7/8/3(DEd)1E2/8/2E5/8/2E5/7e/6e1/1E6 v place std -", 0)
    assert targets(page) == {m[1:] for m in legal}
    assert "Posez le Drumlin" in page.locator("[data-guide]").inner_text()
    page.locator("[data-square='h5']").click()
    assert played(page) == ["*h5"]

    # The square worth 5: a warning on the board, and pink's only choice, preselected.
    show(page, "e7/8/3(DEd)1E2/8/2E5/7*/2E5/7e/6e1/1E6 p - std -", 1)
    d8 = page.locator("[data-square='d8']")
    assert "five" in d8.get_attribute("class") and d8.locator(".five-mark").count() == 1
    assert typeset("Attention : vaut 5") in d8.get_attribute("aria-label")
    assert "selected" in d8.get_attribute("class")
    assert "Obligation à 5" in page.locator("[data-guide]").inner_text()
    page.locator("[data-square='a10']").click()  # a piece off d8 cannot move first
    assert "Obligation à 5" in said(page) and played(page) == []
    page.locator("[data-square='d9']").click()
    assert played(page) == ["Dd8-d9"]

    # The chained departure: go on to the base line, or stop.
    show(page, "6O1/8/4D3/8/8/8/8/8/8/e7 v chain std -", 0, last="Oe8-g10")
    lit = page.locator("[data-square].last").evaluate_all("nodes => nodes.map(n => n.dataset.square)")
    assert {"g10", "e8"} <= set(lit)
    assert page.locator("[data-base].target").count() == 1
    assert page.locator("[data-choices] [data-move='stop']").is_visible()
    page.locator("[data-base].target").click()
    assert played(page) == ["Og10-base"]
    show(page, "6O1/8/4D3/8/8/8/8/8/8/e7 v chain std -", 0, last="Oe8-g10")
    page.locator("[data-choices] [data-move='stop']").click()
    assert played(page) == ["stop"]

    # A spectator sees the board and can do nothing with it.
    show(page, "e7/8/8/8/8/8/8/8/8/(DE)6* v - std -", None)
    page.locator("[data-square='a1']").click()
    assert targets(page) == set() and played(page) == [] and said(page) == ""

    # Pink sees the board turned round: a10 at the bottom left... of pink's side (h1 there).
    show(page, "e7/8/8/8/8/8/8/8/8/(DE)6* v - std -", 1)
    top = {name: page.locator(f"[data-square='{name}']").bounding_box()["y"] for name in ("a1", "a10")}
    assert top["a1"] < top["a10"]
    page.set_viewport_size(PHONE)
    browser_page.screenshot("drumlin-board-pink-phone")
    browser_page.assert_no_console_errors()


def test_the_page_reconnects_after_a_server_crash_and_the_game_goes_on(live_site, chromium):
    from tests.servers import DaphneServer

    zoe = guest_page(chromium, live_site, "Zoé", label="test_browser_drumlin-crash")
    page = zoe.page
    page.locator("[data-quick-form] select[name='game']").select_option("drumlin")
    page.locator("[data-quick-form] button[type='submit']").click()
    page.wait_for_url(re.compile(r"/jouer/table/\d+/$"))
    wait_for_my_turn_or_end(page)
    expect(page.locator("[data-connection]")).to_have_attribute("data-state", "open")

    old = live_site.server
    old.kill()  # a crash: no close frame, nothing cleaned up
    expect(page.locator("[data-connection]")).to_have_attribute("data-state", "closed", timeout=20_000)
    expect(page.locator("[data-connection]")).to_have_text("connexion perdue, nouvel essai…")
    live_site.server = DaphneServer(old.env, port=old.port).start()
    expect(page.locator("[data-connection]")).to_have_attribute("data-state", "open", timeout=20_000)

    player = bots.make("greedy", RULES, seed=2)
    move = play_greedy_turn(live_site, page, player)
    page.wait_for_function(SHOWS_MOVE, arg=move)
    wait_for_my_turn_or_end(page)
    zoe.console_errors[:] = [e for e in zoe.console_errors if "WebSocket" not in e]  # the crash itself
    zoe.assert_no_console_errors()
