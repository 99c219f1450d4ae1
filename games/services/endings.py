"""Actions that end a game or follow its end: draws, resigning, aborting,
handing an absent player's seat to a bot, the rematch."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone

from games.engines.base import Outcome
from games.models import Action, Connection, Seat, Table
from games.protocol import TableError
from games.ratings.eligibility import check_rated_player, unconfirmed
from games.services.broadcasts import _broadcast
from games.services.moves import _running_seat
from games.services.play import _finish, _hand_to_bot, _loss, _replacement_level
from games.services.seating import _start
from games.services.store import _lock, _record, _save, _seats, _transaction
from games.services.tables import _is_host, _seat_of, check_seating
from games.services.who import Who


def _active_seats(seats: list[Seat]) -> list[Seat]:
    return [s for s in seats if not s.resigned]


@_transaction
def draw(table_id: Any, who: Who, action: str) -> None:
    """Offer a draw, accept the one on the table, or decline it. The game ends
    drawn when every player has agreed; any move withdraws the offers."""
    table = _lock(table_id)
    seats = _seats(table)
    mine = _running_seat(table, seats, who)
    offers = set(table.draw_offers)
    if action == "decline":
        if not offers - {mine.index}:
            raise TableError("no_draw_offer")
        table.draw_offers = []
        _record(table, "draw_decline", mine.index)
    else:
        if any(s.is_bot for s in seats):
            raise TableError("draw_with_bots")
        if action == "accept" and not offers - {mine.index}:
            raise TableError("no_draw_offer")
        if mine.index in offers:
            raise TableError("already_offered")
        offers.add(mine.index)
        table.draw_offers = sorted(offers)
        if offers >= {s.index for s in _active_seats(seats)}:
            _record(table, "draw", mine.index)
            n = table.seat_count
            _finish(table, seats, Outcome((), tuple(0.5 for _ in range(n)), "agreement").to_dict(), timezone.now())
        else:
            _record(table, "draw_offer", mine.index)
    _save(table, seats)
    _broadcast(table, "draw", seats, lobby=table.is_over)


@_transaction
def resign(table_id: Any, who: Who, now: datetime | None = None) -> None:
    """Give up. With two players the other wins; with more, a bot plays on for
    the seat so the others can finish their game."""
    now = now or timezone.now()
    table = _lock(table_id)
    seats = _seats(table)
    mine = _running_seat(table, seats, who)
    _record(table, "resign", mine.index)
    if len(_active_seats(seats)) <= 2:
        mine.resigned = True
        _finish(table, seats, _loss(table.seat_count, mine.index, "resign"), now)
    else:
        mine.resigned = True
        _hand_to_bot(table, seats, mine, _replacement_level(table), now)
    _save(table, seats)
    _broadcast(table, "resign", seats)


@_transaction
def abort(table_id: Any, who: Who) -> None:
    """Call a game off without a result: the host before the start, any player
    while someone has yet to make a first move."""
    table = _lock(table_id)
    seats = _seats(table)
    if table.status == Table.Status.OPEN:
        if not _is_host(table, seats, who) and not who.is_staff:
            raise TableError("not_host")
    else:
        mine = _running_seat(table, seats, who)
        movers = set(Action.objects.filter(table=table, kind="move").values_list("seat", flat=True))
        if all(s.index in movers for s in seats if s.is_human) and mine is not None:
            raise TableError("too_late_to_abort")
    _record(table, "abort", _seat_of(seats, who).index if _seat_of(seats, who) else None)
    _finish(table, seats, None, timezone.now(), status=Table.Status.ABORTED)
    _save(table, seats)
    _broadcast(table, "abort", seats)


@_transaction
def rematch(table_id: Any, who: Who) -> int | None:
    """Offer (or accept) a rematch after the end. Once every person at the table
    agreed (bots always do), a new table starts with the seats turned by one;
    returns its id (None while offers are missing)."""
    table = _lock(table_id)
    seats = _seats(table)
    if table.status != Table.Status.FINISHED:
        raise TableError("not_finished")
    mine = _seat_of(seats, who)
    if mine is None:
        raise TableError("not_seated")
    if table.rematch_id:
        return table.rematch_id
    if table.rated:
        check_rated_player(who)
    offers = set(table.rematch_offers)
    if mine.index in offers:
        raise TableError("already_offered")
    offers.add(mine.index)
    table.rematch_offers = sorted(offers)
    if not offers >= {s.index for s in seats if s.is_human}:
        _record(table, "rematch_offer", mine.index)
        _save(table, seats)
        _broadcast(table, "rematch_offer", seats, lobby=False)
        return None
    if table.rated and unconfirmed(s.user_id for s in seats if s.user_id is not None):
        raise TableError("unconfirmed_account")
    new = Table.objects.create(
        game=table.game, options=table.options, seat_count=table.seat_count, rated=table.rated,
        private=table.private, pass_and_play=table.pass_and_play, clock=table.clock,
        created_by_id=table.created_by_id,
        creator_key=table.creator_key, creator_name=table.creator_name, absent_bot=table.absent_bot,
        absent_grace=table.absent_grace,
    )
    n = table.seat_count
    new_seats = []
    for old in seats:
        new_seats.append(Seat(
            table=new, index=(old.index + 1) % n, user_id=old.user_id, guest_key=old.guest_key,
            name=old.name, bot_level=old.bot_level,
        ))
    new_seats.sort(key=lambda s: s.index)
    check_seating(new, new_seats)  # one person, one seat (a table seated before the rule)
    Seat.objects.bulk_create(new_seats)
    _record(new, "create", None, payload={"rematch_of": table.pk})
    _start(new, new_seats, timezone.now())
    _save(new, new_seats)
    table.rematch = new
    _record(table, "rematch", mine.index, payload={"table": new.pk})
    _save(table, seats)
    _broadcast(new, "start", new_seats)
    _broadcast(table, "rematch", seats, lobby=False)
    return new.pk


@_transaction
def kick_absent(table_id: Any, who: Who, seat: int, now: datetime | None = None) -> None:
    """A player hands the seat of someone who has been away longer than the
    table's grace period to a bot, so the game can go on."""
    now = now or timezone.now()
    table = _lock(table_id)
    seats = _seats(table)
    mine = _running_seat(table, seats, who)
    if not 0 <= seat < len(seats) or seat == mine.index:
        raise TableError("bad_seat")
    target = seats[seat]
    if not target.is_human:
        raise TableError("not_a_person")
    if not _is_absent(table, target, now):
        raise TableError("not_absent")
    level = _replacement_level(table)
    _record(table, "kick", seat, payload={"by": mine.index, "bot": level})
    _hand_to_bot(table, seats, target, level, now)
    _save(table, seats)
    _broadcast(table, "kick", seats)


def _is_absent(table: Table, seat: Seat, now: datetime) -> bool:
    if seat.absent_since is None or seat.absent_since > now - timedelta(seconds=table.absent_grace):
        return False
    return not Connection.objects.filter(table=table, seat=seat.index).exists()
