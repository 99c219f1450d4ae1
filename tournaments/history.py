"""The rows of a tournament as the pure pairing code's values, and its standings."""

from __future__ import annotations

from dataclasses import dataclass

from tournaments.models import Entrant, Pairing, PairingSeat, Tournament
from tournaments.pairing import tiebreaks
from tournaments.pairing.types import Bye, Game, Player, Round

BYE_POINTS = 1.0


@dataclass(frozen=True)
class Row:
    """One line of the standings, ready for a page."""

    entrant: Entrant
    place: int
    tied: bool
    score: float
    buchholz: float
    sonneborn_berger: float
    direct: float
    games: int
    wins: int
    performance: float | None = None  # arena only


def players(entrants: list[Entrant]) -> list[Player]:
    return [Player(e.pk, e.rank or 10_000 + e.pk, e.rating) for e in entrants]


def rounds(tournament: Tournament) -> list[Round]:
    """Every round so far: games in seat order (points once recorded), byes with their points."""
    seats = (PairingSeat.objects.filter(pairing__round__tournament=tournament)
             .select_related("pairing__round").order_by("pairing__round__number", "pairing__board", "seat"))
    by_pairing: dict[int, list[PairingSeat]] = {}
    numbers: dict[int, int] = {}
    pairings: dict[int, Pairing] = {}
    for s in seats:
        by_pairing.setdefault(s.pairing_id, []).append(s)
        numbers[s.pairing_id] = s.pairing.round.number
        pairings[s.pairing_id] = s.pairing
    out: dict[int, tuple[list[Game], list[Bye]]] = {n: ([], []) for n in range(1, tournament.current_round + 1)}
    for pk, rows in by_pairing.items():
        games, byes = out.setdefault(numbers[pk], ([], []))
        if pairings[pk].bye:
            byes.extend(Bye(r.entrant_id, BYE_POINTS if r.points is None else r.points) for r in rows)
            continue
        done = all(r.points is not None for r in rows)
        games.append(Game(tuple(r.entrant_id for r in rows),
                          tuple(r.points for r in rows) if done else None))
    return [Round(tuple(out[n][0]), tuple(out[n][1])) for n in sorted(out)]


def standings(tournament: Tournament) -> list[Row]:
    if tournament.format == Tournament.Format.ARENA:
        from tournaments.services import arena

        rows, place = [], 0
        for i, (entrant, points, perf, games) in enumerate(arena.standings(tournament)):
            if not rows or (points, perf) != (rows[-1].score, rows[-1].performance):
                place = i + 1
            rows.append(Row(entrant, place, False, points, 0.0, 0.0, 0.0, games, 0, perf))
        return rows
    entrants = list(tournament.entrants.all())
    system = tiebreaks.SWISS if tournament.format == Tournament.Format.SWISS else tiebreaks.ROUND_ROBIN
    by_id = {e.pk: e for e in entrants}
    return [Row(by_id[s.id], s.place, s.tied, s.score, s.buchholz, s.sonneborn_berger, s.direct, s.games, s.wins)
            for s in tiebreaks.standings(players(entrants), rounds(tournament), system)]
