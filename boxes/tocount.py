"""The hosts' list of boxes to count: every copy used (set aside for a session
that has ended, or of a game whose play was logged) since it was last counted,
in the order the shelves are walked. Nothing is stored: a count empties the
list by moving the copy's ``counted_at`` past its last use.

A play names a game, not a box: it is put on the box its session set aside
when there is one, else on every copy of the game (the hosts count them all).
Only the uses of the last ``HORIZON`` are looked at.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.utils import timezone

from boxes.models import BoxState
from catalog.collection.models import Game
from catalog.playlog.models import Play
from catalog.shelves.labels import shelf_key
from catalog.shelves.models import Copy
from games.bookings.models import CopyReservation, Session

HORIZON = timedelta(days=120)


@dataclass
class Use:
    at: datetime
    session_id: int | None = None
    play_id: int | None = None


@dataclass
class ToCount:
    copy: Copy
    use: Use
    counted_at: datetime | None
    url: str = ""


def _uses(now: datetime) -> dict[int, Use]:
    """The last use of each copy used within the horizon."""
    since = now - HORIZON
    last: dict[int, Use] = {}

    def note(copy_id: int, use: Use) -> None:
        if copy_id not in last or last[copy_id].at < use.at:
            last[copy_id] = use

    reservations = (CopyReservation.objects.filter(session__ends_at__gt=since, session__ends_at__lte=now)
                    .exclude(session__status=Session.Status.CANCELLED)
                    .values_list("copy_id", "session_id", "session__ends_at"))
    reserved_by_session: dict[int, set[int]] = defaultdict(set)
    for copy_id, session_id, ends_at in reservations:
        note(copy_id, Use(ends_at, session_id=session_id))
        reserved_by_session[session_id].add(copy_id)
    plays = list(Play.objects.filter(created_at__gt=since, created_at__lte=now)
                 .values_list("id", "game_id", "session_id", "created_at"))
    if not plays:
        return last
    games = {g for _, g, _, _ in plays}
    box_of = dict(Game.objects.filter(pk__in=games, kind=Game.Kind.IN_BOX, base_game__isnull=False)
                  .values_list("id", "base_game_id"))
    copies_of: dict[int, set[int]] = defaultdict(set)
    for copy_id, game_id in Copy.objects.filter(game_id__in={box_of.get(g, g) for g in games}).values_list(
            "id", "game_id"):
        copies_of[game_id].add(copy_id)
    for play_id, game_id, session_id, created_at in plays:
        candidates = copies_of[box_of.get(game_id, game_id)]
        chosen = candidates & reserved_by_session.get(session_id, set()) or candidates
        for copy_id in chosen:
            note(copy_id, Use(created_at, play_id=play_id))
    return last


def _waiting(now: datetime, shelf: str) -> tuple[dict[int, Use], dict[int, datetime], list[int]]:
    uses = _uses(now)
    if not uses:
        return uses, {}, []
    counted = dict(BoxState.objects.filter(copy_id__in=uses, counted_at__isnull=False)
                   .values_list("copy_id", "counted_at"))
    waiting = [pk for pk, use in uses.items() if pk not in counted or counted[pk] < use.at]
    shelves = Copy.objects.filter(pk__in=waiting)
    if shelf:
        shelves = shelves.filter(shelf__startswith=shelf)
    ordered = sorted(shelves.values_list("shelf", "id"), key=lambda row: (shelf_key(row[0]), row[1]))
    return uses, counted, [pk for _shelf, pk in ordered]


def page(now: datetime | None = None, shelf: str = "", limit: int | None = None) -> tuple[list[ToCount], int]:
    """The first ``limit`` copies to count (those whose shelf begins with ``shelf``), in
    shelf order, and how many there are in all."""
    uses, counted, ids = _waiting(now or timezone.now(), shelf)
    shown = ids if limit is None else ids[:limit]
    copies = Copy.objects.select_related("game").only(
        "id", "shelf", "game__id", "game__slug", "game__title", "game__title_fr", "game__title_de",
        "game__title_en").in_bulk(shown)
    return [ToCount(copies[pk], uses[pk], counted.get(pk)) for pk in shown if pk in copies], len(ids)


def to_count(now: datetime | None = None, shelf: str = "") -> list[ToCount]:
    """Every copy to count, in shelf order."""
    return page(now, shelf)[0]
