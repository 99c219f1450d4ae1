"""What the past rounds say about each player: score, opponents, colours, byes."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from tournaments.pairing.types import PlayerId, Round

WHITE, BLACK = "W", "B"  # first and second player of a two-player game


@dataclass
class Record:
    score: float = 0.0
    opponents: list[PlayerId] = field(default_factory=list)  # every game's other players, in order
    colours: list[str] = field(default_factory=list)  # two-player games only: W (moved first) / B
    seats: list[int] = field(default_factory=list)  # seat index in every game (multi-table Swiss)
    byes: int = 0
    unplayed: int = 0  # rounds without a game (byes, rounds sat out)

    @property
    def colour_difference(self) -> int:
        return self.colours.count(WHITE) - self.colours.count(BLACK)

    def colour_preference(self) -> tuple[str | None, int]:
        """FIDE's colour preference (C.04.3, A.6): the colour wanted and how
        much: 3 absolute (difference beyond 1, or the same colour twice in a
        row), 2 strong (difference of one), 1 mild (alternate), 0 none."""
        if not self.colours:
            return None, 0
        cd = self.colour_difference
        last_two = self.colours[-2:]
        if cd > 1 or (len(last_two) == 2 and last_two == [WHITE, WHITE]):
            return BLACK, 3
        if cd < -1 or (len(last_two) == 2 and last_two == [BLACK, BLACK]):
            return WHITE, 3
        if cd == 1:
            return BLACK, 2
        if cd == -1:
            return WHITE, 2
        return (BLACK if self.colours[-1] == WHITE else WHITE), 1


def records(players: Iterable[PlayerId], rounds: Sequence[Round]) -> dict[PlayerId, Record]:
    """Each player's record after ``rounds`` (unfinished games count no points)."""
    out = {p: Record() for p in players}
    for rnd in rounds:
        present: set[PlayerId] = set()
        for game in rnd.games:
            two = len(game.players) == 2
            for seat, p in enumerate(game.players):
                rec = out.setdefault(p, Record())
                present.add(p)
                rec.score += game.points_of(p)
                rec.opponents.extend(q for q in game.players if q != p)
                rec.seats.append(seat)
                if two:
                    rec.colours.append(WHITE if seat == 0 else BLACK)
        for bye in rnd.byes:
            rec = out.setdefault(bye.player, Record())
            present.add(bye.player)
            rec.score += bye.points
            rec.unplayed += 1
            if bye.points > 0:
                rec.byes += 1
        for p, rec in out.items():
            if p not in present:
                rec.unplayed += 1  # not in the tournament yet, or paused
    return out


def met(a: PlayerId, b: PlayerId, recs: dict[PlayerId, Record]) -> bool:
    return b in recs[a].opponents
