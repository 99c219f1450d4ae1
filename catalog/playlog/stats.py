"""What the play log tells: a game's plays here, the games a group has already
played, and the year's most and least played boxes (for the hosts)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from django.db.models import Count, Exists, Max, OuterRef, Q

from catalog.collection.models import Game
from catalog.playlog.models import Play
from catalog.shelves.models import Copy
from games.bookings.models import Booking

TOP = 15


@dataclass(frozen=True)
class Played:
    times: int
    last: date | None


def played_here(game: Game) -> Played:
    found = Play.objects.filter(game=game).aggregate(times=Count("id"), last=Max("played_on"))
    return Played(found["times"], found["last"])


def group_plays(booking: Booking | None = None, user=None):
    """The plays of a group: those logged with the booking's link or for its
    session with one of its people as a player (by account, or by the booking's
    name); for an account, the plays it logged or played in, and those of its
    bookings."""
    q = Q(pk__in=[])
    if booking is not None:
        q |= Q(booking=booking)
        q |= Q(session_id=booking.session_id, players__name_key=_key(booking.name))
        if booking.user_id is not None:
            q |= Q(players__user_id=booking.user_id)
    if user is not None and user.is_authenticated:
        q |= Q(logged_by=user) | Q(players__user=user) | Q(booking__user=user)
    return Play.objects.filter(q).distinct()


def played_game_ids(booking: Booking | None = None, user=None) -> set[int]:
    return set(group_plays(booking, user).values_list("game_id", flat=True).distinct())


def _key(name: str) -> str:
    from catalog.playlog.rules import name_key

    return name_key(name)


@dataclass(frozen=True)
class Row:
    game: Game
    times: int
    last: date | None


def year(year: int) -> dict:
    """The year's most played games, and the least played of the boxes on the
    shelves (never played first, then the fewest plays, the longest ago)."""
    in_year = Q(plays__played_on__year=year)
    counted = Game.objects.annotate(times=Count("plays", filter=in_year), last=Max("plays__played_on", filter=in_year))
    most = counted.filter(times__gt=0).order_by("-times", "-last", "title")[:TOP]
    boxes = counted.filter(Exists(Copy.objects.filter(game=OuterRef("pk"))))
    least = boxes.order_by("times", "last", "title")[:TOP]
    return {
        "most": [Row(g, g.times, g.last) for g in most],
        "least": [Row(g, g.times, g.last) for g in least],
        "plays": Play.objects.filter(played_on__year=year).count(),
        "games": Play.objects.filter(played_on__year=year).values("game").distinct().count(),
        "never": boxes.filter(times=0).count(),
        "boxes": boxes.count(),
    }

