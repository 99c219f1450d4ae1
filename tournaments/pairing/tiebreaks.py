"""Standings: score, then the tie-breaks, in a documented order.

Orders (docs/tournaments.md says why):

- Swiss: score, Buchholz, Sonneborn-Berger, direct encounter.
- Round robin: score, direct encounter, Sonneborn-Berger (Buchholz tells
  nothing in a complete round robin: it is everyone's total minus their own).
- Arena: points, then performance (``tournaments.pairing.arena``).

Definitions (FIDE Handbook, tie-break regulations, for two-player games; a
game of more players counts the mean of its opponents):

- Buchholz: the sum of the opponents' scores. In a Swiss, an opponent's
  unplayed rounds (byes, rounds sat out) count as draws. A player's own bye counts as a game
  against a virtual opponent whose score is the player's own score before
  the round, plus what the bye did not give them (1 - the bye's points),
  plus half a point for each round after it (Swiss only).
- Sonneborn-Berger: the sum, over the games, of the points scored in the
  game times the opponent's score (as above).
- Direct encounter: among players tied on everything before it, the points
  each scored in the games between them, applied only when every pair of
  them has met (else it leaves them tied).

Players tied on every key share a place (``Standing.place``, ``tied``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from tournaments.pairing.types import Game, Player, PlayerId, Round

SWISS, ROUND_ROBIN = "swiss", "roundrobin"
ORDERS = {
    SWISS: ("score", "buchholz", "sonneborn_berger", "direct"),
    ROUND_ROBIN: ("score", "direct", "sonneborn_berger"),
}


@dataclass(frozen=True)
class Standing:
    id: PlayerId
    place: int
    tied: bool
    score: float
    buchholz: float
    sonneborn_berger: float
    direct: float
    games: int
    wins: int


def _finished(rounds: Sequence[Round]) -> list[tuple[int, list[Game], dict[PlayerId, float], set[PlayerId]]]:
    """Per round: its finished games, its byes' points, and who sat at a game
    (finished or not: a game in play is not an unplayed round)."""
    return [(i, [g for g in r.games if g.finished], {b.player: b.points for b in r.byes},
             {p for g in r.games for p in g.players}) for i, r in enumerate(rounds)]


def standings(players: Sequence[Player], rounds: Sequence[Round], system: str = SWISS) -> list[Standing]:
    """Everyone in ``players``, best first, by ``ORDERS[system]``."""
    if system not in ORDERS:
        raise ValueError(f"unknown system {system!r}")
    ids = [p.id for p in players]
    rank = {p.id: p.rank for p in players}
    played = _finished(rounds)
    n_rounds = len(rounds)
    score = dict.fromkeys(ids, 0.0)
    played_points = dict.fromkeys(ids, 0.0)
    games_of: dict[PlayerId, list[tuple[float, list[PlayerId]]]] = {p: [] for p in ids}
    unplayed = dict.fromkeys(ids, 0)
    byes_of: dict[PlayerId, list[tuple[int, float, float]]] = {p: [] for p in ids}  # (round, points, before)
    wins = dict.fromkeys(ids, 0)
    for index, games, byes, seated in played:
        for g in games:
            for p in g.players:
                if p not in score:
                    continue
                pts = g.points_of(p)
                score[p] += pts
                played_points[p] += pts
                games_of[p].append((pts, [q for q in g.players if q != p]))
                wins[p] += pts == max(g.points or (0,)) and pts > min(g.points or (0,))
        for p in ids:
            if p in byes:
                byes_of[p].append((index, byes[p], score[p]))
                score[p] += byes[p]
            if p not in seated:
                unplayed[p] += 1
    # A Swiss counts an opponent's unplayed rounds as draws; a round robin's
    # rounds off are the schedule's (everyone sits out once): scores as they are.
    adjusted = {p: (played_points[p] + 0.5 * unplayed[p]) if system == SWISS else score[p] for p in ids}

    def opp_score(opponents: list[PlayerId]) -> float:
        known = [adjusted[q] for q in opponents if q in adjusted]
        return sum(known) / len(known) if known else 0.0

    buchholz, sb = {}, {}
    for p in ids:
        b = s = 0.0
        for pts, opponents in games_of[p]:
            o = opp_score(opponents)
            b += o
            s += pts * o
        if system == SWISS:
            for index, pts, before in byes_of[p]:
                virtual = before + (1.0 - pts) + 0.5 * (n_rounds - index - 1)
                b += virtual
                s += pts * virtual
        buchholz[p], sb[p] = b, s
    direct = dict.fromkeys(ids, 0.0)
    values = {"score": score, "buchholz": buchholz, "sonneborn_berger": sb, "direct": direct}
    order = ORDERS[system]
    # Direct encounter is decided within the groups tied on the keys before it.
    before_direct = order[: order.index("direct")]
    groups: dict[tuple, list[PlayerId]] = {}
    for p in ids:
        groups.setdefault(tuple(round(values[k][p], 6) for k in before_direct), []).append(p)
    for group in groups.values():
        if len(group) > 1:
            direct.update(_direct(group, played))
    key = {p: tuple(-round(values[k][p], 6) for k in order) for p in ids}
    ordered = sorted(ids, key=lambda p: (key[p], rank[p]))
    out = []
    for p in ordered:
        first = next(j for j, q in enumerate(ordered) if key[q] == key[p])
        tied = sum(1 for q in ordered if key[q] == key[p]) > 1
        out.append(Standing(p, first + 1, tied, score[p], buchholz[p], sb[p], direct[p],
                            len(games_of[p]), wins[p]))
    return out


def _direct(group: list[PlayerId], played) -> dict[PlayerId, float]:
    members = set(group)
    points = dict.fromkeys(group, 0.0)
    pairs_met: set[frozenset] = set()
    for _index, games, _byes, _seated in played:
        for g in games:
            if len(g.players) != 2 or not set(g.players) <= members:
                continue
            pairs_met.add(frozenset(g.players))
            for p in g.players:
                points[p] += g.points_of(p)
    if any(frozenset(pair) not in pairs_met for pair in combinations(group, 2)):
        return dict.fromkeys(group, 0.0)
    return points
