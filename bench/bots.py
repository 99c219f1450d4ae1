"""Each bot level against the one below it, and each level's thinking time under load.

    .venv/bin/python bench/bots.py [--games N] [--engine SLUG ...] [--pairing hard-medium|medium-easy ...]
                                   [--budget worst|tables] [--jobs N] [--load N] [--think-moves N]
                                   [--json FILE] [--markdown]

- Tournaments: in every game, the hard level against the medium one, and the
  medium against the easy one, ``--games`` seeded games per pairing, two players
  (Drekki: the duel). The stronger level takes seat 0 in even games and seat 1 in
  odd ones; engines with a ``first_player`` option are told that seat 0 starts,
  so it also starts half of the games (elsewhere the seat or the seed decides).
  A draw counts half. For each pairing: games, wins / draws / losses, the
  stronger level's rate and its 95% Wilson interval, and whether it meets the
  goal: a rate of at least 60% and a lower bound of at least 50%.
- ``--budget worst`` (the default): the stronger level held to its floor, the
  weaker one searching its most (its ``iterations``), both without a clock: the
  worst the ordering can get whatever the load, and reproducible (a seed and the
  node counts fix every move). ``--budget tables``: the levels as the tables run
  them, with their time caps (results then depend on the machine's load).
- Think time: every level's wall-clock seconds per move (what a player waits),
  p50, p99 and max, its CPU seconds per move (p50, p99: what the move costs
  whatever the load; the floor fits the cap when the bot gets at least CPU /
  cap of a core) and its nodes per move (minimum and median), over
  ``--think-moves`` moves of games between two bots of that level, as the tables
  run it (cap and floor).
- ``--load N`` starts N busy processes (a loop each) for the whole run, and the
  load average is printed with the results: the think times of a loaded machine.

Results are printed as each part ends (JSON lines, also appended to ``--json``),
then as Markdown tables with ``--markdown``.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import statistics
import sys
import time
from collections.abc import Iterable
from typing import Any

from games import bots, engines
from games.engines.base import Rules

PAIRINGS = (("hard", "medium"), ("medium", "easy"))
GOAL_RATE = 0.60
GOAL_LOW = 0.50
# A move counts as over its cap when it ends this much after it (the last node runs past it).
LATE = 0.05


# -- the bots of a pairing ----------------------------------------------------------------------


def budgeted(level: str, rules: Rules, role: str, budget: str) -> tuple[str, dict[str, Any]]:
    """The kind and settings ``level`` plays with: ``role`` "strong" (at its floor) or
    "weak" (at its most) with ``budget`` "worst"; as the tables run it with "tables"."""
    kind, params = bots.level_spec(level, rules)
    params = dict(params)
    if budget == "worst" and "floor" in params:
        most = params.get("iterations")
        params.update(iterations=params["floor"] if role == "strong" or most is None else most, seconds=None)
    elif budget == "worst" and "seconds" in params:
        params["seconds"] = None  # the greedy bot: every draw it may take (a perfect-information game: one)
    return kind, params


def start_options(rules: Rules) -> dict[str, Any]:
    """Options that make seat 0 start, where the game lets the table choose."""
    for option in rules.options:
        if option.name == "first_player" and "0" in option.choices:
            return {"first_player": "0"}
    return {}


def view_of(rules: Rules, state: Any, seat: int) -> Any:
    return json.loads(json.dumps(rules.view(state, seat)))


def run_game(job: tuple[str, str, str, str, int]) -> dict[str, Any]:
    """One tournament game (runs in a worker process): the stronger level's result."""
    slug, strong, weak, budget, game = job
    rules = engines.get(slug)
    me = game % 2
    seed = f"levels/{slug}/{strong}-{weak}/{game}"
    seats: list[bots.Bot] = [None, None]  # type: ignore[list-item]
    kind, params = budgeted(strong, rules, "strong", budget)
    seats[me] = bots.make(kind, rules, (seed, "strong"), **params)
    kind, params = budgeted(weak, rules, "weak", budget)
    seats[1 - me] = bots.make(kind, rules, (seed, "weak"), **params)
    started = time.process_time()
    state = rules.new_game(2, seed=seed, options=start_options(rules))
    plies = 0
    while not rules.is_over(state):
        seat = min(rules.to_act(state))
        state = rules.play(state, seat, seats[seat].choose(view_of(rules, state, seat), seat))
        plies += 1
    outcome = rules.outcome(state)
    winners = set(outcome.winners)
    result = 0.5 if not winners or winners == {0, 1} else 1.0 if me in winners else 0.0
    return {"result": result, "plies": plies, "cpu": time.process_time() - started}


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a rate (``successes`` may hold halves: draws)."""
    if not n:
        return (0.0, 1.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def tournament_summary(
    slug: str, strong: str, weak: str, budget: str, games: list[dict[str, Any]]
) -> dict[str, Any]:
    n = len(games)
    wins = sum(1 for g in games if g["result"] == 1.0)
    draws = sum(1 for g in games if g["result"] == 0.5)
    losses = n - wins - draws
    score = wins + draws / 2
    low, high = wilson(score, n)
    rate = score / n if n else 0.0
    return {
        "engine": slug, "pairing": f"{strong} vs {weak}", "budget": budget, "games": n,
        "wins": wins, "draws": draws, "losses": losses, "rate": rate, "low": low, "high": high,
        "goal_met": rate >= GOAL_RATE and low >= GOAL_LOW,
        "plies_median": statistics.median(g["plies"] for g in games) if games else 0,
        "cpu_minutes": sum(g["cpu"] for g in games) / 60,
    }


# -- thinking time --------------------------------------------------------------------------------


def quantile(ordered: list[float], q: float) -> float:
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


def think_times(slug: str, level: str, moves: int) -> dict[str, Any]:
    """Wall seconds and nodes per move of ``level`` as the tables run it, in games against itself."""
    rules = engines.get(slug)
    seconds: list[float] = []
    cpu: list[float] = []
    nodes: list[int] = []
    game = 0
    while len(seconds) < moves:
        seed = f"think/{slug}/{level}/{game}"
        seats = [bots.make(level, rules, (seed, s)) for s in range(2)]
        state = rules.new_game(2, seed=seed, options=start_options(rules))
        while not rules.is_over(state) and len(seconds) < moves:
            seat = min(rules.to_act(state))
            view = view_of(rules, state, seat)
            started, cpu_started = time.perf_counter(), time.process_time()
            move = seats[seat].choose(view, seat)
            spent, cpu_spent = time.perf_counter() - started, time.process_time() - cpu_started
            if len(rules.legal_moves(state, seat)) > 1:  # a forced move asks nothing of the bot
                seconds.append(spent)
                cpu.append(cpu_spent)
                nodes.append(getattr(seats[seat], "last_iterations", 0))
            state = rules.play(state, seat, move)
        game += 1
    ordered = sorted(seconds)
    cpu.sort()
    kind, params = bots.level_spec(level, rules)
    return {
        "engine": slug, "level": level, "kind": kind,
        "cap": params.get("seconds"), "floor": params.get("floor"), "moves": len(seconds),
        "p50": quantile(ordered, 0.5), "p99": quantile(ordered, 0.99), "max": ordered[-1],
        "cpu_p50": quantile(cpu, 0.5), "cpu_p99": quantile(cpu, 0.99),
        "nodes_min": min(nodes), "nodes_median": statistics.median(nodes),
        "over_cap": sum(1 for s in seconds if params.get("seconds") and s > params["seconds"] + LATE),
        "over_table": sum(1 for s in seconds if s > bots.TABLE_SECONDS - bots.APPLY_MARGIN),
    }


# -- a loaded machine -------------------------------------------------------------------------------


def _spin() -> None:
    while True:
        pass


class Load:
    """``busy`` processes that each keep a core busy, for as long as the block lasts."""

    def __init__(self, busy: int) -> None:
        self.busy = busy
        self.processes: list[multiprocessing.Process] = []

    def __enter__(self) -> Load:
        for _ in range(self.busy):
            process = multiprocessing.Process(target=_spin, daemon=True)
            process.start()
            self.processes.append(process)
        return self

    def __exit__(self, *exc: object) -> None:
        for process in self.processes:
            process.terminate()
        for process in self.processes:
            process.join()

    def describe(self) -> dict[str, Any]:
        one, five, _ = os.getloadavg()
        return {"busy_processes": self.busy, "cores": os.cpu_count(), "loadavg_1m": one, "loadavg_5m": five}


# -- output ---------------------------------------------------------------------------------------


def emit(result: dict[str, Any], out: str | None) -> None:
    print(json.dumps(result), flush=True)
    if out:
        with open(out, "a", encoding="utf-8") as handle:
            handle.write(json.dumps(result) + "\n")


def markdown(results: Iterable[dict[str, Any]]) -> str:
    results = list(results)
    lines = []
    matches = [r for r in results if "rate" in r]
    if matches:
        lines += [
            "| game | pairing | budget | games | wins / draws / losses | rate (95% Wilson CI) | goal |",
            "|---|---|---|---|---|---|---|",
        ]
        for r in matches:
            lines.append(
                f"| {r['engine']} | {r['pairing']} | {r['budget']} | {r['games']} "
                f"| {r['wins']} / {r['draws']} / {r['losses']} "
                f"| {r['rate']:.1%} ({r['low']:.1%}–{r['high']:.1%}) "
                f"| {'met' if r['goal_met'] else 'missed'} |"
            )
    think = [r for r in results if "p99" in r]
    if think:
        lines += [
            "",
            "| game | level | cap s | floor | moves | wall p50 s | wall p99 s | wall max s | CPU p50 / p99 s "
            "| nodes min / median | over cap + 50 ms | over 1.5 s |",
            "|---|---|---|---|---|---|---|---|---|---|---|---|",
        ]
        for r in think:
            lines.append(
                f"| {r['engine']} | {r['level']} ({r['kind']}) | {r['cap'] if r['cap'] is not None else '-'} "
                f"| {r['floor'] if r['floor'] is not None else '-'} | {r['moves']} | {r['p50']:.3f} "
                f"| {r['p99']:.3f} | {r['max']:.3f} | {r.get('cpu_p50', 0):.3f} / {r.get('cpu_p99', 0):.3f} "
                f"| {r['nodes_min']} / {r['nodes_median']:g} "
                f"| {r['over_cap']} | {r['over_table']} |"
            )
    loads = [r for r in results if "busy_processes" in r]
    for r in loads:
        lines.append(
            f"\n{r['when']}: {r['busy_processes']} busy processes on {r['cores']} cores, "
            f"load average {r['loadavg_1m']:.2f} (1 min), {r['loadavg_5m']:.2f} (5 min)"
        )
    return "\n".join(lines)


def run_games(jobs: list[Any], workers: int) -> list[dict[str, Any]]:
    """The games' results, in order; a running tally on stderr as they end."""
    played: list[dict[str, Any]] = []
    with multiprocessing.Pool(workers) if workers > 1 else _Serial() as pool:
        for game in pool.imap(run_game, jobs, chunksize=1):
            played.append(game)
            tally = [sum(1 for g in played if g["result"] == r) for r in (1.0, 0.5, 0.0)]
            print(f"#   game {len(played)}/{len(jobs)}: {game['result']:g} in {game['plies']} plies; "
                  f"{tally[0]} / {tally[1]} / {tally[2]}", file=sys.stderr, flush=True)
    return played


class _Serial:
    """The pool's ``imap`` in this process (``--jobs 1``)."""

    def __enter__(self) -> _Serial:
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    def imap(self, function: Any, jobs: list[Any], chunksize: int = 1) -> Iterable[Any]:
        return map(function, jobs)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="games per pairing (default 100)")
    parser.add_argument("--engine", action="append", help="only this engine (repeatable)")
    parser.add_argument("--pairing", action="append", choices=[f"{a}-{b}" for a, b in PAIRINGS],
                        help="only this pairing (repeatable)")
    parser.add_argument("--budget", choices=("worst", "tables"), default="worst",
                        help="worst: stronger at its floor, weaker at its most, no clock; tables: time caps")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes for the games")
    parser.add_argument("--load", type=int, default=0, metavar="N", help="busy processes during the run")
    parser.add_argument("--think-moves", type=int, default=60,
                        help="moves timed per level and engine (0: skip)")
    parser.add_argument("--no-tournaments", action="store_true")
    parser.add_argument("--json", dest="out", help="also append the results to this file (JSON lines)")
    parser.add_argument("--markdown", action="store_true", help="print Markdown tables at the end")
    args = parser.parse_args(argv)

    chosen = engines.all() if not args.engine else [engines.get(slug) for slug in args.engine]
    pairings = [p for p in PAIRINGS if not args.pairing or f"{p[0]}-{p[1]}" in args.pairing]
    results = []
    with Load(args.load) as load:
        for rules in chosen:
            if not rules.min_players <= 2 <= rules.max_players:
                continue
            for strong, weak in [] if args.no_tournaments else pairings:
                print(f"# {rules.slug}: {strong} vs {weak} ({args.budget}), {args.games} games",
                      file=sys.stderr, flush=True)
                jobs = [(rules.slug, strong, weak, args.budget, g) for g in range(args.games)]
                played = run_games(jobs, args.jobs)
                summary = tournament_summary(rules.slug, strong, weak, args.budget, played)
                summary["strong"] = budgeted(strong, rules, "strong", args.budget)
                summary["weak"] = budgeted(weak, rules, "weak", args.budget)
                results.append(summary)
                emit(summary, args.out)
            for level in bots.LEVELS if args.think_moves else ():
                print(f"# {rules.slug}: timing {level}", file=sys.stderr, flush=True)
                timing = think_times(rules.slug, level, args.think_moves)
                results.append(timing)
                emit(timing, args.out)
        described = {"when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), **load.describe()}
        results.append(described)
        emit(described, args.out)
    if args.markdown:
        print()
        print(markdown(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
