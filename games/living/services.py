"""Living-room tables: made here, then played like any live table (games.services).

- A *screen* table: created from a shared screen (a TV, a laptop), whose
  browser hosts it without a seat (it watches: the public view only); phones
  take the seats by its join code (``join_by_code``) and keep them across
  reconnections (the seat is bound to the phone's guest session or account).
- A *pass-and-play* table: every person's seat is held by the one device that
  created it, under the names given; bots take the other seats; it starts at
  once. Its socket plays each seat in turn (games.services.living). It counts
  as one of its creator's tables (LUDO_MAX_OPEN_TABLES) while it is played, and
  its seat names follow the guests' name rules.

A join code belongs to its table while the table is open or in play; once the
table has ended, the code is freed (``free_ended_codes``) and may be drawn again.
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction

from games import engines
from games.living import codes
from games.living.models import Room
from games.models import Table
from games.protocol import TableError
from games.services import add_bots, create_table, join_table, start_table
from games.services.broadcasts import _broadcast
from games.services.play import _check_level
from games.services.store import _lock, _record, _save, _seats, _transaction
from games.services.tables import seat_person, seats_of_person
from games.services.who import Who
from ludo.accounts import NameTaken, clean_guest_name, name_skeleton

MAX_NAME = 40
LIVE = (Table.Status.OPEN, Table.Status.RUNNING)


def free_ended_codes() -> int:
    """Give back the codes of rooms whose table has ended (finished, aborted): a
    code is a live table's only, and about a million of them must last for good.
    The ended room stays (a pass-and-play page still reads its mode), without a code."""
    return Room.objects.filter(code__isnull=False).exclude(table__status__in=LIVE).update(code=None)


def _new_room(table: Table, mode: str) -> Room:
    """A room with a fresh code (drawn again in the rare case it is taken), the
    codes of ended tables freed first. Run inside the creating transaction."""
    free_ended_codes()
    for _attempt in range(20):
        try:
            with transaction.atomic():
                return Room.objects.create(table=table, code=codes.new_code(), mode=mode)
        except IntegrityError:
            continue
    raise RuntimeError("no free join code after 20 draws")


def room_of(table: Table | int) -> Room | None:
    pk = table if isinstance(table, int) else table.pk
    return Room.objects.filter(table_id=pk).first()


# Every creation here is one transaction run as the table services run theirs
# (``_transaction``): on SQLite it takes this process's writer turn *before* the
# database's write lock, as every other action does. Taking them the other way
# round (a plain ``transaction.atomic`` around the services) made any other table
# action of the process wait on the database for its timeout and fail.

@_transaction
def create_screen_table(who: Who, game: str, seats: int | None = None, bots: dict[int, str] | None = None,
                        options: dict[str, Any] | None = None, clock: Any = None) -> Room:
    """A table hosted by the screen, without a seat for it; ``bots`` maps seat
    indices to bot levels."""
    # Private: the lobby does not offer its seats to strangers; the code is the invitation.
    table = create_table(who, game, seats, options, clock=clock, sit=False, private=True)
    by_level: dict[str, list[int]] = {}
    for index, level in sorted((bots or {}).items()):
        by_level.setdefault(level, []).append(index)
    for level, indices in by_level.items():
        add_bots(table.pk, who, level, indices)
    return _new_room(table, Room.Mode.SCREEN)


@_transaction
def room_for_table(table: Table) -> Room:
    """The screen room of an existing table (the booked session's), made once."""
    found = room_of(table)
    return found or _new_room(table, Room.Mode.SCREEN)


def clean_names(names: list[str | None], owner: Who) -> list[str | None]:
    """Seat names for pass-and-play: a person's name under the guests' rules
    (ludo.accounts.clean_guest_name: 2 to 40 printable characters, no control
    or direction characters, not an account's nor the house's), None for a bot.
    The device's own person may give their own name (an account's username)."""
    cleaned: list[str | None] = []
    for name in names:
        if name is None:
            cleaned.append(None)
            continue
        text = " ".join(str(name).split())[:MAX_NAME]
        if not text:
            raise TableError("name_required")
        try:
            cleaned.append(clean_guest_name(text))
        except NameTaken:
            if not owner.name or name_skeleton(text) != name_skeleton(owner.name):
                raise TableError("name_taken", text) from None
            cleaned.append(text)
        except ValueError as exc:
            raise TableError("bad_name", str(exc)) from None
    return cleaned


def _seat_everyone(table: Table, who: Who, names: list[str | None]) -> None:
    rows = _seats(table)
    for seat, name in zip(rows, names, strict=True):
        if name is None:
            continue
        seat_person(table, rows, seat, who, name)  # the pass-and-play exception to one seat each
        _record(table, "join", seat.index, payload={"name": name})
    _save(table, rows)
    _broadcast(table, "join", rows)


def create_pass_table(who: Who, game: str, names: list[str | None], level: str = "easy",
                      options: dict[str, Any] | None = None) -> Room:
    """A started pass-and-play table: ``names[i]`` plays seat i from this device
    (None: a bot of ``level``). At least one person; the game's player count.
    It is a table of ``who``'s like any other: the open-tables cap counts it
    while it is played (``too_many_tables``); the caller counts the creation in
    the person's and address's ``table-create`` budget (games.ratelimit)."""
    if not who.can_sit:
        raise TableError("name_required")
    _check_level(level)
    try:
        rules = engines.get(game)
    except KeyError:
        raise TableError("unknown_game") from None
    names = clean_names(list(names), who)
    if not any(name is not None for name in names):
        raise TableError("seats_empty")
    return _create_pass_table(who, rules.slug, names, level, options)


@_transaction
def _create_pass_table(who: Who, game: str, names: list[str | None], level: str,
                       options: dict[str, Any] | None) -> Room:
    table = create_table(who, game, len(names), options, sit=False, pass_and_play=True)
    _seat_everyone(_lock(table.pk), who, names)
    robots = [i for i, name in enumerate(names) if name is None]
    if robots:
        add_bots(table.pk, who, level, robots)
    start_table(table.pk, who)
    return _new_room(table, Room.Mode.PASS)


def find_room(code: str) -> Room:
    """The live room of a code (its table open or in play), or ``not_found``."""
    code = codes.normalise(code)
    if not codes.is_well_formed(code):
        raise TableError("not_found")
    room = Room.objects.select_related("table").filter(code=code, mode=Room.Mode.SCREEN).first()
    if room is None or room.table.status not in LIVE:
        raise TableError("not_found")
    return room


def join_by_code(code: str, who: Who) -> tuple[Room, int]:
    """Take a seat at the code's table, or find the one ``who`` already holds
    there (a phone coming back). Returns the room and the seat."""
    room = find_room(code)
    table = room.table
    mine = seats_of_person(_seats(table), who)
    if mine:
        return room, mine[0].index
    seat = join_table(table.pk, who, None, table.invite_token)
    return room, seat
