"""The arena (lichess's format): for a fixed time, whoever has finished a game
is paired again at once with someone waiting, of a close score
(tournaments.pairing.arena). Each pass of the worker that pairs players makes
one wave (a Round row); a player waits for the next pass at most, except two
players left alone who have just met: they meet again only after both have
waited REMATCH_AFTER seconds (unless someone else finishes meanwhile). At the
end time nobody is paired any more; the tournament ends when the last table
does."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import IntegrityError
from django.db import transaction as db_transaction
from django.utils import timezone

from tournaments.errors import TournamentError
from tournaments.models import Entrant, Pairing, PairingSeat, Round, Tournament
from tournaments.pairing import arena
from tournaments.services.common import bump, lock, transaction
from tournaments.services.seating import open_table

REMATCH_AFTER = 10.0  # seconds


def games_of(tournament: Tournament) -> dict[int, list[PairingSeat]]:
    """Each entrant's seats at recorded tables, in order of play, with the other seats known."""
    out: dict[int, list[PairingSeat]] = {}
    for seat in (PairingSeat.objects.filter(round__tournament=tournament, pairing__bye=False,
                                            pairing__recorded_at__isnull=False)
                 .select_related("pairing").order_by("round__number", "pairing__board")):
        out.setdefault(seat.entrant_id, []).append(seat)
    return out


@transaction
def pair_arena(tournament_id: Any, now: datetime | None = None) -> int:
    """The worker's step: pair whoever waits (or end the arena). Returns the games started."""
    now = now or timezone.now()
    tournament = lock(tournament_id)
    if tournament.format != Tournament.Format.ARENA or tournament.status != Tournament.Status.RUNNING:
        return 0
    busy = set(PairingSeat.objects.filter(round__tournament=tournament, pairing__recorded_at__isnull=True)
               .values_list("entrant_id", flat=True))
    if tournament.ends_at is not None and now >= tournament.ends_at:
        if not busy:
            from tournaments.services.rounds import finish

            finish(tournament, now)
        return 0
    entrants = {e.pk: e for e in tournament.entrants.filter(status=Entrant.Status.ACTIVE)}
    free = [pk for pk in entrants if pk not in busy]
    if len(free) < 2:
        return 0
    played = games_of(tournament)
    opponents = {seat.pairing_id: [] for seats in played.values() for seat in seats}
    for seats in played.values():
        for seat in seats:
            opponents[seat.pairing_id].append(seat.entrant_id)
    waiting = []
    for pk in free:
        mine = played.get(pk, [])
        last = mine[-1] if mine else None
        since = (last.pairing.recorded_at if last else tournament.started_at) or now
        waiting.append(arena.Waiting(
            id=pk, points=arena.score((s.points or 0.0, s.berserk) for s in mine).total,
            rating=entrants[pk].rating or arena.DEFAULT_RATING,
            waiting_since=(since - tournament.started_at).total_seconds() if tournament.started_at else 0.0,
            last_opponent=next((o for o in opponents[last.pairing_id] if o != pk), None) if last else None,
            firsts=sum(1 for s in mine if s.seat == 0), games=len(mine)))
    elapsed = (now - tournament.started_at).total_seconds() if tournament.started_at else 0.0
    games = arena.pair_waiting(waiting, now=elapsed, rematch_after=REMATCH_AFTER)
    if not games:
        return 0
    number = tournament.current_round + 1
    try:
        with db_transaction.atomic():
            rnd = Round.objects.create(tournament=tournament, number=number)
    except IntegrityError:
        raise TournamentError("already_paired") from None
    for board, game in enumerate(games, 1):
        players = [entrants[p] for p in game]
        pairing = Pairing.objects.create(round=rnd, board=board, table=open_table(tournament, players))
        PairingSeat.objects.bulk_create(PairingSeat(pairing=pairing, round=rnd, entrant=e, seat=i)
                                        for i, e in enumerate(players))
    tournament.current_round = number
    bump(tournament, "current_round")
    return len(games)


def standings(tournament: Tournament) -> list[tuple[Entrant, int, float | None, int]]:
    """(entrant, points, performance, games), best first: points, then performance."""
    played = games_of(tournament)
    entrants = {e.pk: e for e in tournament.entrants.all()}
    pairing_seats: dict[int, list[PairingSeat]] = {}
    for seats in played.values():
        for seat in seats:
            pairing_seats.setdefault(seat.pairing_id, []).append(seat)
    rows = []
    for pk, entrant in entrants.items():
        mine = played.get(pk, [])
        points = arena.score((s.points or 0.0, s.berserk) for s in mine).total
        perf = arena.performance(
            (s.points or 0.0, next((entrants[o.entrant_id].rating or arena.DEFAULT_RATING
                                    for o in pairing_seats[s.pairing_id] if o.entrant_id != pk),
                                   arena.DEFAULT_RATING)) for s in mine)
        rows.append((entrant, points, perf, len(mine)))
    rows.sort(key=lambda r: (-r[1], -(r[2] if r[2] is not None else -1e9), r[0].pk))
    return rows
