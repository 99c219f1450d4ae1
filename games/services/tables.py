"""Reading a table: its rules and state, who sits where, who may watch, who hosts,
and the house rule every seat goes by: one person, one seat per table."""

from __future__ import annotations

import hmac
from collections.abc import Iterable
from typing import Any

from games import engines
from games.engines.base import Rules
from games.models import Seat, Table
from games.protocol import TableError
from games.services.store import _get, _seats
from games.services.who import Who


def rules_for(table: Table) -> Rules:
    try:
        return engines.get(table.game)
    except KeyError:
        raise TableError("unknown_game", table.game) from None


def _seat_of(seats: Iterable[Seat], who: Who) -> Seat | None:
    # A person holding several seats (pass-and-play) acts as the one their
    # socket chose (games.services.living.AsSeat), or as none of them.
    wanted = getattr(who, "as_seat", None)
    for seat in seats:
        if not seat.is_bot and who.holds(seat) and (wanted is None or seat.index == wanted):
            return seat
    return None


# -- one person, one seat ---------------------------------------------------------------------

def seats_of_person(seats: Iterable[Seat], who: Who) -> list[Seat]:
    """Every seat the person behind ``who`` holds in person (bots aside), whatever
    seat a narrowed identity (games.services.living.AsSeat, a socket acting as one
    seat or as a spectator) has chosen: the narrowing never hides a seat here."""
    person = who.person
    return [s for s in seats if not s.is_bot and person.holds(s)]


def is_creator(table: Table, who: Who) -> bool:
    """Whether the person behind ``who`` created ``table`` (an account, or a guest identity)."""
    person = who.person
    if person.user_id is not None:
        return table.created_by_id == person.user_id
    return bool(person.guest_key) and table.creator_key == person.guest_key


def check_one_seat(table: Table, seats: Iterable[Seat], who: Who) -> None:
    """The house rule, one person one seat per table: refuse (``already_seated``)
    to seat the person behind ``who`` at ``table`` while they hold one of its
    ``seats`` already.

    Every way onto a seat comes through here: taking one (``join_table``: the
    socket's ``sit``, the API's ``join``, a phone joining by a living-room code),
    the creator's own seat, the pass-and-play seating, the rematch's copied seats
    (``check_seating``); tournaments seating their players too. It looks at the
    person, never at a narrowed identity: a socket that chose to watch
    (``as``: -1) still holds its seat.

    The one exception is a pass-and-play table (``Table.pass_and_play``): one
    device plays every person's seat there, so its creator holds them all.
    """
    if table.pass_and_play and is_creator(table, who):
        return
    if seats_of_person(seats, who):
        raise TableError("already_seated")


def holder(seat: Seat) -> Who:
    """The person on a seat, as a Who (no name: only for checks)."""
    return Who(user_id=seat.user_id, guest_key="" if seat.user_id is not None else seat.guest_key)


def check_seating(table: Table, seats: Iterable[Seat]) -> None:
    """A whole seating (a rematch's, copied from the game before) as if each
    person sat down in turn: ``check_one_seat`` for every one of them."""
    placed: list[Seat] = []
    for seat in seats:
        if seat.is_human:
            check_one_seat(table, placed, holder(seat))
        placed.append(seat)


def seat_person(table: Table, seats: Iterable[Seat], target: Seat, who: Who, name: str | None = None) -> None:
    """Put the person behind ``who`` on ``target`` (under ``name``, else theirs),
    once ``check_one_seat`` allows it. The caller holds the table's lock and saves."""
    check_one_seat(table, seats, who)
    person = who.person
    target.user_id = person.user_id
    target.guest_key = "" if person.user_id is not None else person.guest_key
    target.name = person.name if name is None else name


def _is_host(table: Table, seats: list[Seat], who: Who) -> bool:
    """The creator hosts the table; if they left, the first seated person does."""
    if who.user_id is not None and table.created_by_id == who.user_id:
        return True
    if who.user_id is None and who.guest_key and table.creator_key == who.guest_key:
        return True
    creator_seated = any(
        s.is_human and ((table.created_by_id and s.user_id == table.created_by_id)
                        or (table.creator_key and s.guest_key == table.creator_key))
        for s in seats
    )
    if creator_seated:
        return False
    humans = [s for s in seats if s.is_human]
    return bool(humans) and who.holds(humans[0])


def _can_watch(table: Table, seats: list[Seat], who: Who, invite: str | None) -> bool:
    if not table.private or who.is_staff or _seat_of(seats, who) is not None or _is_host(table, seats, who):
        return True
    return bool(invite) and hmac.compare_digest(str(invite), table.invite_token)


def _state(table: Table, rules: Rules) -> Any:
    return rules.load(table.state)


def open_table(table_id: Any, who: Who, invite: str | None = None) -> tuple[Table, int | None]:
    """Check that ``who`` may watch the table; return it and the seat they hold."""
    table = _get(table_id)
    seats = _seats(table)
    if not _can_watch(table, seats, who, invite):
        raise TableError("private_table")
    seat = _seat_of(seats, who)
    return table, (seat.index if seat else None)
