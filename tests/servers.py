"""Real servers and a real browser for tests.

Use these where users meet the site: a real daphne process (HTTP and
WebSockets, its own database connection, its own channel layer), killed or
stopped like in production, and a headless Debian Chromium driven by
Playwright's sync API.

    from tests.servers import DaphneServer

    def test_it_serves_the_home_page(server_env):
        with DaphneServer(server_env) as server:          # waits for /healthz == 200
            assert urlopen(server.url("/")).status == 200
            server.kill()                                 # crash: SIGKILL, no cleanup
        print(server.log)                                 # everything daphne wrote

Fixtures (importable from tests.conftest, so every test module sees them):

- ``server_env``: environment for a server on the same stack as the suite: a
  migrated file-based SQLite database of its own (a copy of one migrated per
  session), or, when the suite runs with ``DATABASE_URL=postgres://...``, a fresh
  PostgreSQL database named ``<suite db>_srv`` (a copy of ``<suite db>_srv_template``,
  migrated once per session); plus
  ``REDIS_URL`` and a unique ``CHANNELS_PREFIX`` when the suite runs with Redis.
  Several servers started with the same environment share the database and the
  channel layer, as production processes do.
- ``daphne_server``: one running DaphneServer on ``server_env``, stopped after the test.
- ``shared_daphne_server``: one running DaphneServer for a whole module, on a database
  of its own, for tests that depend on nothing another test leaves behind.
- ``chromium``: a module-wide headless Chromium (``/usr/bin/chromium``; skipped
  locally, failed under CI, when it is missing).
- ``browser_page``: a fresh browser context and page (BrowserPage) that records
  console errors, page errors and CSP violations and saves screenshots under
  ``artifacts/screenshots/``.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "artifacts"
# Started as the Makefile and the README start daphne: the WebSocket message
# limit docs/protocol.md promises (games.protocol.MAX_SOCKET_MESSAGE_BYTES).
DAPHNE_LIMITS = ("--websocket-max-message-size", "1048576", "--websocket-max-frame-size", "1048576")
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# Variables of the developer's shell that must not leak into a test server.
_SCRUBBED = ("DATABASE_URL", "REDIS_URL", "CHANNELS_PREFIX", "DJANGO_SETTINGS_MODULE", "PYTEST_CURRENT_TEST")


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def port_open(host: str, port: int, timeout: float = 0.5) -> bool:
    with contextlib.suppress(OSError), socket.create_connection((host, port), timeout=timeout):
        return True
    return False


def base_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """os.environ without the suite's own database/layer settings, plus ``extra``."""
    env = {k: v for k, v in os.environ.items() if k not in _SCRUBBED}
    env.setdefault("DEBUG", "1")
    # Every test client and browser connects from 127.0.0.1, as a whole house behind
    # one address would: the per-address socket budget (tested on its own in
    # tests/games/test_socket_budgets.py) would otherwise pace tests that play whole
    # games at full speed from several sockets. The per-socket and per-person budgets
    # stay as in production.
    env.setdefault("LUDO_WS_ADDRESS_RATE_LIMIT", "100000")
    env["PYTHONUNBUFFERED"] = "1"
    env.update(extra or {})
    if not env.get("REDIS_URL", "").strip():
        # The embedded stack has no wake-ups: a socket re-reads its table every
        # LUDO_TABLE_POLL_MS and the worker looks for due bots every LUDO_WORKER_POLL_MS
        # (500 and 250 ms by default, tests/ludo/test_settings*). Whole games against bots
        # would wait for both polls at every move; test servers poll faster, by the same code.
        env.setdefault("LUDO_TABLE_POLL_MS", "100")
        env.setdefault("LUDO_WORKER_POLL_MS", "50")
    return env


def manage(*args: str, env: Mapping[str, str], timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """Run ``manage.py <args>`` in a subprocess; raise with its output when it fails."""
    result = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=dict(env),
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    if result.returncode != 0:
        raise RuntimeError(f"manage.py {' '.join(args)} failed ({result.returncode}):\n{result.stdout}\n{result.stderr}")
    return result


def migrate_sqlite(path: Path) -> str:
    """Create and migrate a SQLite database file; return its DATABASE_URL."""
    url = f"sqlite:///{path.resolve()}"
    manage("migrate", "--noinput", "-v", "0", env=base_env({"DATABASE_URL": url}))
    return url


def recreate_postgres(url: str, template_url: str | None = None) -> str:
    """Drop and create the PostgreSQL database ``url`` names; return ``url``.

    Without ``template_url`` the new database is migrated (slow: every app's
    migrations); with it, it is a copy of that already migrated database
    (CREATE DATABASE ... TEMPLATE, a fraction of a second).
    """
    import psycopg
    from psycopg import sql

    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    admin_url = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin_url, autocommit=True, connect_timeout=5) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
        if template_url is None:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        else:
            template = urlsplit(template_url).path.lstrip("/")
            conn.execute(
                sql.SQL("CREATE DATABASE {} TEMPLATE {}").format(sql.Identifier(name), sql.Identifier(template))
            )
    if template_url is None:
        manage("migrate", "--noinput", "-v", "0", env=base_env({"DATABASE_URL": url}))
    return url


@dataclass
class DaphneServer:
    """A daphne process serving ludo.asgi on 127.0.0.1 and a free port.

    ``env`` is the whole environment of the process (build it with base_env()
    or take the ``server_env`` fixture). The log (stdout and stderr) goes to a
    file, readable at any time through ``.log``.
    """

    env: Mapping[str, str]
    port: int = 0
    log_path: Path | None = None
    ready_timeout: float = 30.0
    wait_for: Callable[[int], bool] | None = field(default=lambda status: status == 200)
    process: subprocess.Popen[bytes] | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        self.port = self.port or free_port()
        if self.log_path is None:
            logs = ARTIFACTS / "server-logs"
            logs.mkdir(parents=True, exist_ok=True)
            self.log_path = logs / f"daphne-{self.port}-{uuid.uuid4().hex[:6]}.log"

    # -- life cycle ---------------------------------------------------------------

    def start(self) -> DaphneServer:
        """Start daphne and wait until /healthz answers (a status ``wait_for`` accepts)."""
        assert self.process is None, "already started"
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "daphne", *DAPHNE_LIMITS, "-b", "127.0.0.1", "-p", str(self.port),
                 "ludo.asgi:application"],
                cwd=ROOT,
                env=dict(self.env),
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # a Ctrl-C in the test run does not reach it first
            )
        if self.wait_for is not None:
            self.wait_until_ready()
        return self

    def wait_until_ready(self) -> int:
        """Poll /healthz until its status passes ``wait_for``; return that status."""
        deadline = time.monotonic() + self.ready_timeout
        last = "no answer"
        while time.monotonic() < deadline:
            if self.process is not None and self.process.poll() is not None:
                raise RuntimeError(f"daphne exited with {self.process.returncode} before answering:\n{self.log}")
            try:
                status, _ = self.get("/healthz", timeout=5)
            except OSError as exc:
                last = repr(exc)
            else:
                if self.wait_for is None or self.wait_for(status):
                    return status
                last = f"status {status}"
            time.sleep(0.1)
        self.kill()
        raise TimeoutError(f"daphne on port {self.port} not ready after {self.ready_timeout} s ({last}):\n{self.log}")

    def stop(self, timeout: float = 10.0) -> int | None:
        """SIGTERM and wait (daphne closes its sockets); SIGKILL when it hangs."""
        if self.process is None or self.process.poll() is not None:
            return None if self.process is None else self.process.returncode
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            return self.kill()

    def kill(self) -> int | None:
        """SIGKILL, as a crash would: no close frames, no cleanup."""
        if self.process is None or self.process.poll() is not None:
            return None if self.process is None else self.process.returncode
        self.process.kill()
        return self.process.wait(10)

    def __enter__(self) -> DaphneServer:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    # -- talking to it --------------------------------------------------------------

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def url(self, path: str = "/") -> str:
        return self.origin + path

    def ws_url(self, path: str) -> str:
        return f"ws://127.0.0.1:{self.port}{path}"

    def get(self, path: str, headers: Mapping[str, str] | None = None, timeout: float = 10) -> tuple[int, bytes]:
        """A plain GET (no redirects followed): (status, body)."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            conn.request("GET", path, headers=dict(headers or {}))
            response = conn.getresponse()
            return response.status, response.read()
        finally:
            conn.close()

    @property
    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path and self.log_path.exists() else ""


# -- fixtures -------------------------------------------------------------------------


def _suite_database_url() -> str:
    return os.environ.get("DATABASE_URL", "").strip()


@pytest.fixture(scope="session")
def _migrated_sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("server-db") / "template.sqlite3"
    migrate_sqlite(path)
    return path


@pytest.fixture(scope="session")
def _server_postgres_url() -> Iterator[tuple[str, str] | None]:
    """(server database URL, migrated template URL), or None when the suite runs on SQLite."""
    url = _suite_database_url()
    if not url.startswith(("postgres://", "postgresql://")):
        yield None
        return
    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    server_url = urlunsplit(parts._replace(path=f"/{name}_srv"))
    template_url = recreate_postgres(urlunsplit(parts._replace(path=f"/{name}_srv_template")))
    yield server_url, template_url


def _fresh_server_env(request: pytest.FixtureRequest, folder: Path,
                      postgres: tuple[str, str] | None, suffix: str = "") -> dict[str, str]:
    """A new database (a copy of the migrated template) and channel prefix for servers."""
    if postgres is not None:
        server_url, template_url = postgres
        if suffix:
            parts = urlsplit(server_url)
            server_url = urlunsplit(parts._replace(path=parts.path + suffix))
        db_url = recreate_postgres(server_url, template_url)
    else:
        template = request.getfixturevalue("_migrated_sqlite_template")
        copy = folder / "server.sqlite3"
        shutil.copyfile(template, copy)
        db_url = f"sqlite:///{copy}"
    extra = {"DATABASE_URL": db_url, "LUDO_VAR_DIR": str(folder / "var")}
    redis_url = os.environ.get("REDIS_URL", "").strip()
    if redis_url:
        prefix = os.environ.get("CHANNELS_PREFIX", "test") + "-srv-" + uuid.uuid4().hex[:8]
        extra.update({"REDIS_URL": redis_url, "CHANNELS_PREFIX": prefix})
    return base_env(extra)


@pytest.fixture
def server_env(
    request: pytest.FixtureRequest, tmp_path: Path, _server_postgres_url: tuple[str, str] | None
) -> dict[str, str]:
    """Environment for test servers on the suite's stack (see the module docstring)."""
    return _fresh_server_env(request, tmp_path, _server_postgres_url)


@pytest.fixture
def daphne_server(server_env: dict[str, str]) -> Iterator[DaphneServer]:
    server = DaphneServer(server_env).start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def shared_daphne_server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory,
    _server_postgres_url: tuple[str, str] | None,
) -> Iterator[DaphneServer]:
    """One DaphneServer for a whole module, on a database of its own (``<suite db>_srv_m``
    on PostgreSQL): starting a server costs seconds. Only for tests that make their own
    guests, tables and browser contexts and read nothing the module's other tests leave
    behind; a test that needs a fresh database, kills the server or changes its
    environment takes ``daphne_server``."""
    env = _fresh_server_env(request, tmp_path_factory.mktemp("shared-server"), _server_postgres_url, "_m")
    server = DaphneServer(env).start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """A headless Debian Chromium under Playwright (never a downloaded browser).

    Module-scoped: Playwright's sync API keeps an event loop running in the main
    thread while it is open, which breaks asyncio.run() and async tests. Keep
    browser tests in modules of their own (test_browser_*.py).
    """
    from tests.conftest import require  # here: conftest imports this module's fixtures

    require(Path(CHROMIUM).exists(), f"{CHROMIUM} is missing (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()


@dataclass
class BrowserPage:
    """A Playwright page plus what went wrong on it."""

    page: Any
    name: str
    console_errors: list[str] = field(default_factory=list)

    def screenshot(self, label: str, full_page: bool = True) -> Path:
        """Save artifacts/screenshots/<test module>-<label>.png and return its path."""
        folder = ARTIFACTS / "screenshots"
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{self.name}-{label}.png"
        self.page.screenshot(path=str(path), full_page=full_page)
        return path

    def assert_no_console_errors(self) -> None:
        assert not self.console_errors, "browser console errors:\n" + "\n".join(self.console_errors)


def recording(probe: BrowserPage) -> BrowserPage:
    """``probe`` with its page's console errors, page errors and CSP violations recorded
    in ``probe.console_errors``."""

    def on_console(message: Any) -> None:
        # CSP violations ("Refused to ...") and failed loads arrive as console errors.
        if message.type == "error":
            probe.console_errors.append(f"console: {message.text} ({message.location.get('url', '')})")

    probe.page.on("console", on_console)
    probe.page.on("pageerror", lambda error: probe.console_errors.append(f"page error: {error}"))
    return probe


@pytest.fixture
def browser_page(chromium: Any, request: pytest.FixtureRequest) -> Iterator[BrowserPage]:
    context = chromium.new_context(viewport={"width": 1280, "height": 800}, locale="fr-FR")
    context.set_default_timeout(10_000)
    probe = recording(BrowserPage(page=context.new_page(), name=request.node.path.stem))
    try:
        yield probe
    finally:
        context.close()
