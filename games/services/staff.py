"""What the hosts of the house (staff) do to tables: end one, remove a player,
hide a chat message. Each is logged (ModerationLog)."""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from games.models import ChatMessage, Connection, ModerationLog, Table
from games.protocol import TableError
from games.services.broadcasts import _broadcast, _send_after_commit, chat_group
from games.services.play import _finish, _hand_to_bot, _replacement_level
from games.services.store import _lock, _record, _save, _seats, _transaction
from games.services.who import Who


def _staff(who: Who) -> None:
    if not who.is_staff:
        raise TableError("staff_only")


def _moderation(table: Table | None, who: Who, kind: str, **detail: Any) -> None:
    ModerationLog.objects.create(table=table, staff_id=who.user_id, kind=kind, detail=detail)


@_transaction
def staff_end(table_id: Any, who: Who, reason: str = "") -> None:
    """A host ends an abandoned table (no result). A finished rated game the
    worker could not rate (games.ratings.jobs) is ended too: left unrated, so
    the sweep stops trying it."""
    _staff(who)
    table = _lock(table_id)
    if table.is_over:
        from games.ratings import service as ratings

        if not ratings.rating_pending(table):
            raise TableError("game_over")
        seats = _seats(table)
        ratings.leave_unrated(table, "ended_by_host")
        _record(table, "staff_end", None, payload={"by": who.name, "unrated": True})
        _save(table, seats)
        _moderation(table, who, "end", reason=reason[:200])
        _broadcast(table, "staff_end", seats, lobby=False)
        return
    seats = _seats(table)
    _record(table, "staff_end", None, payload={"by": who.name})
    _finish(table, seats, None, timezone.now(), status=Table.Status.ABORTED)
    _save(table, seats)
    _moderation(table, who, "end", reason=reason[:200])
    _broadcast(table, "staff_end", seats)


@_transaction
def staff_remove(table_id: Any, who: Who, seat: int, reason: str = "") -> None:
    """A host removes a player: before the start the seat is freed, during the
    game a bot takes it over."""
    _staff(who)
    table = _lock(table_id)
    if table.is_over:
        raise TableError("game_over")
    seats = _seats(table)
    if not isinstance(seat, int) or not 0 <= seat < len(seats):
        raise TableError("bad_seat")
    target = seats[seat]
    if not target.is_human:
        raise TableError("not_a_person")
    removed = target.name
    if table.status == Table.Status.OPEN:
        target.user_id = None
        target.guest_key = ""
        target.name = ""
        Connection.objects.filter(table=table, seat=seat).update(seat=None)
        _record(table, "staff_remove", seat)
    else:
        level = _replacement_level(table)
        _record(table, "staff_remove", seat, payload={"bot": level})
        _hand_to_bot(table, seats, target, level, timezone.now())
    _save(table, seats)
    _moderation(table, who, "remove", seat=seat, name=removed, reason=reason[:200])
    _broadcast(table, "staff_remove", seats)


@_transaction
def staff_hide_chat(message_id: Any, who: Who) -> dict[str, Any]:
    _staff(who)
    try:
        message = ChatMessage.objects.select_related("table").get(pk=int(message_id))
    except (ChatMessage.DoesNotExist, TypeError, ValueError):
        raise TableError("no_such_message") from None
    message.hidden = True
    message.save(update_fields=["hidden"])
    _moderation(message.table, who, "hide_chat", message=message.pk, name=message.name, text=message.text)
    data = message.to_dict()
    group = chat_group(message.table_id, message.channel)
    _send_after_commit(group, {"type": "chat.message", "message": data})
    return data
