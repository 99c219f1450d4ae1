"""A Ludo client in one file: get a guest token, open a table against a bot,
and play it to the end with random legal moves (docs/api.md, docs/protocol.md).

    pip install httpx websockets
    python docs/examples/client.py --server http://127.0.0.1:8000 --game quatre-en-ligne

Exit status: 0 once the game is over (whoever won), 1 when something failed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import time

import httpx
import websockets

PING_EVERY = 20.0  # seconds between two pings, which keep the seat present (docs/api.md, "Playing")
RATE = (90, 20.0)  # at most 90 messages in any 20 s: under the server's 100 (docs/protocol.md, "Limits")


class Pacer:
    """Sends on a socket, never faster than RATE allows (a fast bot would take us past it)."""

    def __init__(self, ws) -> None:
        self.ws = ws
        self.sent: list[float] = []

    async def send(self, message: dict) -> None:
        limit, period = RATE
        self.sent = [at for at in self.sent if at > time.monotonic() - period]
        if len(self.sent) >= limit:
            await asyncio.sleep(self.sent[0] + period - time.monotonic())
            del self.sent[0]
        self.sent.append(time.monotonic())
        await self.ws.send(json.dumps(message))


def get_guest_token(http: httpx.Client, name: str) -> str:
    answer = http.post("/api/guest", json={"name": name})
    if answer.status_code != 201:
        raise SystemExit(f"no guest token: {answer.status_code} {answer.text}")
    return answer.json()["token"]


def create_table(http: httpx.Client, token: str, game: str, level: str) -> dict:
    answer = http.post("/api/tables/quick/", json={"game": game, "level": level},
                       headers={"Authorization": f"Bearer {token}"})
    if answer.status_code != 201:
        raise SystemExit(f"no table: {answer.status_code} {answer.text}")
    return answer.json()


def describe(table: dict) -> str:
    outcome = table.get("outcome") or {}
    winners = outcome.get("winners") or []
    names = [seat["name"] or (f"the {seat['bot']} bot" if seat["bot"] else f"seat {seat['index']}")
             for seat in table["seats"]]
    if table["status"] == "aborted":
        verdict = "aborted"
    elif not winners:
        verdict = "a draw"
    else:
        verdict = "won by " + ", ".join(names[w] for w in winners)
        verdict += " (you won)" if table["seat"] in winners else " (you lost)"
    reason = f", {outcome['reason']}" if outcome.get("reason") else ""
    return f"table {table['table']} ({table['game']}) {table['status']} at v{table['v']}: {verdict}{reason}"


async def play(ws_url: str, token: str, rng: random.Random) -> dict:
    """Play our seat until the table's status is finished or aborted; the last frame."""
    async with websockets.connect(ws_url, additional_headers={"Authorization": f"Bearer {token}"}) as ws:
        out = Pacer(ws)
        await out.send({"t": "hello", "id": "hello"})
        latest: dict | None = None  # the last state/update: the truth we act on
        sent_for = -1  # the version we last sent a move for
        moves = 0
        next_ping = time.monotonic() + PING_EVERY
        while True:
            try:
                frame = json.loads(await asyncio.wait_for(ws.recv(), max(0.1, next_ping - time.monotonic())))
            except asyncio.TimeoutError:
                frame = None
            if time.monotonic() >= next_ping:  # a ping every PING_EVERY s, busy or not
                await out.send({"t": "ping"})
                next_ping = time.monotonic() + PING_EVERY
            if frame is None:
                continue
            kind = frame.get("t")
            if kind in ("state", "update"):
                if latest is None or frame["v"] >= latest["v"]:
                    latest = frame
            elif kind == "error":
                print(f"  refused: {frame['code']}: {frame['message']}", file=sys.stderr)
                if frame["code"] == "stale_version":  # the next update brings the new v
                    continue
                sent_for = -1  # choose again
                if frame["code"] != "rate_limited":  # from a fresh state
                    # No state yet: the hello itself was refused (the table is not open): say it again.
                    await out.send({"t": "sync", "id": "sync"} if latest else {"t": "hello", "id": "hello"})
                    continue
                # Not handled, nothing changed: wait as long as the server says, then act again
                # on what we know (a sync first would take the freed slot, and the move would
                # be refused again, for ever).
                await asyncio.sleep(float(frame.get("retry_after") or 1.0))
                if latest is None:
                    await out.send({"t": "hello", "id": "hello"})
                    continue
            else:  # ack, pong, presence, chat
                continue
            if latest["status"] in ("finished", "aborted"):
                print(f"  {moves} moves played")
                return latest
            if latest["seat"] in latest["to_act"] and latest["legal"] and latest["v"] > sent_for:
                move = rng.choice(latest["legal"])
                sent_for = latest["v"]
                moves += 1
                await out.send({"t": "move", "move": move, "v": latest["v"], "id": f"m{moves}"})


def main() -> int:
    parser = argparse.ArgumentParser(description="Play a game against a Ludo bot with random legal moves.")
    parser.add_argument("--server", default="http://127.0.0.1:8000", help="the site's address")
    parser.add_argument("--game", default="quatre-en-ligne", help="a game's slug (GET /api/games/)")
    parser.add_argument("--level", default="easy", help="the bot's level: easy, medium or hard")
    parser.add_argument("--name", default="Exemple", help="the guest's display name")
    parser.add_argument("--token", help="a personal API token to play as your account (default: a new guest)")
    parser.add_argument("--seed", type=int, help="seed of the random choice of moves")
    args = parser.parse_args()

    server = args.server.rstrip("/")
    with httpx.Client(base_url=server, timeout=20) as http:
        token = args.token or get_guest_token(http, args.name)
        table = create_table(http, token, args.game, args.level)
    print(f"table {table['table']}: {table['game']}, you on seat {table['seat']}, against a bot ({args.level})")
    ws_url = server.replace("http", "ws", 1) + f"/ws/tables/{table['table']}/"
    try:
        final = asyncio.run(play(ws_url, token, random.Random(args.seed)))
    except (OSError, websockets.WebSocketException) as exc:
        print(f"connection failed: {exc!r}", file=sys.stderr)
        return 1
    print(describe(final))
    return 0


if __name__ == "__main__":
    sys.exit(main())
