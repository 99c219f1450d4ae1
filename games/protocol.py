"""The table protocol's messages: their shapes, and the errors a client can get.

Pure Python plus Django's translation functions; no database. The consumer
parses every frame with :func:`parse`, the services raise :class:`TableError`,
and both become ``{"t": "error", "code": ..., "message": ...}`` frames built by
:func:`error_frame`. Codes are stable machine words; the message is the same
thing in the reader's language. docs/protocol.md documents all of it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext_lazy as _

MAX_FRAME_BYTES = 16 * 1024
# The largest WebSocket message the server reads at all (daphne's
# --websocket-max-message-size, which every place that starts daphne passes):
# a frame above MAX_FRAME_BYTES and up to this gets frame_too_large on an open
# socket; above it, the server closes the socket with code 1009 (message too big).
MAX_SOCKET_MESSAGE_BYTES = 1024 * 1024
MAX_MOVE_CHARS = 500
MAX_CHAT_CHARS = 500
MAX_ID_CHARS = 64
MAX_INVITE_CHARS = 64
MAX_SEATS = 64  # far above any game; only bounds the list a client may send

ERROR_MESSAGES: dict[str, Any] = {
    # frames and shapes
    "bad_json": _("The message is not valid JSON."),
    "bad_message": _("The message is malformed."),
    "unknown_type": _("Unknown message type."),
    "frame_too_large": _("The message is too large."),
    "binary_not_supported": _("Binary messages are not accepted."),
    "rate_limited": _("Too many messages: please slow down."),
    "bad_text": _("The text is not valid Unicode."),
    "hello_first": _("Open the table first (send hello)."),
    "server_error": _("Something went wrong on the server; the table is unchanged."),
    # who may do what
    "not_found": _("There is no such table."),
    "private_table": _("This table is private: you need its invitation link."),
    "name_required": _("Choose a display name (or log in) first."),
    "account_required": _("Rated tables are for players with an account."),
    "unconfirmed_account": _("Rated tables are for accounts whose email address is confirmed: "
                             "follow the link in the confirmation email first."),
    "not_host": _("Only the table's host can do that."),
    "staff_only": _("Only the hosts of the house can do that."),
    "not_seated": _("You do not have a seat at this table."),
    "not_your_seat": _("That seat is not yours."),
    "already_seated": _("You already have a seat at this table."),
    "bad_name": _("A name needs 2 to 40 printable characters."),
    "name_taken": _("This name belongs to an account or to the house: choose another one."),
    # creating and filling a table
    "unknown_game": _("This game cannot be played online."),
    "bad_options": _("These table options are not valid."),
    "bad_seats": _("This game cannot be played with that many players."),
    "bad_clock": _("This time control is not valid."),
    "bad_level": _("There is no such bot level."),
    "bad_seat": _("There is no such seat."),
    "seat_taken": _("This seat is taken."),
    "table_full": _("The table is full."),
    "too_many_tables": _("You already have as many tables waiting for players as one person may: "
                         "start one or leave one first."),
    "seats_empty": _("Every seat must be taken before the game starts."),
    "not_a_bot": _("There is no bot on this seat."),
    "not_a_person": _("Nobody is sitting on this seat."),
    # playing
    "not_open": _("The game has already started."),
    "not_running": _("The game is not being played."),
    "game_over": _("The game is over."),
    "stale_version": _("The table has changed since you last saw it."),
    "not_your_turn": _("It is not your turn."),
    "illegal_move": _("This move is not allowed."),
    "no_draw_offer": _("There is no draw offer to answer."),
    "draw_with_bots": _("Bots do not accept draws."),
    "already_offered": _("You have already made this offer."),
    "too_late_to_abort": _("Too late to abort: everybody has moved. You can resign."),
    "not_finished": _("The game is not over yet."),
    "not_absent": _("This player is not away, or not for long enough."),
    "bad_chat": _("A chat message needs 1 to 500 characters."),
    "no_such_message": _("There is no such chat message."),
}


class TableError(Exception):
    """An action refused: ``code`` is a key of ERROR_MESSAGES; ``detail`` is an
    extra English explanation (an engine's reason for an illegal move, the bad
    field); ``data`` goes into the error frame as is (the table's version)."""

    def __init__(self, code: str, detail: str = "", **data: Any) -> None:
        if code not in ERROR_MESSAGES:
            raise ValueError(f"unknown error code {code!r}")
        super().__init__(f"{code}: {detail}" if detail else code)
        self.code = code
        self.detail = detail
        self.data = data


def error_frame(code: str, detail: str = "", msg_id: Any = None, language: str | None = None, **data: Any) -> dict:
    """The frame (or JSON body) that tells a client why its request was refused."""
    with translation.override(language or settings.LANGUAGE_CODE):
        message = str(ERROR_MESSAGES[code])
    frame: dict[str, Any] = {"t": "error", "code": code, "message": message}
    if detail:
        frame["detail"] = detail
    if msg_id is not None:
        frame["id"] = msg_id
    frame.update(data)
    return frame


def frame_for(error: TableError, msg_id: Any = None, language: str | None = None) -> dict:
    return error_frame(error.code, error.detail, msg_id, language, **error.data)


# -- messages a client sends --------------------------------------------------------------

@dataclass(frozen=True)
class Field:
    kind: type | tuple[type, ...]
    required: bool = False
    max_chars: int | None = None
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    items: type | None = None  # for lists
    max_items: int | None = None


_VERSION = Field(int, minimum=0, maximum=2**31)
_SEAT = Field(int, minimum=0, maximum=MAX_SEATS)

SCHEMAS: dict[str, dict[str, Field]] = {
    "hello": {"since": _VERSION, "invite": Field(str, max_chars=MAX_INVITE_CHARS),
              "acks": Field(str, choices=("frame", "update")),
              "as": Field(int, minimum=-1, maximum=MAX_SEATS), "account": Field(bool)},
    "as": {"seat": Field(int, minimum=-1, maximum=MAX_SEATS)},
    "ping": {},
    "sync": {"since": _VERSION},
    "sit": {"seat": _SEAT, "invite": Field(str, max_chars=MAX_INVITE_CHARS)},
    "leave": {},
    "bots": {
        "level": Field(str, required=True, max_chars=20),
        "seats": Field(list, items=int, max_items=MAX_SEATS),
    },
    "unbot": {"seat": Field(int, required=True, minimum=0, maximum=MAX_SEATS)},
    "start": {},
    "move": {
        "move": Field(str, required=True, max_chars=MAX_MOVE_CHARS),
        "v": Field(int, required=True, minimum=0, maximum=2**31),
        "seat": _SEAT,
    },
    "draw": {"action": Field(str, required=True, choices=("offer", "accept", "decline"))},
    "resign": {},
    "abort": {},
    "rematch": {},
    "kick": {"seat": Field(int, required=True, minimum=0, maximum=MAX_SEATS)},
    "chat": {"text": Field(str, required=True, max_chars=MAX_CHAT_CHARS * 4)},
    # hosts of the house (staff) only
    "end": {},
    "remove": {"seat": Field(int, required=True, minimum=0, maximum=MAX_SEATS)},
    "hide_chat": {"message": Field(int, required=True, minimum=1, maximum=2**62)},
}


@dataclass(frozen=True)
class Message:
    type: str
    fields: dict[str, Any] = field(default_factory=dict)
    id: Any = None


class ProtocolError(Exception):
    def __init__(self, code: str, field_name: str | None = None, msg_id: Any = None) -> None:
        super().__init__(code if field_name is None else f"{code} ({field_name})")
        self.code = code
        self.field = field_name
        self.msg_id = msg_id

    def frame(self, language: str | None = None) -> dict:
        extra = {"field": self.field} if self.field else {}
        detail = LONE_SURROGATE if self.code == "bad_text" else ""
        return error_frame(self.code, detail, msg_id=self.msg_id, language=language, **extra)


LONE_SURROGATE = "a lone surrogate (U+D800 to U+DFFF) is not a Unicode character"


def is_text(value: str) -> bool:
    """Whether a string is Unicode text: JSON's \\u escapes can spell a lone
    surrogate, which no UTF-8 frame can carry back."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _is(value: Any, kind: type | tuple[type, ...]) -> bool:
    # bool is an int in Python, never in this protocol.
    if isinstance(value, bool):
        return kind is bool or (isinstance(kind, tuple) and bool in kind)
    return isinstance(value, kind)


def _check(name: str, spec: Field, value: Any, msg_id: Any) -> Any:
    if not _is(value, spec.kind):
        raise ProtocolError("bad_message", name, msg_id)
    if isinstance(value, str):
        if not is_text(value):
            raise ProtocolError("bad_text", name, msg_id)
        if spec.max_chars is not None and len(value) > spec.max_chars:
            raise ProtocolError("bad_message", name, msg_id)
        if spec.choices and value not in spec.choices:
            raise ProtocolError("bad_message", name, msg_id)
    if isinstance(value, int):
        if (spec.minimum is not None and value < spec.minimum) or (
            spec.maximum is not None and value > spec.maximum
        ):
            raise ProtocolError("bad_message", name, msg_id)
    if isinstance(value, list):
        if spec.max_items is not None and len(value) > spec.max_items:
            raise ProtocolError("bad_message", name, msg_id)
        if spec.items is not None and not all(_is(item, spec.items) for item in value):
            raise ProtocolError("bad_message", name, msg_id)
    return value


def _message_id(content: Mapping[str, Any]) -> Any:
    msg_id = content.get("id")
    if msg_id is None:
        return None
    if _is(msg_id, int) and abs(msg_id) < 2**53:
        return msg_id
    if isinstance(msg_id, str) and len(msg_id) <= MAX_ID_CHARS:
        if not is_text(msg_id):
            raise ProtocolError("bad_text", "id")
        return msg_id
    return None


def request_id(text: str) -> Any:
    """The ``id`` of a frame the server will not handle (over the rate limit),
    to echo in its answer; None when it has none or cannot be read."""
    if len(text) > MAX_FRAME_BYTES:
        return None
    try:
        content = json.loads(text)
        return _message_id(content) if isinstance(content, dict) else None
    except (ValueError, RecursionError, ProtocolError):
        return None


def parse(text: str) -> Message:
    """A checked message from one text frame, or ProtocolError naming the problem.

    Unknown fields are ignored (newer clients may send more); known fields must
    have the right type and bounds; ``id`` (a short string or a number) is echoed
    in the answer so a client can match it.
    """
    if len(text) > MAX_FRAME_BYTES or len(text.encode("utf-8", "surrogatepass")) > MAX_FRAME_BYTES:
        raise ProtocolError("frame_too_large")
    try:
        content = json.loads(text)
    except (ValueError, RecursionError):
        raise ProtocolError("bad_json") from None
    if not isinstance(content, dict):
        raise ProtocolError("bad_message")
    msg_id = _message_id(content)
    kind = content.get("t")
    if not isinstance(kind, str):
        raise ProtocolError("bad_message", "t", msg_id)
    schema = SCHEMAS.get(kind)
    if schema is None:
        raise ProtocolError("unknown_type", "t", msg_id)
    fields: dict[str, Any] = {}
    for name, spec in schema.items():
        if name not in content or content[name] is None:
            if spec.required:
                raise ProtocolError("bad_message", name, msg_id)
            continue
        fields[name] = _check(name, spec, content[name], msg_id)
    return Message(kind, fields, msg_id)


def language_from_scope(scope: Mapping[str, Any]) -> str:
    """The reader's language for a socket: the language cookie, then
    Accept-Language, then the site's default (French)."""
    supported = {code for code, _name in settings.LANGUAGES}
    cookies = scope.get("cookies") or {}
    chosen = cookies.get(settings.LANGUAGE_COOKIE_NAME)
    if chosen in supported:
        return chosen
    for key, value in scope.get("headers") or ():
        if key.lower() == b"accept-language":
            for part in value.decode("latin-1").split(","):
                code = part.split(";")[0].strip().lower().split("-")[0]
                if code in supported:
                    return code
    return settings.LANGUAGE_CODE
