"""An account's name replaced at every table it sat at or made (its deletion).

A frame is built from a snapshot cached per table and version, in every server
process (games.services.snapshots): a seat renamed with a plain UPDATE would
still show the old name wherever that version is cached. So each table gets a
new version ("renamed", no seat, no move), as every change a frame shows does,
and its sockets are told; finished tables' pages read the new version.
"""

from __future__ import annotations

from games.models import Action, Seat, Table
from games.services.broadcasts import _broadcast
from games.services.store import _lock, _record, _save, _seats, _transaction


# Where an action's payload names a person: "create"/"join" {"name"}, "staff_end" {"by"}.
NAMED = ("name", "by")


def _rename_in_log(table_id: int, old: str, name: str) -> None:
    for action in Action.objects.filter(table_id=table_id).exclude(payload={}):
        payload = action.payload if isinstance(action.payload, dict) else {}
        if any(payload.get(key) == old for key in NAMED):
            action.payload = {k: (name if k in NAMED and v == old else v) for k, v in payload.items()}
            action.save(update_fields=["payload"])


@_transaction
def rename_account(user_id: int, name: str, old: str = "") -> list[int]:
    """Give every seat of ``user_id`` (and every table it made) ``name``, and the
    table's log the same where it named ``old``; one new version per table; the
    ids of the tables changed."""
    table_ids = set(Seat.objects.filter(user_id=user_id).values_list("table_id", flat=True))
    table_ids |= set(Table.objects.filter(created_by_id=user_id).values_list("pk", flat=True))
    for table_id in sorted(table_ids):  # one order for every caller: no deadlock between two deletions
        table = _lock(table_id)
        seats = _seats(table)
        for seat in seats:
            if seat.user_id == user_id:
                seat.name = name
        if table.created_by_id == user_id:
            table.creator_name = name
        if old:
            _rename_in_log(table.pk, old, name)
        _record(table, "renamed")
        _save(table, seats)
        _broadcast(table, "renamed", seats)
    return sorted(table_ids)
