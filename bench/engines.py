"""How fast the engines play, next to python-chess on the same machine.

    .venv/bin/python bench/engines.py [--seconds 3] [--engine SLUG] [--markdown]

For every registered engine (Drekki at 3 and 6 players, the others at 2) it
measures, for a fixed time each, with a fixed seed:

- random playouts through the protocol only: each ply asks ``outcome``,
  ``to_act`` and ``legal_moves`` and plays a random move; plies per second, and
  finished games per second (a playout still going after ``--max-plies`` plies is
  cut and not counted as a game: random Drumlin rarely ends);
- MCTS iterations per second: the "hard" bot, its time budget replaced by the
  measurement's, from positions a few random plies into the game;

and python-chess's random playouts in the same process (``list(board.legal_moves)``,
``push``, ``is_game_over`` each ply), with each engine's plies per second as a
ratio of chess's. Not a test: numbers depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from dataclasses import dataclass

from games import bots, engines
from games.engines.base import Rules

PLAYER_COUNTS = {"drekki": (3, 6)}
MCTS_START_PLIES = (0, 6, 20)


@dataclass
class Row:
    name: str
    players: int | None
    plies: int
    games: int
    cut: int
    seconds: float
    mcts_iterations: int = 0
    mcts_seconds: float = 0.0

    @property
    def plies_per_second(self) -> float:
        return self.plies / self.seconds

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds

    @property
    def mcts_per_second(self) -> float | None:
        return self.mcts_iterations / self.mcts_seconds if self.mcts_seconds else None


def random_playouts(rules: Rules, players: int, seconds: float, seed: int, max_plies: int) -> Row:
    rng = random.Random(seed)
    plies = games = cut = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = rules.new_game(players, seed=seed + games + cut)
        for _ in range(max_plies):
            if rules.outcome(state) is not None:
                games += 1
                break
            acting = rules.to_act(state)
            seat = acting[0] if len(acting) == 1 else rng.choice(acting)
            state = rules.play(state, seat, rng.choice(rules.legal_moves(state, seat)))
            plies += 1
        else:
            cut += 1
    return Row(rules.slug, players, plies, games, cut, time.perf_counter() - start)


def mcts_speed(rules: Rules, players: int, seconds: float, seed: int) -> tuple[int, float]:
    """Iterations and seconds spent by the hard bot over a few early positions."""
    kind, params = bots.level_spec("hard", rules)
    if kind != "mcts":
        kind, params = "mcts", dict(bots.DEFAULT_LEVELS["hard"][1])
    params.update(iterations=None, seconds=seconds / len(MCTS_START_PLIES))
    rng = random.Random(seed)
    iterations = 0
    spent = 0.0
    for start_ply in MCTS_START_PLIES:
        state = rules.new_game(players, seed=seed + start_ply)
        for _ in range(start_ply):
            if rules.is_over(state):
                break
            seat = rng.choice(rules.to_act(state))
            state = rules.play(state, seat, rng.choice(rules.legal_moves(state, seat)))
        # Find a seat with a real choice, so that the bot searches.
        while not rules.is_over(state):
            seat = min(rules.to_act(state))
            if len(rules.legal_moves(state, seat)) > 1:
                break
            state = rules.play(state, seat, rules.legal_moves(state, seat)[0])
        if rules.is_over(state):
            continue
        bot = bots.make(kind, rules, seed, **params)
        bot.choose(rules.view(state, seat), seat)
        iterations += bot.last_iterations
        spent += bot.last_seconds
    return iterations, spent


def chess_playouts(seconds: float, seed: int) -> Row:
    import chess

    rng = random.Random(seed)
    plies = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        board = chess.Board()
        while not board.is_game_over():
            board.push(rng.choice(list(board.legal_moves)))
            plies += 1
        games += 1
    return Row("python-chess", None, plies, games, 0, time.perf_counter() - start)


def table(rows: list[Row], chess_row: Row | None, markdown: bool) -> str:
    header = ["game", "players", "plies/s", "games/s", "plies/game", "cut", "MCTS it/s", "plies/s vs chess"]
    lines = []
    for row in rows + ([chess_row] if chess_row else []):
        per_game = f"{row.plies / row.games:.0f}" if row.games and not row.cut else "-"
        mcts = row.mcts_per_second
        ratio = f"{row.plies_per_second / chess_row.plies_per_second:.2f}x" if chess_row else "-"
        lines.append([
            row.name,
            "-" if row.players is None else str(row.players),
            f"{row.plies_per_second:,.0f}",
            f"{row.games_per_second:,.1f}",
            per_game,
            str(row.cut),
            "-" if mcts is None else f"{mcts:,.0f}",
            ratio,
        ])
    if markdown:
        out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
        out += ["| " + " | ".join(line) + " |" for line in lines]
        return "\n".join(out)
    widths = [max(len(str(x)) for x in column) for column in zip(header, *lines)]
    fmt = "  ".join(f"{{:{'<' if i < 2 else '>'}{w}}}" for i, w in enumerate(widths))
    out = [fmt.format(*header), fmt.format(*("-" * w for w in widths))]
    out += [fmt.format(*line) for line in lines]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="duration of each measurement")
    parser.add_argument("--engine", action="append", help="only this engine (repeatable)")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--max-plies", type=int, default=2000, help="cut a random playout after this many plies")
    parser.add_argument("--no-mcts", action="store_true", help="skip the MCTS measurement")
    parser.add_argument("--no-chess", action="store_true", help="skip python-chess")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    args = parser.parse_args(argv)

    chosen = engines.all() if not args.engine else [engines.get(slug) for slug in args.engine]
    rows = []
    for rules in chosen:
        for players in PLAYER_COUNTS.get(rules.slug, (2,)):
            print(f"measuring {rules.slug} at {players} players...", file=sys.stderr)
            row = random_playouts(rules, players, args.seconds, args.seed, args.max_plies)
            if not args.no_mcts:
                row.mcts_iterations, row.mcts_seconds = mcts_speed(rules, players, args.seconds, args.seed)
            rows.append(row)
    chess_row = None
    if not args.no_chess:
        print("measuring python-chess...", file=sys.stderr)
        chess_row = chess_playouts(args.seconds, args.seed)
    print(
        f"Python {platform.python_version()} on {platform.machine()}, "
        f"{args.seconds:g} s per measurement, seed {args.seed}, random playouts cut at {args.max_plies} plies"
    )
    print()
    print(table(rows, chess_row, args.markdown))
    return 0


if __name__ == "__main__":
    sys.exit(main())
