"""One socket for several seats: pass-and-play, where one device plays every
seat of its person (docs/protocol.md, "Several seats on one socket").

A person may hold several seats of a table (games.living seats them so). Their
socket still gets one seat's view at a time: the one it chose with ``as``
(``AsSeat``: the person, narrowed to that seat), or the spectator's view while
the device is being passed. ``hands`` tells such a socket which seats it may
choose and which of them have something secret to see now.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.protocol import TableError
from games.services.store import _get, _seats
from games.services.tables import seats_of_person
from games.services.who import Who

WATCH = -1  # ``as`` value: none of my seats, the spectator's view


@dataclass(frozen=True)
class AsSeat(Who):
    """``who`` acting and seeing as one of the seats they hold (``as_seat``), or
    as nobody (``WATCH``). ``games.services.tables._seat_of`` honours it, so
    every check, view and move of the socket follows that one seat; taking a
    seat does not (``games.services.tables.check_one_seat`` asks ``person``)."""

    as_seat: int = WATCH

    @classmethod
    def of(cls, who: Who, seat: int) -> AsSeat:
        return cls(user_id=who.user_id, guest_key=who.guest_key, name=who.name, is_staff=who.is_staff,
                   as_seat=seat)

    @property
    def person(self) -> Who:
        return Who(user_id=self.user_id, guest_key=self.guest_key, name=self.name, is_staff=self.is_staff)


def held_seats(seats: Any, who: Who) -> list[int]:
    """The indices of the seats ``who`` holds in person (bots excluded)."""
    return [s.index for s in seats_of_person(seats, who)]


def seats_held(table_id: Any, who: Who) -> int:
    """How many seats of the table ``who`` holds in person (a pass-and-play device: all)."""
    return len(held_seats(_seats(_get(table_id)), who))


def choose_seat(table_id: Any, who: Who, seat: int | None) -> AsSeat:
    """``who`` narrowed to ``seat`` (None or WATCH: to nobody). Refused with
    ``not_your_seat`` when they do not hold it; nothing changes then."""
    if seat is None or seat == WATCH:
        return AsSeat.of(who, WATCH)
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise TableError("bad_seat")
    if seat not in held_seats(_seats(_get(table_id)), who):
        raise TableError("not_your_seat")
    return AsSeat.of(who, seat)


def _public(view: Any) -> Any:
    if isinstance(view, dict):
        return {k: v for k, v in view.items() if k not in ("seat", "legal_moves")}
    return view


def hands_info(frozen: Any, who: AsSeat) -> dict[str, Any]:
    """``hands``: the seats the socket's person holds; ``secret``: those of them
    whose turn must be hidden from the other players at the device: all of them
    while anything of the game is secret (a seat's view differs from the
    spectator's, such as a hand or a layout laid face down, or several seats
    choose at the same time), none in a game with nothing hidden."""
    hands = held_seats(frozen.seats, who)
    hidden = False
    if frozen.state is not None:
        public = _public(frozen.view(None))
        hidden = len(frozen.to_act) > 1 or any(
            _public(frozen.view(seat.index)) != public for seat in frozen.seats)
    return {"hands": hands, "secret": hands if hidden else []}
