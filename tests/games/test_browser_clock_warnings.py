"""Clock warnings in words (issue #24: "every clock warning ... announced in words
in an aria-live region", static/js/table/clock-warnings.js and main.js's
warnClocks): a live table with a short game clock in Chromium. Ana's page says,
in its polite live region (data-speech), once, when her own clock and then
Ben's go under 30 seconds (a French page) or under 10 (an English page): at
that moment the clock shown is just under the mark, and the warning is not said
again when her clock runs on below it (it is armed only above the mark).

Short clocks (33 and 13 seconds) and the moves through the table's API: the
test waits a few seconds of the clocks, no more."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse
from django.utils import translation

from tests.games.module_site import live_site, module_live_site, shared_live_site  # noqa: F401  (fixtures)
from tests.games.ui_server import PHONE, LiveSite, guest_page

pytestmark = [pytest.mark.browser, pytest.mark.one_stack]

GAME = "quatre-en-ligne"
RECORD = """() => {
  window.said = [];
  const region = document.querySelector("[data-speech]");
  new MutationObserver((records) => {
    for (const record of records) for (const node of record.addedNodes) {
      const clocks = Object.fromEntries([...document.querySelectorAll(".clock[data-clock]")]
        .map((c) => [c.dataset.clock, c.textContent.trim()]));
      window.said.push({ text: node.textContent, clocks });
    }
  }).observe(region, { childList: true });
}"""


def api(page: Any, site: LiveSite, path: str, data: dict[str, Any] | None = None) -> dict[str, Any]:
    if data is None:
        response = page.request.get(site.url(path))
    else:
        token = next(c["value"] for c in page.context.cookies() if c["name"] == "csrftoken")
        response = page.request.post(site.url(path), data=data, headers={"X-CSRFToken": token})
    assert response.ok, response.text()
    return response.json()


def seconds(shown: str) -> float:
    """A clock as the page shows it ("0:29", "0:09.7") in seconds."""
    found = re.fullmatch(r"(\d+):(\d\d(?:\.\d)?)", shown)
    assert found, shown
    return int(found[1]) * 60 + float(found[2])


def said(page: Any, pattern: str) -> list[dict[str, Any]]:
    return [line for line in page.evaluate("() => window.said") if re.search(pattern, line["text"])]


def wait_said(page: Any, pattern: str) -> dict[str, Any]:
    page.wait_for_function("(p) => window.said.some((line) => new RegExp(p).test(line.text))", arg=pattern,
                           timeout=20_000)
    return said(page, pattern)[0]


def play_first_legal_move(page: Any, site: LiveSite, table: int) -> None:
    state = api(page, site, f"/api/tables/{table}/")
    assert state["legal"], state
    api(page, site, f"/api/tables/{table}/move/", {"move": state["legal"][0], "v": state["v"]})


def table_for_two(chromium: Any, site: LiveSite, base: int, language: str) -> tuple[Any, Any, int]:
    """Ana's page open on a table with Ben seated, before the start: the clocks start
    with the page watching (a page opened on a low clock says no old news). When the
    game has Ben move first, he does at once: Ana's clock is the first to run down."""
    ana, ben = guest_page(chromium, site, "Ana", f"ana-{language}", PHONE), guest_page(chromium, site, "Ben", f"ben-{language}")
    for probe in (ana, ben):
        probe.page.request.get(site.url("/api/games/"))  # the CSRF cookie
    table = api(ana.page, site, "/api/tables/", {"game": GAME, "clock": {"kind": "game", "base": base, "increment": 0}})["table"]
    api(ben.page, site, f"/api/tables/{table}/join/", {})
    with translation.override(language):
        path = reverse("games:table", args=[table])
    ana.page.goto(site.url(path))
    ana.page.wait_for_selector("[data-speech]", state="attached")
    ana.page.evaluate(RECORD)
    api(ana.page, site, f"/api/tables/{table}/start/", {})
    if api(ben.page, site, f"/api/tables/{table}/")["legal"]:  # the game drew Ben to start: he moves at once
        play_first_legal_move(ben.page, site, table)
    ana.page.wait_for_selector(".clock[data-clock='0'][data-running='true']", state="attached", timeout=20_000)
    return ana, ben, table


def test_clock_warnings_are_said_once_in_french_at_30_seconds(live_site, chromium):  # noqa: F811
    site = live_site
    ana, ben, table = table_for_two(chromium, site, 33, "fr")
    page = ana.page
    assert page.evaluate("document.documentElement.lang") == "fr"
    # Ana is to move: her clock goes under 30 seconds.
    mine = wait_said(page, r"^Plus que 30 secondes à votre pendule\s!$")
    assert 22 < seconds(mine["clocks"]["0"]) <= 30, mine
    play_first_legal_move(page, site, table)
    # Ben's clock runs: the page names him.
    his = wait_said(page, r"^Il reste 30 secondes à Ben\.$")
    assert 22 < seconds(his["clocks"]["1"]) <= 30, his
    # Ben moves: Ana's clock runs again, below 30 seconds; nothing is said again.
    play_first_legal_move(ben.page, site, table)
    page.wait_for_function("() => { const c = document.querySelector(\".clock[data-clock='0']\"); "
                           "return c && c.dataset.running === 'true' && /^0:2[0-6]/.test(c.textContent); }",
                           timeout=20_000)
    assert len(said(page, r"30 secondes à votre pendule")) == 1
    assert len(said(page, r"30 secondes à Ben")) == 1
    assert not said(page, r"seconds? left")  # French words only
    region = page.locator("[data-speech]")
    assert region.get_attribute("aria-live") == "polite"
    assert re.search(r"Plus que 30 secondes à votre pendule\s!", region.inner_text())
    ana.screenshot("clock-warning-fr-390", full_page=False)
    for probe in (ana, ben):
        probe.assert_no_console_errors()


def test_clock_warnings_are_said_once_in_english_at_10_seconds(live_site, chromium):  # noqa: F811
    site = live_site
    ana, ben, table = table_for_two(chromium, site, 13, "en")
    page = ana.page
    assert page.evaluate("document.documentElement.lang") == "en"
    mine = wait_said(page, r"^10 seconds left on your clock!$")
    assert 2 < seconds(mine["clocks"]["0"]) <= 10, mine
    play_first_legal_move(page, site, table)
    his = wait_said(page, r"^Ben has 10 seconds left\.$")
    assert 2 < seconds(his["clocks"]["1"]) <= 10, his
    # A 13-second clock never was above 30: the 30-second warning is not said.
    assert not said(page, r"30 seconds")
    assert len(said(page, r"10 seconds left on your clock")) == 1
    assert not said(page, r"secondes")  # English words only
    for probe in (ana, ben):
        probe.assert_no_console_errors()
