"""What the hosts of the house do to a tournament: adjudicate a table (or
correct a result), swap two players between the round's tables before
their games begin, cancel the tournament."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils import timezone

from games import services as tables
from games.models import Action, Table
from games.protocol import TableError
from games.services.who import Who
from tournaments.errors import TournamentError
from tournaments.models import Pairing, PairingSeat, Tournament
from tournaments.services.common import bump, check_host, lock, row_id, transaction
from tournaments.services.rounds import _store
from tournaments.services.seating import open_table

TWO_PLAYER_RESULTS = {(1.0, 0.0), (0.0, 1.0), (0.5, 0.5), (0.0, 0.0)}


@transaction
def adjudicate(tournament_id: Any, who: Who, pairing_id: Any, points: Sequence[Any]) -> None:
    """Give a table its result (points per seat, in seat order): a game in
    play is ended first (called off, without a result of its own). (0, 0) is
    a double forfeit."""
    tournament = lock(tournament_id)
    check_host(who)
    if tournament.status != Tournament.Status.RUNNING:
        raise TournamentError("over" if tournament.is_over else "not_running")
    try:
        pairing = Pairing.objects.select_related("round", "table").get(
            pk=row_id(pairing_id), round__tournament=tournament, bye=False)
    except (Pairing.DoesNotExist, TypeError, ValueError):
        raise TournamentError("bad_pairing") from None
    count = pairing.seats.count()
    try:
        values = tuple(float(p) for p in points)
    except (TypeError, ValueError):
        raise TournamentError("bad_result") from None
    if len(values) != count or any(not 0 <= v <= 1 or v * 2 != int(v * 2) for v in values):
        raise TournamentError("bad_result")
    if count == 2 and values not in TWO_PLAYER_RESULTS:
        raise TournamentError("bad_result")
    table = pairing.table
    if table is not None and table.status == Table.Status.RUNNING:
        try:
            tables.staff_end(table.pk, who, reason="tournament adjudication")
        except TableError:
            pass  # it ended meanwhile: the host's result stands all the same
    _store(tournament, pairing, values, timezone.now(), adjudicated=True)


@transaction
def cancel(tournament_id: Any, who: Who) -> None:
    tournament = lock(tournament_id)
    check_host(who)
    if tournament.is_over:
        raise TournamentError("over")
    running = Table.objects.filter(tournament_pairing__round__tournament=tournament, status=Table.Status.RUNNING)
    for pk in running.values_list("pk", flat=True):
        try:
            tables.staff_end(pk, who, reason="tournament cancelled")
        except TableError:
            pass
    tournament.status = Tournament.Status.CANCELLED
    tournament.finished_at = timezone.now()
    tournament.next_round_at = None
    tournament.code = None
    bump(tournament, "status", "finished_at", "next_round_at", "code")


@transaction
def swap_players(tournament_id: Any, who: Who, first: Any, second: Any, seen: Sequence[Any] | None = None) -> None:
    """Move two players of the current round into each other's places (a host
    seating people by hand: a mistake, a guest who must leave early, a player
    moved onto the bye). Only before either game has its first move: the
    tables are called off and opened again with the new seating; a bye keeps
    its points for whoever takes it. ``seen``: the two players' pairings as
    the host's page showed them; if someone moved them meanwhile (another
    host pressing at once), ``moved_meanwhile`` and nothing changes."""
    tournament = lock(tournament_id)
    check_host(who)
    if tournament.status != Tournament.Status.RUNNING or tournament.format == Tournament.Format.ARENA:
        raise TournamentError("over" if tournament.is_over else "not_running")
    try:
        seats = [PairingSeat.objects.select_related("pairing", "entrant").get(
            round__tournament=tournament, round__number=tournament.current_round, entrant_id=row_id(pk))
            for pk in (first, second)]
        expected = [row_id(pk) for pk in seen] if seen is not None else None
    except (PairingSeat.DoesNotExist, TypeError, ValueError):
        raise TournamentError("bad_pairing") from None
    a, b = seats
    if a.pairing_id == b.pairing_id or (a.pairing.bye and b.pairing.bye):
        raise TournamentError("bad_pairing")
    if expected is not None and expected != [a.pairing_id, b.pairing_id]:
        raise TournamentError("moved_meanwhile")
    pairings = [a.pairing, b.pairing]
    for pairing in pairings:
        if pairing.bye:
            continue
        if pairing.recorded_at is not None or Action.objects.filter(table_id=pairing.table_id, kind="move").exists():
            raise TournamentError("game_started")
    a_entrant, b_entrant = a.entrant, b.entrant
    a.entrant, b.entrant = b_entrant, a_entrant
    # Through a free placeholder: (round, entrant) is unique.
    PairingSeat.objects.filter(pk=b.pk).delete()
    a.save(update_fields=["entrant"])
    b.pk = None
    b.save()
    for pairing in pairings:
        if pairing.table_id is None:
            continue  # a bye without a table: nothing to seat
        try:
            tables.staff_end(pairing.table_id, who, reason="tournament seating changed")
        except TableError:
            pass
        players = [s.entrant for s in pairing.seats.select_related("entrant").order_by("seat")]
        pairing.table = open_table(tournament, players, tournament.bye_bot if pairing.bye else "")
        pairing.save(update_fields=["table"])
    bump(tournament)
