"""Where a player should be now: their table in the current round (for the
phone that follows them from table to table)."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from games.services.who import Who
from tournaments.models import Entrant, PairingSeat, Tournament
from tournaments.services.common import entrant_of
from tournaments.services.seating import starting_seat


def current_table(tournament: Tournament, who: Who) -> dict[str, Any]:
    """A JSON-ready answer: the tournament's state, and the player's table
    (id, board, seat, opponents, who starts) in the current round, if any."""
    answer: dict[str, Any] = {"status": tournament.status, "round": tournament.current_round,
                              "version": tournament.version, "entered": False, "table": None}
    if tournament.next_round_at is not None:
        answer["next_round_in"] = max(0, int((tournament.next_round_at - timezone.now()).total_seconds()))
    entrant = entrant_of(tournament, who)
    if entrant is None:
        return answer
    answer["entered"] = True
    answer["entrant"] = {"name": entrant.name, "status": entrant.status}
    if entrant.status == Entrant.Status.LEFT:
        return answer
    seats = PairingSeat.objects.filter(entrant=entrant, round__tournament=tournament).select_related("pairing")
    # Every table the player has sat at in this tournament: a table page follows the
    # player to the next one only from one of these (not while they watch another).
    answer["tables"] = list(seats.filter(pairing__table__isnull=False).order_by("round__number", "pk")
                            .values_list("pairing__table_id", flat=True))
    if tournament.format == Tournament.Format.ARENA:  # their latest game, whatever the wave
        mine = seats.order_by("-round__number").first()
    else:
        mine = seats.filter(round__number=tournament.current_round).first()
    if mine is None:
        return answer
    pairing = mine.pairing
    others = list(pairing.seats.exclude(pk=mine.pk).select_related("entrant").order_by("seat"))
    names = ", ".join(o.entrant.name for o in others)
    # Who moves first is the game's (Drumlin's pink is seat 1), not always seat 0.
    starts = starting_seat(tournament.game, len(others) + 1) if not pairing.bye else None
    first = next((o.entrant.name for o in others if o.seat == starts), None)
    if pairing.bye and pairing.table_id is None:
        text = _("Round %(round)s: you have a bye.") % {"round": tournament.current_round}
    elif pairing.bye:
        text = _("Round %(round)s: a bye; a bot plays you meanwhile (not counted).") % {
            "round": tournament.current_round}
    elif mine.seat == starts:
        text = _("Table %(board)s: you against %(names)s, you start") % {"board": pairing.board, "names": names}
    elif first is not None:
        text = _("Table %(board)s: you against %(names)s, %(first)s starts") % {
            "board": pairing.board, "names": names, "first": first}
    else:
        text = _("Table %(board)s: you against %(names)s") % {"board": pairing.board, "names": names}
    answer["table"] = pairing.table_id
    answer["board"] = pairing.board
    answer["seat"] = mine.seat
    answer["bye"] = pairing.bye
    answer["done"] = mine.points is not None and not pairing.bye
    answer["text"] = text
    if tournament.format == Tournament.Format.ARENA and not answer["done"]:
        from tournaments.services.berserk import berserk_seat

        if mine.berserk:
            answer["berserk"] = "done"
        elif berserk_seat(tournament, who)[0] is not None:
            answer["berserk"] = "allowed"
    return answer
