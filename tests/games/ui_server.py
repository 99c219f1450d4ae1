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

import contextlib
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.servers import ARTIFACTS, ROOT, BrowserPage, DaphneServer, _fresh_server_env, recording

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
    with running_site(server_env) as site:
        yield site


@pytest.fixture(scope="module")
def shared_live_site(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory,
                     _server_postgres_url: tuple[str, str] | None) -> Iterator[LiveSite]:
    """One live site for a whole module (on a database of its own, ``<suite db>_srv_live``
    on PostgreSQL), for tests that make their own guests and tables and read nothing the
    module's other tests leave behind."""
    env = _fresh_server_env(request, tmp_path_factory.mktemp("shared-live"), _server_postgres_url, "_live")
    with running_site(env) as site:
        yield site


@pytest.fixture
def module_live_site(shared_live_site: LiveSite) -> Iterator[LiveSite]:
    """The module's live site (``shared_live_site``: one daphne and worker start for the
    module, not one a test), with the browser contexts a test opened closed after it, so
    no page of an earlier test keeps its sockets open. For modules whose tests each make
    their own guests and tables."""
    before = len(shared_live_site.pages)
    yield shared_live_site
    for probe in shared_live_site.pages[before:]:
        probe.page.context.close()
    del shared_live_site.pages[before:]


@contextlib.contextmanager
def running_site(server_env: dict[str, str]) -> Iterator[LiveSite]:
    """Daphne and the worker on ``server_env``, stopped on the way out."""
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
    probe = recording(BrowserPage(page=context.new_page(), name=label))
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
