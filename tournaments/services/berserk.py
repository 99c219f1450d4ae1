"""Berserk at an arena table (lichess's): before their first move, a player
halves their own time bank; a win then brings one point more
(tournaments.pairing.arena.score). Only with a clock that has a bank of time
(``{"kind": "game"}``); the increment is kept (lichess removes it: the house's
tables have one increment for every seat)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from games.models import Action, Table
from games.services.broadcasts import _broadcast
from games.services.store import _lock, _record, _save, _seats
from games.services.who import Who
from tournaments.errors import TournamentError
from tournaments.models import Entrant, PairingSeat, Tournament
from tournaments.services.common import bump, entrant_of, lock, transaction


def berserk_seat(tournament: Tournament, who: Who) -> tuple[PairingSeat | None, str]:
    """The seat ``who`` may go berserk at now, or None and why not (an error code)."""
    if tournament.format != Tournament.Format.ARENA:
        return None, "not_arena"
    if tournament.status != Tournament.Status.RUNNING:
        return None, "over" if tournament.is_over else "not_running"
    if (tournament.clock or {}).get("kind") != "game":
        return None, "no_bank"
    entrant = entrant_of(tournament, who)
    if entrant is None or entrant.status == Entrant.Status.LEFT:
        return None, "not_entered"
    seat = (PairingSeat.objects.filter(entrant=entrant, round__tournament=tournament, pairing__bye=False,
                                       pairing__recorded_at__isnull=True, pairing__table__status=Table.Status.RUNNING)
            .select_related("pairing").order_by("-round__number").first())
    if seat is None:
        return None, "bad_pairing"
    if seat.berserk:
        return None, "already_berserk"
    if Action.objects.filter(table_id=seat.pairing.table_id, kind="move", seat=seat.seat).exists():
        return None, "game_started"
    return seat, ""


@transaction
def berserk(tournament_id: Any, who: Who) -> None:
    tournament = lock(tournament_id)
    mine, why = berserk_seat(tournament, who)
    if mine is None:
        raise TournamentError(why)
    table = _lock(mine.pairing.table_id)
    seats = _seats(table)
    seat = seats[mine.seat]
    bank = seat.clock_ms if seat.clock_ms is not None else int(table.clock["base"]) * 1000
    seat.clock_ms = bank // 2
    if seat.turn_started_at is not None and seat.deadline is not None:
        seat.deadline = seat.turn_started_at + timedelta(milliseconds=seat.clock_ms)
    deadlines = [s.deadline for s in seats if s.deadline is not None]
    table.clock_deadline = min(deadlines) if deadlines else None
    _record(table, "berserk", seat.index)
    _save(table, seats)
    _broadcast(table, "berserk", seats, lobby=False)
    mine.berserk = True
    mine.save(update_fields=["berserk"])
    bump(tournament)
