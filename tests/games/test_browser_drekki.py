"""The Drekki board in a real Chromium against a real daphne and worker.

A guest creates a three-player table with two bots in the lobby, starts it and
plays the whole game by clicking the board (one card laid with the keyboard),
the moves chosen in this process by the same heuristic bot the site uses, from
the view the page received. On the way: a live auction is left to its
countdown once (the board shows it ticking, the server closes it); a spectator
in a second browser context sees the moves appear and never another seat's
laid card, neither in the board's DOM nor in the frames its socket received,
checked against the true state in the server's database; screenshots at
390x844 and 1280x800 go to artifacts/screenshots/.
"""

from __future__ import annotations

import json
import re
import sqlite3
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from games import bots, engines
from tests.games.ui_server import DESKTOP, PHONE, guest_page, new_page
from tests.games.ui_server import live_site  # noqa: F401 (a fixture)

pytestmark = pytest.mark.browser

# What a view may say about another seat's mage while its card is face down.
PUBLIC_MAGE_KEYS = {"mage", "label", "owner", "laid", "tiles", "markers", "holding"}
SECRET_KEYS = {"card", "hand", "offer", "contents", "discarded", "chosen", "piles", "hidden", "horde", "seed"}
MAX_ACTIONS = 400  # a three-player game takes about 13 x 5 of the person's moves at most
# The table's seed, set before the start: its horde has 7 live auctions out of 13 (and
# 3 unique, 3 infinite), so both the countdown and the turn-based auctions come up.
SEED = 360


class FrameLog:
    """Every JSON frame a page's table socket received, in order."""

    def __init__(self, page: Any) -> None:
        self.frames: list[dict[str, Any]] = []
        page.on("websocket", self._socket)

    def _socket(self, ws: Any) -> None:
        if "/ws/tables/" not in ws.url:
            return
        ws.on("framereceived", self._frame)

    def _frame(self, payload: Any) -> None:
        if isinstance(payload, bytes):
            payload = payload.decode()
        try:
            self.frames.append(json.loads(payload))
        except ValueError:
            self.frames.append({"t": "unreadable", "raw": payload})

    def view_at(self, version: int) -> dict[str, Any] | None:
        for frame in reversed(self.frames):
            if frame.get("t") in ("state", "update") and frame.get("v") == version and frame.get("view"):
                return frame
        return None


def server_sql(site: Any, sql: str, params: tuple[Any, ...]) -> tuple[Any, ...] | None:
    """Run one statement on the server's database (SQLite file or PostgreSQL); its first row."""
    url = site.server.env["DATABASE_URL"]
    if url.startswith("sqlite:"):
        with sqlite3.connect(urlsplit(url).path) as conn:
            return conn.execute(sql.replace("%s", "?"), params).fetchone()
    import psycopg

    with psycopg.connect(url) as conn:
        cursor = conn.execute(sql, params)
        return cursor.fetchone() if cursor.description else None


def true_state(site: Any, table_id: int) -> tuple[int, dict[str, Any]]:
    """(version, rules.dump(state)) as the server holds it."""
    version, state = server_sql(site, "SELECT version, state FROM games_table WHERE id = %s", (table_id,))
    return version, state if isinstance(state, dict) else json.loads(state)


def board_snapshot(page: Any) -> dict[str, Any]:
    """What the Drekki board shows of each mage's laid card, and its version."""
    return page.evaluate(
        """() => {
          const root = document.querySelector('.drekki');
          if (!root) return null;
          const plates = [...root.querySelectorAll('.dk-plate')].map((plate) => ({
            mage: Number(plate.dataset.mage),
            back: Boolean(plate.querySelector('.dk-back')),
            cards: [...plate.querySelectorAll('[data-card]')].map((n) => ({
              value: Number(n.dataset.card), cls: n.getAttribute('class') })),
          }));
          return {
            version: Number(root.dataset.version), phase: root.dataset.phase, plates,
            hand: Boolean(root.querySelector('.dk-hand:not([hidden])')),
          };
        }"""
    )


def assert_no_secret_in_frames(log: FrameLog, seat: int | None) -> int:
    """No frame gave this page another seat's hidden card; returns how many
    versions of the table were checked (one frame may carry several moves: a
    socket that polls, on the embedded configuration, skips the versions in
    between, more of them the faster the machine)."""
    checked = set()
    for frame in log.frames:
        for event in frame.get("events") or ():
            if "move" in event and frame.get("status") == "running":
                assert event["seat"] == seat, f"another seat's move text reached seat {seat}: {event}"
        view = frame.get("view")
        if not view or frame.get("game") != "drekki":
            continue
        checked.add(frame.get("v"))
        assert not (SECRET_KEYS & set(view)), f"secret field in a view: {sorted(SECRET_KEYS & set(view))}"
        if view["phase"] != "colour":
            assert view["revealed"] is None
        for mage in view["mages"]:
            if mage["owner"] != seat:
                extra = sorted(set(mage) - PUBLIC_MAGE_KEYS)
                assert not extra, f"seat {seat} was sent mage {mage['mage']}'s {extra}"
    return len(checked)


def check_spectator_against_truth(site: Any, table_id: int, watcher: Any, zoe: Any) -> bool:
    """While cards lie face down: the spectator's board shows backs and no value for
    them; Zoé's board shows her own laid card, and only hers. False if the table
    moved on meanwhile (nothing to conclude)."""
    version, state = true_state(site, table_id)
    if state["phase"] not in ("cards", "bidding"):
        return False
    seen = board_snapshot(watcher.page)
    mine = board_snapshot(zoe.page)
    if seen is None or mine is None or seen["version"] != version or mine["version"] != version:
        return False
    chosen = state["chosen"]
    assert not seen["hand"], "a spectator's board shows a hand"
    for plate in seen["plates"]:
        m = plate["mage"]
        if chosen[m] is not None and chosen[m] >= 0:
            assert plate["back"], f"mage {m} laid a card but the spectator sees no card back"
            assert plate["cards"] == [], f"the spectator sees mage {m}'s laid card: {plate['cards']}"
    for plate in mine["plates"]:
        m = plate["mage"]
        if chosen[m] is None or chosen[m] < 0:
            continue
        if m == 0:
            # The positive control: the check does see a card where one is shown.
            assert [c["value"] for c in plate["cards"]] == [chosen[0]], "Zoé does not see her own laid card"
        else:
            assert plate["back"] and plate["cards"] == [], f"Zoé sees a value on mage {m}'s laid card"
    return True


def wait_for_my_turn_or_end(page: Any, log: FrameLog) -> str:
    """'turn' when the board offers moves, 'end' when the game is over."""
    try:
        page.wait_for_selector(
            ".drekki button[data-move]:not([disabled]), .drekki[data-phase='over']",
            state="attached",
            timeout=30_000,
        )
    except PlaywrightTimeout:
        last = next((f for f in reversed(log.frames) if f.get("t") in ("state", "update")), {})
        view = last.get("view") or {}
        recent = [(f.get("t"), f.get("v"), f.get("code"), f.get("events")) for f in log.frames[-6:]]
        pytest.fail(
            f"no move offered to Zoé for 30 s: last frame v={last.get('v')} to_act={last.get('to_act')} "
            f"legal={last.get('legal')} phase={view.get('phase')} auction={view.get('auction')} "
            f"countdown={last.get('countdown')}; board version "
            f"{page.locator('.drekki').get_attribute('data-version')}, prompt "
            f"{page.locator('.drekki [data-dk=prompt]').inner_text()!r}; last frames: {recent}"
        )
    if page.locator(".drekki[data-phase='over']").count():
        return "end"
    return "turn"


def wait_for_my_move(page: Any, log: FrameLog, move: str, version: int, limit: int = 600) -> None:
    """Until the server played ``move`` (sent at ``version``), or the table moved on so
    that it can no longer be played.

    A move that crosses another seat's (both in the card phase, or a raise in a live
    auction) is refused as stale; the shell resends it with the next update. When
    that update came before the refusal, nothing more comes (everyone waits for
    Zoé) and the shell shows the buttons again: then Zoé clicks again, as a person
    would (see the report: the shell could resend at once)."""
    idle = 0
    for _ in range(limit):
        frames = [f for f in log.frames if f.get("t") in ("state", "update") and f.get("v", -1) > version]
        if any(e.get("seat") == 0 and e.get("move") == move for f in frames for e in f.get("events") or ()):
            return
        if frames and move not in frames[-1].get("legal", []):
            return
        button = page.locator(f".drekki button[data-move='{move}']:not([disabled])")
        latest = max((f.get("v", -1) for f in log.frames), default=-1)
        shown = page.locator(".drekki").get_attribute("data-version")
        idle = idle + 1 if button.count() and shown == str(latest) and latest > version else 0
        if idle >= 40:
            button.click()
            version = latest
            idle = 0
        page.wait_for_timeout(50)  # lets Playwright deliver the socket's frames
    pytest.fail(f"the move {move!r} sent at version {version} never came back")


def wait_out_the_countdown(page: Any, log: FrameLog, version: int, round_number: int) -> None:
    """In a live auction led by a bot, do nothing: the board counts down to the
    deadline (a new one after each raise), and the server closes the auction."""
    box = page.locator(".drekki [data-dk='countdown']")
    assert box.is_visible()
    assert re.search(r"\d+ s", box.inner_text()), box.inner_text()
    assert box.locator("progress").count() == 1
    deadline = int(box.get_attribute("data-deadline"))
    while True:
        page.wait_for_selector(f".drekki:not([data-version='{version}'])", state="attached", timeout=30_000)
        snap = board_snapshot(page)
        version = snap["version"]
        frame = log.view_at(version)
        if frame is None:
            continue
        view = frame["view"]
        if view["round"] != round_number or view["phase"] != "bidding":
            break
        if frame.get("countdown") and box.count():
            again = int(box.get_attribute("data-deadline"))
            if view["auction"]["high"] is not None:
                assert again >= deadline  # a raise restarts it; it never moves earlier
            deadline = again
    closed = [e for f in log.frames for e in (f.get("events") or ()) if e.get("kind") == "countdown"]
    assert closed, "the live auction ended without the server's countdown"


def test_a_guest_plays_a_whole_drekki_game_against_two_bots_while_a_spectator_watches(live_site, chromium):
    rules = engines.get("drekki")
    helper = bots.make("medium", rules, seed=11)

    zoe = guest_page(chromium, live_site, "Zoé", label="drekki-zoe")
    page = zoe.page
    log = FrameLog(page)
    page.goto(live_site.url("/jouer/?game=drekki"))
    page.select_option("#create-game", "drekki")
    page.select_option("#seats-drekki", "3")
    page.fill("#opt-drekki-live_countdown", "5")
    page.select_option("#seat-1", "medium")
    page.select_option("#seat-2", "easy")
    page.locator("[data-create-form] button[type=submit]").click()
    page.wait_for_url(re.compile(r".*/jouer/table/\d+/$"))
    table_id = int(re.search(r"/table/(\d+)/", page.url).group(1))
    server_sql(live_site, "UPDATE games_table SET seed = %s WHERE id = %s", (SEED, table_id))
    page.locator("[data-setup-actions] button").first.click()  # start the game
    page.wait_for_selector(".drekki .dk-plate")

    watcher = new_page(chromium, live_site, "drekki-spectator", viewport=PHONE)
    watcher_log = FrameLog(watcher.page)
    watcher.page.goto(live_site.url(f"/jouer/table/{table_id}/"))
    watcher.page.wait_for_selector(".drekki .dk-plate")
    assert watcher.page.locator(".drekki .dk-hand").is_hidden()
    assert watcher.page.locator(".drekki .dk-plate").count() == 3

    used_keyboard = explained_refusal = waited_for_countdown = False
    truth_checks = 0
    versions_seen_by_spectator = set()
    shots = {"bidding": False, "colour": False}
    for _ in range(MAX_ACTIONS):
        if wait_for_my_turn_or_end(page, log) == "end":
            break
        snap = board_snapshot(page)
        frame = log.view_at(snap["version"])
        if frame is None or frame["v"] != snap["version"]:
            continue  # the board is ahead of the log for an instant: look again
        view = frame["view"]
        legal = frame["legal"]
        if check_spectator_against_truth(live_site, table_id, watcher, zoe):
            truth_checks += 1
        versions_seen_by_spectator.add(watcher.page.locator(".drekki").get_attribute("data-version"))

        if view["phase"] == "bidding" and not shots["bidding"]:
            shots["bidding"] = True
            zoe.screenshot("bidding-desktop")
            watcher.screenshot("spectator-phone")
        if view["phase"] == "colour" and not shots["colour"]:
            shots["colour"] = True
            zoe.screenshot("tie-colour-desktop")

        auction = view["auction"]
        if (
            not waited_for_countdown
            and view["phase"] == "bidding"
            and auction["type"] == "live"
            and auction["high"] is not None
            and auction["leader"] != 0
            and frame.get("countdown")
        ):
            wait_out_the_countdown(page, log, snap["version"], view["round"])
            waited_for_countdown = True
            continue

        if (
            view["phase"] == "bidding"
            and auction["turn"] == 0
            and not explained_refusal
            and page.locator(".dk-card-button[aria-disabled='true']").count()
        ):
            # A card clicked during the auction is refused in words (the shell's live region).
            # Only while the table waits for Zoé alone, so that no other news replaces the words.
            # (Playwright's click() waits for aria-disabled to go: a person's key press does not.)
            page.locator(".dk-card-button[aria-disabled='true']").first.focus()
            page.keyboard.press("Enter")
            page.locator("[data-announce]").filter(has_text=re.compile("enchère|auction")).wait_for()
            explained_refusal = True

        move = helper.choose(view, 0)
        assert move in legal
        button = page.locator(f".drekki button[data-move='{move}']")
        try:
            if view["phase"] == "cards" and not used_keyboard:
                button.focus(timeout=3_000)
                page.keyboard.press("Enter")
                used_keyboard = True
            else:
                button.click(timeout=3_000)
        except PlaywrightTimeout:
            # The move went away meanwhile (in a live auction a bot raised past it).
            assert max(f.get("v", -1) for f in log.frames) > snap["version"], f"{move!r} could not be played"
            continue
        wait_for_my_move(page, log, move, snap["version"])
    else:
        pytest.fail("the game did not end")

    # The end: the board's final scores with the tie-break in words, the shell's end screen.
    final = page.locator(".drekki [data-dk='final']")
    final.wait_for()
    assert final.locator("tbody tr").count() == 3
    assert final.locator("[data-dk='reason']").inner_text()
    page.locator("[data-outcome]").wait_for()
    zoe.screenshot("end-desktop")
    page.set_viewport_size(PHONE)
    zoe.screenshot("end-phone")
    page.set_viewport_size(DESKTOP)
    watcher.page.locator(".drekki[data-phase='over']").wait_for()
    watcher.page.set_viewport_size(DESKTOP)
    watcher.screenshot("spectator-end-desktop")

    version, state = true_state(live_site, table_id)
    assert state["phase"] == "over"
    assert len(state["history"]) == 13
    assert used_keyboard and explained_refusal and waited_for_countdown
    assert truth_checks >= 5, truth_checks
    assert len(versions_seen_by_spectator) >= 10  # the spectator's board followed the game
    assert watcher.page.locator(".drekki .dk-hand").is_hidden()
    assert assert_no_secret_in_frames(watcher_log, None) >= 20
    assert assert_no_secret_in_frames(log, 0) >= 20

    # The replay page draws the same board, step by step, for anyone.
    watcher.page.goto(live_site.url(f"/jouer/table/{table_id}/revoir/"))
    watcher.page.locator(".drekki .dk-plate").first.wait_for()
    watcher.page.locator(".drekki[data-phase='cards']").wait_for()  # it opens on the first step
    for _ in range(4):
        watcher.page.locator("[data-go='next']").click()
    assert watcher.page.locator(".drekki .dk-plate").count() == 3
    assert not watcher.page.locator(".drekki button[data-move]").count()  # nothing to play in a replay

    zoe.assert_no_console_errors()
    watcher.assert_no_console_errors()
