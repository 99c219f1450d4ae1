"""The table page's shell (static/js/table/main.js) in a real Chromium, against a
scripted table socket.

The page is a real table page served by daphne, but its socket to the table is
answered by this process (Playwright's WebSocket routing): each test decides which
frames arrive and in which order, so races between an update and the answer to a
move are played exactly. The board is a stand-in module (one button per legal
move) served in place of the game's own, so only the shell is under test.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from games import engines
from ludo.typography import french as typeset

pytestmark = pytest.mark.browser


@pytest.fixture
def daphne_server(shared_daphne_server):
    """One server for the module (every test makes its own guest and quick table and scripts the socket)."""
    return shared_daphne_server

# The board stand-in: one button per legal move; it says which version it drew and
# how many moves it was offered.
FAKE_BOARD = """
export function mount(host, options) {
  const root = document.createElement("div");
  root.className = "fake-board";
  host.append(root);
  return {
    update(view, ctx) {
      root.dataset.version = String(ctx.version);
      root.dataset.moves = String(ctx.legalMoves.length);
      root.replaceChildren(...ctx.legalMoves.map((move) => {
        const button = document.createElement("button");
        button.type = "button";
        button.dataset.move = move;
        button.textContent = move;
        button.addEventListener("click", () => options.onMove(move));
        return button;
      }));
    },
    destroy() { root.remove(); },
  };
}
"""
CHOOSE_AGAIN = typeset("La partie a avancé avant que votre coup n’arrive : choisissez de nouveau.")


def seat(index: int, name: str) -> dict[str, Any]:
    return {"index": index, "name": name, "bot": None, "empty": False, "account": False, "resigned": False}


class ScriptedTable:
    """The table socket of one page, answered from this process.

    Each move the page sends takes the next function of ``answers``, which gives the
    frames to send back (none when the list is empty); every message the page sent
    is in ``received``."""

    def __init__(self, page: Any, game: str, hello: Callable[[], dict[str, Any]]) -> None:
        self.page = page
        self.game = game
        self.hello = hello
        self.received: list[dict[str, Any]] = []
        self.answers: list[Callable[[dict[str, Any]], list[dict[str, Any]]]] = []
        self.ws: Any = None
        self.chats = 0
        page.route_web_socket(re.compile(r"/ws/tables/\d+/$"), self._connect)

    def _connect(self, ws: Any) -> None:
        self.ws = ws
        ws.on_message(self._message)

    def _message(self, text: str | bytes) -> None:
        message = json.loads(text)
        self.received.append(message)
        if message["t"] == "hello":
            # As the server does: the state answering a hello carries its id (the page's
            # socket is open only once that answer came).
            answer = self.hello()
            self.send({**answer, "id": message["id"]} if "id" in message else answer)
        elif message["t"] == "move" and self.answers:
            for frame in self.answers.pop(0)(message):
                self.send(frame)

    def send(self, frame: dict[str, Any]) -> None:
        self.ws.send(json.dumps(frame))

    def moves(self) -> list[tuple[str, int]]:
        return [(m["move"], m["v"]) for m in self.received if m["t"] == "move"]

    def wait_for_moves(self, count: int, timeout_ms: int = 10_000) -> list[tuple[str, int]]:
        """Wait until the page has sent ``count`` moves (Playwright runs the socket's
        handlers while the page waits)."""
        waited = 0
        while len(self.moves()) < count and waited < timeout_ms:
            self.page.wait_for_timeout(50)
            waited += 50
        return self.moves()

    def settle(self) -> None:
        """Send a chat message and wait until the page shows it: every frame sent
        before it has been handled, with all that handling does at once."""
        self.chats += 1
        text = f"marker {self.chats}"
        self.send({"t": "chat", "message": {"id": 1000 + self.chats, "channel": "players", "seat": 1,
                                            "name": "Léo", "text": text, "hidden": False, "at": None}})
        expect(self.page.locator("[data-chat-log]")).to_contain_text(text)


def frame(kind: str, v: int, legal: list[str], game: str = "drumlin", view: dict[str, Any] | None = None,
          events: list[dict[str, Any]] | None = None, full: bool = False, to_act: tuple[int, ...] = (0,),
          status: str = "running") -> dict[str, Any]:
    """A state or update frame for seat 0 of a two-seat table, as docs/protocol.md describes it."""
    data = {
        "t": kind, "table": 1, "game": game, "status": status, "v": v, "seat": 0, "host": True,
        "seats": [seat(0, "Zoé"), seat(1, "Léo")], "options": {}, "rated": False, "private": False,
        "clock": {"kind": "none", "server_time": "2026-01-01T00:00:00+00:00"},
        "draw_offers": [], "rematch_offers": [], "rematch": None, "outcome": None,
        "view": view if view is not None else {"last_move": None}, "legal": legal, "to_act": list(to_act),
        "countdown": None, "events": events if events is not None else [], "full": full,
    }
    if kind == "state":
        data.update(presence={"seats": [0, 1], "spectators": 0}, chat=[])
    return data


def other_moved(v: int) -> dict[str, Any]:
    return {"v": v, "kind": "move", "seat": 1, "at": None}


def played(v: int, move: str) -> dict[str, Any]:
    return {"v": v, "kind": "move", "seat": 0, "at": None, "move": move}


def ack(message: dict[str, Any]) -> dict[str, Any]:
    return {"t": "ack", "id": message["id"]}


def stale(message: dict[str, Any], v: int) -> dict[str, Any]:
    return {"t": "error", "id": message["id"], "code": "stale_version",
            "message": "La table a changé depuis que vous l’avez vue.", "v": v}


def replay_data(game: str, status: str, v: int, steps: list[dict[str, Any]]) -> dict[str, Any]:
    """What the replay API answers (docs/protocol.md)."""
    return {"table": 1, "game": game, "status": status, "v": v, "options": {},
            "seats": [seat(0, "Zoé"), seat(1, "Léo")], "outcome": None, "steps": steps}


def open_table(server: Any, probe: Any, game: str, hello: Callable[[], dict[str, Any]],
               replay: Callable[[], dict[str, Any]] | None = None, real_board: bool = False) -> ScriptedTable:
    """A guest's table page of ``game`` with a scripted socket and the stand-in board
    (or the game's own); ``replay()`` answers the table's replay API (by default: no step)."""
    page = probe.page
    page.goto(server.url("/invite/?next=/jouer/"))
    page.get_by_label("Nom affiché").fill("Zoé")
    page.get_by_role("button", name="Continuer").click()
    page.wait_for_url(server.url("/jouer/"))
    if not real_board:
        page.route(f"**/static/js/boards/{game}.js",
                   lambda route: route.fulfill(status=200, content_type="text/javascript", body=FAKE_BOARD))
    def answer_replay(route: Any) -> None:
        data = replay() if replay else replay_data(game, "running", 0, [])
        route.fulfill(status=200, content_type="application/json", body=json.dumps(data))

    page.route(re.compile(r"/api/tables/\d+/replay/"), answer_replay)
    table = ScriptedTable(page, game, hello)
    form = page.locator("form[data-quick-form]")
    form.locator("select[name=game]").select_option(game)
    form.get_by_role("button", name="Jouer maintenant").click()
    page.wait_for_url(re.compile(r"/jouer/table/\d+/$"))
    return table


def board(page: Any) -> Any:
    return page.locator(".board-host .fake-board")


# -- a move refused as stale ------------------------------------------------------------------------

def test_a_move_refused_after_the_newer_update_came_is_played_again_at_once(daphne_server, browser_page):
    page = browser_page.page
    table = open_table(daphne_server, browser_page, "drumlin", lambda: frame("state", 5, ["a", "b"]))
    expect(board(page)).to_have_attribute("data-moves", "2")

    # Léo's move (v6) reaches the page before the refusal of Zoé's move sent for v5;
    # her move is still legal at v6: the page sends it again, for v6, by itself.
    table.answers = [
        lambda m: [frame("update", 6, ["a", "c"], events=[other_moved(6)]), stale(m, 6)],
        lambda m: [ack(m), frame("update", 8, ["e", "f"], events=[played(7, "a"), other_moved(8)])],
    ]
    board(page).locator("[data-move='a']").click()
    assert table.wait_for_moves(2) == [("a", 5), ("a", 6)]
    expect(board(page)).to_have_attribute("data-version", "8")
    expect(board(page)).to_have_attribute("data-moves", "2")

    # The same race where her move is no longer legal at the newer version: it is not
    # sent again, the page says why, and the new moves are offered.
    table.answers = [lambda m: [frame("update", 9, ["g"], events=[other_moved(9)]), stale(m, 9)]]
    board(page).locator("[data-move='e']").click()
    expect(page.locator("[data-announce]")).to_have_text(CHOOSE_AGAIN)
    table.settle()
    expect(board(page)).to_have_attribute("data-version", "9")
    expect(board(page)).to_have_attribute("data-moves", "1")

    # Later the refused move is legal again: it is not played for her then either.
    table.send(frame("update", 10, ["e", "g"], events=[other_moved(10)]))
    table.settle()
    expect(board(page)).to_have_attribute("data-version", "10")
    expect(board(page)).to_have_attribute("data-moves", "2")
    assert table.moves() == [("a", 5), ("a", 6), ("e", 8)]
    browser_page.assert_no_console_errors()


def test_a_move_refused_before_the_newer_update_waits_for_it_then_is_played_again_if_still_legal(
        daphne_server, browser_page):
    page = browser_page.page
    table = open_table(daphne_server, browser_page, "drumlin", lambda: frame("state", 5, ["a", "b"]))
    expect(board(page)).to_have_attribute("data-moves", "2")

    # The refusal comes first: the move stays on its way, no button is offered meanwhile...
    table.answers = [lambda m: [stale(m, 6)], lambda m: [stale(m, 7)]]
    board(page).locator("[data-move='a']").click()
    table.settle()
    expect(board(page)).to_have_attribute("data-moves", "0")
    assert table.moves() == [("a", 5)]
    # ...until the newer version comes, where it is still legal: sent again for it.
    table.send(frame("update", 6, ["a", "c"], events=[other_moved(6)]))
    assert table.wait_for_moves(2) == [("a", 5), ("a", 6)]

    # Refused again (Léo was faster once more), and the next version no longer allows
    # it: not sent again, the page says why and offers the new moves.
    table.settle()
    expect(board(page)).to_have_attribute("data-moves", "0")
    table.send(frame("update", 7, ["b", "g"], events=[other_moved(7)]))
    expect(page.locator("[data-announce]")).to_have_text(CHOOSE_AGAIN)
    table.settle()
    expect(board(page)).to_have_attribute("data-version", "7")
    expect(board(page)).to_have_attribute("data-moves", "2")
    assert table.moves() == [("a", 5), ("a", 6)]
    browser_page.assert_no_console_errors()


# -- the move list -------------------------------------------------------------------------------

RAMPANTS = engines.get("rampants-sauteurs")


def move_texts(page: Any) -> list[str]:
    """The moves of the list in the notation (each one's data-notation; "" while hidden)."""
    return page.locator("[data-moves] li[data-v] .move-text").evaluate_all(
        "(nodes) => nodes.map((node) => node.dataset.notation || '')")


def test_the_move_list_shows_a_secret_layout_once_revealed_and_moves_in_words(daphne_server, browser_page):
    page = browser_page.page
    start = RAMPANTS.new_game(2, seed=5, options={"first_player": "0"})
    leo_chose = RAMPANTS.play(start, 1, "CJJ/JCC")
    both = RAMPANTS.play(leo_chose, 0, "JJC/CCJ")
    assert RAMPANTS.view(both, 0)["revealed_moves"] == [{"seat": 1, "move": "CJJ/JCC"}]
    # (A pass for the list: the board stand-in does not draw the view.)
    passed = {**RAMPANTS.view(both, 0), "revealed_moves": [], "last_move": {"seat": 1, "move": "pass"}}
    current = {"frame": frame("state", 3, RAMPANTS.legal_moves(start, 0), game="rampants-sauteurs",
                              view=RAMPANTS.view(start, 0), to_act=(0, 1))}
    spectator = [RAMPANTS.view(s, None) for s in (start, leo_chose, both)]
    steps = [{"v": 3, "kind": "start", "seat": None, "at": None, "view": spectator[0]},
             {"v": 4, "kind": "move", "seat": 1, "at": None, "view": spectator[1]},
             {"v": 5, "kind": "move", "seat": 0, "at": None, "view": spectator[2]},
             {"v": 6, "kind": "move", "seat": 1, "at": None, "view": {**passed, "seat": None}}]
    # The replay API answers with the steps up to the table's version (the last one sent).
    at = {"v": 3}

    def replay() -> dict[str, Any]:
        return replay_data("rampants-sauteurs", "running", at["v"], [s for s in steps if s["v"] <= at["v"]])

    table = open_table(daphne_server, browser_page, "rampants-sauteurs", lambda: current["frame"], replay)
    expect(board(page)).to_have_attribute("data-version", "3")

    # Léo lays out his pieces first: a secret for Zoé.
    at["v"] = 4
    table.send(frame("update", 4, RAMPANTS.legal_moves(leo_chose, 0), game="rampants-sauteurs",
                     view=RAMPANTS.view(leo_chose, 0), events=[other_moved(4)], to_act=(0,)))
    expect(page.locator("[data-moves] li[data-v='4'] .move-text")).to_have_text(re.compile(r"choisit son placement en secret$"))

    # Zoé chooses hers: both are revealed, and so is Léo's move in the list.
    def reveal(message: dict[str, Any]) -> list[dict[str, Any]]:
        at["v"] = 5
        return [ack(message), frame("update", 5, [], game="rampants-sauteurs", view=RAMPANTS.view(both, 0),
                                    events=[played(5, "JJC/CCJ")], to_act=(1,))]

    table.answers = [reveal]
    board(page).locator("[data-move='JJC/CCJ']").click()
    expect(page.locator("[data-moves] li[data-v='5'] .move-text")).to_have_attribute("data-notation", "JJC/CCJ")
    # In words: which squares get jumpers and crawlers (seat 0 on ranks 1 and 2).
    expect(page.locator("[data-moves] li[data-v='5'] .move-text")).to_have_text(
        re.compile(typeset(r"se place : sauteurs en a1, b1 et c2, rampants en c1, a2 et b2$")))
    assert move_texts(page) == ["CJJ/JCC", "JJC/CCJ"]

    # Léo passes: a word in the list, the notation in its title.
    at["v"] = 6
    table.send(frame("update", 6, [], game="rampants-sauteurs", view=passed, events=[other_moved(6)],
                     to_act=(0,)))
    last = page.locator("[data-moves] li[data-v='6'] .move-text")
    expect(last).to_have_text(re.compile(r"n'a aucun coup et passe$"))
    expect(last).to_have_attribute("title", "pass")

    # After a reload the list comes from the replay API's spectator views: the same.
    current["frame"] = frame("state", 6, [], game="rampants-sauteurs", view=passed, full=True, events=None)
    page.reload()
    expect(page.locator("[data-moves] li[data-v='6'] .move-text")).to_have_text(re.compile(r"n'a aucun coup et passe$"))
    assert move_texts(page) == ["CJJ/JCC", "JJC/CCJ", "pass"]

    # The replay page lists them alike.
    page.goto(page.url + "revoir/")
    items = page.locator("[data-moves] li .move-text")
    expect(items).to_have_count(4)
    texts = items.all_inner_texts()
    assert texts[0] == "Début" and "se place" in texts[1] and "se place" in texts[2] and texts[3].endswith("passe")
    expect(items.nth(3)).to_have_attribute("title", "pass")
    page.locator("[data-go='last']").click()
    expect(page.locator("[data-replay-status]")).to_have_text(re.compile(r"^Léo n'a aucun coup et passe\.$"))
    browser_page.assert_no_console_errors()


# -- the board's stylesheet ----------------------------------------------------------------------------

BOARD_STATE = """() => {
  const links = [...document.querySelectorAll('link[rel="stylesheet"]')].map((link) => link.href);
  const host = document.querySelector('.board-host');
  return {links, mounted: Boolean(host && host.children.length)};
}"""


def held_routes(page: Any, pattern: str) -> list[Any]:
    """Requests for ``pattern`` are held (neither answered nor failed) until the test lets them go."""
    held: list[Any] = []
    page.route(pattern, lambda route: held.append(route))
    return held


def wait_for(page: Any, condition: Callable[[], bool], timeout_ms: int = 10_000) -> None:
    waited = 0
    while not condition():
        assert waited < timeout_ms, "the page never got there"
        page.wait_for_timeout(50)
        waited += 50


def module_ran(page: Any, game: str) -> None:
    """The board's module has been fetched and run (the page's own import of it has
    resolved too), and what the shell does next at once has been done."""
    page.evaluate(f"() => import('/static/js/boards/{game}.js').then(() => true)")
    page.evaluate("() => new Promise((resolve) => setTimeout(resolve, 0))")


@pytest.mark.parametrize("game, held_css, own_css", [
    ("drekki", "boards-drekki.css", "boards-drekki.css"),
    # The Karo boards' own sheets import the sheet they share: the board waits for that too.
    ("quatre-en-ligne", "boards-karo.css", "boards-quatre-en-ligne.css"),
])
def test_the_board_is_mounted_once_its_stylesheet_has_loaded(daphne_server, browser_page, game, held_css,
                                                             own_css):
    page = browser_page.page
    rules = engines.get(game)
    state = rules.new_game(2, seed=8)
    held = held_routes(page, f"**/static/css/{held_css}")
    open_table(daphne_server, browser_page, game, real_board=True,
               hello=lambda: frame("state", 3, list(rules.legal_moves(state, 0)), game=game,
                                   view=rules.view(state, 0), to_act=tuple(rules.to_act(state))))
    table_page = page.locator("[data-table-page]")
    assert table_page.get_attribute("data-board-css") == f"/static/css/{own_css}"

    # The sheet is asked for and held; the module has run: still no board.
    wait_for(page, lambda: len(held) == 1)
    module_ran(page, game)
    shown = page.evaluate(BOARD_STATE)
    assert not shown["mounted"], "the board was mounted before its stylesheet had loaded"

    # The sheet arrives: the board is mounted, styled, with one link to its sheet, the shell's.
    held[0].continue_()
    root = page.locator(".board-host > *").first
    expect(root).to_be_visible()
    shown = page.evaluate(BOARD_STATE)
    own = daphne_server.url(f"/static/css/{own_css}")
    assert [link for link in shown["links"] if "/boards-" in link] == [own]
    assert page.locator("link[data-board-css]").count() == 1
    assert root.evaluate("(node) => getComputedStyle(node).display") == "flex"
    if game == "quatre-en-ligne":
        # Its own rule (68vh) over the shared 72vh; the page's cap on a board's height
        # (--board-max-height, what the first screen leaves it) lifted out of the way.
        high = page.evaluate("""() => {
          document.querySelector('[data-table-page]').style.setProperty('--board-max-height', '9999px');
          return getComputedStyle(document.querySelector('.karo-svg')).maxHeight;
        }""")
        assert high == f"{0.68 * 800:g}px"
    browser_page.assert_no_console_errors()
