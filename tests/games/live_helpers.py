"""Helpers for the live-table tests against real processes (test_live_*.py).

Not a test module. Real daphne processes (tests.servers.DaphneServer) and the
real worker (``manage.py worker``) on a database of their own; people are
guests who chose a name on the guest page (a real session cookie); tables are
created through the HTTP API; play goes through plain ``websockets`` clients
that send the site's Origin, record every raw frame and choose their moves from
the view they received (an easy bot, seeded, deciding on that view only).

The test process never opens the server's database through Django: ServerDB
reads it with plain SQL (sqlite3 or psycopg), to compare what clients saw with
the truth (the seed and the action log, replayed by the engine).

    env = live_env(...)                        # or the ``live_stack`` fixture
    with DaphneServer(env) as server:
        zoe, max_ = Guest(server, "Zoé"), Guest(server, "Max")
        table = zoe.create("drumlin")
        ...
"""

from __future__ import annotations

import asyncio
import atexit
import http.client
import itertools
import json
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit, urlunsplit

import pytest

from games import bots, engines
from tests.conftest import require
from tests.servers import ARTIFACTS, ROOT, DaphneServer, base_env, manage, port_open

DEFAULT_POSTGRES = "postgres://postgres@127.0.0.1:5432/postgres"
DEFAULT_REDIS = "redis://127.0.0.1:6379/0"
MOVE_KINDS = ("move", "timeout", "countdown")
# What a healthy server never writes: a logged error, a traceback, a socket
# closed by the server on an exception (1011).
LOG_PROBLEMS = re.compile(r"\bERROR\b|Traceback|\b1011\b|CRITICAL")


# -- the stack under test ---------------------------------------------------------------------

def suite_database_url() -> str:
    return os.environ.get("DATABASE_URL", "").strip()


def suite_on_postgres() -> bool:
    return suite_database_url().startswith(("postgres://", "postgresql://"))


def redis_url() -> str:
    """The suite's Redis, or the default local one (some tests need Redis on both passes)."""
    return os.environ.get("REDIS_URL", "").strip() or DEFAULT_REDIS


def postgres_url() -> str:
    return suite_database_url() if suite_on_postgres() else os.environ.get("LUDO_TEST_POSTGRES_URL", DEFAULT_POSTGRES)


def _host_port(url: str, default_port: int) -> tuple[str, int]:
    parts = urlsplit(url)
    return parts.hostname or "127.0.0.1", parts.port or default_port


def redis_available() -> bool:
    return port_open(*_host_port(redis_url(), 6379))


def postgres_available() -> bool:
    return port_open(*_host_port(postgres_url(), 5432))


def require_redis() -> None:
    require(redis_available(), f"no Redis at {redis_url()}")


def require_postgres_and_redis() -> None:
    require(postgres_available(), f"no PostgreSQL at {postgres_url()}")
    require_redis()


def _database_url_named(base: str, name: str) -> str:
    return urlunsplit(urlsplit(base)._replace(path="/" + name))


_templates: dict[str, str] = {}


def _admin(url: str) -> Any:
    import psycopg

    return psycopg.connect(_database_url_named(url, "postgres"), autocommit=True, connect_timeout=5)


def create_postgres(base: str, label: str) -> str:
    """A new, migrated PostgreSQL database beside ``base`` (unique name); its URL.

    The first one of a test session is migrated into a template; the others are
    copies of it (CREATE DATABASE ... TEMPLATE: a second instead of a migration).
    """
    from psycopg import sql

    stem = urlsplit(base).path.lstrip("/") or "ludo"
    if stem == "postgres":
        stem = "ludo"
    if base not in _templates:
        name = f"{stem}_tpl_{uuid.uuid4().hex[:6]}"
        with _admin(base) as conn:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        template = _database_url_named(base, name)
        manage("migrate", "--noinput", "-v", "0", env=base_env({"DATABASE_URL": template}))
        _templates[base] = template
        atexit.register(drop_postgres, template)
    template_name = urlsplit(_templates[base]).path.lstrip("/")
    name = f"{stem}_{label}_{uuid.uuid4().hex[:6]}"
    with _admin(base) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {} TEMPLATE {}").format(
            sql.Identifier(name), sql.Identifier(template_name)))
    return _database_url_named(base, name)


def drop_postgres(url: str) -> None:
    from psycopg import sql

    name = urlsplit(url).path.lstrip("/")
    with _admin(url) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


@dataclass
class Stack:
    """Where the test servers keep their state: a database URL, maybe Redis."""

    database_url: str
    redis: str = ""
    prefix: str = ""
    var_dir: Path | None = None

    @property
    def on_postgres(self) -> bool:
        return self.database_url.startswith(("postgres://", "postgresql://"))

    def env(self, **extra: str) -> dict[str, str]:
        """The environment of a server or worker process on this stack."""
        values = {"DATABASE_URL": self.database_url, "LUDO_BOT_THINK_MS": "0"}
        if self.var_dir is not None:
            values["LUDO_VAR_DIR"] = str(self.var_dir)
        if self.redis:
            values.update({"REDIS_URL": self.redis, "CHANNELS_PREFIX": self.prefix})
        values.update(extra)
        return base_env(values)

    def with_redis(self) -> Stack:
        """The same database, with the Redis channel layer (a fresh prefix)."""
        return Stack(self.database_url, redis_url(), f"live-{uuid.uuid4().hex[:8]}", self.var_dir)


@pytest.fixture(scope="module")
def live_stack(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    """A database for this module's servers on the suite's stack: a migrated
    SQLite file, or a new PostgreSQL database (dropped afterwards) when the suite
    runs on PostgreSQL; the Redis layer when the suite runs with Redis."""
    folder = tmp_path_factory.mktemp("live")
    created = None
    if suite_on_postgres():
        _share_server_template(request)
        created = url = create_postgres(suite_database_url(), "live")
    else:
        # A copy of the session's migrated template (tests.servers).
        template = request.getfixturevalue("_migrated_sqlite_template")
        shutil.copyfile(template, folder / "live.sqlite3")
        url = f"sqlite:///{folder / 'live.sqlite3'}"
    stack = Stack(url, var_dir=folder / "var")
    if os.environ.get("REDIS_URL", "").strip():
        stack = stack.with_redis()
    try:
        yield stack
    finally:
        if created:
            drop_postgres(created)


def _share_server_template(request: pytest.FixtureRequest) -> None:
    """On a suite running on PostgreSQL, copy the live databases from the template the
    suite's servers already migrated (tests.servers), instead of migrating another."""
    _templates.setdefault(suite_database_url(), request.getfixturevalue("_server_postgres_url")[1])


@pytest.fixture(scope="module")
def postgres_redis_stack(request: pytest.FixtureRequest) -> Iterator[Stack]:
    """PostgreSQL and Redis, whatever the suite runs on (required: the test
    fails in CI without them, and is skipped locally)."""
    require_postgres_and_redis()
    if suite_on_postgres():
        _share_server_template(request)
    url = create_postgres(postgres_url(), "live2")
    try:
        yield Stack(url).with_redis()
    finally:
        drop_postgres(url)


# -- processes ----------------------------------------------------------------------------------

@dataclass
class Worker:
    """``manage.py worker`` in a subprocess (bots, clocks, countdowns, presence)."""

    env: Mapping[str, str]
    log_path: Path | None = None
    process: subprocess.Popen[bytes] | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        if self.log_path is None:
            logs = ARTIFACTS / "server-logs"
            logs.mkdir(parents=True, exist_ok=True)
            self.log_path = logs / f"worker-{uuid.uuid4().hex[:8]}.log"

    def start(self) -> Worker:
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen(
                [sys.executable, "manage.py", "worker"], cwd=ROOT, env=dict(self.env),
                stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
            )
        return self

    def kill(self) -> None:
        """SIGKILL: a crash, in the middle of whatever it was doing."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.kill()

    def __enter__(self) -> Worker:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    @property
    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path and self.log_path.exists() else ""


def log_problems(text: str) -> list[str]:
    """The lines of a server or worker log that show something went wrong."""
    return [line for line in text.splitlines() if LOG_PROBLEMS.search(line)]


def assert_clean_logs(*processes: DaphneServer | Worker) -> None:
    for process in processes:
        problems = log_problems(process.log)
        assert not problems, f"{process.log_path}:\n" + "\n".join(problems[:20])


# -- people and the HTTP API -------------------------------------------------------------------

def http_request(server: DaphneServer, method: str, path: str, body: bytes | None = None,
         headers: Mapping[str, str] | None = None, timeout: float = 20) -> tuple[int, list[tuple[str, str]], bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=timeout)
    try:
        conn.request(method, path, body=body, headers=dict(headers or {}))
        response = conn.getresponse()
        return response.status, response.getheaders(), response.read()
    finally:
        conn.close()


class Guest:
    """A guest of the house with a display name: a real session on the server,
    made through the guest page like a browser would."""

    def __init__(self, server: DaphneServer, name: str) -> None:
        self.server = server
        self.name = name
        self.cookies: dict[str, str] = {}
        self._keep(http_request(server, "GET", "/en/guest/")[1])
        form = urlencode({"csrfmiddlewaretoken": self.cookies["csrftoken"], "name": name}).encode()
        status, headers, _ = http_request(server, "POST", "/en/guest/", form, {
            "Content-Type": "application/x-www-form-urlencoded", "Cookie": self.cookie_header,
        })
        assert status == 302, status
        self._keep(headers)
        assert self.cookies.get("sessionid"), "the guest page set no session"

    def _keep(self, headers: list[tuple[str, str]]) -> None:
        for key, value in headers:
            if key.lower() == "set-cookie":
                for name, morsel in SimpleCookie(value).items():
                    self.cookies[name] = morsel.value

    @property
    def cookie_header(self) -> str:
        return "; ".join(f"{k}={v}" for k, v in self.cookies.items())

    def api(self, method: str, path: str, data: dict[str, Any] | None = None) -> tuple[int, Any]:
        headers = {"Cookie": self.cookie_header, "X-CSRFToken": self.cookies["csrftoken"]}
        body = None
        if data is not None:
            body = json.dumps(data).encode()
            headers["Content-Type"] = "application/json"
        status, _, raw = http_request(self.server, method, path, body, headers)
        return status, json.loads(raw) if raw else None

    def create(self, game: str, **fields: Any) -> dict[str, Any]:
        """A new table through the API (this guest hosts it, on seat 0)."""
        status, table = self.api("POST", "/api/tables/", {"game": game, **fields})
        assert status == 201, table
        return table

    def quick(self, game: str, **fields: Any) -> dict[str, Any]:
        """"Play against a bot now": started, this guest on seat 0."""
        status, table = self.api("POST", "/api/tables/quick/", {"game": game, **fields})
        assert status == 201, table
        return table

    def client(self, table_id: int, server: DaphneServer | None = None) -> Client:
        return Client(server or self.server, table_id, self.cookies.get("sessionid"))


# -- plain WebSocket clients -------------------------------------------------------------------

_ids = itertools.count(1)


class Client:
    """One plain ``websockets`` connection to a table socket, sending the site's
    Origin and the person's session cookie, keeping every raw frame."""

    def __init__(self, server: DaphneServer, table_id: int, session: str | None = None,
                 ping_interval: float | None = 20) -> None:
        self.server = server
        self.table_id = table_id
        self.session = session
        self.ping_interval = ping_interval
        self.ws: Any = None
        self.raw: list[str] = []
        self.frames: list[dict[str, Any]] = []
        self.latest: dict[str, Any] | None = None
        self.seat: int | None = None
        self.v = -1
        self.acked: list[tuple[int, int, str]] = []  # (version, seat, move) of this socket's accepted moves

    async def connect(self) -> Client:
        from websockets.asyncio.client import connect

        headers = {"Cookie": f"sessionid={self.session}"} if self.session else {}
        self.ws = await connect(
            self.server.ws_url(f"/ws/tables/{self.table_id}/"), origin=self.server.origin,
            additional_headers=headers, ping_interval=self.ping_interval, open_timeout=20, max_size=2**20,
        )
        return self

    async def open(self, since: int | None = None) -> dict[str, Any]:
        """Connect (if needed) and say hello; the ``state`` frame."""
        if self.ws is None:
            await self.connect()
        message: dict[str, Any] = {"t": "hello"}
        if since is not None:
            message["since"] = since
        await self.send(**message)
        return await self.until("state")

    async def send(self, **message: Any) -> None:
        await self.ws.send(json.dumps(message))

    async def recv(self, timeout: float = 30) -> dict[str, Any]:
        text = await asyncio.wait_for(self.ws.recv(), timeout)
        self.raw.append(text)
        frame = json.loads(text)
        self.frames.append(frame)
        if frame.get("t") in ("state", "update") and frame["v"] >= self.v:
            self.seat, self.v, self.latest = frame["seat"], frame["v"], frame
        return frame

    async def until(self, kind: str, timeout: float = 30, **match: Any) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            frame = await self.recv(max(0.1, deadline - time.monotonic()))
            if frame.get("t") == kind and all(frame.get(k) == v for k, v in match.items()):
                return frame

    async def until_version(self, version: int, timeout: float = 30) -> dict[str, Any]:
        """Read until this socket has seen ``version`` (updates may be coalesced)."""
        deadline = time.monotonic() + timeout
        while self.v < version:
            await self.recv(max(0.1, deadline - time.monotonic()))
        return self.latest

    async def answer(self, msg_id: Any, timeout: float = 30) -> dict[str, Any]:
        """The ack or error answering the request ``msg_id`` (broadcasts on the way are kept)."""
        deadline = time.monotonic() + timeout
        while True:
            frame = await self.recv(max(0.1, deadline - time.monotonic()))
            if frame.get("t") in ("ack", "error") and frame.get("id") == msg_id:
                return frame

    async def request(self, kind: str, timeout: float = 30, **fields: Any) -> dict[str, Any]:
        msg_id = next(_ids)
        await self.send(t=kind, id=msg_id, **fields)
        return await self.answer(msg_id, timeout)

    async def move(self, move: str, version: int) -> dict[str, Any]:
        answer = await self.request("move", move=move, v=version)
        if answer["t"] == "ack":
            self.acked.append((answer["v"], self.seat, move))
        return answer

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()

    @property
    def running(self) -> bool:
        return self.latest is not None and self.latest["status"] in ("open", "running")


async def autoplay(client: Client, seed: int, timeout: float = 60) -> Client:
    """Play this client's seat until the game is over, choosing each move with
    an easy (greedy) bot from the view the server sent, and only then.

    A move can meet ``stale_version`` when another seat acted at the same version
    (simultaneous choices, bots of the worker): the client waits for the next
    update and decides again, as docs/protocol.md says. When that other move ended
    the game, the answer is ``game_over`` and the final update follows.
    """
    assert client.latest is not None, "open the table first"
    rules = engines.get(client.latest["game"])
    chooser = bots.make("easy", rules, seed=seed)
    tried = -1
    while client.running:
        frame = client.latest
        seat = client.seat
        if frame["status"] == "running" and seat is not None and seat in frame["to_act"] and frame["v"] != tried:
            tried = frame["v"]
            move = chooser.choose(frame["view"], seat)
            assert move in frame["legal"], (move, frame["legal"])
            answer = await client.move(move, frame["v"])
            if answer["t"] == "error":
                assert answer["code"] in ("stale_version", "not_your_turn", "game_over"), answer
        else:
            await client.recv(timeout)
    return client


async def watch(client: Client, timeout: float = 60) -> Client:
    """Read until the game is over (a spectator, or a seat waiting for bots)."""
    while client.running:
        await client.recv(timeout)
    return client


# -- the truth, from the server's database -------------------------------------------------------

class ServerDB:
    """Plain SQL on the servers' database, outside Django."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.postgres = url.startswith(("postgres://", "postgresql://"))

    def rows(self, query: str, *params: Any) -> list[tuple]:
        if self.postgres:
            import psycopg

            with psycopg.connect(self.url, connect_timeout=5) as conn:
                return conn.execute(query.replace("?", "%s"), params).fetchall()
        conn = sqlite3.connect(urlsplit(self.url).path, timeout=30)
        try:
            return conn.execute(query, params).fetchall()
        finally:
            conn.close()

    def table(self, table_id: int) -> dict[str, Any]:
        names = ("id", "game", "seat_count", "seed", "status", "version", "state", "outcome", "options",
                 "bot_due", "clock_deadline")
        (row,) = self.rows(f"SELECT {', '.join(names)} FROM games_table WHERE id = ?", table_id)
        found = dict(zip(names, row, strict=True))
        for key in ("state", "outcome", "options"):
            if isinstance(found[key], str):
                found[key] = json.loads(found[key])
        return found

    def actions(self, table_id: int) -> list[tuple[int, int | None, str, str]]:
        return self.rows("SELECT version, seat, kind, move FROM games_action WHERE table_id = ? ORDER BY version",
                         table_id)

    def seat_deadlines(self, table_id: int) -> list[Any]:
        return [row[0] for row in self.rows(
            'SELECT deadline FROM games_seat WHERE table_id = ? ORDER BY "index"', table_id)]

    def states(self, table_id: int) -> dict[int, Any]:
        """The engine state at every version of the table, replayed from its
        seed and its log (None before the start)."""
        table = self.table(table_id)
        rules = engines.get(table["game"])
        state = None
        by_version: dict[int, Any] = {0: None}
        for version, seat, kind, move in self.actions(table_id):
            if kind == "start":
                state = rules.new_game(table["seat_count"], seed=table["seed"], options=table["options"] or {})
            elif kind in MOVE_KINDS:
                state = rules.play(state, seat, move)
            by_version[version] = state
        assert state is None or rules.dump(state) == table["state"], "the log does not replay to the stored state"
        return by_version


def check_frames_against_truth(db: ServerDB, table_id: int, clients: list[Client]) -> int:
    """Every state or update any client got holds exactly its own seat's view of
    the true state at that version, and a move's text only in its author's
    events. Returns how many frames were checked."""
    states = db.states(table_id)
    rules = engines.get(db.table(table_id)["game"])
    views: dict[tuple[int, int | None], Any] = {}
    checked = 0
    for client in clients:
        for frame in client.frames:
            if frame.get("t") not in ("state", "update"):
                continue
            state = states[frame["v"]]
            if state is None:
                assert frame["view"] is None
                continue
            key = (frame["v"], frame["seat"])
            if key not in views:
                views[key] = rules.view(state, frame["seat"])
            assert frame["view"] == views[key], (frame["v"], frame["seat"])
            for event in frame["events"] or []:
                assert "move" not in event or event["seat"] == frame["seat"], event
            assert "seed" not in frame and "state" not in frame
            checked += 1
    return checked


def final_checks(db: ServerDB, table_id: int, clients: list[Client]) -> dict[str, Any]:
    """The game ended in the database as every client last saw it, and every
    move a client had acknowledged is in the log at the acknowledged version."""
    table = db.table(table_id)
    assert table["status"] == "finished", table["status"]
    log = {version: (seat, move) for version, seat, kind, move in db.actions(table_id) if kind == "move"}
    for client in clients:
        assert client.latest["v"] == table["version"] and client.latest["status"] == "finished"
        assert client.latest["outcome"] == table["outcome"]
        for version, seat, move in client.acked:
            assert log.get(version) == (seat, move), (version, seat, move)
    return table
