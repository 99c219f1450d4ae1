"""Table chat: players talk among themselves, spectators in their own channel."""

from __future__ import annotations

import unicodedata
from typing import Any

from games.models import ChatMessage
from games.protocol import LONE_SURROGATE, MAX_CHAT_CHARS, TableError, is_text
from games.services.broadcasts import _send_after_commit, chat_group
from games.services.store import _get, _seats, _transaction
from games.services.tables import _can_watch, _seat_of
from games.services.who import Who

CHAT_BACKLOG = 50


def chat_backlog(table_id: int, channel: str) -> list[dict[str, Any]]:
    messages = ChatMessage.objects.filter(table_id=table_id, channel=channel).order_by("-id")[:CHAT_BACKLOG]
    return [m.to_dict() for m in reversed(list(messages))]



def clean_chat(text: Any) -> str:
    if not isinstance(text, str):
        raise TableError("bad_chat")
    if not is_text(text):
        raise TableError("bad_text", LONE_SURROGATE)
    # Drop control and format characters, keep line breaks out: one line per message.
    kept = "".join(
        ch for ch in text if unicodedata.category(ch)[0] != "C" or ch == " "
    )
    kept = " ".join(kept.split())
    if not 1 <= len(kept) <= MAX_CHAT_CHARS:
        raise TableError("bad_chat")
    return kept


@_transaction
def post_chat(table_id: Any, who: Who, text: Any, invite: str | None = None) -> dict[str, Any]:
    """Players talk among themselves; spectators have their own chat, which the
    players do not see."""
    text = clean_chat(text)
    who = who.current()  # never a deleted account's old name
    table = _get(table_id)
    seats = _seats(table)
    if not _can_watch(table, seats, who, invite):
        raise TableError("private_table")
    if not who.name:
        raise TableError("name_required")
    mine = _seat_of(seats, who)
    channel = ChatMessage.Channel.PLAYERS if mine is not None else ChatMessage.Channel.SPECTATORS
    message = ChatMessage.objects.create(
        table=table, channel=channel, seat=mine.index if mine else None, user_id=who.user_id,
        guest_key="" if who.user_id else who.guest_key, name=who.name, text=text, staff=who.is_staff,
    )
    data = message.to_dict()
    group = chat_group(table.pk, channel)
    _send_after_commit(group, {"type": "chat.message", "message": data})
    return data
