"""WebSocket consumers. Thin: check the frame, rate-limit, call a service in a
database thread, answer. docs/protocol.md describes every message; what every
socket passes first (the person, their credentials, their slots and budgets) is
in games.guarded; the performance plumbing (database threads, the frame sender,
presence refreshes written together, the embedded configuration's polls) in
games.sockets.

Secrecy: a group message only ever says "table N is at version v". Each socket
then asks ``services.snapshot`` for the view of the seat *its own person*
holds, so nothing of another seat's view can reach it.

Answers: every request that carries an ``id`` gets exactly one answer frame
echoing it (``ack``, ``state``, ``pong`` or ``error``), refused and dropped
ones included. Order: on a table socket, nothing of the table (update,
presence, chat) comes before the ``state`` answering the first ``hello``, and
nothing but ``hello`` is handled before it: a socket whose hello failed is
never a deaf one that only answers pings (it is closed, code 4408, if no hello
succeeds within LUDO_WS_HELLO_SECONDS).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from django.conf import settings

from games import ratelimit, services, sockets
from games.guarded import GuardedSocket
from games.protocol import Message
from games.services import living
from games.sockets import db, poll_lobby, poll_table, poll_seconds, touches
from ludo import limits

__all__ = ["LobbyConsumer", "PingConsumer", "TableConsumer"]

log = logging.getLogger(__name__)

CLOSE_NO_HELLO = 4408


def hello_seconds() -> float:
    """How long a table socket may stay without its table opened (LUDO_WS_HELLO_SECONDS, 30)."""
    return float(getattr(settings, "LUDO_WS_HELLO_SECONDS", 30))


class PingConsumer(GuardedSocket):
    """Latency probe and keep-alive: answers {"t": "ping"} with a pong.

    Clients use it to show connection quality and to notice a dead socket
    (no pong within a few seconds) and reconnect.
    """

    async def handle(self, message: Message) -> None:
        if message.type != "ping":
            await self.error("unknown_type", message.id, field="t")
            return
        await self.pong(message)


class TableConsumer(GuardedSocket):
    """One live table: ``ws/tables/<id>/``. Open it with ``hello``; then every
    version of the table arrives as an ``update`` with this seat's view."""

    async def connect(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.joined = False  # in the table's groups, and recorded as present
        self.opened = False  # the state answering hello was sent: table frames may follow
        self.seat: int | None = None
        self.sent_v = -1
        self.sent_presence: dict[str, Any] | None = None
        self.invite: str | None = None
        self.chat_channel: str | None = None
        self.last_touch = 0.0
        self.poller: asyncio.Task | None = None
        self.acks_in_update = False
        self.as_seat: int | None = None  # the seat chosen with `as` (several seats held), or None
        await self.accept()
        self.unopened = asyncio.create_task(self._close_unless_opened(hello_seconds()))

    async def _close_unless_opened(self, seconds: float) -> None:
        await asyncio.sleep(seconds)
        if not self.opened and not self.closing:
            self.closing = True
            await self.close(CLOSE_NO_HELLO)

    async def disconnect(self, code: int) -> None:
        for task in (getattr(self, "poller", None), getattr(self, "unopened", None)):
            if task is not None:
                task.cancel()
        if not getattr(self, "joined", False):
            return
        await self.channel_layer.group_discard(f"table.{self.table_id}", self.channel_name)
        if self.chat_channel:
            await self.channel_layer.group_discard(self.chat_channel, self.channel_name)
        await db(services.disconnect)(self.channel_name)

    # -- from the client -------------------------------------------------------------------

    async def handle(self, message: Message) -> None:
        kind, f, msg_id = message.type, message.fields, message.id
        self._touch()  # any message shows the socket alive, not only pings
        if kind == "hello":
            if f.get("account") and self.who.user_id is None:
                # The page was opened signed in and this socket is nobody's: signed out
                # meanwhile (another tab), never to be opened as a visitor's.
                await self.signed_out()
                return
            self.acks_in_update = f.get("acks") == "update"
            if "as" in f and not self.joined:
                # Checked before the table opens: a refusal changes nothing.
                who = await db(services.Who.from_scope)(self.scope)
                self.who = await db(living.choose_seat)(self.table_id, who, f["as"])
                self.as_seat = self.who.as_seat
                await self._budget_for_seats()
            await self.open(f.get("since"), f.get("invite"), msg_id)
            return
        if not self.opened:
            # Pings included: a socket without its table must not look alive.
            await self.error("hello_first", msg_id)
            return
        if kind == "ping":
            await self.pong(message)
            return
        call = db
        t, who = self.table_id, self.who
        if kind == "sync":
            await self.send_state("state", f.get("since"), msg_id=msg_id)
            return
        if kind == "as":
            # One device, several seats: from now on this socket sees and acts as
            # that seat only (or as nobody); the state answering it is full.
            self.who = await call(living.choose_seat)(t, self._person(), f.get("seat"))
            self.as_seat = self.who.as_seat
            await self._budget_for_seats()
            await self.send_state("state", None, msg_id=msg_id)
            return
        if kind == "move":
            if services.async_moves():
                version = await services.play_move_async(t, who, f["move"], f["v"], f.get("seat"))
            else:
                version = await call(services.play_move)(t, who, f["move"], f["v"], f.get("seat"))
            if self.acks_in_update and version > self.sent_v:
                # The update of the version the move made answers it: one frame
                # instead of two, sent at once rather than after the broadcast's
                # round trip through the channel layer.
                try:
                    await self.send_state("update", self.sent_v, version=version, ack={"id": msg_id, "v": version})
                    return
                except Exception:
                    # The move is committed: whatever failed in reading it back,
                    # the player is told it was accepted (the update follows
                    # with the broadcast).
                    log.exception("the update answering a move on table %s failed", t)
            await self.ack(msg_id, v=version)
            return
        if kind in ("chat", "sit"):
            wait = await ratelimit.scope_over("join" if kind == "sit" else "chat", self.person_key,
                                              self.address)
            if wait is not None:
                await self.error("rate_limited", msg_id, retry_after=round(max(wait, 0.01), 2))
                return
        if kind == "chat":
            said = await call(services.post_chat)(t, who, f["text"], self.invite)
            await self.ack(msg_id, message=said["id"])
            return
        if kind == "sit":
            # The guest may have chosen a name in another tab since the socket opened.
            self.who = self._narrowed(await call(services.Who.from_scope)(self.scope))
            invite = f.get("invite") or self.invite
            seat = await call(services.join_table)(t, self.who, f.get("seat"), invite)
            await self.ack(msg_id, seat=seat)
            return
        result: Any = None
        if kind == "leave":
            await call(services.leave_table)(t, who)
        elif kind == "bots":
            result = await call(services.add_bots)(t, who, f["level"], f.get("seats"))
        elif kind == "unbot":
            await call(services.remove_bot)(t, who, f["seat"])
        elif kind == "start":
            await call(services.start_table)(t, who)
        elif kind == "draw":
            await call(services.draw)(t, who, f["action"])
        elif kind == "resign":
            await call(services.resign)(t, who)
        elif kind == "abort":
            await call(services.abort)(t, who)
        elif kind == "rematch":
            result = await call(services.rematch)(t, who)
        elif kind == "kick":
            await call(services.kick_absent)(t, who, f["seat"])
        elif kind == "end":
            await call(services.staff_end)(t, who)
        elif kind == "remove":
            await call(services.staff_remove)(t, who, f["seat"])
        elif kind == "hide_chat":
            await call(services.staff_hide_chat)(f["message"], who)
        else:  # a schema without a handler: a bug, reported as such
            raise RuntimeError(f"no handler for {kind}")
        await self.ack(msg_id, result=result)

    def _person(self) -> services.Who:
        return self.who.person if isinstance(self.who, living.AsSeat) else self.who

    async def _budget_for_seats(self) -> None:
        """A socket that plays several seats (one device passed around) speaks for that
        many players: its message budget is one player's times the seats it holds."""
        held = await db(living.seats_held)(self.table_id, self._person())
        self.limit.limit = ratelimit.socket_limit()[0] * max(1, held)

    def _narrowed(self, who: services.Who) -> services.Who:
        """``who`` still acting as the seat this socket chose (``as``), if it chose one."""
        return who if self.as_seat is None else living.AsSeat.of(who, self.as_seat)

    async def ack(self, msg_id: Any, **data: Any) -> None:
        await self.send_json({"t": "ack", "id": msg_id, **{k: v for k, v in data.items() if v is not None}})

    async def open(self, since: int | None, invite: str | None, msg_id: Any = None) -> None:
        if not self.joined:
            self.who = self._narrowed(await db(services.Who.from_scope)(self.scope))
            self.person_key = limits.person_key(self.who.user_id, self.who.guest_key, self.address)
            table, seat = await db(services.open_table)(self.table_id, self.who, invite)
            self.invite = invite
            # Join the group before reading the state: no version can fall between.
            await self.channel_layer.group_add(f"table.{self.table_id}", self.channel_name)
            self.joined = True
            await self._set_seat(seat)
            await db(services.connect)(self.table_id, self.channel_name, self.who, seat)
        await self.send_state("state", since, welcome=True, msg_id=msg_id)
        if not self.opened:
            # Only now may updates, presence and chat reach this socket: the
            # state came first (one socket's frames are handled one at a time).
            self.opened = True
            self.unopened.cancel()
            interval = poll_seconds()
            if interval:
                self.poller = asyncio.create_task(poll_table(self, interval))

    async def send_state(self, frame: str, since: int | None, welcome: bool = False,
                         version: int | None = None, ack: dict[str, Any] | None = None,
                         msg_id: Any = None) -> None:
        snap = None
        if version is not None and not welcome:
            snap = services.cached_snapshot(self.table_id, self.who, since, version)
        if snap is None:
            snap = await db(self._read)(since, welcome, version)
        await self._set_seat(snap["seat"])
        self.sent_v = max(self.sent_v, snap["v"])
        if "presence" in snap:
            self.sent_presence = snap["presence"]
        if ack is not None:
            snap["ack"] = ack
        if msg_id is not None:
            snap["id"] = msg_id
        await self.send_json({"t": frame, **snap})

    def _read(self, since: int | None, welcome: bool, version: int | None) -> dict[str, Any]:
        snap = services.snapshot(self.table_id, self.who, since, version=version)
        if welcome:
            snap["presence"] = services.presence(self.table_id)
            channel = "players" if snap["seat"] is not None else "spectators"
            snap["chat"] = services.chat_backlog(self.table_id, channel)
        return snap

    async def _set_seat(self, seat: int | None) -> None:
        """Follow the seat this person holds now: it decides which chat they hear."""
        self.seat = seat
        wanted = services.chat_group(self.table_id, "players" if seat is not None else "spectators")
        if wanted != self.chat_channel:
            if self.chat_channel:
                await self.channel_layer.group_discard(self.chat_channel, self.channel_name)
            await self.channel_layer.group_add(wanted, self.channel_name)
            self.chat_channel = wanted
            if self.opened:
                await db(services.connect)(self.table_id, self.channel_name, self.who, seat)

    def _touch(self) -> None:
        now = time.monotonic()
        if self.joined and now - self.last_touch >= sockets.TOUCH_EVERY:
            self.last_touch = now
            touches().add(self)

    # -- from the channel layer ----------------------------------------------------------------

    async def table_update(self, event: dict[str, Any]) -> None:
        if not self.opened or event.get("v", 0) <= self.sent_v:
            return
        await self.send_state("update", self.sent_v, version=event["v"])

    async def table_presence(self, event: dict[str, Any]) -> None:
        if not self.opened:
            return
        # The event says that presence changed. What it carries may be older than
        # this socket's state (broadcasts travel on a connection of their own and
        # may reach Redis after this socket subscribed): read it now, and say it
        # only if it differs from what this socket was last told.
        info = await db(services.presence)(self.table_id)
        if info != self.sent_presence:
            self.sent_presence = info
            await self.send_json({"t": "presence", **info})

    async def chat_message(self, event: dict[str, Any]) -> None:
        if self.opened:
            await self.send_json({"t": "chat", "message": event["message"]})


class LobbyConsumer(GuardedSocket):
    """The lobby: ``ws/lobby/``. The list of public tables, then one
    ``lobby_update`` per change."""

    async def connect(self) -> None:
        await self.accept()
        await self.channel_layer.group_add(services.LOBBY_GROUP, self.channel_name)
        self.stamp = await db(services.lobby_stamp)()
        tables = await db(services.lobby_tables)()
        await self.send_json({"t": "lobby", "tables": tables})
        interval = poll_seconds()
        self.poller = asyncio.create_task(poll_lobby(self, interval * 2)) if interval else None

    async def disconnect(self, code: int) -> None:
        if getattr(self, "poller", None) is not None:
            self.poller.cancel()
        await self.channel_layer.group_discard(services.LOBBY_GROUP, self.channel_name)

    async def lobby_refresh(self, event: dict[str, Any]) -> None:
        tables = await db(services.lobby_tables)()
        await self.send_json({"t": "lobby", "tables": tables})

    async def handle(self, message: Message) -> None:
        if message.type == "ping":
            await self.pong(message)
        elif message.type in ("hello", "sync"):
            tables = await db(services.lobby_tables)()
            frame: dict[str, Any] = {"t": "lobby", "tables": tables}
            if message.id is not None:
                frame["id"] = message.id
            await self.send_json(frame)
        else:
            await self.error("unknown_type", message.id, field="t")

    async def lobby_update(self, event: dict[str, Any]) -> None:
        await self.send_json({"t": "lobby_update", "table": event["table"], "entry": event["entry"]})
