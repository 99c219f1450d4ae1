"""The living room in a real Chromium against a real daphne and worker.

1. A shared screen (1920x1080) opens a Drekki table with a bot; two phones
   (390x844) join it by its code (one scans, i.e. opens the code's address; the
   other types the code), the screen starts the game and the phones play, the
   live auction included, until a round with a live auction is over. All along,
   the screen's board never shows a laid card before its reveal and its socket
   never receives one (every frame recorded), checked against the true state in
   the server's database, while each phone shows its own laid card. A phone
   that comes back by the code lands on its seat again.
2. A pass-and-play Rampants et Sauteurs game on one tablet-sized context: the
   device is passed (a cover hides everything) before each secret layout; while
   Ben lays out, nothing of Zoé's layout is in the page; a dozen moves later the
   player holding the tablet resigns from the page and the other wins (a whole game
   took 80-150 s of CI; games played to their end are test_browser_karo's).

Screenshots go to /work/shots/h21-living/ (LUDO_SHOTS_DIR) or artifacts/screenshots/.
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

from games import bots, engines
from tests.games.test_browser_drekki import (
    FrameLog,
    assert_no_secret_in_frames,
    board_snapshot,
    server_sql,
    true_state,
)
from tests.games.test_browser_karo import perform_rampants
from tests.games.ui_server import PHONE, TABLET, live_site, new_page  # noqa: F401
from tests.servers import ARTIFACTS

# Pass-and-play Rampants: moves played on the tablet (both layouts included) before the
# player holding it resigns.
TURNS_BEFORE_RESIGNING = 12
# The page's markup without the move box's choices (the seat's legal moves) and example.
WITHOUT_MOVE_CHOICES = """() => {
  const copy = document.documentElement.cloneNode(true);
  copy.querySelectorAll('[data-typed-list] option').forEach((option) => option.remove());
  copy.querySelector('[data-typed-input]')?.removeAttribute('placeholder');
  return copy.outerHTML;
}"""

pytestmark = pytest.mark.browser

SCREEN = {"width": 1920, "height": 1080}
SEED = 360  # the table's seed (see test_browser_drekki): live and turn-based auctions both come up
MAX_STEPS = 3000


def shots_dir() -> Path:
    folder = Path(os.environ.get("LUDO_SHOTS_DIR") or ARTIFACTS / "screenshots" / "living")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def shot(page: Any, label: str, full_page: bool = False) -> None:
    page.evaluate("() => window.scrollTo(0, 0)")  # a phone shows its top after a click lower down
    page.screenshot(path=str(shots_dir() / f"{label}.png"), full_page=full_page)


def set_options(site: Any, table_id: int, options: dict[str, Any]) -> None:
    if site.server.env["DATABASE_URL"].startswith("sqlite:"):
        server_sql(site, "UPDATE games_table SET options = %s WHERE id = %s", (json.dumps(options), table_id))
    else:
        server_sql(site, "UPDATE games_table SET options = %s::jsonb WHERE id = %s", (json.dumps(options), table_id))


class Phone:
    """A phone that joined the screen's table, playing its seat with a bot's choices."""

    def __init__(self, probe: Any, seat: int, helper: Any) -> None:
        self.probe = probe
        self.page = probe.page
        self.seat = seat
        self.helper = helper
        self.log = FrameLog(self.page)
        self.played: set[int] = set()

    def try_to_play(self) -> bool:
        """Play a move if the board offers one at the version the log holds."""
        buttons = self.page.locator(".drekki button[data-move]:not([disabled])")
        if not buttons.count():
            return False
        version = self.page.locator(".drekki").get_attribute("data-version")
        if version is None or int(version) in self.played:
            return False
        frame = self.log.view_at(int(version))
        if frame is None or not frame.get("legal") or frame["seat"] != self.seat:
            return False
        move = self.helper.choose(frame["view"], self.seat)
        assert move in frame["legal"]
        try:
            self.page.locator(f".drekki button[data-move='{move}']").click(timeout=2_000)
        except PlaywrightTimeout:
            return False  # the table moved on meanwhile (a raise in a live auction)
        self.played.add(int(version))
        return True


def laid(plate: dict[str, Any]) -> list[dict[str, Any]]:
    """The cards a plate shows for this round (the last round's revealed card, public, aside)."""
    return [c for c in plate["cards"] if "dk-previous" not in (c["cls"] or "")]


def check_screen_against_truth(site: Any, table_id: int, screen: Any, phones: list[Phone]) -> bool:
    """While cards lie face down: the screen's plates show backs and no value; each
    phone shows its own laid card and no other. False when nothing could be compared."""
    version, state = true_state(site, table_id)
    if state["phase"] not in ("cards", "bidding"):
        return False
    seen = board_snapshot(screen)
    if seen is None or seen["version"] != version:
        return False
    chosen = state["chosen"]
    assert not seen["hand"], "the screen shows a hand"
    for plate in seen["plates"]:
        assert laid(plate) == [], f"the screen shows mage {plate['mage']}'s card: {plate['cards']}"
        m = plate["mage"]
        if chosen[m] is not None and chosen[m] >= 0:
            assert plate["back"], f"mage {m} laid a card but the screen shows no back"
    compared = True
    for phone in phones:
        mine = board_snapshot(phone.page)
        if mine is None or mine["version"] != version:
            compared = False
            continue
        frame = phone.log.view_at(version)
        own = set(frame["view"]["seats"][phone.seat]["mages"]) if frame else set()
        for plate in mine["plates"]:
            m = plate["mage"]
            if chosen[m] is None or chosen[m] < 0:
                continue
            if m in own:
                assert [c["value"] for c in laid(plate)] == [chosen[m]], f"seat {phone.seat} misses its card"
            else:
                assert laid(plate) == [], f"seat {phone.seat} sees mage {m}'s card"
    return compared


def test_a_screen_and_two_phones_play_drekki_with_a_live_auction_and_the_screen_never_shows_a_card(
        live_site, chromium):
    rules = engines.get("drekki")
    screen_probe = new_page(chromium, live_site, "living-screen", viewport=SCREEN)
    screen = screen_probe.page
    screen_log = FrameLog(screen)
    screen.goto(live_site.url("/salon/nouveau/"))
    screen.locator("input[name=mode][value=screen]").check()
    screen.select_option("#living-game", "drekki")
    screen.fill("#living-seats", "3")
    screen.select_option("#seat-2", "medium")
    screen.select_option("#living-clock", "10+5")  # big clocks on the screen
    screen.get_by_role("button", name="Ouvrir la table").click()
    screen.wait_for_url(re.compile(r".*/jouer/table/\d+/ecran/$"))
    table_id = int(re.search(r"/table/(\d+)/", screen.url).group(1))
    server_sql(live_site, "UPDATE games_table SET seed = %s WHERE id = %s", (SEED, table_id))
    set_options(live_site, table_id, {"live_countdown": 5})
    code = screen.locator("[data-join-code]").inner_text().strip()
    assert re.fullmatch(r"[A-Z]{5}", code)
    assert screen.locator("img.join-qr").get_attribute("src").startswith("data:image/svg+xml")
    screen.locator("[data-players] li").first.wait_for()
    shot(screen, "screen-waiting-1920x1080")

    # Zoé "scans": her phone opens the code's address; Ben types the code.
    zoe = new_page(chromium, live_site, "living-zoe", viewport=PHONE)
    zoe_phone = Phone(zoe, 0, bots.make("medium", rules, seed=11))
    zoe.page.goto(live_site.url(f"/salon/{code}/"))
    zoe.page.fill("#join-name", "Zoé")
    shot(zoe.page, "phone-join-390x844")
    zoe.page.get_by_role("button", name="Prendre une place").click()
    zoe.page.wait_for_url(re.compile(rf".*/jouer/table/{table_id}/(\?invite=[\w-]+)?$"))
    ben = new_page(chromium, live_site, "living-ben", viewport=PHONE)
    ben_phone = Phone(ben, 1, bots.make("medium", rules, seed=12))
    ben.page.goto(live_site.url("/salon/"))
    ben.page.fill("#join-code", code.lower())
    ben.page.get_by_role("button", name="Rejoindre").click()
    ben.page.fill("#join-name", "Ben")
    ben.page.get_by_role("button", name="Prendre une place").click()
    ben.page.wait_for_url(re.compile(rf".*/jouer/table/{table_id}/(\?invite=[\w-]+)?$"))
    phones = [zoe_phone, ben_phone]

    # The screen hosts: it starts the game once both phones sat.
    start = screen.locator("[data-setup-actions] button[data-start]")
    screen.wait_for_function("() => !document.querySelector('[data-setup-actions] button[data-start]').disabled")
    start.click()
    screen.wait_for_selector(".drekki .dk-plate")
    for phone in phones:
        phone.page.wait_for_selector(".drekki .dk-plate")
        assert phone.page.locator("[data-table-page]").get_attribute("data-seat") == str(phone.seat)
    assert screen.locator("[data-table-page]").get_attribute("data-seat") == ""

    live_rounds: set[int] = set()
    comparisons = 0
    shots = {"bidding": False, "live": False, "reconnect": False}
    done_round = None
    for _step in range(MAX_STEPS):
        for phone in phones:
            phone.try_to_play()
        version, state = true_state(live_site, table_id)
        if state["phase"] == "over":
            break
        if check_screen_against_truth(live_site, table_id, screen, phones):
            comparisons += 1
        frame = screen_log.view_at(version)
        if frame is not None and frame["view"]["phase"] == "bidding":
            auction = frame["view"]["auction"]
            if auction["type"] == "live":
                live_rounds.add(frame["view"]["round"])
                if not shots["live"] and frame.get("countdown") and auction["high"] is not None:
                    shots["live"] = True
                    shot(screen, "screen-live-auction-1920x1080")
                    shot(zoe.page, "phone-zoe-live-auction-390x844")
                    shot(ben.page, "phone-ben-live-auction-390x844")
            elif not shots["bidding"]:
                shots["bidding"] = True
                shot(screen, "screen-bidding-1920x1080")
                shot(zoe.page, "phone-zoe-bidding-390x844")
        rounds_done = len(state.get("history") or [])
        if live_rounds and rounds_done > min(live_rounds) and not shots["reconnect"]:
            # Zoé's phone drops and comes back by the code: her seat, her hand.
            shots["reconnect"] = True
            zoe.page.goto(live_site.url(f"/salon/{code}/"))
            zoe.page.wait_for_url(re.compile(rf".*/jouer/table/{table_id}/(\?invite=[\w-]+)?$"))
            zoe.page.wait_for_selector(".drekki .dk-plate")
            zoe.page.wait_for_function("() => document.querySelector('[data-table-page]').dataset.seat === '0'")
            zoe_phone.played.clear()
            done_round = rounds_done
        if done_round is not None and rounds_done >= done_round + 1:
            break  # one more round after the live one, with the phone back
        time.sleep(0.05)
    else:
        pytest.fail("the phones did not get through a round with a live auction")

    assert live_rounds, "no live auction came up"
    assert comparisons >= 5, comparisons
    shot(screen, "screen-later-1920x1080")
    shot(zoe.page, "phone-zoe-after-reconnect-390x844")
    # Every frame the screen received: the spectator's view, no laid card, no move text.
    assert assert_no_secret_in_frames(screen_log, None) >= 20
    assert all(f.get("seat") is None for f in screen_log.frames if f.get("t") in ("state", "update"))
    for phone in phones:
        assert assert_no_secret_in_frames(phone.log, phone.seat) >= 5
    # The screen's page never held a hand, and shows the moves in words.
    assert screen.locator(".drekki .dk-hand").is_hidden()
    assert screen.locator("[data-moves] li").count() >= 5
    screen_probe.assert_no_console_errors()
    zoe.assert_no_console_errors()
    ben.assert_no_console_errors()


# -- pass-and-play -------------------------------------------------------------------------------

class Tablet:
    """What perform_rampants needs of a page (test_browser_karo.Game's board side)."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.board = page.locator(".board-host .karo")

    def cell(self, name: str) -> Any:
        return self.board.locator(f'[data-square="{name}"]')

    def button(self, action: str) -> Any:
        return self.board.locator(f'button[data-action="{action}"]')

    def drag(self, source: str, target: str) -> None:
        self.cell(source).click()
        self.cell(target).click()


def wait_for_cover_or_board(page: Any, version: int, timeout: float = 60) -> str:
    # 60 s: a socket that missed a broadcast catches up at its next presence refresh
    # (games.sockets TOUCH_EVERY, 20 s, plus a ping and the 2 s batch); a loaded CI
    # machine once took longer than 30 s.
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if page.locator("[data-pass-screen]:not([hidden])").count():
            return "cover"
        if page.locator(f'.board-host .karo[data-version="{version}"]:not([data-moves="0"])').count():
            return "board"
        if page.locator("[data-outcome]:not([hidden])").count():
            return "over"
        time.sleep(0.05)
    raise AssertionError(f"neither the cover nor the board at v{version}")


def test_pass_and_play_rampants_on_one_tablet_hides_each_layout_from_the_other_to_the_result(live_site, chromium):
    rules = engines.get("rampants-sauteurs")
    strong = bots.make("greedy", rules, seed=7, randomness=0.0)
    probe = new_page(chromium, live_site, "living-tablet", viewport=TABLET)
    page = probe.page
    log = FrameLog(page)
    page.goto(live_site.url("/salon/nouveau/?mode=pass"))
    page.locator("input[name=mode][value=pass]").check()
    page.select_option("#living-game", "rampants-sauteurs")
    page.fill("#living-seats", "2")
    page.fill("#name-0", "Zoé")
    page.fill("#name-1", "Ben")
    page.get_by_role("button", name="Ouvrir la table").click()
    page.wait_for_url(re.compile(r".*/jouer/table/\d+/$"))
    table_id = int(re.search(r"/table/(\d+)/", page.url).group(1))
    tablet = Tablet(page)
    root = page.locator("[data-table-page]")

    covers: list[int] = []
    layouts: dict[int, str] = {}
    turn = 0
    resigning: int | None = None
    for _step in range(400):
        version, dump = true_state(live_site, table_id)
        state = rules.load(dump)
        if rules.is_over(state):
            break
        seen = wait_for_cover_or_board(page, version)
        if seen == "over":
            break
        if seen == "cover":
            seat = int(root.get_attribute("data-covered"))
            assert seat in rules.to_act(state)
            # Covered: the board and the move list are gone, nothing of any seat's layout is in the page.
            assert page.locator(".board-host").count() == 0
            assert page.locator(".table-layout").is_hidden()
            html = page.content()
            for laid in layouts.values():
                assert laid not in html, html[max(0, html.find(laid) - 300):html.find(laid) + 60]
            assert page.locator("[data-pass-title]").inner_text() == f"Passez l’appareil à {['Zoé', 'Ben'][seat]}."
            shot(page, f"tablet-pass-to-seat-{seat}-820x1180")
            covers.append(seat)
            page.locator("[data-pass-go]").click()
            page.wait_for_function(f"() => document.querySelector('[data-table-page]').dataset.seat === '{seat}'")
            continue
        seat = int(root.get_attribute("data-seat"))
        assert seat in rules.to_act(state), (seat, rules.to_act(state))
        view = rules.view(state, seat)
        if view["phase"] == "setup":
            # The other seat's layout, if laid, is on nobody's screen but its own.
            other = 1 - seat
            assert tablet.board.locator(f'[data-owner="{other}"]').count() == 0
            if other in layouts:
                # The move box offers every layout there is (this seat's legal moves),
                # so none of them points at the other's: the rest of the page holds none.
                offered = page.locator("[data-typed-list] option")
                assert offered.count() == len(rules.legal_moves(state, seat))
                assert layouts[other] not in page.evaluate(WITHOUT_MOVE_CHOICES)
                assert tablet.board.locator(".karo-hidden-piece").count() == 6
                shot(page, f"tablet-setup-seat-{seat}-820x1180")
        move = strong.choose(view, seat)
        assert move in rules.legal_moves(state, seat)
        if "/" in move:
            layouts[seat] = move
        perform_rampants(tablet, {"seat": seat, "view": view}, move, turn)
        turn += 1
        deadline = time.monotonic() + 15
        while true_state(live_site, table_id)[0] <= version:
            assert time.monotonic() < deadline, f"the move {move} at v{version} never reached the server"
            time.sleep(0.05)
        if turn == 6:
            shot(page, "tablet-play-820x1180")
        if turn == TURNS_BEFORE_RESIGNING:
            # Both layouts are out and the game is under way: the seat holding the
            # device gives up from the page (two clicks), and the other wins.
            version, dump = true_state(live_site, table_id)
            resigning = rules.to_act(rules.load(dump))[0]
            assert wait_for_cover_or_board(page, version) == "board"
            page.wait_for_function(f"() => document.querySelector('[data-table-page]').dataset.seat === '{resigning}'")
            page.locator("[data-resign]").click()
            page.locator("[data-resign]").filter(has_text="Oui, abandonner").click()
            break
    else:
        pytest.fail("the pass-and-play game did not end")

    # The device was passed before each secret layout, and never after both were out.
    assert covers == [0, 1], covers
    page.locator("[data-outcome]").wait_for(state="visible")
    shot(page, "tablet-end-820x1180")
    page.set_viewport_size(PHONE)
    shot(page, "tablet-end-as-phone-390x844", full_page=True)
    # Every frame the page got was one seat's (or the spectator's) view; a move's
    # text only ever in the frames of the seat that played it.
    for frame in log.frames:
        if frame.get("t") in ("state", "update"):
            assert frame["hands"] == [0, 1]
            for event in frame.get("events") or ():
                if "move" in event and frame.get("status") == "running":
                    assert event["seat"] == frame["seat"]
            setup = (frame.get("view") or {}).get("setup") or []
            for entry in setup:
                if entry["seat"] != frame["seat"]:
                    assert entry["layout"] is None
    status, outcome = server_sql(live_site, "SELECT status, outcome FROM games_table WHERE id = %s", (table_id,))
    outcome = outcome if isinstance(outcome, dict) else json.loads(outcome)
    assert status == "finished"
    if resigning is not None:
        assert outcome["reason"] == "resign" and outcome["winners"] == [1 - resigning], outcome
    else:  # the game ended on the board before
        assert rules.is_over(rules.load(true_state(live_site, table_id)[1]))
    probe.assert_no_console_errors()
