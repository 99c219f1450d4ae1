"""Rounds: the start, pairing each round, recording finished tables, the end.

A round is paired when every table of the one before has a result and the
pause between rounds has run out (``Tournament.next_round_at``, which the
worker watches: tournaments.jobs), or at once when a host presses "next
round". Either way it happens under the tournament's lock, and the round's
row is unique per number: two hosts pressing at once make one round; the
other gets ``already_paired``.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db import IntegrityError
from django.db import transaction as db_transaction
from django.utils import timezone

from games.models import Table
from games.ratings.models import Rating
from games.services.who import Who
from tournaments import history
from tournaments.errors import TournamentError
from tournaments.models import Entrant, Pairing, PairingSeat, Round, Tournament
from tournaments.pairing import roundrobin, swiss, tables
from tournaments.pairing.types import PairingError, Plan
from tournaments.results import points_from_outcome
from tournaments.services.common import bump, check_host, lock, transaction
from tournaments.services.seating import open_table

ENDED = (Table.Status.FINISHED, Table.Status.ABORTED)


def total_rounds(tournament: Tournament, entrants: int) -> int:
    if tournament.format == Tournament.Format.ROUND_ROBIN:
        return roundrobin.rounds_needed(entrants)
    return tournament.rounds


@transaction
def start(tournament_id: Any, who: Who, now: datetime | None = None) -> Round:
    """Close the entries, give pairing numbers (rating for the game, then
    order of entry) and pair round one."""
    tournament = lock(tournament_id)
    check_host(who)
    if tournament.status != Tournament.Status.OPEN:
        raise TournamentError("over" if tournament.is_over else "already_started")
    entrants = list(tournament.entrants.filter(status=Entrant.Status.ACTIVE).order_by("joined_at", "pk"))
    need = tournament.min_table if tournament.multi_table else 2
    if len(entrants) < need:
        raise TournamentError("too_few_players")
    if tournament.format == Tournament.Format.ROUND_ROBIN and len(entrants) > roundrobin.MAX_PLAYERS:
        raise TournamentError("full")
    ratings = dict(Rating.objects.filter(game=tournament.game, user_id__in=[e.user_id for e in entrants if e.user_id])
                   .values_list("user_id", "rating"))
    for e in entrants:
        e.rating = ratings.get(e.user_id)
    order = sorted(range(len(entrants)), key=lambda i: (-(entrants[i].rating or 0), i))
    for number, i in enumerate(order, 1):
        entrants[i].rank = number
    Entrant.objects.bulk_update(entrants, ["rank", "rating"])
    now = now or timezone.now()
    tournament.status = Tournament.Status.RUNNING
    tournament.started_at = now
    if tournament.format == Tournament.Format.ARENA:
        from tournaments.services.arena import pair_arena

        tournament.ends_at = now + timedelta(minutes=tournament.duration)
        bump(tournament, "status", "started_at", "ends_at")
        pair_arena(tournament.pk, now)
        return tournament.round_set.order_by("-number").first()
    bump(tournament, "status", "started_at")
    return _pair(tournament, now)


@transaction
def next_round(tournament_id: Any, who: Who, seen_round: int | None = None) -> Round | None:
    """A host's "next round": pairs it now (the pause skipped) once every table
    of the current round has a result. ``seen_round``: the round the host's
    page showed; if another host paired it meanwhile, ``already_paired``."""
    tournament = lock(tournament_id)
    check_host(who)
    if seen_round is not None and seen_round != tournament.current_round:
        raise TournamentError("already_paired")
    return _advance(tournament, timezone.now(), forced=True)


@transaction
def advance(tournament_id: Any, now: datetime | None = None) -> Round | None:
    """The worker's step: the next round (or the end) once its time has come."""
    tournament = lock(tournament_id)
    now = now or timezone.now()
    if tournament.next_round_at is None or tournament.next_round_at > now:
        return None
    return _advance(tournament, now, forced=False)


def _advance(tournament: Tournament, now: datetime, forced: bool) -> Round | None:
    if tournament.status != Tournament.Status.RUNNING:
        raise TournamentError("over" if tournament.is_over else "not_running")
    if tournament.format == Tournament.Format.ARENA:
        raise TournamentError("bad_format")  # an arena pairs whoever waits (tournaments.services.arena)
    if Pairing.objects.filter(round__tournament=tournament, recorded_at__isnull=True).exists():
        raise TournamentError("round_not_over")
    active = tournament.entrants.filter(status=Entrant.Status.ACTIVE).count()
    started = tournament.entrants.filter(rank__isnull=False).count()
    need = tournament.min_table if tournament.multi_table else 2
    if tournament.current_round >= total_rounds(tournament, started) or active < need:
        finish(tournament, now)
        return None
    return _pair(tournament, now)


def _plan(tournament: Tournament, number: int) -> tuple[Plan, dict[int, Entrant], tuple[int, ...]]:
    """The pure pairing's plan for round ``number``, the entrants by id, and
    the players who win by forfeit (round robin)."""
    entrants = {e.pk: e for e in tournament.entrants.all()}
    active = [e for e in entrants.values() if e.status == Entrant.Status.ACTIVE]
    past = history.rounds(tournament)
    if tournament.format == Tournament.Format.ROUND_ROBIN:
        # The Berger schedule of everyone who started; a game whose opponent
        # left or paused is a win by forfeit (a bye worth a win) for the one present.
        plan = roundrobin.pair_round(history.players([e for e in entrants.values() if e.rank]), number)
        present = {e.pk for e in active}
        games = tuple(g for g in plan.games if all(p in present for p in g))
        forfeits = tuple(p for g in plan.games if g not in games for p in g if p in present)
        return Plan(games, tuple(p for p in plan.byes if p in present)), entrants, forfeits
    if tournament.multi_table:
        plan = tables.pair_tables(history.players(active), past, min_size=tournament.min_table,
                                  max_size=tournament.max_table, size=tournament.table_size)
    else:
        plan = swiss.pair_swiss(history.players(active), past)
    return plan, entrants, ()


def _pair(tournament: Tournament, now: datetime) -> Round:
    number = tournament.current_round + 1
    try:
        plan, entrants, forfeits = _plan(tournament, number)
    except PairingError as exc:
        raise TournamentError("too_few_players", str(exc)) from None
    try:
        with db_transaction.atomic():
            rnd = Round.objects.create(tournament=tournament, number=number, notes=list(plan.notes))
    except IntegrityError:
        raise TournamentError("already_paired") from None
    board = 0
    for game in plan.games:
        board += 1
        players = [entrants[p] for p in game]
        table = open_table(tournament, players)
        pairing = Pairing.objects.create(round=rnd, board=board, table=table)
        PairingSeat.objects.bulk_create(PairingSeat(pairing=pairing, round=rnd, entrant=e, seat=i)
                                        for i, e in enumerate(players))
    sit_out = 0.0 if tournament.format == Tournament.Format.ROUND_ROBIN else history.BYE_POINTS
    for pid, points in [(p, sit_out) for p in plan.byes] + [(p, history.BYE_POINTS) for p in forfeits]:
        board += 1
        entrant = entrants[pid]
        table = open_table(tournament, [entrant], tournament.bye_bot) if tournament.bye_bot else None
        pairing = Pairing.objects.create(round=rnd, board=board, bye=True, table=table, recorded_at=now)
        PairingSeat.objects.create(pairing=pairing, round=rnd, entrant=entrant, seat=0, points=points)
    tournament.current_round = number
    tournament.next_round_at = None
    bump(tournament, "current_round", "next_round_at")
    if not plan.games:  # everyone had a bye (a round robin whose opponents all left)
        _round_over(tournament, rnd, now)
    return rnd


@transaction
def record_result(pairing_id: Any, now: datetime | None = None) -> bool:
    """Record a finished table's result (the worker's step; run again, it
    changes nothing). True if it recorded one."""
    now = now or timezone.now()
    tournament_id = (Pairing.objects.filter(pk=pairing_id).values_list("round__tournament_id", flat=True).first())
    if tournament_id is None:
        return False
    tournament = lock(tournament_id)
    pairing = Pairing.objects.select_related("table", "round").get(pk=pairing_id)
    if pairing.recorded_at is not None or pairing.bye or pairing.table is None:
        return False
    table = pairing.table
    if table.status not in ENDED:
        return False
    points = points_from_outcome(table.outcome if table.status == Table.Status.FINISHED else None,
                                 table.seat_count)
    _store(tournament, pairing, points, now)
    return True


def _store(tournament: Tournament, pairing: Pairing, points: tuple[float, ...], now: datetime,
           adjudicated: bool = False) -> None:
    seats = list(pairing.seats.order_by("seat"))
    for seat in seats:
        seat.points = points[seat.seat]
    PairingSeat.objects.bulk_update(seats, ["points"])
    pairing.recorded_at = now
    pairing.adjudicated = adjudicated
    pairing.save(update_fields=["recorded_at", "adjudicated"])
    rnd = pairing.round
    if tournament.format == Tournament.Format.ARENA:
        bump(tournament)  # the worker pairs the players who are free again
    elif rnd.number == tournament.current_round and not rnd.pairings.filter(recorded_at__isnull=True).exists():
        _round_over(tournament, rnd, now)
    else:
        bump(tournament)


def _round_over(tournament: Tournament, rnd: Round, now: datetime) -> None:
    rnd.finished_at = now
    rnd.save(update_fields=["finished_at"])
    tournament.next_round_at = now + timedelta(seconds=tournament.round_pause)
    bump(tournament, "next_round_at")


def finish(tournament: Tournament, now: datetime) -> None:
    """The end: each entrant keeps their final place (profiles show it); the
    worker then logs the games in the play log (tournaments.playlog)."""
    places = []
    for row in history.standings(tournament):
        row.entrant.place = row.place
        places.append(row.entrant)
    Entrant.objects.bulk_update(places, ["place"])
    tournament.status = Tournament.Status.FINISHED
    tournament.finished_at = now
    tournament.next_round_at = None
    tournament.code = None  # a code is a live tournament's only
    bump(tournament, "status", "finished_at", "next_round_at", "code")
