"""What an account has done here: its bookings at the house and its games.

Everything is looked up by the account (``user``), never by a name or an
address, so one person can never see another's rows.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet
from django.utils import timezone

from games import engines
from games.bookings.models import Booking
from games.models import Seat, Table

RUNNING = (Table.Status.OPEN, Table.Status.RUNNING)
OVER = (Table.Status.FINISHED, Table.Status.ABORTED)
# The account page shows this many past bookings and finished games (the export has them all).
PAGE_LIMIT = 30


def bookings_of(user: Any) -> QuerySet[Booking]:
    return Booking.objects.filter(user=user).select_related("session").order_by("session__starts_at", "id")


def upcoming_bookings(user: Any, now: Any = None) -> list[Booking]:
    """Bookings of sessions not over yet (cancelled ones included: the page says so)."""
    return list(bookings_of(user).filter(session__ends_at__gt=now or timezone.now()))


def past_bookings(user: Any, now: Any = None, limit: int = PAGE_LIMIT) -> list[Booking]:
    return list(bookings_of(user).filter(session__ends_at__lte=now or timezone.now())
                .order_by("-session__starts_at", "-id")[:limit])


def game_titles() -> dict[str, str]:
    """The name of each playable game: its catalogue title, else the engine's."""
    from catalog.collection.models import Game

    titles = {rules.slug: rules.title for rules in engines.all()}
    for game in Game.objects.exclude(engine_slug="").order_by("-pk"):
        titles[game.engine_slug] = game.display_title
    return titles


@dataclass(frozen=True)
class PlayedGame:
    table: Table
    seat: Seat
    title: str

    @property
    def result(self) -> str:
        """"won", "lost", "draw" or "" (not over, aborted, or no outcome)."""
        outcome = self.table.outcome or {}
        if self.table.status != Table.Status.FINISHED or "winners" not in outcome:
            return ""
        winners = outcome.get("winners") or []
        if not winners:
            return "draw"
        return "won" if self.seat.index in winners else "lost"


def _games(user: Any, statuses: tuple[str, ...], limit: int) -> list[PlayedGame]:
    seats = (Seat.objects.filter(user=user, table__status__in=statuses).select_related("table")
             .order_by("-table__updated_at", "-table_id")[:limit])
    titles = game_titles()
    return [PlayedGame(seat.table, seat, titles.get(seat.table.game, seat.table.game)) for seat in seats]


def running_games(user: Any, limit: int = PAGE_LIMIT) -> list[PlayedGame]:
    return _games(user, RUNNING, limit)


def finished_games(user: Any, limit: int = PAGE_LIMIT) -> list[PlayedGame]:
    return _games(user, OVER, limit)
