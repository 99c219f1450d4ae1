"""Version snapshots and the frames built from them.

A broadcast says only "table N is at version v". Each socket then builds the
frame of *its own* seat from the table as it was at that version: read once per
version and process (``_Frozen``), kept in a small cache, and shared by every
socket of the table on this process.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from games.engines.base import Rules
from games.models import Action, Seat, Table
from games.protocol import TableError
from games.ratings.privacy import NOBODY, RatedPlayers, has_ratings, outcome_for, rated_players
from games.services.clocks import _clock_info
from games.services.living import hands_info
from games.services.lobby import seat_public
from games.services.store import _after_commit, _get, _seat_rows, _seat_values
from games.services.tables import _is_host, _seat_of, _state, rules_for
from games.services.who import Who

log = logging.getLogger(__name__)

RESYNC_EVENTS = 20  # a client at most this many versions behind gets the events it missed


def _event(action: Action, seat: int | None, who: Who | None = None,
           players: RatedPlayers = NOBODY) -> dict[str, Any]:
    event = {
        "v": action.version,
        "kind": action.kind,
        "seat": action.seat,
        "at": action.created_at.isoformat() if action.created_at else None,
    }
    if action.payload:
        event["data"] = action.payload
        if action.kind == "rated" and who is not None:
            event["data"] = outcome_for(action.payload, who, players)
    # A move may be a secret (a card chosen face down): only its author sees it.
    if action.move and action.seat is not None and action.seat == seat:
        event["move"] = action.move
    return event


@dataclass
class _Frozen:
    """A table exactly as it was at one version, with what its sockets need.

    Read once per version and process: every socket of the table then builds
    its own frame from it (its seat's view is computed once per seat), instead
    of each reading the database again for the same version.
    """

    table: Table
    seats: list[Seat]
    actions: list[Action]  # the last RESYNC_EVENTS actions up to this version
    rules: Rules | None = None
    state: Any = None
    to_act: list[int] = field(default_factory=list)
    views: dict[int | None, Any] = field(default_factory=dict)
    legal: dict[int, list[str]] = field(default_factory=dict)
    _common: dict[str, Any] | None = field(default=None, repr=False)

    def common(self) -> dict[str, Any]:
        """The fields of a snapshot that are the same for every socket, built
        once per version (each socket's frame shares them; nobody changes them)."""
        if self._common is None:
            table = self.table
            self._common = {
                "table": table.pk,
                "game": table.game,
                "status": table.status,
                "v": table.version,
                "seats": [seat_public(s) for s in self.seats],
                "options": table.options,
                "rated": table.rated,
                "private": table.private,
                "draw_offers": list(table.draw_offers),
                "rematch_offers": list(table.rematch_offers),
                "rematch": table.rematch_id,
                "outcome": table.outcome,
                "to_act": list(self.to_act),
                "countdown": table.countdown_deadline.isoformat() if table.countdown_deadline else None,
            }
        return self._common

    def view(self, seat: int | None) -> Any:
        if seat not in self.views:
            self.views[seat] = self.rules.view(self.state, seat)
        return self.views[seat]

    def legal_moves(self, seat: int) -> list[str]:
        if seat not in self.legal:
            self.legal[seat] = self.rules.legal_moves(self.state, seat)
        return self.legal[seat]


FROZEN_MAX = 1024
OPTIMISTIC_READS = 3
_frozen: OrderedDict[tuple[int, int], _Frozen] = OrderedDict()
_frozen_lock = threading.Lock()


def _cached(key: tuple[int, int]) -> _Frozen | None:
    with _frozen_lock:
        found = _frozen.get(key)
        if found is not None:
            _frozen.move_to_end(key)
        return found


def forget_table(sender: Any = None, instance: Table | None = None, created: bool = False, **kwargs: Any) -> None:
    """Drop what this process remembers of a table id. Connected to Table's
    post_save for new rows: a test database that rolls back may hand out an id
    again, and a cached version of the old table must not answer for the new one."""
    if instance is None or not created:
        return
    with _frozen_lock:
        for key in [k for k in _frozen if k[0] == instance.pk]:
            del _frozen[key]


def _freeze(table_id: Any, version: int | None = None) -> _Frozen:
    """The table at ``version`` if this process already read it, else as it is now."""
    if version is not None:
        try:
            found = _cached((int(table_id), int(version)))
        except (TypeError, ValueError):
            found = None
        if found is not None:
            return found
    try:
        pk = int(table_id)
    except (TypeError, ValueError):
        raise TableError("not_found") from None
    # Every change a frame shows appends an action and bumps the version in the
    # same transaction. Read the last actions first and the table row last: if
    # the table is still at the last action's version, nothing was committed
    # in between, and the three reads saw one and the same version. A table
    # that keeps moving under these reads is read once more in a transaction
    # that holds its row: a frame never mixes two versions.
    for _attempt in range(OPTIMISTIC_READS):
        actions, seats, table = _read(pk)
        if _consistent(actions, table):
            break
    else:
        actions, seats, table = _read_holding_the_row(pk)
    found = _cached((table.pk, table.version))
    if found is not None:
        return found
    if not _consistent(actions, table):
        # Not expected (the row was held): a full state, without events, is
        # still true; events that might skip a version are not.
        log.error("table %s: version %s read without its log entry", table.pk, table.version)
        actions = []
    for seat in seats:
        seat._loaded = _seat_values(seat)
    frozen = _Frozen(table, seats, actions)
    if table.state is not None:
        frozen.rules = rules_for(table)
        frozen.state = _state(table, frozen.rules)
        if table.status == Table.Status.RUNNING:
            frozen.to_act = list(frozen.rules.to_act(frozen.state))
    if actions:
        _store(frozen)
    return frozen


def _read(pk: int) -> tuple[list[Action], list[Seat], Table]:
    actions = list(Action.objects.filter(table_id=pk).order_by("-version")[:RESYNC_EVENTS])
    actions.reverse()
    seats = _seat_rows(pk)
    return actions, seats, _get(pk)


def _consistent(actions: list[Action], table: Table) -> bool:
    return bool(actions) and actions[-1].version == table.version


# Set while _read_holding_the_row reads (tests interleave commits only outside it).
_consistent_reads: ContextVar[bool] = ContextVar("ludo_consistent_reads", default=False)


def _read_holding_the_row(pk: int) -> tuple[list[Action], list[Seat], Table]:
    """The three reads in one transaction that holds the table's row (FOR
    SHARE: every action locks it FOR UPDATE, so none commits meanwhile; on
    SQLite a transaction reads one snapshot of the whole database)."""
    token = _consistent_reads.set(True)
    try:
        with transaction.atomic():
            if connection.vendor == "postgresql":
                with connection.cursor() as cursor:
                    cursor.execute(_SHARE_SQL, [pk])
            return _read(pk)
    finally:
        _consistent_reads.reset(token)


_SHARE_SQL = "SELECT 1 FROM games_table WHERE id = %s FOR SHARE"


def _store(frozen: _Frozen) -> None:
    with _frozen_lock:
        _frozen[(frozen.table.pk, frozen.table.version)] = frozen
        while len(_frozen) > FROZEN_MAX:
            _frozen.popitem(last=False)


def _remember(table: Table, seats: list[Seat], rules: Rules, state: Any) -> None:
    """Once the transaction commits, keep the table as this process just wrote
    it for its own sockets (they would read back exactly this): the version a
    player's move made needs no read on the process that took the move.

    Only when this process holds the version before (for the last actions);
    call it before ``_broadcast`` so the version is there when sockets ask.
    """
    recorded = list(getattr(table, "_recorded", ()))
    if not recorded:
        return

    def keep() -> None:
        before = _cached((table.pk, recorded[0].version - 1))
        if before is None:
            return
        frozen = _Frozen(table, seats, (before.actions + recorded)[-RESYNC_EVENTS:], rules, state)
        if table.status == Table.Status.RUNNING:
            frozen.to_act = list(rules.to_act(state))
        _store(frozen)

    _after_commit(keep)


def snapshot(table_id: Any, who: Who, since: int | None = None, now: datetime | None = None,
             version: int | None = None) -> dict[str, Any]:
    """Everything one socket may know of the table now, for the seat ``who`` holds.

    ``view`` is ``rules.view(state, seat)`` for that seat (``None``: the spectator
    view); ``legal`` lists that seat's legal moves. With ``since``, ``events``
    lists what happened after that version (up to RESYNC_EVENTS of them; further
    behind, ``events`` is None and ``full`` is true: the view is all there is).
    ``version`` (the one a broadcast announced) lets a socket use what this
    process already read for it. Permission to watch is checked once, when the
    socket opens the table.
    """
    frozen = _freeze(table_id, version)
    # Read at each call: a player may make their profile private at any time.
    players = rated_players(frozen.table.pk, frozen.table.outcome)
    return _snapshot_of(frozen, who, since, now or timezone.now(), players)


def cached_snapshot(table_id: int, who: Who, since: int | None, version: int) -> dict[str, Any] | None:
    """``snapshot`` at ``version`` if this process holds that version already
    (no database access: a socket may call it from the event loop), else None.
    A rated game's end is always read (who may see its ratings is a question
    for the database)."""
    frozen = _cached((table_id, version))
    if frozen is None or has_ratings(frozen.table.outcome):
        return None
    return _snapshot_of(frozen, who, since, timezone.now(), NOBODY)


def _snapshot_of(frozen: _Frozen, who: Who, since: int | None, now: datetime,
                 players: RatedPlayers) -> dict[str, Any]:
    table, seats = frozen.table, frozen.seats
    mine = _seat_of(seats, who)
    seat = mine.index if mine else None
    data: dict[str, Any] = {
        **frozen.common(),
        "outcome": outcome_for(table.outcome, who, players),
        "seat": seat,
        "host": _is_host(table, seats, who),
        "clock": _clock_info(table, seats, now),
        "view": None,
        "legal": [],
    }
    if table.private and (seat is not None or data["host"] or who.is_staff):
        data["invite"] = table.invite_token
    if frozen.state is not None:
        data["view"] = frozen.view(seat)
        if seat is not None and seat in frozen.to_act:
            data["legal"] = frozen.legal_moves(seat)
    if getattr(who, "as_seat", None) is not None:
        data.update(hands_info(frozen, who))
    if since is None or since > table.version or table.version - since > RESYNC_EVENTS or not frozen.actions:
        data["events"] = None
        data["full"] = True
    else:
        data["events"] = [_event(a, seat, who, players) for a in frozen.actions if a.version > since]
        data["full"] = False
    return data
