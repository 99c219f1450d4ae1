"""A finished tournament's games in the house's play log (catalog.playlog).

Once the tournament is over, each game that was played (a table that ended
with a result, or one a host adjudicated) becomes a play of the catalogue's
box for the game (``catalog.Game.engine_slug``), on the day it ended, logged
by the tournament's host, with the booked session when there is one. Byes,
a bye's courtesy game against a bot and double forfeits (nobody played) are
not plays. Run again, it logs nothing more (``Tournament.logged_at``, under
the tournament's lock). A game the play log's rules refuse (two guests of
the same name at one table) is left out, the others are logged.
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction as db_transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from catalog.collection.models import Game as Box
from catalog.playlog import rules
from catalog.playlog.rules import Entry, PlayRefused
from catalog.playlog.services import Author, log_play
from games.models import Table
from tournaments.models import Pairing, Tournament
from tournaments.services.common import lock, transaction

log = logging.getLogger(__name__)


def entry_for(tournament: Tournament, pairing: Pairing, box: Box) -> Entry | None:
    """The play of one recorded game, or None when it was not played."""
    seats = list(pairing.seats.select_related("entrant").order_by("seat"))
    points = [s.points or 0.0 for s in seats]
    table = pairing.table
    played = table is not None and (table.status == Table.Status.FINISHED or pairing.adjudicated)
    if pairing.bye or not played or len(seats) < 2 or not any(points):
        return None
    best = max(points)
    won = [p == best and best > min(points) for p in points]
    if tournament.format == Tournament.Format.ARENA:
        note = _("Tournament “%(name)s” (arena), table %(board)s") % {"name": tournament.name,
                                                                         "board": pairing.board}
    else:
        note = _("Tournament “%(name)s”, round %(round)s, table %(board)s") % {
            "name": tournament.name, "round": pairing.round.number, "board": pairing.board}
    if pairing.adjudicated:
        note = _("%(note)s (result given by a host)") % {"note": note}
    return Entry(box.pk, timezone.localdate(pairing.recorded_at),
                 [rules.Seat(s.entrant.name[:rules.NAME_MAX], None, w, s.entrant.user_id) for s, w in zip(seats, won, strict=True)],
                 note=note, nobody_won=not any(won))


@transaction
def log_games(tournament_id: Any) -> int:
    """Log a finished tournament's games (the worker's step). Returns the plays written."""
    tournament = lock(tournament_id)
    if tournament.status != Tournament.Status.FINISHED or tournament.logged_at is not None:
        return 0
    box = Box.objects.filter(engine_slug=tournament.game).order_by("pk").first()
    written = 0
    if box is not None and tournament.created_by is not None:
        author = Author(user=tournament.created_by)
        pairings = (Pairing.objects.filter(round__tournament=tournament, recorded_at__isnull=False, bye=False)
                    .select_related("round", "table").order_by("round__number", "board"))
        for pairing in pairings:
            entry = entry_for(tournament, pairing, box)
            if entry is None:
                continue
            try:
                with db_transaction.atomic():
                    log_play(author, entry, session=tournament.session)
            except PlayRefused as exc:
                log.warning("tournament %s: game %s not logged: %s", tournament.pk, pairing.pk, exc)
                continue
            written += 1
    tournament.logged_at = timezone.now()
    tournament.save(update_fields=["logged_at"])
    return written
