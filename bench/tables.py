"""Live tables under load: scripted players against real server processes,
next to the stack's ceiling (a bare Channels broadcast) in the same run.

    nice .venv/bin/python bench/tables.py [--tables 500] [--rate 150] [--duration 60]
        [--servers 1] [--layers pubsub,core] [--game eclaircissement] [--ping 5]
        [--ceiling 20] [--profile DIR] [--markdown] [--json FILE]

Not a test. Needs PostgreSQL and Redis. For each channel layer asked for
(CHANNELS_BACKEND=pubsub|core):

1. A fresh bench database (``--database-url``, dropped and migrated at the
   start), ``--servers`` daphne processes serving the site (DEBUG off) and the
   worker, all with that layer and a prefix of their own in Redis.
2. ``--tables`` started two-player tables of ``--game``; each player is a guest
   session made in the database, holding one plain WebSocket (the site's
   Origin, the session cookie), spread over the daphne processes as a proxy
   would: by table (``--route table``: the proxy hashes the socket's path, both
   players of a table on one process) or by connection (``--route player``:
   round-robin, the two players of a table on different processes). Players
   ping every ``--ping`` seconds like the site's pages do.
3. Open loop: moves are offered at ``--rate`` per second on a fixed schedule
   whatever the answers (a warm-up of ``--warmup`` s, then ``--duration`` s
   measured). Each scheduled move goes to the next table that is ready (both
   players saw the last version), whose player to act sends a random legal move
   from its own view. Latency: from sending the move to the moment both
   players' sockets have received the new version (move to all screens).
   When no table is ready the move is counted as not offered.
4. Closed loop (``--ceiling`` s): every table moves again as soon as both
   screens have the last move: the tables' throughput.
5. The ceiling: ``--servers`` daphne processes serving bench/bare_broadcast.py
   (a bare consumer relaying each frame to a group of two on the same layer),
   the same number of sockets in pairs, closed loop: frames relayed per second.
   ``--bare-channels-dispatch`` measures it a second time with Channels' own
   dispatch (a thread hop before every handler, which the site's sockets skip).

Reported: moves per second, latency p50/p90/p99/max, errors (error frames,
closed sockets, moves without an answer in 10 s, ERROR lines in the servers'
logs), CPU seconds of the daphne processes, the worker, the bench database's
PostgreSQL backends, Redis and this client process (from /proc), the whole
machine's busy share, and the ratio of the tables' throughput to the ceiling.
``--profile DIR`` samples the daphne processes with py-spy during the open
loop, the closed loop and the ceilings (collapsed stacks, one file per
process and phase).

Before and after a change: ``--code DIR`` serves the site (daphne, worker,
migrations) from another checkout, with its own ``.venv`` (the client, the
tables it makes and the ceiling stay this checkout's). ``--alternate A,B
--rounds N`` runs the whole bench N times for each checkout, alternating
(A, B, A, B...: the machine's drift hits both alike), and prints each one's
medians and B's ratio to A:

    git -C /work/main worktree add /work/bench-before 539860b
    (cd /work/bench-before && make venv-test)
    nice .venv/bin/python bench/tables.py --layers pubsub --alternate /work/bench-before,. --rounds 3
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import http.client
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import ujson

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
LOGS = ROOT / "artifacts" / "bench-tables"
# The checkout whose site the servers run (--code), and its interpreter.
CODE = ROOT
SERVER_PYTHON = sys.executable
MOVE_TIMEOUT = 10.0
LOG_PROBLEMS = ("ERROR", "Traceback", " 1011", "CRITICAL")


# -- processes and their CPU -------------------------------------------------------------------

def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (0 once it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def pids_matching(test) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                cmdline = f.read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if test(cmdline):
            found.append(int(entry))
    return found


def machine_busy() -> tuple[float, float]:
    """(busy, total) jiffies of all CPUs, from /proc/stat."""
    with open("/proc/stat") as f:
        values = [int(v) for v in f.readline().split()[1:]]
    idle = values[3] + values[4]
    return sum(values) - idle, sum(values)


@dataclass
class Proc:
    name: str
    process: subprocess.Popen
    log_path: Path
    port: int = 0

    @property
    def pid(self) -> int:
        return self.process.pid

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)

    def problems(self) -> list[str]:
        text = self.log_path.read_text(errors="replace") if self.log_path.exists() else ""
        return [line for line in text.splitlines() if any(p in line for p in LOG_PROBLEMS)]


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def spawn(name: str, args: list[str], env: dict[str, str], port: int = 0, cwd: Path | None = None) -> Proc:
    LOGS.mkdir(parents=True, exist_ok=True)
    log_path = LOGS / f"{name}.log"
    with open(log_path, "wb") as log:
        process = subprocess.Popen(args, cwd=cwd or CODE, env=env, stdout=log, stderr=subprocess.STDOUT,
                                   start_new_session=True)
    return Proc(name, process, log_path, port)


def wait_ready(proc: Proc, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.process.poll() is not None:
            raise RuntimeError(f"{proc.name} exited:\n{proc.log_path.read_text(errors='replace')[-3000:]}")
        with contextlib.suppress(OSError):
            conn = http.client.HTTPConnection("127.0.0.1", proc.port, timeout=5)
            conn.request("GET", "/healthz")
            if conn.getresponse().status == 200:
                return
        time.sleep(0.2)
    raise TimeoutError(f"{proc.name} not ready after {timeout} s")


def start_daphnes(app: str, count: int, env: dict[str, str], label: str, site: bool = True) -> list[Proc]:
    """``site``: the site under test (from --code); else this checkout's bare ceiling."""
    python, cwd = (SERVER_PYTHON, CODE) if site else (sys.executable, ROOT)
    procs = []
    for i in range(count):
        port = free_port()
        limits = ["--websocket-max-message-size", "1048576", "--websocket-max-frame-size", "1048576"]
        procs.append(spawn(f"{label}-daphne-{i}", [python, "-m", "daphne", *limits, "-b", "127.0.0.1",
                                                   "-p", str(port), app], env, port, cwd))
    for proc in procs:
        wait_ready(proc)
    return procs


# -- the bench database and its tables ------------------------------------------------------------

def recreate_database(url: str) -> None:
    import psycopg
    from psycopg import sql

    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    admin = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True, connect_timeout=5) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    env = {**os.environ, "DATABASE_URL": url}
    env.pop("REDIS_URL", None)
    subprocess.run([SERVER_PYTHON, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=CODE, env=env, check=True)


SECRET_KEY = "bench-only-" + uuid.uuid4().hex  # the sessions made here are signed with the servers' key


def setup_django(url: str) -> None:
    os.environ["DATABASE_URL"] = url
    os.environ["SECRET_KEY"] = SECRET_KEY
    os.environ["DEBUG"] = "0"  # no record of every query in this process
    os.environ["ALLOWED_HOSTS"] = "127.0.0.1"
    os.environ.pop("REDIS_URL", None)  # the bench's own writes need no broadcast
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ludo.settings")
    import django

    django.setup()


def make_tables(count: int, game: str) -> list[tuple[int, list[str]]]:
    """``count`` started tables, two guests each: (table id, [session keys])."""
    from django.contrib.sessions.backends.db import SessionStore

    from games import services
    from ludo.accounts import GUEST_NAME_KEY
    from ludo.guests import GUEST_ID_KEY, new_guest_id

    made = []
    for i in range(count):
        keys, people = [], []
        for seat in range(2):
            session = SessionStore()
            name = f"P{i}-{seat}"
            session[GUEST_NAME_KEY] = name
            session[GUEST_ID_KEY] = new_guest_id()
            session.create()
            keys.append(session.session_key)
            people.append(services.Who(guest_key=session[GUEST_ID_KEY], name=name))
        table = services.create_table(people[0], game)
        services.join_table(table.pk, people[1])
        services.start_table(table.pk, people[0])
        made.append((table.pk, keys))
    return made


def wait_for_disconnects(timeout: float = 60) -> None:
    """Let the servers finish closing the sockets (presence rows) before they
    are stopped, so that a stop does not cut that work short."""
    from games.models import Connection

    deadline = time.monotonic() + timeout
    while Connection.objects.exists() and time.monotonic() < deadline:
        time.sleep(0.5)


# -- scripted players -------------------------------------------------------------------------------

@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    sent_at: list[float] = field(default_factory=list)  # perf_counter when each measured move left
    lags: list[float] = field(default_factory=list)
    errors: collections.Counter = field(default_factory=collections.Counter)
    not_offered: int = 0
    offered: int = 0
    finished_games: int = 0

    def timeline(self) -> list[tuple[int, int, float]]:
        """Per second of the run: (second, moves, worst latency in ms)."""
        if not self.sent_at:
            return []
        start = min(self.sent_at)
        per: dict[int, list[float]] = collections.defaultdict(list)
        for sent, latency in zip(self.sent_at, self.latencies, strict=True):
            per[int(sent - start)].append(latency)
        return [(k, len(v), round(max(v) * 1000)) for k, v in sorted(per.items())]

    def summary(self, seconds: float) -> dict[str, Any]:
        lat = sorted(self.latencies)

        def q(p: float) -> float | None:
            return round(lat[min(len(lat) - 1, int(p * len(lat)))] * 1000, 1) if lat else None

        lags = sorted(self.lags)
        return {
            "moves": len(lat),
            "moves_per_s": round(len(lat) / seconds, 1),
            "offered": self.offered,
            "not_offered": self.not_offered,
            "p50_ms": q(0.50), "p90_ms": q(0.90), "p99_ms": q(0.99),
            "max_ms": round(lat[-1] * 1000, 1) if lat else None,
            "client_lag_p99_ms": round(lags[int(0.99 * (len(lags) - 1))] * 1000, 1) if lags else None,
            "errors": dict(self.errors),
            "finished_games": self.finished_games,
        }


class Player:
    def __init__(self, table: Table, seat: int, session: str, server: Proc) -> None:
        self.table, self.seat, self.session, self.server = table, seat, session, server
        self.ws: Any = None
        self.v = -1
        self.legal: list[str] = []
        self.to_act: list[int] = []
        self.status = ""

    async def connect(self) -> None:
        from websockets.asyncio.client import connect

        self.ws = await connect(
            f"ws://127.0.0.1:{self.server.port}/ws/tables/{self.table.id}/",
            origin=f"http://127.0.0.1:{self.server.port}",
            additional_headers={"Cookie": f"sessionid={self.session}"},
            open_timeout=120, ping_interval=None, max_size=2**22, compression=None,
        )
        await self.ws.send('{"t":"hello","acks":"update"}')  # as the site's pages: a move's update is its ack

    async def read(self, bench: Bench) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            async for text in self.ws:
                frame = ujson.loads(text)  # a third of json's time for an update: the client shares the machine
                kind = frame.get("t")
                if kind in ("state", "update"):
                    if frame["v"] >= self.v:
                        self.v, self.legal, self.to_act, self.status = (
                            frame["v"], frame["legal"], frame["to_act"], frame["status"])
                        self.table.seen(bench)
                elif kind == "error":
                    bench.stats.errors[frame.get("code", "?")] += 1
                    self.table.failed(bench)
        except ConnectionClosed:
            if not bench.closing:
                bench.stats.errors["socket closed"] += 1


class Table:
    def __init__(self, table_id: int) -> None:
        self.id = table_id
        self.players: list[Player] = []
        self.pending: tuple[float, int] | None = None  # (sent at, version awaited)
        self.measured = False
        self.opened = False
        self.lost = False

    def ready(self) -> bool:
        return all(p.v >= 0 and p.v == self.players[0].v for p in self.players) and self.players[0].status == "running"

    def seen(self, bench: Bench) -> None:
        if self.pending is None:
            if not self.opened and self.ready():
                self.opened = True
                bench.opened += 1
                bench.ready.append(self)
            return
        sent, version = self.pending
        if all(p.v >= version for p in self.players):
            self.pending = None
            if self.measured:
                bench.stats.latencies.append(time.perf_counter() - sent)
                bench.stats.sent_at.append(sent)
            if self.players[0].status != "running":
                bench.stats.finished_games += 1
                return
            if bench.closed_loop:
                self.move(bench, measured=bench.measuring)
            else:
                bench.ready.append(self)

    def failed(self, bench: Bench) -> None:
        # An error answers our move: nothing changed; try again with the next schedule.
        if self.pending is not None:
            self.pending = None
            bench.ready.append(self)

    def move(self, bench: Bench, measured: bool, scheduled: float | None = None) -> None:
        seat = self.players[0].to_act[0]
        mover = self.players[seat]
        if not mover.legal:
            bench.stats.errors["no legal move"] += 1
            return
        move = bench.rng.choice(mover.legal)
        now = time.perf_counter()
        self.pending = (now, mover.v + 1)
        self.measured = measured
        if measured and scheduled is not None:
            bench.stats.lags.append(max(0.0, now - scheduled))
        bench.send(mover, ujson.dumps({"t": "move", "move": move, "v": mover.v, "id": mover.v}))


class Bench:
    def __init__(self, tables: list[tuple[int, list[str]]], servers: list[Proc], seed: int = 1,
                 route: str = "table") -> None:
        self.rng = random.Random(seed)
        self.tables = [Table(table_id) for table_id, _ in tables]
        self.players: list[Player] = []
        n = 0
        for t, (table, (_, sessions)) in enumerate(zip(self.tables, tables, strict=True)):
            for seat, session in enumerate(sessions):
                # "table": the proxy picks a process by the table's path (both players on
                # one process); "player": round-robin per connection (split players).
                server = servers[(t if route == "table" else n) % len(servers)]
                player = Player(table, seat, session, server)
                table.players.append(player)
                self.players.append(player)
                n += 1
        self.ready: collections.deque[Table] = collections.deque()
        self.stats = Stats()
        self.closed_loop = False
        self.measuring = False
        self.closing = False
        self.opened = 0
        self.readers: list[asyncio.Task] = []
        self.sends: set[asyncio.Task] = set()

    def send(self, player: Player, text: str) -> None:
        task = asyncio.get_running_loop().create_task(player.ws.send(text))
        self.sends.add(task)
        task.add_done_callback(self.sends.discard)

    async def connect_all(self, concurrency: int = 50) -> float:
        started = time.perf_counter()
        gate = asyncio.Semaphore(concurrency)

        async def one(player: Player) -> None:
            async with gate:
                await player.connect()
                self.readers.append(asyncio.create_task(player.read(self)))

        await asyncio.gather(*(one(p) for p in self.players))
        deadline = time.monotonic() + 120
        while self.opened < len(self.tables) and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        if self.opened < len(self.tables):
            raise RuntimeError(f"only {self.opened} of {len(self.tables)} tables opened")
        return time.perf_counter() - started

    async def pinger(self, every: float) -> None:
        """Each player pings every ``every`` seconds, spread evenly (the site's pages do)."""
        if every <= 0:
            return
        gap = every / max(1, len(self.players))
        i = 0
        while True:
            player = self.players[i % len(self.players)]
            if player.ws is not None:
                self.send(player, '{"t":"ping"}')
            i += 1
            await asyncio.sleep(gap)

    async def watchdog(self) -> None:
        while True:
            await asyncio.sleep(1)
            now = time.perf_counter()
            for table in self.tables:
                if table.pending is not None and now - table.pending[0] > MOVE_TIMEOUT and not table.lost:
                    table.lost = True
                    self.stats.errors["no update within 10 s"] += 1

    async def open_loop(self, rate: float, warmup: float, duration: float) -> float:
        loop = asyncio.get_running_loop()
        start = loop.time()
        measure_from = start + warmup
        i = 0
        while True:
            scheduled = start + i / rate
            if scheduled >= measure_from + duration:
                break
            delay = scheduled - loop.time()
            if delay > 0:
                await asyncio.sleep(delay)
            i += 1
            measured = scheduled >= measure_from
            if measured:
                self.stats.offered += 1
            if self.ready:
                self.ready.popleft().move(self, measured, time.perf_counter() - (loop.time() - scheduled))
            elif measured:
                self.stats.not_offered += 1
        return duration

    async def drain(self, timeout: float = MOVE_TIMEOUT) -> None:
        deadline = time.monotonic() + timeout
        while any(t.pending for t in self.tables if not t.lost) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)

    async def closed(self, seconds: float) -> float:
        self.closed_loop = True
        self.measuring = False
        while self.ready:
            self.ready.popleft().move(self, measured=False)
        await asyncio.sleep(2)  # let it settle
        self.measuring = True
        await asyncio.sleep(seconds)
        self.measuring = False
        self.closed_loop = False
        return seconds

    async def close(self) -> None:
        self.closing = True
        for task in self.readers:
            task.cancel()
        await asyncio.gather(*(p.ws.close() for p in self.players if p.ws is not None), return_exceptions=True)


# -- the bare ceiling ---------------------------------------------------------------------------------

async def bare_ceiling(servers: list[Proc], pairs: int, seconds: float, payload: int,
                       route: str = "table") -> dict[str, Any]:
    from websockets.asyncio.client import connect

    text = json.dumps({"t": "move", "move": "x" * max(0, payload - 40), "v": 1})
    latencies: list[float] = []
    errors: collections.Counter = collections.Counter()
    measuring = False
    gate = asyncio.Semaphore(50)
    sockets: list[tuple[Any, Any]] = []

    async def open_pair(n: int) -> None:
        async with gate:
            if route == "table":
                server = servers[n % len(servers)], servers[n % len(servers)]
            else:
                server = servers[(2 * n) % len(servers)], servers[(2 * n + 1) % len(servers)]
            a = await connect(f"ws://127.0.0.1:{server[0].port}/ws/pair/{n}/", open_timeout=120,
                              ping_interval=None, compression=None)
            b = await connect(f"ws://127.0.0.1:{server[1].port}/ws/pair/{n}/", open_timeout=120,
                              ping_interval=None, compression=None)
            sockets.append((a, b))

    async def run_pair(a: Any, b: Any) -> None:
        while True:
            sent = time.perf_counter()
            await a.send(text)
            await asyncio.gather(a.recv(), b.recv())
            if measuring:
                latencies.append(time.perf_counter() - sent)

    started = time.perf_counter()
    await asyncio.gather(*(open_pair(n) for n in range(pairs)))
    connect_s = time.perf_counter() - started
    await asyncio.sleep(1)  # group memberships settle
    tasks = [asyncio.create_task(run_pair(a, b)) for a, b in sockets]
    await asyncio.sleep(2)
    cpu_before = {p.pid: cpu_seconds(p.pid) for p in servers}
    measuring = True
    await asyncio.sleep(seconds)
    measuring = False
    cpu = sum(cpu_seconds(p.pid) - cpu_before[p.pid] for p in servers)
    for task in tasks:
        task.cancel()
    for task in tasks:
        with contextlib.suppress(BaseException):
            await task
        if task.cancelled():
            continue
        if task.exception() is not None:
            errors[type(task.exception()).__name__] += 1
    await asyncio.gather(*(s.close() for pair in sockets for s in pair), return_exceptions=True)
    lat = sorted(latencies)
    return {
        "connect_s": round(connect_s, 1),
        "moves_per_s": round(len(lat) / seconds, 1),
        "p50_ms": round(lat[len(lat) // 2] * 1000, 1) if lat else None,
        "p99_ms": round(lat[int(0.99 * (len(lat) - 1))] * 1000, 1) if lat else None,
        "daphne_cpu_ms_per_move": round(cpu / max(1, len(lat)) * 1000, 2),
        "errors": dict(errors),
    }


# -- one run on one layer --------------------------------------------------------------------------------

class CpuWindow:
    """CPU seconds of the processes that matter over a window of time."""

    def __init__(self, groups: dict[str, list[int]]) -> None:
        self.groups = groups
        self.before = {name: {pid: cpu_seconds(pid) for pid in pids} for name, pids in groups.items()}
        self.client_before = self._client()
        self.machine_before = machine_busy()
        self.started = time.perf_counter()

    @staticmethod
    def _client() -> float:
        usage = resource.getrusage(resource.RUSAGE_SELF)
        return usage.ru_utime + usage.ru_stime

    def result(self) -> dict[str, Any]:
        wall = time.perf_counter() - self.started
        out: dict[str, Any] = {}
        for name, pids in self.groups.items():
            used = sum(max(0.0, cpu_seconds(pid) - self.before[name][pid]) for pid in pids)
            out[name] = round(used / wall * 100, 1)
        out["bench client"] = round((self._client() - self.client_before) / wall * 100, 1)
        busy, total = machine_busy()
        out["machine busy"] = round((busy - self.machine_before[0]) / max(1, total - self.machine_before[1])
                                    * 100 * os.cpu_count(), 1)
        return out  # percent of one core


def server_env(args: argparse.Namespace, layer: str, prefix: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DJANGO_SETTINGS_MODULE",)}
    env.update({
        "DATABASE_URL": args.database_url,
        "REDIS_URL": args.redis_url,
        "CHANNELS_PREFIX": prefix,
        "CHANNELS_BACKEND": layer,
        "DEBUG": "0",
        "SECRET_KEY": SECRET_KEY,
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SECURE_SSL_REDIRECT": "0",
        "BEHIND_HTTPS_PROXY": "0",
        "LOG_LEVEL": "WARNING",
        "PYTHONUNBUFFERED": "1",
    })
    return env


def profile(procs: list[Proc], seconds: float, folder: Path, label: str) -> list[subprocess.Popen]:
    spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    folder.mkdir(parents=True, exist_ok=True)
    return [
        subprocess.Popen([spy, "record", "--pid", str(p.pid), "--duration", str(int(seconds)), "--rate", "100",
                          "--format", "raw", "--gil", "--output", str(folder / f"{label}-{p.name}.txt")],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for p in procs
    ]


def run_layer(args: argparse.Namespace, layer: str) -> dict[str, Any]:
    prefix = f"bench-{uuid.uuid4().hex[:6]}"
    env = server_env(args, layer, prefix)
    result: dict[str, Any] = {"layer": layer, "tables": args.tables, "players": 2 * args.tables,
                              "servers": args.servers, "route": args.route, "ping": args.ping,
                              "rate": args.rate, "duration": args.duration, "game": args.game}
    print(f"[{layer}] creating {args.tables} tables of {args.game}...", flush=True)
    started = time.perf_counter()
    tables = make_tables(args.tables, args.game)
    print(f"[{layer}] tables made in {time.perf_counter() - started:.1f} s; starting servers", flush=True)
    daphnes = start_daphnes("ludo.asgi:application", args.servers, env, f"{layer}-site")
    worker = spawn(f"{layer}-worker", [SERVER_PYTHON, "manage.py", "worker"], env)
    db_name = urlsplit(args.database_url).path.lstrip("/")
    try:
        bench = Bench(tables, daphnes, seed=args.seed, route=args.route)

        async def play() -> None:
            helpers = [asyncio.create_task(bench.watchdog())]
            result["connect_s"] = round(await bench.connect_all(), 1)
            print(f"[{layer}] {len(bench.players)} sockets open in {result['connect_s']} s", flush=True)
            helpers.append(asyncio.create_task(bench.pinger(args.ping)))
            def groups() -> dict[str, list[int]]:
                # Looked up when a window opens: the servers open database
                # connections as they need them (a move's first one included).
                return {
                    "daphne": [p.pid for p in daphnes],
                    "worker": [worker.pid],
                    "postgres": pids_matching(lambda c: c.startswith("postgres:") and f" {db_name} " in c),
                    "redis": pids_matching(lambda c: c.startswith(("redis-server", "/usr/bin/redis-server"))),
                }
            spies = []
            if args.profile:
                spies = profile(daphnes, args.warmup + args.duration, Path(args.profile), layer)
            stats_window: dict[str, Any] = {}

            async def measure_cpu() -> None:
                await asyncio.sleep(args.warmup)
                window = CpuWindow(groups())
                await asyncio.sleep(args.duration)
                stats_window.update(window.result())

            cpu_task = asyncio.create_task(measure_cpu())
            await bench.open_loop(args.rate, args.warmup, args.duration)
            await cpu_task
            await bench.drain()
            for spy in spies:
                spy.wait()
            result["open_loop"] = bench.stats.summary(args.duration)
            result["open_loop"]["cpu_percent_of_a_core"] = stats_window
            moves = max(1, result["open_loop"]["moves"])
            result["open_loop"]["daphne_cpu_ms_per_move"] = round(
                stats_window["daphne"] / 100 * args.duration / moves * 1000, 2)
            print(f"[{layer}] open loop: {json.dumps(result['open_loop'])}", flush=True)
            if args.timeline:
                print(f"[{layer}] per second (s, moves, worst ms): {bench.stats.timeline()}", flush=True)
            if args.ceiling > 0:
                bench.stats = Stats()
                window = CpuWindow(groups())
                closed_spies = (profile(daphnes, args.ceiling + 2, Path(args.profile), f"{layer}-closed")
                                if args.profile else [])
                seconds = await bench.closed(args.ceiling)
                for spy in closed_spies:
                    spy.wait()
                cpu = window.result()
                await bench.drain()
                result["closed_loop"] = bench.stats.summary(seconds)
                result["closed_loop"]["cpu_percent_of_a_core"] = cpu
                moves = max(1, result["closed_loop"]["moves"])
                result["closed_loop"]["daphne_cpu_ms_per_move"] = round(
                    cpu["daphne"] / 100 * (seconds + 2) / moves * 1000, 2)
                print(f"[{layer}] closed loop: {json.dumps(result['closed_loop'])}", flush=True)
            for helper in helpers:
                helper.cancel()
            await bench.close()

        asyncio.run(play())
    finally:
        wait_for_disconnects()
        worker.stop()
        for proc in daphnes:
            proc.stop()
    problems = [line for proc in (*daphnes, worker) for line in proc.problems()]
    result["log_problems"] = len(problems)
    for line in problems[:10]:
        print(f"[{layer}] log: {line}", flush=True)
    if args.ceiling > 0:
        variants = [("bare", env)]
        if args.bare_channels_dispatch:
            variants.append(("bare_channels_dispatch", {**env, "BARE_CHANNELS_DISPATCH": "1"}))
        for key, bare_env in variants:
            bare = start_daphnes("bench.bare_broadcast:application", args.servers, bare_env, f"{layer}-{key}",
                                 site=False)
            spies = profile(bare, args.ceiling + 4, Path(args.profile), f"{layer}-{key}") if args.profile else []
            try:
                result[key] = asyncio.run(bare_ceiling(bare, args.tables, args.ceiling, args.bare_bytes, args.route))
                for spy in spies:
                    spy.wait()
            finally:
                for proc in bare:
                    proc.stop()
            print(f"[{layer}] {key.replace('_', ' ')}: {json.dumps(result[key])}", flush=True)
        if result["bare"]["moves_per_s"]:
            result["ratio"] = round(result["closed_loop"]["moves_per_s"] / result["bare"]["moves_per_s"], 2)
    return result


def markdown(results: list[dict[str, Any]]) -> str:
    lines = [
        "| layer | daphne | tables (players) | offered moves/s | done moves/s | p50 / p99 ms | errors "
        "| daphne CPU ms/move | closed-loop moves/s | bare broadcast moves/s | ratio |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        o, c, b = r["open_loop"], r.get("closed_loop", {}), r.get("bare", {})
        errors = sum(o["errors"].values()) + r["log_problems"]
        hop = r.get("bare_channels_dispatch", {}).get("moves_per_s")
        bare = b.get("moves_per_s", "-") if hop is None else f"{b.get('moves_per_s', '-')} ({hop} with the hop)"
        lines.append(
            f"| {r['layer']} | {r['servers']} | {r['tables']} ({r['players']}) | {r['rate']} | {o['moves_per_s']} "
            f"| {o['p50_ms']} / {o['p99_ms']} | {errors} | {o['daphne_cpu_ms_per_move']} "
            f"| {c.get('moves_per_s', '-')} | {bare} | {r.get('ratio', '-')} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("--tables", type=int, default=500, help="two-player tables (default 500: 1000 players)")
    parser.add_argument("--rate", type=float, default=150, help="offered moves per second (default 150)")
    parser.add_argument("--duration", type=float, default=60, help="measured seconds of open loop (default 60)")
    parser.add_argument("--warmup", type=float, default=5, help="seconds of open loop before measuring (default 5)")
    parser.add_argument("--ceiling", type=float, default=20,
                        help="seconds of closed loop, tables then bare broadcast (0: skip; default 20)")
    parser.add_argument("--servers", type=int, default=1, help="daphne processes (default 1)")
    parser.add_argument("--route", choices=("table", "player"), default="table",
                        help="with several servers: both players of a table on one process (the proxy hashes "
                             "the table's path; default), or each connection round-robin")
    parser.add_argument("--layers", default="pubsub,core", help="channel layers to run: pubsub, core or both")
    parser.add_argument("--game", default="eclaircissement", help="the tables' game (default eclaircissement)")
    parser.add_argument("--ping", type=float, default=5, help="seconds between a player's pings (site: 5; 0: none)")
    parser.add_argument("--bare-bytes", type=int, default=110, help="size of a bare broadcast frame (default 110)")
    parser.add_argument("--bare-channels-dispatch", action="store_true",
                        help="also measure the ceiling with Channels' own dispatch (a thread hop before every "
                             "handler; the bare consumer skips it by default, as the site's sockets do)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database-url", default=os.environ.get("BENCH_DATABASE_URL",
                                                                 "postgres://postgres@127.0.0.1:5432/ludo_bench"))
    parser.add_argument("--redis-url", default=os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/0"))
    parser.add_argument("--profile", metavar="DIR",
                        help="py-spy the daphne processes during the open loop, the closed loop and the ceilings")
    parser.add_argument("--timeline", action="store_true", help="print the open loop's worst latency per second")
    parser.add_argument("--markdown", action="store_true", help="also print a Markdown table")
    parser.add_argument("--json", metavar="FILE", help="append the results to this file (one JSON line per layer)")
    parser.add_argument("--code", metavar="DIR", help="serve the site from this checkout (its .venv) instead")
    parser.add_argument("--alternate", metavar="A,B", help="two checkouts to run in alternation (see above)")
    parser.add_argument("--rounds", type=int, default=3, help="with --alternate: runs of each checkout (default 3)")
    args = parser.parse_args()
    if args.alternate:
        alternate(parser, args)
        return
    if args.code:
        global CODE, SERVER_PYTHON
        CODE = Path(args.code).resolve()
        if not (CODE / "manage.py").exists():
            parser.error(f"--code {args.code}: no manage.py there")
        venv_python = CODE / ".venv" / "bin" / "python"
        SERVER_PYTHON = str(venv_python) if venv_python.exists() else sys.executable
        print(f"site served from {CODE} with {SERVER_PYTHON}", flush=True)
    layers = [name.strip() for name in args.layers.split(",") if name.strip()]
    if not set(layers) <= {"pubsub", "core"}:
        parser.error("--layers takes pubsub, core or both")

    print(f"bench database {args.database_url} (recreated), Redis {args.redis_url}", flush=True)
    recreate_database(args.database_url)
    setup_django(args.database_url)
    results = []
    for layer in layers:
        result = run_layer(args, layer)
        results.append(result)
        if args.json:
            with open(args.json, "a") as f:
                f.write(json.dumps(result) + "\n")
    if args.markdown:
        print(markdown(results))
    if len(results) == 2:
        best = min(results, key=lambda r: (sum(r["open_loop"]["errors"].values()) + r["log_problems"],
                                           -r.get("closed_loop", {}).get("moves_per_s", 0),
                                           r["open_loop"]["p99_ms"] or 1e9))
        print(f"better under this load: {best['layer']}")


# The figures compared between checkouts: (label, path in a result, higher is better).
COMPARED = (
    ("closed loop moves/s", ("closed_loop", "moves_per_s"), True),
    ("closed loop daphne CPU ms/move", ("closed_loop", "daphne_cpu_ms_per_move"), False),
    ("open loop p99 ms", ("open_loop", "p99_ms"), False),
    ("open loop daphne CPU ms/move", ("open_loop", "daphne_cpu_ms_per_move"), False),
)


def alternate(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Run this bench for two checkouts in turn, ``--rounds`` times each, and
    compare their medians (each run is a whole bench: fresh database, servers)."""
    import statistics
    import tempfile

    checkouts = [Path(c.strip()).resolve() for c in args.alternate.split(",") if c.strip()]
    if len(checkouts) != 2:
        parser.error("--alternate takes two checkouts: BEFORE,AFTER")
    passed = []
    skip = False
    for i, arg in enumerate(sys.argv[1:]):  # every option but these, passed on to each run
        if skip:
            skip = False
            continue
        if arg in ("--alternate", "--rounds", "--code", "--json"):
            skip = True
            continue
        if arg.split("=")[0] in ("--alternate", "--rounds", "--code", "--json"):
            continue
        passed.append(arg)
    results: dict[Path, list[dict[str, Any]]] = {c: [] for c in checkouts}
    with tempfile.TemporaryDirectory() as tmp:
        for round_ in range(args.rounds):
            for checkout in checkouts:
                out = Path(tmp) / f"{round_}-{checkouts.index(checkout)}.json"
                print(f"== round {round_ + 1}/{args.rounds}: {checkout}", flush=True)
                subprocess.run([sys.executable, str(Path(__file__).resolve()), *passed, "--code", str(checkout),
                                "--json", str(out)], check=True)
                results[checkout].extend(json.loads(line) for line in out.read_text().splitlines())
    before, after = checkouts
    for layer in sorted({r["layer"] for rs in results.values() for r in rs}):
        print(f"\n{layer}: median of {args.rounds} alternated runs (after / before)")
        for label, (part, key), higher in COMPARED:
            medians = []
            for checkout in (before, after):
                values = [r.get(part, {}).get(key) for r in results[checkout] if r["layer"] == layer]
                values = [v for v in values if v is not None]
                medians.append(statistics.median(values) if values else None)
            ratio = (medians[1] / medians[0]) if medians[0] and medians[1] is not None else None
            verdict = "" if ratio is None else (" (better)" if (ratio > 1) == higher and ratio != 1 else "")
            print(f"  {label:34} before {medians[0]}  after {medians[1]}  ratio "
                  f"{'n/a' if ratio is None else f'{ratio:.3f}'}{verdict}")
        errors = {c.name: sum(sum(r["open_loop"]["errors"].values()) + r.get("log_problems", 0)
                              for r in results[c] if r["layer"] == layer) for c in checkouts}
        print(f"  errors (all runs): {errors}")


if __name__ == "__main__":
    main()
