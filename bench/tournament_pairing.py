"""What pairing one Swiss round costs: 64 players (and 16, 128), round by round.

    .venv/bin/python bench/tournament_pairing.py [--players 64] [--rounds 9] [--repeat 20]

A seeded tournament is played out (results drawn with a slight edge for the
higher pairing number); for each round, ``tournaments.pairing.swiss.pair_swiss``
is timed ``--repeat`` times on the same history and the median CPU time
(``time.process_time``) is printed, with the worst round. The issue asks for
less than 50 ms at 64 players. Not a test: numbers depend on the machine.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.pairing.swiss import pair_swiss  # noqa: E402
from tournaments.pairing.types import Bye, Game, Player, Round  # noqa: E402


def result(a: int, b: int, rng: random.Random) -> tuple[float, float]:
    x = rng.random()
    edge = 0.08 if a < b else -0.08
    return (1.0, 0.0) if x < 0.42 + edge else (0.0, 1.0) if x < 0.84 else (0.5, 0.5)


def run(n: int, rounds: int, repeat: int, seed: int = 1) -> list[float]:
    rng = random.Random(seed)
    field = [Player(i, i) for i in range(1, n + 1)]
    played: list[Round] = []
    per_round = []
    for _ in range(rounds):
        times = []
        for _ in range(repeat):
            start = time.process_time()
            plan = pair_swiss(field, played)
            times.append(time.process_time() - start)
        per_round.append(statistics.median(times))
        played.append(Round(tuple(Game(g, result(*g, rng)) for g in plan.games),
                            tuple(Bye(p) for p in plan.byes)))
    return per_round


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="*", default=[16, 64, 128])
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    for n in args.players:
        per_round = run(n, min(args.rounds, n - 1), args.repeat)
        cells = " ".join(f"{t * 1000:.1f}" for t in per_round)
        print(f"{n:4d} players: ms CPU per round {cells}; worst {max(per_round) * 1000:.1f} ms")


if __name__ == "__main__":
    main()
