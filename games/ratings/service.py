"""A finished rated table rated: once, in the transaction that ends it.

The tables service calls ``game_ended`` from where every game ends and
``seat_left`` from where a person's seat goes to a bot. A move played on the
server's event loop (games.services.loop_moves) writes in a batch that cannot
read the database: such a game is left to the worker's sweep (``rate_pending``),
which rates it in a transaction of its own, records a ``rated`` action and
broadcasts it. Either way ``RatedGame`` (the table as primary key) makes sure
a game is rated once.

Not rated, with the reason recorded: what ``rules.why_not_rated`` says, an
account no longer confirmed (``unconfirmed``, games.ratings.eligibility), or
two accounts past the day's limit of rated games together (``repeated``,
docs/ratings.md says why).

What the game did to each rating goes in ``table.outcome["ratings"]`` (so the
end-of-game frame carries it: docs/protocol.md).
"""

from __future__ import annotations

from collections import Counter
from datetime import datetime, timedelta
from itertools import combinations
from typing import Any

from django.conf import settings
from django.db import connection

from games import engines
from games.engines.base import Outcome
from games.models import Action, Seat, Table
from games.ratings import glicko2
from games.ratings.eligibility import unconfirmed
from games.ratings.models import Departure, Privacy, RatedGame, Rating, RatingChange
from games.ratings.rules import BOT_ANCHORS, Participant, rate, why_not_rated

PAIR_WINDOW = timedelta(hours=24)


def seat_left(table: Table, seat: Seat, now: datetime) -> None:
    """A person's seat at a running rated table goes to a bot: remember who left."""
    if not table.rated or seat.user_id is None or table.status != Table.Status.RUNNING:
        return
    Departure.objects.get_or_create(
        table_id=table.pk, seat=seat.index,
        defaults={"user_id": seat.user_id, "version": table.version, "created_at": now},
    )


def game_ended(table: Table, seats: list[Seat], now: datetime, batched: bool = False) -> None:
    """Rate the table if it is a finished rated game (``batched``: the writes
    of this action cannot read the database; the worker rates it instead)."""
    if not table.rated or table.status != Table.Status.FINISHED or not table.outcome or batched:
        return
    rate_table(table, seats, now)


def rate_table(table: Table, seats: list[Seat], now: datetime) -> list[dict[str, Any]] | None:
    """Rate a finished table held under lock, once; returns what it did to each
    rating (also put in ``table.outcome``), None if it was not rated (now)."""
    if RatedGame.objects.filter(table_id=table.pk).exists():
        return None
    participants = _participants(table, seats)
    people = [p.user_id for p in participants if p.user_id is not None]
    reason = why_not_rated(participants)
    if not reason and unconfirmed(people):
        reason = "unconfirmed"
    current = {} if reason else _ratings(table.game, people)
    # After _ratings: it holds the players' rows, so two games of the same
    # pair ending at once are counted one after the other.
    if not reason and _pair_over_limit(table, people, now):
        reason = "repeated"
    if reason:
        RatedGame.objects.create(table_id=table.pk, counted=False, reason=reason)
        return None
    RatedGame.objects.create(table_id=table.pk)
    participants = [
        p if p.user_id is None else Participant(p.seat, current[p.user_id].as_glicko(), p.standing, p.user_id,
                                                p.left, p.moves)
        for p in participants
    ]
    summary = []
    for change in rate(participants):
        mine, after = change.participant, change.after
        row = current[mine.user_id]
        RatingChange.objects.create(
            table_id=table.pk, user_id=mine.user_id, game=table.game, seat=mine.seat, result=change.result,
            left=mine.left, rating_before=row.rating, rd_before=row.rd, rating_after=after.rating,
            rd_after=after.rd, volatility_after=after.volatility, created_at=now,
        )
        before = round(row.rating)
        row.rating, row.rd, row.volatility = after.rating, after.rd, after.volatility
        row.games += 1
        row.last_played = now
        row.save(update_fields=["rating", "rd", "volatility", "games", "last_played"])
        summary.append({"seat": mine.seat, "before": before, "after": round(after.rating),
                        "delta": round(after.rating) - before, "provisional": row.provisional})
    summary.sort(key=lambda s: s["seat"])
    table.outcome = {**table.outcome, "ratings": summary}
    return summary


def rating_pending(table: Table) -> bool:
    """A finished rated table nobody has rated yet (left to the worker's sweep)."""
    return (table.rated and table.status == Table.Status.FINISHED
            and not RatedGame.objects.filter(table_id=table.pk).exists())


def leave_unrated(table: Table, reason: str) -> None:
    """Close a finished table's rating without rating it (a host ended a game
    the worker could not rate): the sweep no longer looks at it."""
    RatedGame.objects.get_or_create(table_id=table.pk, defaults={"counted": False, "reason": reason})


def _participants(table: Table, seats: list[Seat]) -> list[Participant]:
    rules = engines.get(table.game)
    outcome = Outcome.from_dict(table.outcome)
    left = {d.seat: d for d in Departure.objects.filter(table_id=table.pk)}
    moves: dict[int, list[int]] = {}
    for seat, version in Action.objects.filter(table_id=table.pk, kind="move").values_list("seat", "version"):
        moves.setdefault(seat, []).append(version)
    found = []
    for seat in seats:
        departure = left.get(seat.index)
        if departure is not None:
            count = sum(1 for v in moves.get(seat.index, ()) if v < departure.version)
            found.append(Participant(seat.index, glicko2.Rating(), -1.0, departure.user_id, True, count))
        elif seat.user_id is not None:
            found.append(Participant(seat.index, glicko2.Rating(), rules.utility(outcome, seat.index),
                                     seat.user_id, False, len(moves.get(seat.index, ()))))
        elif seat.bot_level in BOT_ANCHORS:
            anchor = BOT_ANCHORS[seat.bot_level]
            found.append(Participant(seat.index, anchor, rules.utility(outcome, seat.index)))
        # A guest's seat: not rated, and no anchor for the others.
    return found


def games_per_pair() -> int:
    """How many rated games two accounts may play together at one game in a day."""
    return int(getattr(settings, "LUDO_RATED_GAMES_PER_PAIR", 3))


def _pair_over_limit(table: Table, user_ids: list[int], now: datetime) -> bool:
    """Whether two of these accounts have already played ``games_per_pair()``
    rated games together at this game in the last 24 hours (rolling)."""
    if len(user_ids) < 2:
        return False
    together: dict[Any, set[int]] = {}
    recent = RatingChange.objects.filter(game=table.game, user_id__in=user_ids, created_at__gt=now - PAIR_WINDOW)
    rows = recent.exclude(table_id=table.pk).values_list("table_id", "user_id")
    for table_id, user_id in rows:
        together.setdefault(table_id, set()).add(user_id)
    counts = Counter(pair for users in together.values() for pair in combinations(sorted(users), 2))
    return any(n >= games_per_pair() for n in counts.values())


def _ratings(game: str, user_ids: list[int]) -> dict[int, Rating]:
    """The players' rating rows at this game (made at the defaults if new),
    held until the transaction ends where the database can hold rows."""
    have = set(Rating.objects.filter(game=game, user_id__in=user_ids).values_list("user_id", flat=True))
    for user_id in user_ids:
        if user_id not in have:
            Rating.objects.get_or_create(user_id=user_id, game=game)
    # Locked in one order (by user): two games ending at once cannot deadlock.
    rows = Rating.objects.filter(game=game, user_id__in=user_ids).order_by("user_id")
    if connection.features.has_select_for_update:
        rows = rows.select_for_update()
    return {r.user_id: r for r in rows}


def set_private(user: Any, private: bool) -> None:
    """The player's choice: a private profile is seen by its owner and the hosts only."""
    Privacy.objects.update_or_create(user=user, defaults={"private": bool(private)})
