"""Entering and leaving a tournament, and pausing in it.

Forfeit rule (docs/tournaments.md): a player who leaves while their game is
in play resigns it (at a two-player table the opponent wins; at a larger one
a bot plays on for the seat, as at any table); their results so far stay,
and they are paired no more. A paused player sits the next rounds out (no
points) until they come back; a game already in play is played on.
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError
from django.db import transaction as db_transaction

from games import services as tables
from games.models import Table
from games.protocol import TableError
from games.services.who import Who
from tournaments.errors import TournamentError
from tournaments.models import Entrant, PairingSeat, Tournament
from tournaments.services.common import bump, entrant_of, lock, person_of, transaction

MAX_ENTRANTS = 64


@transaction
def join(tournament_id: Any, who: Who) -> Entrant:
    who = _current(who)
    tournament = lock(tournament_id)
    if tournament.status != Tournament.Status.OPEN:
        raise TournamentError("over" if tournament.is_over else "already_started")
    if not who.can_sit:
        raise TournamentError("name_required")
    if who.user_id is None and not tournament.guests_allowed:
        raise TournamentError("account_required")
    if entrant_of(tournament, who) is not None:
        raise TournamentError("already_joined")
    if tournament.entrants.exclude(status=Entrant.Status.LEFT).count() >= MAX_ENTRANTS:
        raise TournamentError("full")
    try:
        with db_transaction.atomic():
            entrant = Entrant.objects.create(
                tournament=tournament, user_id=who.user_id,
                guest_key="" if who.user_id is not None else who.guest_key, name=who.name)
    except IntegrityError:  # the same person joining twice at once: one entry
        raise TournamentError("already_joined") from None
    bump(tournament)
    return entrant


def _current(who: Who) -> Who:
    try:
        return who.current()
    except TableError:
        raise TournamentError("name_required") from None


def _mine(tournament: Tournament, who: Who) -> Entrant:
    entrant = entrant_of(tournament, who)
    if entrant is None or entrant.status == Entrant.Status.LEFT:
        raise TournamentError("not_entered")
    return entrant


@transaction
def leave(tournament_id: Any, who: Who) -> None:
    tournament = lock(tournament_id)
    entrant = _mine(tournament, who)
    if tournament.is_over:
        raise TournamentError("over")
    if tournament.status == Tournament.Status.OPEN:
        entrant.delete()
        bump(tournament)
        return
    entrant.status = Entrant.Status.LEFT
    entrant.save(update_fields=["status"])
    for seat in PairingSeat.objects.filter(entrant=entrant, points__isnull=True, pairing__bye=False,
                                           pairing__table__status=Table.Status.RUNNING).select_related("pairing"):
        try:
            tables.resign(seat.pairing.table_id, person_of(entrant))
        except TableError:
            pass  # the game ended meanwhile: its result is recorded as it stands
    bump(tournament)


def pause(tournament_id: Any, who: Who) -> None:
    _set_status(tournament_id, who, Entrant.Status.PAUSED)


def resume(tournament_id: Any, who: Who) -> None:
    _set_status(tournament_id, who, Entrant.Status.ACTIVE)


@transaction
def _set_status(tournament_id: Any, who: Who, status: str) -> None:
    """The person's own entry paused or back in the pairings, until the tournament is over."""
    tournament = lock(tournament_id)
    entrant = _mine(tournament, who)
    if tournament.is_over:
        raise TournamentError("over")
    entrant.status = status
    entrant.save(update_fields=["status"])
    bump(tournament)
