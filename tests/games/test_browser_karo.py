"""The three Karo boards in a real Chromium, on a live site (daphne and the worker).

For each game a guest starts "play against a bot now" against an easy bot from
the lobby and plays the whole game to the end screen by clicking (and, for some
moves, dragging or using the keyboard) on the board. The guest's moves are
chosen in the test process by a strong bot from the seat's view, as the page
received it (the table API answers with the same view); the clicks go to the
squares the move names, so a board that draws a square in the wrong place, does
not offer a legal destination or builds the wrong move string stalls the game.

Screenshots of each board, on a phone and on a desktop, go to artifacts/screenshots/.
"""

from __future__ import annotations

import random
import re
import time
from typing import Any

import pytest

from games import bots, engines
from tests.games.ui_server import DESKTOP, PHONE, LiveSite, guest_page  # noqa: F401
from tests.games.module_site import live_site, module_live_site, shared_live_site  # noqa: F401  (fixtures)



pytestmark = pytest.mark.browser

MAX_TURNS = 200  # human decisions per game before the test gives up


class Game:
    """One guest's game against a bot, seen through the page and the table API."""

    def __init__(self, chromium: Any, site: LiveSite, slug: str, label: str) -> None:
        self.slug = slug
        self.site = site
        self.rules = engines.get(slug)
        # The guest's side: the greedy bot without randomness. It beats the easy bot
        # (greedy with randomness) in most games of all three, where MCTS on a test-sized
        # time budget (a quarter second) loses most games of Quatre en ligne to it.
        self.strong = bots.make("greedy", self.rules, seed=7, randomness=0.0)
        self.probe = guest_page(chromium, site, "Zoé", label=label)
        self.page = self.probe.page
        self.page.goto(site.url(f"/jouer/?game={slug}"))
        form = self.page.locator("form[data-quick-form]")
        form.locator("select[name=game]").select_option(slug)
        form.locator("select[name=level]").select_option("easy")
        form.get_by_role("button", name="Jouer maintenant").click()
        self.page.wait_for_url(re.compile(r"/jouer/table/\d+/$"))
        self.table = int(self.page.url.rstrip("/").rsplit("/", 1)[1])
        self.board = self.page.locator(".board-host .karo")
        self.board.locator("svg.karo-svg").wait_for()
        self.tile_moves_done = 0

    # -- the server's side ----------------------------------------------------------

    def state(self) -> dict[str, Any]:
        response = self.page.request.get(self.site.url(f"/api/tables/{self.table}/"))
        assert response.ok, response.text()
        return response.json()

    def wait_for_turn(self, timeout: float = 30.0) -> dict[str, Any]:
        """The table once it is over, or once the guest is to act and the board offers the moves."""
        deadline = time.monotonic() + timeout
        while True:
            state = self.state()
            if state["status"] != "running":
                return state
            if state["seat"] in state["to_act"] and state["legal"]:
                # The board has drawn this very version, with moves to offer.
                self.page.locator(f'.board-host .karo[data-version="{state["v"]}"]:not([data-moves="0"])').wait_for()
                return state
            assert time.monotonic() < deadline, f"the bot did not move: {state['to_act']} at v{state['v']}\n{self.site.log[-3000:]}"
            time.sleep(0.1)

    def wait_past(self, version: int, timeout: float = 15.0) -> None:
        deadline = time.monotonic() + timeout
        while self.state()["v"] <= version:
            assert time.monotonic() < deadline, f"the move at v{version} never reached the server"
            time.sleep(0.05)

    # -- the page's side ------------------------------------------------------------

    def cell(self, name: str) -> Any:
        return self.board.locator(f'[data-square="{name}"]')

    def button(self, action: str) -> Any:
        return self.board.locator(f'button[data-action="{action}"]')

    def drag(self, source: str, target: str) -> None:
        """Press on ``source``, move past the drag threshold (a dragged tile shows its
        ghost places only then), and release over ``target``."""
        start = self.cell(source).bounding_box()
        x, y = start["x"] + start["width"] / 2, start["y"] + start["height"] / 2
        mouse = self.page.mouse
        mouse.move(x, y)
        mouse.down()
        mouse.move(x + 6, y + 6)
        mouse.move(x + 14, y + 14)
        end = self.cell(target).bounding_box()
        tx, ty = end["x"] + end["width"] / 2, end["y"] + end["height"] / 2
        for k in range(1, 9):
            mouse.move(x + 14 + k / 8 * (tx - x - 14), y + 14 + k / 8 * (ty - y - 14))
        mouse.up()

    def keyboard(self, names: list[str]) -> None:
        """Reach each place with the arrow keys from the focused one, and press Enter there."""
        self.board.locator('[data-square][tabindex="0"]').focus()
        for name in names:
            for _ in range(12):
                here = self.page.evaluate("() => document.activeElement.dataset.square")
                if here == name:
                    break
                box_here = self.cell(here).bounding_box()
                box_there = self.cell(name).bounding_box()
                dx = box_there["x"] - box_here["x"]
                dy = box_there["y"] - box_here["y"]
                if abs(dx) > abs(dy):
                    self.page.keyboard.press("ArrowRight" if dx > 0 else "ArrowLeft")
                else:
                    self.page.keyboard.press("ArrowDown" if dy > 0 else "ArrowUp")
            assert self.page.evaluate("() => document.activeElement.dataset.square") == name
            self.page.keyboard.press("Enter")

    def play(self, perform: Any, on_turn: Any = None, pick: Any = None, turns: int = MAX_TURNS) -> dict[str, Any]:
        """Play the guest's side to the end, or for ``turns`` turns (then the table as it is,
        the guest to act); ``perform(game, state, move, turn)`` does the clicking. The strong
        bot chooses, unless ``pick(state, turn)`` names a move."""
        for turn in range(MAX_TURNS):
            state = self.wait_for_turn()
            if state["status"] != "running" or turn == turns:
                return state
            move = (pick and pick(state, turn)) or self.strong.choose(state["view"], state["seat"])
            assert move in state["legal"]
            if on_turn:
                on_turn(self, state, turn)
            perform(self, state, move, turn)
            self.wait_past(state["v"])
        raise AssertionError(f"no end after {MAX_TURNS} turns of the guest")

    def resign(self, state: dict[str, Any]) -> dict[str, Any]:
        """Give up from the page: two clicks on the one button (a slip of the finger does
        not end a game); the table the server then holds."""
        button = self.page.locator("[data-resign]")
        button.click()
        button.filter(has_text="Oui, abandonner").click()
        self.wait_past(state["v"])
        return self.state()

    def finish(self, final: dict[str, Any]) -> None:
        assert final["status"] == "finished", final["status"]
        outcome = self.page.locator("[data-outcome]")
        outcome.wait_for(state="visible")
        assert self.page.locator("[data-outcome-title]").inner_text().strip()
        self.page.locator(f'.board-host .karo[data-version="{final["v"]}"]').wait_for(state="attached")
        assert self.board.locator(".karo-prompt").inner_text() == "La partie est terminée."
        self.shots("end")
        self.probe.assert_no_console_errors()

    def shots(self, label: str) -> None:
        self.page.set_viewport_size(PHONE)
        self.board.scroll_into_view_if_needed()
        self.probe.screenshot(f"{label}-phone")
        self.page.set_viewport_size(DESKTOP)
        self.probe.screenshot(f"{label}-desktop")


def split(move: str, sep: str) -> tuple[str, str]:
    a, _, b = move.partition(sep)
    return a, b


# -- Rampants et Sauteurs -------------------------------------------------------------


def perform_rampants(game: Game, state: dict[str, Any], move: str, turn: int) -> None:
    view = state["view"]
    if move == "pass":
        game.button("pass").click()
    elif "/" in move:
        # The secret setup: turn over the start squares that differ, then confirm.
        seat = state["seat"]
        back, front = (1, 2) if seat == 0 else (8, 7)
        squares = [f"{f}{back}" for f in "abc"] + [f"{f}{front}" for f in "abc"]
        for square, letter in zip(squares, move.replace("/", ""), strict=True):
            want = "jumper" if letter == "J" else "crawler"
            if game.cell(square).get_attribute("data-face") != want:
                game.cell(square).click()
        assert game.board.locator(".karo-prompt").inner_text().count("3 sur 3") == 2
        game.button("confirm-layout").click()
    else:
        source, target = split(move, "-")
        if turn == 3:
            game.drag(source, target)
        else:
            game.cell(source).click()
            piece = next(p for p in view["board"]["pieces"] if p["square"] == source)
            if piece["face"] == "jumper" and turn < 12:
                # A jumper shows its jump lines to every landing square.
                assert game.board.locator(".karo-line").count() >= 1
            game.cell(target).click()


def test_a_guest_plays_rampants_et_sauteurs_against_a_bot_then_resigns(live_site, chromium):
    """The secret setup, both ways of moving, the jump lines and a spectator, over the
    game's first dozen turns; then the guest resigns from the page. A whole game to its
    natural end on these boards is Quatre en ligne's and Éclaircissement's test below (the
    end card is one for every game); Rampants' crossing and repetition endings are the
    engine's tests (a whole game here took 100-330 s of CI, 40-116 plies)."""
    game = Game(chromium, live_site, "rampants-sauteurs", "karo-rampants-sauteurs")
    state = game.wait_for_turn()
    assert state["view"]["phase"] == "setup"
    # The bot chooses its setup at once; the board shows that it did, never what.
    deadline = time.monotonic() + 15
    while not all(entry["chosen"] for entry in game.state()["view"]["setup"] if entry["seat"] != state["seat"]):
        assert time.monotonic() < deadline, "the bot never chose its setup"
        time.sleep(0.1)
    game.page.reload()
    game.wait_for_turn()
    assert game.board.locator(".karo-hidden-piece").count() == 6
    other = 1 - state["seat"]
    assert game.board.locator(f'[data-owner="{other}"]').count() == 0
    # Our own start squares hold the proposed layout, ready to be turned over.
    assert game.board.locator(f'[data-owner="{state["seat"]}"]').count() == 6
    game.shots("setup")

    def on_turn(game: Game, state: dict[str, Any], turn: int) -> None:
        if turn == 2:
            game.shots("play")
        if turn == 4:
            # A spectator sees the same pieces, and no move to make.
            watcher = guest_page(chromium, live_site, "Léa", label="karo-rampants-sauteurs-watcher", viewport=PHONE)
            watcher.page.goto(live_site.url(f"/jouer/table/{game.table}/"))
            board = watcher.page.locator(f'.board-host .karo[data-version="{state["v"]}"]')
            board.wait_for()
            assert board.get_attribute("data-moves") == "0"
            assert board.locator("[data-owner]").count() == 12
            assert board.locator(".karo-prompt").inner_text() == "Vous regardez la partie."
            watcher.screenshot("phone")
            watcher.assert_no_console_errors()
            watcher.page.context.close()
            live_site.pages.remove(watcher)

    # The greedy chooser would wall itself in (CCC/JJJ: crawlers behind, jumpers in front)
    # and then neither way of moving is shown: the guest sets up so that both can be.
    state = game.play(perform_rampants, on_turn, pick=lambda state, turn: "CJC/CJJ" if turn == 0 else None,
                      turns=12)
    final = state
    if state["status"] == "running":  # an easy bot may also lose the race within a dozen turns
        final = game.resign(state)
        assert final["outcome"]["reason"] == "resign"
        assert final["outcome"]["winners"] == [1 - state["seat"]]
    game.finish(final)


# -- Éclaircissement --------------------------------------------------------------------


def perform_eclaircissement(game: Game, state: dict[str, Any], move: str, turn: int) -> None:
    view = state["view"]
    if move in ("pass", "stop"):
        game.button(move).click()
        return
    source, target = split(move, "-")
    if view["chain"]:
        # In a chain the jumping piece is already selected; the visited squares are numbered.
        assert game.cell(source).locator(".karo-selected").count() == 1
        assert game.board.locator(".karo-badge").count() == len(view["chain"]["path"])
        assert game.button("stop").is_visible()
        game.cell(target).click()
    elif turn == 1:
        game.drag(source, target)
    elif turn == 2:
        game.keyboard([source, target])
    else:
        game.cell(source).click()
        game.cell(target).click()


def test_a_guest_plays_eclaircissement_against_a_bot_to_the_end(live_site, chromium):
    game = Game(chromium, live_site, "eclaircissement", "karo-eclaircissement")
    state = game.wait_for_turn()
    # The centre has no tile: it is drawn as the source of light.
    assert game.cell("c3").locator(".karo-source").count() == 1
    assert game.cell("c3").locator(".karo-tile").count() == 0
    # An attempt that is not a move is explained in words.
    mine = {p["square"] for p in state["view"]["board"]["pieces"] if p["owner"] == state["seat"]}
    source = next(m.split("-")[0] for m in state["legal"] if "-" in m)
    game.cell(source).click()
    far = next(s for s in ("c3", "b4", "d2", "b2", "d4") if s not in mine and f"{source}-{s}" not in state["legal"])
    game.cell(far).click()
    announce = game.page.locator("[data-announce]")
    announce.filter(has_text=far).wait_for()
    assert "n'est pas une destination" in announce.inner_text()
    game.page.keyboard.press("Escape")

    chains = []

    def on_turn(game: Game, state: dict[str, Any], turn: int) -> None:
        if state["view"]["chain"] and not chains:
            chains.append(turn)
            game.shots("chain")
        if turn == 4:
            game.shots("play")

    final = game.play(perform_eclaircissement, on_turn)
    game.finish(final)
    # The replay page draws the same board, for nobody's seat, from the start.
    game.page.goto(live_site.url(f"/jouer/table/{game.table}/revoir/"))
    board = game.page.locator(".board-host .karo")
    board.locator("svg.karo-svg").wait_for()
    assert board.locator("[data-square]").count() == 25
    assert board.locator("[data-owner]").count() == 16
    game.probe.screenshot("replay-desktop")
    game.probe.assert_no_console_errors()


# -- Quatre en ligne ------------------------------------------------------------------------


def perform_quatre(game: Game, state: dict[str, Any], move: str, turn: int) -> None:
    if move == "pass":
        game.button("pass").click()
    elif ">" not in move:
        game.cell(move).click()
    elif ":" in move:
        tile_part, piece_part = move.split(":")
        lift, target = split(tile_part, ">")
        source, _ = split(piece_part, ">")
        if game.tile_moves_done % 2:
            game.drag(lift, target)
        else:
            game.cell(lift).click()
            assert game.board.locator("[data-ghost]").count() >= 1
            game.cell(target).click()
        assert game.cell(target).locator(".karo-tile.is-moved").count() == 1
        game.cell(source).click()
        game.cell(target).click()
        game.tile_moves_done += 1
    else:
        source, target = split(move, ">")
        game.cell(source).click()
        game.cell(target).click()


def quiet_tile_move(rules: Any, state: dict[str, Any]) -> str | None:
    """A legal tile move after which the game goes on for at least one more turn
    of the guest: it does not end the game, and no reply of the other seat does
    (the first such move in the legal list, or None)."""
    seat = state["seat"]
    position = rules.state_from_view(state["view"], seat, random.Random(0))
    for move in (m for m in state["legal"] if ":" in m):
        after = rules.play(position, seat, move)
        if rules.is_over(after):
            continue
        if all(not rules.is_over(rules.play(after, other, reply))
               for other in rules.to_act(after) for reply in rules.legal_moves(after, other)):
            return move
    return None


def test_a_guest_plays_quatre_en_ligne_against_a_bot_to_the_end(live_site, chromium):
    game = Game(chromium, live_site, "quatre-en-ligne", "karo-quatre-en-ligne")
    tile_moves = []

    def on_turn(game: Game, state: dict[str, Any], turn: int) -> None:
        if state["view"]["phase"] == "movement" and not tile_moves:
            # Show a tile move half done: the tile lifted, the ghost places around.
            lift = next((m.split(">")[0] for m in state["legal"] if ":" in m), None)
            if lift is not None:
                tile_moves.append(lift)
                game.cell(lift).click()
                game.shots("tile")
                game.board.locator('button[data-action="undo-tile"]').click()
                assert game.board.locator("[data-ghost]").count() == 0
        if turn == 3:
            game.shots("placement")

    def perform(game: Game, state: dict[str, Any], move: str, turn: int) -> None:
        view = state["view"]
        xs = [t["x"] for t in view["board"]["tiles"]]
        viewbox = game.board.locator("svg.karo-svg").get_attribute("viewBox").split()
        # The board follows the tiles: the drawing is as wide as their bounding box (and a margin).
        pad = 1 if view["phase"] == "movement" else 0.12
        assert float(viewbox[2]) == pytest.approx((max(xs) - min(xs) + 1 + 2 * pad) * 100)
        perform_quatre(game, state, move, turn)

    played_tile_moves: list[str] = []

    def pick(state: dict[str, Any], turn: int) -> str | None:
        # Twice in the game, a tile move joined to a piece move (once clicked, once
        # dragged), so that the guided tile move is played whatever the bot prefers.
        # Each one keeps the game going (neither it nor any reply ends it), so that
        # the second comes whatever the bot answers to the first.
        if len(played_tile_moves) >= 2:
            return None
        move = quiet_tile_move(game.rules, state)
        if move is not None:
            played_tile_moves.append(move)
        return move

    final = game.play(perform, on_turn, pick)
    assert len(played_tile_moves) == 2
    game.finish(final)
