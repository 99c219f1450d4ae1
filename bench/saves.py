"""How big a stored game and a seat's view are, and what saving and loading cost, as a game grows.

    .venv/bin/python bench/saves.py [--engine SLUG] [--plies 100,500,2000] [--repeat 200]

For every registered engine (Drekki at 3 players) a seeded random game is
played, each ply choosing among the moves that do not end the game when there
is one (so that a game lasts; Drekki ends after its 13 rounds whatever the
moves). At each of the given plies it prints:

- the size of the stored game (``json.dumps(rules.dump(state))``) and of seat
  0's view, in bytes;
- ``save``: ``rules.dump`` and ``json.dumps`` of the state just played, the way
  the server stores it after each move (a state fresh from ``play``: nothing
  memoised from an earlier dump);
- ``load``: ``json.loads`` and ``rules.load`` of that text, as a process that
  does not hold the table reads it (a cold load);
- ``save+load``: their sum, in CPU time (time.process_time), median of the
  repeats, each repeat on a state freshly played from the one before;
- ``game total``: the sum over every ply up to there of save+load at that ply,
  estimated from the measured plies (linear interpolation): what a whole game
  costs in saves and loads.

Not a test: numbers depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from dataclasses import dataclass
from typing import Any

from games import engines
from games.engines.base import Rules

PLAYERS = {"drekki": 3}


@dataclass
class Sample:
    ply: int
    save_bytes: int
    view_bytes: int
    save_us: float
    load_us: float


def lasting_move(rules: Rules, state: Any, seat: int, rng: random.Random) -> str:
    """A random move of ``seat`` that does not end the game, if it has one."""
    moves = rules.legal_moves(state, seat)
    rng.shuffle(moves)
    for move in moves[:8]:
        if rules.outcome(rules.play(state, seat, move)) is None:
            return move
    return moves[0]


def step(rules: Rules, state: Any, rng: random.Random) -> Any:
    acting = rules.to_act(state)
    seat = acting[0] if len(acting) == 1 else rng.choice(acting)
    return rules.play(state, seat, lasting_move(rules, state, seat, rng))


def measure(rules: Rules, state: Any, repeat: int, rng: random.Random) -> tuple[float, float]:
    """Median CPU microseconds of a save and of a cold load around ``state``.

    Each repeat plays one more move from ``state`` (on a copy loaded from its
    dump, so that nothing is shared with the previous repeat), then times the
    save of that new state and the load of what was saved.
    """
    base = json.dumps(rules.dump(state))
    saves, loads = [], []
    for _ in range(repeat):
        before = rules.load(json.loads(base))
        # A finished game is saved and loaded as it is (nothing memoised: freshly loaded).
        fresh = before if rules.outcome(before) is not None else step(rules, before, rng)
        t0 = time.process_time()
        text = json.dumps(rules.dump(fresh))
        t1 = time.process_time()
        rules.load(json.loads(text))
        t2 = time.process_time()
        saves.append(t1 - t0)
        loads.append(t2 - t1)
    return statistics.median(saves) * 1e6, statistics.median(loads) * 1e6


def run(rules: Rules, plies: list[int], repeat: int, seed: int) -> list[Sample]:
    players = PLAYERS.get(rules.slug, 2)
    rng = random.Random(seed)
    state = rules.new_game(players, seed=seed)
    samples = []
    ply = 0
    for target in plies:
        while ply < target and rules.outcome(state) is None:
            state = step(rules, state, rng)
            ply += 1
        if ply < target:
            break  # the game ended first (Drekki's 13 rounds)
        save_us, load_us = measure(rules, state, repeat, random.Random(seed + ply))
        view = json.dumps(rules.view(state, 0))
        samples.append(Sample(ply, len(json.dumps(rules.dump(state))), len(view), save_us, load_us))
    if rules.outcome(state) is not None and (not samples or samples[-1].ply != ply):
        save_us, load_us = measure(rules, state, repeat, random.Random(seed))
        view = json.dumps(rules.view(state, 0))
        samples.append(Sample(ply, len(json.dumps(rules.dump(state))), len(view), save_us, load_us))
    return samples


def game_total_ms(samples: list[Sample]) -> list[float]:
    """Estimated save+load over a whole game up to each sample's ply (trapezoids from ply 0)."""
    totals, total, last_ply, last_cost = [], 0.0, 0, samples[0].save_us + samples[0].load_us if samples else 0
    for s in samples:
        cost = s.save_us + s.load_us
        total += (s.ply - last_ply) * (cost + last_cost) / 2
        totals.append(total / 1000)
        last_ply, last_cost = s.ply, cost
    return totals


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", action="append", help="only this engine (repeatable)")
    parser.add_argument("--plies", default="100,500,2000", help="plies at which to measure")
    parser.add_argument("--repeat", type=int, default=100, help="saves and loads timed at each ply")
    parser.add_argument("--seed", type=int, default=28)
    args = parser.parse_args(argv)
    plies = sorted(int(p) for p in args.plies.split(","))
    chosen = engines.all() if not args.engine else [engines.get(slug) for slug in args.engine]
    header = ("game", "ply", "save B", "view B", "save us", "load us", "save+load us", "game total ms")
    print("  ".join(f"{h:>13}" for h in header))
    for rules in chosen:
        print(f"measuring {rules.slug}...", file=sys.stderr)
        samples = run(rules, plies, args.repeat, args.seed)
        for s, total in zip(samples, game_total_ms(samples), strict=True):
            row = (rules.slug, s.ply, s.save_bytes, s.view_bytes, f"{s.save_us:.0f}", f"{s.load_us:.0f}",
                   f"{s.save_us + s.load_us:.0f}", f"{total:.0f}")
            print("  ".join(f"{x:>13}" for x in row))
    return 0


if __name__ == "__main__":
    sys.exit(main())
