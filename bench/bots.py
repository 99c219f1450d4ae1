"""Bot strength tournaments and the hard level's thinking time.

    .venv/bin/python bench/bots.py [--games N] [--engine SLUG] [--jobs 1|2]
                                   [--iterations N] [--mcts key=value ...] [--markdown]

- Each two-player engine: the hard level's bot (MCTS) against the random bot and
  against the greedy bot, ``--games`` seeded games per pairing (200 by default),
  the hard bot taking seat 0 in even games and seat 1 in odd ones (engines with a
  ``first_player`` option are told that seat 0 starts, so the hard bot starts
  half of the games). Win, draw and loss rates, with a 95% Wilson interval.
- Drekki: 4-player games (300 by default), the hard level's bot (Drekki's own
  search, kind "ismcts") at one seat (a different one each game) against three
  random bots, then against three heuristic bots. Final scores are burns minus
  tears, lower is better: the hard bot's average score, the opponents' average,
  and the margin (opponents' average minus the bot's, per game) with its
  standard deviation and 95% interval. (Result keys keep their old names,
  ``mcts_score`` and so on, whatever the kind.)
- The hard level's seconds per move, as the tables would use it (time budget and
  iteration cap), over positions of games against the random bot: max and p95.

The bot of the tournaments is the game's "hard" level (its kind and settings)
with its time budget, unless ``--iterations`` replaces it with an iteration budget
(reproducible, and what a tournament of hundreds of games on a shared two-core
machine can afford); ``--mcts key=value`` changes other settings of that kind.
Results are printed as each part finishes; ``--json FILE`` also appends them
there, so that a long run can be made in parts.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import statistics
import sys
import time
from collections.abc import Iterable
from typing import Any

from games import bots, engines
from games.engines.base import Rules

DREKKI_PLAYERS = 4


def hard_bot(rules: Rules, iterations: int | None, extra: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The hard level's bot kind for this game and its settings, with the command line's changes."""
    kind, params = bots.level_spec("hard", rules)
    params = dict(params)
    if iterations is not None:
        params.update(iterations=iterations, seconds=None)
    params.update(extra)
    return kind, params


def start_options(rules: Rules) -> dict[str, Any]:
    """Options that make seat 0 start, where the game lets the table choose."""
    for option in rules.options:
        if option.name == "first_player" and "0" in option.choices:
            return {"first_player": "0"}
    return {}


def play_game(rules: Rules, players: list[bots.Bot], seed: Any, options: dict[str, Any]) -> Any:
    state = rules.new_game(len(players), seed=seed, options=options)
    while not rules.is_over(state):
        seat = min(rules.to_act(state))
        view = json.loads(json.dumps(rules.view(state, seat)))
        state = rules.play(state, seat, players[seat].choose(view, seat))
    return rules.outcome(state)


def run_one(job: tuple[str, str, int, dict[str, Any], int, str]) -> dict[str, Any]:
    """One tournament game (runs in a worker process)."""
    slug, rival, game, params, players, kind = job
    rules = engines.get(slug)
    me = game % players
    seed = f"tournament/{slug}/{rival}/{game}"
    seats = [bots.make(rival, rules, (seed, "rival", s)) for s in range(players)]
    seats[me] = bots.make(kind, rules, (seed, "mcts"), **params)
    started = time.perf_counter()
    outcome = play_game(rules, seats, seed, start_options(rules))
    return {
        "me": me,
        "winners": list(outcome.winners),
        "scores": list(outcome.scores),
        "seconds": time.perf_counter() - started,
    }


def wilson(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if not n:
        return (0.0, 1.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def two_player_summary(slug: str, rival: str, games: list[dict[str, Any]], kind: str = "mcts") -> dict[str, Any]:
    n = len(games)
    wins = sum(1 for g in games if g["winners"] == [g["me"]])
    draws = sum(1 for g in games if not g["winners"])
    losses = n - wins - draws
    low, high = wilson(wins, n)
    return {
        "engine": slug, "pairing": f"{kind} vs {rival}", "games": n,
        "wins": wins, "draws": draws, "losses": losses,
        "win_rate": wins / n, "win_low": low, "win_high": high,
        "minutes": sum(g["seconds"] for g in games) / 60,
    }


def drekki_summary(rival: str, games: list[dict[str, Any]], kind: str = "mcts") -> dict[str, Any]:
    mine = [g["scores"][g["me"]] for g in games]
    others = [statistics.fmean(s for i, s in enumerate(g["scores"]) if i != g["me"]) for g in games]
    margins = [o - m for m, o in zip(mine, others)]
    sd = statistics.stdev(margins) if len(margins) > 1 else 0.0
    half = 1.96 * sd / math.sqrt(len(margins))
    wins = sum(1 for g in games if g["me"] in g["winners"])
    mean = statistics.fmean(margins)
    return {
        "engine": "drekki", "pairing": f"{kind} vs 3 {rival}", "games": len(games),
        "mcts_score": statistics.fmean(mine), "mcts_score_sd": statistics.stdev(mine) if len(mine) > 1 else 0.0,
        "rivals_score": statistics.fmean(others), "margin": mean, "margin_sd": sd,
        "margin_low": mean - half, "margin_high": mean + half,
        "mcts_wins": wins, "minutes": sum(g["seconds"] for g in games) / 60,
    }


def think_times(slug: str, moves: int, seed: int) -> dict[str, Any]:
    """Seconds per move of the real hard level against random bots."""
    rules = engines.get(slug)
    players = DREKKI_PLAYERS if slug == "drekki" else 2
    times: list[float] = []
    game = 0
    while len(times) < moves:
        seats = [bots.make("random", rules, (seed, game, s)) for s in range(players)]
        hard = bots.make("hard", rules, (seed, game, "hard"))
        me = game % players
        state = rules.new_game(players, seed=f"think/{slug}/{seed}/{game}", options=start_options(rules))
        while not rules.is_over(state) and len(times) < moves:
            seat = min(rules.to_act(state))
            view = json.loads(json.dumps(rules.view(state, seat)))
            if seat == me:
                started = time.perf_counter()
                move = hard.choose(view, seat)
                times.append(time.perf_counter() - started)
            else:
                move = seats[seat].choose(view, seat)
            state = rules.play(state, seat, move)
        game += 1
    ordered = sorted(times)
    return {
        "engine": slug, "moves": len(times), "mean": statistics.fmean(times),
        "p95": ordered[max(0, math.ceil(0.95 * len(ordered)) - 1)], "max": ordered[-1],
    }


def run_jobs(jobs: list[Any], workers: int) -> list[dict[str, Any]]:
    if workers <= 1:
        return [run_one(job) for job in jobs]
    with multiprocessing.Pool(workers) as pool:
        return list(pool.imap(run_one, jobs, chunksize=1))


def emit(result: dict[str, Any], out: str | None) -> None:
    print(json.dumps(result), flush=True)
    if out:
        with open(out, "a", encoding="utf-8") as handle:
            handle.write(json.dumps(result) + "\n")


def markdown(results: Iterable[dict[str, Any]]) -> str:
    lines = []
    two = [r for r in results if "win_rate" in r]
    if two:
        lines += [
            "| game | pairing | games | wins | draws | losses | win rate (95% CI) |",
            "|---|---|---|---|---|---|---|",
        ]
        for r in two:
            lines.append(
                f"| {r['engine']} | {r['pairing']} | {r['games']} | {r['wins']} | {r['draws']} | {r['losses']} "
                f"| {r['win_rate']:.0%} ({r['win_low']:.0%}–{r['win_high']:.0%}) |"
            )
    drekki = [r for r in results if "margin" in r]
    if drekki:
        lines += [
            "",
            "| pairing | games | bot's avg score (sd) | rivals' avg score | margin (sd) | margin 95% CI | bot's wins |",
            "|---|---|---|---|---|---|---|",
        ]
        for r in drekki:
            lines.append(
                f"| {r['pairing']} | {r['games']} | {r['mcts_score']:.2f} ({r['mcts_score_sd']:.2f}) "
                f"| {r['rivals_score']:.2f} "
                f"| {r['margin']:+.2f} ({r['margin_sd']:.2f}) | {r['margin_low']:+.2f} to {r['margin_high']:+.2f} "
                f"| {r['mcts_wins']} |"
            )
    think = [r for r in results if "p95" in r]
    if think:
        lines += ["", "| game | moves timed | mean s | p95 s | max s |", "|---|---|---|---|---|"]
        for r in think:
            lines.append(f"| {r['engine']} | {r['moves']} | {r['mean']:.2f} | {r['p95']:.2f} | {r['max']:.2f} |")
    return "\n".join(lines)


def parse_extra(pairs: list[str]) -> dict[str, Any]:
    extra = {}
    for pair in pairs:
        key, _, value = pair.partition("=")
        extra[key] = json.loads(value)
    return extra


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, help="games per pairing (default 200; Drekki 300)")
    parser.add_argument("--engine", action="append", help="only this engine (repeatable)")
    parser.add_argument("--rival", action="append", help="only against this bot kind (repeatable)")
    parser.add_argument("--jobs", type=int, default=1, choices=(1, 2), help="worker processes")
    parser.add_argument("--iterations", type=int, help="MCTS iteration budget instead of the hard time budget")
    parser.add_argument("--mcts", action="append", default=[], metavar="KEY=VALUE", help="other settings of the hard level's bot")
    parser.add_argument("--think-moves", type=int, default=40, help="hard-level moves to time per engine (0: skip)")
    parser.add_argument("--no-tournaments", action="store_true")
    parser.add_argument("--json", dest="out", help="also append the results to this file (JSON lines)")
    parser.add_argument("--markdown", action="store_true", help="print Markdown tables at the end")
    args = parser.parse_args(argv)

    extra = parse_extra(args.mcts)
    chosen = engines.all() if not args.engine else [engines.get(slug) for slug in args.engine]
    results = []
    for rules in chosen:
        if not args.no_tournaments:
            drekki = rules.slug == "drekki"
            if not drekki and not rules.min_players <= 2 <= rules.max_players:
                continue
            rivals = ("random", "heuristic") if drekki else ("random", "greedy")
            players = DREKKI_PLAYERS if drekki else 2
            games = args.games or (300 if drekki else 200)
            kind, params = hard_bot(rules, args.iterations, extra)
            for rival in rivals:
                if args.rival and rival not in args.rival:
                    continue
                print(f"# {rules.slug}: {kind} {params} vs {rival}, {games} games", file=sys.stderr, flush=True)
                jobs = [(rules.slug, rival, g, params, players, kind) for g in range(games)]
                played = run_jobs(jobs, args.jobs)
                summary = (
                    drekki_summary(rival, played, kind) if drekki
                    else two_player_summary(rules.slug, rival, played, kind)
                )
                summary["mcts"] = params
                summary["kind"] = kind
                results.append(summary)
                emit(summary, args.out)
        if args.think_moves:
            print(f"# {rules.slug}: timing the hard level", file=sys.stderr, flush=True)
            timing = think_times(rules.slug, args.think_moves, seed=7)
            results.append(timing)
            emit(timing, args.out)
    if args.markdown:
        print()
        print(markdown(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
