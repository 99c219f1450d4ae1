"""A live site for browser tests of the tables: daphne and the worker (bots,
clocks) on the suite's stack, and browser contexts of guests with a name.

    from tests.games.ui_server import live_site, guest_page   # live_site is a fixture

    def test_it(live_site, chromium):
        zoe = guest_page(chromium, live_site, "Zoé")           # a context with a guest name
        zoe.page.goto(live_site.url("/jouer/"))
        ...
        zoe.assert_no_console_errors()

Both processes run with LUDO_BOT_THINK_MS=200: the bots wait 0.2 s before they
move. With the in-memory channel layer the worker's moves reach the sockets
through the consumers' version poll, as with `make run`.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.servers import ARTIFACTS, ROOT, BrowserPage, DaphneServer

BOT_THINK_MS = "200"
PHONE = {"width": 390, "height": 844}
TABLET = {"width": 820, "height": 1180}
DESKTOP = {"width": 1280, "height": 800}


@dataclass
class LiveSite:
    server: DaphneServer
    worker: subprocess.Popen[bytes]
    worker_log: Path
    pages: list[BrowserPage] = field(default_factory=list)

    def url(self, path: str = "/") -> str:
        return self.server.url(path)

    @property
    def log(self) -> str:
        return self.server.log + "\n--- worker ---\n" + self.worker_log.read_text(errors="replace")


@pytest.fixture
def live_site(server_env: dict[str, str]) -> Iterator[LiveSite]:
    env = {**server_env, "LUDO_BOT_THINK_MS": BOT_THINK_MS}
    server = DaphneServer(env).start()
    logs = ARTIFACTS / "server-logs"
    logs.mkdir(parents=True, exist_ok=True)
    worker_log = logs / f"worker-{server.port}.log"
    with open(worker_log, "wb") as log:
        worker = subprocess.Popen(
            [sys.executable, "manage.py", "worker"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    site = LiveSite(server, worker, worker_log)
    try:
        yield site
    finally:
        for probe in site.pages:
            probe.page.context.close()
        worker.terminate()
        try:
            worker.wait(10)
        except subprocess.TimeoutExpired:
            worker.kill()
            worker.wait(10)
        # A test may have replaced the server (the crash test starts a new one):
        # stop the one running now, and the first one if it still runs.
        site.server.stop()
        server.stop()


def new_page(chromium: Any, site: LiveSite, label: str, viewport: dict[str, int] | None = None,
             locale: str = "fr-FR") -> BrowserPage:
    """A fresh browser context and page that records console errors, page errors and
    CSP violations (like tests.servers.browser_page); closed with the site."""
    context = chromium.new_context(viewport=viewport or DESKTOP, locale=locale)
    context.set_default_timeout(15_000)
    page = context.new_page()
    probe = BrowserPage(page=page, name=label)

    def on_console(message: Any) -> None:
        if message.type == "error":
            probe.console_errors.append(f"console: {message.text} ({message.location.get('url', '')})")

    page.on("console", on_console)
    page.on("pageerror", lambda error: probe.console_errors.append(f"page error: {error}"))
    site.pages.append(probe)
    return probe


def guest_page(chromium: Any, site: LiveSite, name: str, label: str | None = None,
               viewport: dict[str, int] | None = None) -> BrowserPage:
    """A new context whose session holds the guest name ``name`` (set on the guest page)."""
    probe = new_page(chromium, site, label or name.lower(), viewport)
    page = probe.page
    page.goto(site.url("/invite/?next=/jouer/"))
    page.get_by_label("Nom affiché").fill(name)
    page.get_by_role("button", name="Continuer").click()
    page.wait_for_url(site.url("/jouer/"))
    return probe
