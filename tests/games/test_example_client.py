"""docs/examples/client.py, run as it is (a subprocess) against a real daphne
and the real worker: it gets a guest token, plays a table against a bot to
the end, and the server's database records the game as ended."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from tests.games.live_helpers import ServerDB, Worker, assert_clean_logs
from tests.servers import ROOT, DaphneServer

CLIENT = ROOT / "docs" / "examples" / "client.py"


@pytest.mark.parametrize("game, limits", [
    ("quatre-en-ligne", {}),
    ("rampants-sauteurs", {}),
    # A server that allows one message a second (the 20 s window shortened): the fast bot takes
    # the script past it at nearly every move; the script waits out each `rate_limited`
    # (retry_after) and acts again (it used to answer every refusal with a sync at once, which
    # was refused in turn, for ever; then a sync after the wait, which took the freed slot, so
    # that the move was refused again: with a limit this tight, for ever too).
    ("quatre-en-ligne", {"LUDO_WS_RATE_LIMIT": "1", "LUDO_WS_PERSON_RATE_LIMIT": "2", "LUDO_WS_RATE_WINDOW_MS": "1000"}),
], ids=["quatre-en-ligne", "rampants-sauteurs", "tight-rate-limit"])
def test_the_example_client_plays_a_game_against_a_bot_to_the_end(server_env, game, limits):
    env = dict(server_env, LUDO_BOT_THINK_MS="50", **limits)
    if not env.get("REDIS_URL"):
        # The embedded stack has no wake-ups: each bot move waits for the worker's and
        # the socket's polls (250 ms, 500 ms), most of a long game's time.
        env.update(LUDO_TABLE_POLL_MS="100", LUDO_WORKER_POLL_MS="50")
    with DaphneServer(env) as server, Worker(env) as worker:
        run = subprocess.run(
            [sys.executable, str(CLIENT), "--server", server.origin, "--game", game, "--name", "Script", "--seed", "7"],
            cwd=ROOT / "docs", capture_output=True, text=True, timeout=300,
        )
        assert run.returncode == 0, run.stdout + run.stderr
        if limits:
            assert "rate_limited" in run.stderr  # the limit was met, and ridden out
        table_id = int(re.match(r"table (\d+):", run.stdout).group(1))
        db = ServerDB(env["DATABASE_URL"])
        table = db.table(table_id)
        assert table["game"] == game and table["status"] == "finished" and table["outcome"] is not None
        assert f"table {table_id} ({game}) finished at v{table['version']}" in run.stdout
        moves = [action for action in db.actions(table_id) if action[2] == "move"]
        assert {seat for _, seat, _, _ in moves} == {0, 1}  # the script and the bot both played
        (seat,) = db.rows('SELECT guest_key, name FROM games_seat WHERE table_id = ? AND "index" = 0', table_id)
        assert seat[0].startswith("t:") and seat[1] == "Script"  # a token guest, not a session
        (count,) = db.rows("SELECT count(*) FROM tokens_guesttoken WHERE guest_key = ?", seat[0])
        assert count == (1,)
    assert_clean_logs(server, worker)
