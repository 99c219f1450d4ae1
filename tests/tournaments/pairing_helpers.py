"""Seeded random tournaments for the pairing tests, and an independent check
(a plain exhaustive search, sharing no code with tournaments.pairing) of
whether a round could have been paired without a repeat."""

from __future__ import annotations

import random

from tournaments.pairing.types import Bye, Game, Player, Round


def players(n: int) -> list[Player]:
    return [Player(i, i) for i in range(1, n + 1)]


def play(plan, rng: random.Random, bye_points: float = 1.0) -> Round:
    """Results for a plan's games: the lower pairing number wins a little more often."""
    games = []
    for table in plan.games:
        if len(table) == 2:
            a, b = table
            edge = 0.08 if a < b else -0.08
            x = rng.random()
            pts = (1.0, 0.0) if x < 0.42 + edge else (0.0, 1.0) if x < 0.84 else (0.5, 0.5)
        else:
            order = list(table)
            rng.shuffle(order)
            pts = tuple((len(table) - 1 - order.index(p)) / (len(table) - 1) for p in table)
        games.append(Game(tuple(table), pts))
    return Round(tuple(games), tuple(Bye(p, bye_points) for p in plan.byes))


def repeat_free_possible(ids: list[int], rounds: list[Round], colour_rule: bool = False) -> bool:
    """Whether ``ids`` (an even count) can be paired with no two meeting again
    (and, with ``colour_rule``, no two who must both have the same colour)."""
    met: dict[int, set[int]] = {p: set() for p in ids}
    colours: dict[int, list[int]] = {p: [] for p in ids}  # +1 first mover, -1 second
    for rnd in rounds:
        for g in rnd.games:
            for seat, p in enumerate(g.players):
                if p in met:
                    met[p].update(q for q in g.players if q != p)
                    colours[p].append(1 if seat == 0 else -1)

    def must(p: int) -> int:
        c = colours[p]
        if sum(c) > 1 or c[-2:] == [1, 1]:
            return -1
        if sum(c) < -1 or c[-2:] == [-1, -1]:
            return 1
        return 0

    def clash(p: int, q: int) -> bool:
        return q in met[p] or (colour_rule and must(p) != 0 and must(p) == must(q))

    def search(left: tuple[int, ...]) -> bool:
        if not left:
            return True
        p, rest = left[0], left[1:]
        return any(search(rest[:i] + rest[i + 1:]) for i, q in enumerate(rest) if not clash(p, q))

    return search(tuple(ids))
