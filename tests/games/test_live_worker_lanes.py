"""A worker that never stalls play (issue 18, finding 4): with the real worker
process running, while a blank 40-page PDF is being read (rendered at 300 dpi and
OCR'd by tesseract), a bot at a live table answers within 2 s, and the worker's
memory (the RSS of the worker and every process under it, read from /proc) stays
under 300 MB. The issue measured 41 s and 1.5 GB before the worker had lanes and
extraction its own process.

CI reads 12 pages (over 300 MB at the issue's 37 MB a page; the extraction still runs
well past the bot's answers); `make soak` (LUDO_SOAK=full) the 40.

Deterministic: the game is fixed (the table's seed, the seeded choices), and the
bot's answers are awaited while the extraction is known to be running (its process
is alive before and after each answer); only the issue's 2 s and 300 MB are asserted.
A Drumlin turn may take more than one move (a placement, a chained choice): an
answer is the bot's whole turn, awaited only once the turn is the bot's. The seed
is one where a move of Zoé's keeps her turn: the test once waited 120 s for a bot
whose turn it was not, in about one game in thirty."""

from __future__ import annotations

import shutil
import sqlite3
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from games import bots, engines
from tests.catalog.pdf_helpers import blank_pdf
from tests.conftest import require, soak
from tests.games.live_helpers import (
    Client,
    Guest,
    ServerDB,
    Stack,
    Worker,
    live_stack,  # noqa: F401  (fixture)
)
from tests.servers import DaphneServer, manage

PAGES = soak(40, 12)
ANSWER_SECONDS = 2.0
RSS_LIMIT_MB = 300
EXCHANGES = 3
SEED = 37  # see fix_seed: the bot opens; Zoé's third move keeps her turn (a chained step)


def _children() -> dict[int, list[int]]:
    tree: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        tree.setdefault(parent, []).append(int(entry.name))
    return tree


def descendants(pid: int) -> list[int]:
    tree, found, todo = _children(), [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        todo += tree.get(current, [])
    return found


def rss_mb(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            continue
    return total / 1024


def extracting(pid: int) -> bool:
    """True while a process under the worker reads a document: catalog.rulebooks.extractor
    (or tesseract, or the worker's own thread doing it where there is no such process)."""
    for child in descendants(pid)[1:]:
        try:
            command = Path(f"/proc/{child}/cmdline").read_bytes()
        except OSError:
            continue
        if b"catalog.rulebooks.extractor" in command or b"tesseract" in command:
            return True
    return False


class RssSampler(threading.Thread):
    """The peak RSS of a process and everything under it, sampled every 50 ms."""

    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.pid, self.peak, self.done = pid, 0.0, threading.Event()

    def run(self) -> None:
        while not self.done.is_set():
            self.peak = max(self.peak, rss_mb(descendants(self.pid)))
            self.done.wait(0.05)


def fix_seed(database_url: str, table: int, seed: int) -> None:
    """Deal a table (not started yet) from ``seed``: the game is then the same every run."""
    db = ServerDB(database_url)
    if db.postgres:
        db.rows("UPDATE games_table SET seed = ? WHERE id = ? RETURNING id", seed, table)
        return
    conn = sqlite3.connect(urlsplit(database_url).path, timeout=30)
    try:
        with conn:
            conn.execute("UPDATE games_table SET seed = ? WHERE id = ?", (seed, table))
    finally:
        conn.close()


def bots_turn(frame: dict) -> bool:
    """Whether the table waits for its bot: running, and not Zoé's turn (seat 0)."""
    return frame["status"] == "running" and 0 not in frame["to_act"]


async def until_players_turn(client: Client, timeout: float = 120) -> dict:
    """Read until the turn is back at Zoé (or the game is over): the bot's whole
    turn, a chained step of its own included."""
    deadline = time.monotonic() + timeout
    while bots_turn(client.latest):
        await client.recv(max(0.1, deadline - time.monotonic()))
    return client.latest


def document_status(db: ServerDB, title: str) -> tuple[str, int, str]:
    rows = db.rows("SELECT d.status, COUNT(p.id), d.status_error FROM catalog_document d "
                   "LEFT JOIN catalog_documentpage p ON p.document_id = d.id WHERE d.title = ? "
                   "GROUP BY d.id, d.status, d.status_error", title)
    return rows[0] if rows else ("", 0, "")


@pytest.mark.slow
async def test_a_bot_answers_within_2_s_while_40_pages_are_ocrd(live_stack: Stack, tmp_path):  # noqa: F811
    require(shutil.which("tesseract") is not None, "tesseract is not installed")
    env = live_stack.env(LUDO_BOT_THINK_MS="0")
    db = ServerDB(live_stack.database_url)
    scan = tmp_path / "blank.pdf"
    scan.write_bytes(blank_pdf(PAGES))
    with DaphneServer(env) as server, Worker(env) as worker:
        sampler = RssSampler(worker.process.pid)
        sampler.start()
        manage("shell", "-c", (
            "from catalog.collection.models import Game; from catalog.rulebooks import services, uploads\n"
            "game = Game(title='Blank'); game.save()\n"
            f"services.add_scanned_document(game, [uploads.Upload('blank.pdf', open({str(scan)!r}, 'rb').read())],"
            " title='Blank scan', language='fr')\n"
        ), env=env)
        deadline = time.monotonic() + 60
        while not extracting(worker.process.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert extracting(worker.process.pid), "the worker never started reading the scan"

        zoe = Guest(server, "Zoé")
        table = zoe.create("drumlin")["table"]
        # A fixed game (the seed deals who opens and the bots' choices): one where
        # Zoé's turn goes on after a move (docs/notation.md: a placement, a chained choice).
        fix_seed(live_stack.database_url, table, SEED)
        assert zoe.api("POST", f"/api/tables/{table}/bots/", {"level": "easy"})[0] == 200
        assert zoe.api("POST", f"/api/tables/{table}/start/", {})[0] == 200
        client = await zoe.client(table).connect()
        frame = await client.open()
        chooser = bots.make("easy", engines.get("drumlin"), seed=3)
        answers, own_turns, exchanges = [], 0, 0
        if bots_turn(frame):  # the bot opens: its first move is an answer too
            start = time.monotonic()
            frame = await until_players_turn(client)
            answers.append(time.monotonic() - start)
        for _ in range(4 * EXCHANGES):
            if exchanges == EXCHANGES or frame["status"] != "running":
                break
            assert extracting(worker.process.pid), "the extraction ended before the bot was asked"
            answer = await client.move(chooser.choose(frame["view"], 0), frame["v"])
            assert answer["t"] == "ack", answer
            start = time.monotonic()
            frame = await client.until_version(answer["v"], timeout=120)
            if frame["v"] == answer["v"] and not bots_turn(frame):
                own_turns += 1  # Zoé's turn goes on: no bot to wait for
                continue
            frame = await until_players_turn(client)
            answers.append(time.monotonic() - start)
            exchanges += 1
            pages_done = document_status(db, "Blank scan")[1]
            assert extracting(worker.process.pid) and pages_done == 0, "the extraction ended before the bot answered"
        await client.close()

        deadline = time.monotonic() + 600
        while document_status(db, "Blank scan")[0] in ("pending", "running") and time.monotonic() < deadline:
            time.sleep(0.5)
        sampler.done.set()
        sampler.join()
        status, pages, error = document_status(db, "Blank scan")
        print(f"\nbot answers during the extraction: {', '.join(f'{a:.3f} s' for a in answers)} "
              f"({own_turns} of Zoé's moves kept her turn); "
              f"worker peak RSS {sampler.peak:.0f} MB; document {status}, {pages} pages")
        assert status in ("done", "to_check"), (status, error, worker.log[-3000:])
        assert pages == PAGES
        assert exchanges == EXCHANGES and own_turns, (answers, own_turns, [f.get("v") for f in client.frames])
        assert max(answers) < ANSWER_SECONDS, answers
        assert sampler.peak < RSS_LIMIT_MB, f"worker and children peaked at {sampler.peak:.0f} MB"
        assert "Traceback" not in worker.log, worker.log[-3000:]
