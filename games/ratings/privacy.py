"""What of a rated game's outcome a viewer may see.

A player with a private profile shows their rating to themselves and the
hosts only; the rating changes of one of their games (``outcome.ratings``, and
the ``rated`` event's copy of it) are shown to the players of that game and
the hosts, and left out for everyone else, who still sees the result. Every
route that shows a table's outcome (the table's frames and its API, the
replay, the export) asks ``outcome_for``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from games.ratings.models import RatingChange

if TYPE_CHECKING:
    from games.services.who import Who


@dataclass(frozen=True)
class RatedPlayers:
    """Who a rated game rated (leavers included) and which seats were held by
    a player whose profile is private now."""

    user_ids: frozenset[int] = frozenset()
    private_seats: frozenset[int] = frozenset()


NOBODY = RatedPlayers()


def has_ratings(data: dict[str, Any] | None) -> bool:
    return bool(data) and isinstance(data, dict) and bool(data.get("ratings"))


def rated_players(table_id: Any, outcome: dict[str, Any] | None) -> RatedPlayers:
    """One query, only when the outcome carries ratings."""
    if not has_ratings(outcome):
        return NOBODY
    rows = (RatingChange.objects.filter(table_id=table_id)
            .values_list("seat", "user_id", "user__rating_privacy__private"))
    users, private = set(), set()
    for seat, user_id, is_private in rows:
        users.add(user_id)
        if is_private:
            private.add(seat)
    return RatedPlayers(frozenset(users), frozenset(private))


def outcome_for(data: dict[str, Any] | None, who: Who, players: RatedPlayers) -> dict[str, Any] | None:
    """``data`` (an outcome, or a ``rated`` event's payload) as ``who`` may see
    it: without the entries of private players' seats unless ``who`` played
    this game or is a host. Never changes ``data`` (it may be shared)."""
    if not has_ratings(data) or not players.private_seats:
        return data
    if who.is_staff or (who.user_id is not None and who.user_id in players.user_ids):
        return data
    return {**data, "ratings": [r for r in data["ratings"] if r.get("seat") not in players.private_seats]}
