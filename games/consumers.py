"""WebSocket consumers. Thin: check the frame, rate-limit, call a service in a
database thread, answer. docs/protocol.md describes every message; the
performance plumbing (database threads, the frame sender, presence refreshes
written together) is in games.sockets.

Secrecy: a group message only ever says "table N is at version v". Each socket
then asks ``services.snapshot`` for the view of the seat *its own person*
holds, so nothing of another seat's view can reach it.

Answers: every request that carries an ``id`` gets exactly one answer frame
echoing it (``ack``, ``state``, ``pong`` or ``error``), refused and dropped
ones included. Order: on a table socket, nothing of the table (update,
presence, chat) comes before the ``state`` answering the first ``hello``.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from django.utils import timezone

from games import ratelimit, services, sockets
from games.protocol import (
    Message,
    ProtocolError,
    TableError,
    error_frame,
    frame_for,
    language_from_scope,
    parse,
    request_id,
)
from games.services import living
from games.sockets import FastSocket, db, poll_seconds, touches
from ludo import limits

log = logging.getLogger(__name__)


def server_time() -> str:
    """The protocol's one time format: ISO 8601 in UTC (as every ``at`` and
    ``clock.server_time``)."""
    return timezone.now().isoformat()


class PingConsumer(FastSocket):
    """Latency probe and keep-alive: answers {"t": "ping"} with a pong.

    Clients use it to show connection quality and to notice a dead socket
    (no pong within a few seconds) and reconnect.
    """

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any) -> None:
        language = language_from_scope(self.scope)
        if text_data is None:
            await self.send_json(error_frame("binary_not_supported", language=language))
            return
        try:
            message = parse(text_data)
        except ProtocolError as exc:
            await self.send_json(exc.frame(language))
            return
        if message.type != "ping":
            await self.send_json(error_frame("unknown_type", msg_id=message.id, language=language, field="t"))
            return
        await self.send_json({"t": "pong", "id": message.id, "server_time": server_time()})


class _Guarded(FastSocket):
    """Shared by the table and lobby sockets: frame checks, rate limits,
    translated errors."""

    async def websocket_connect(self, message: dict[str, Any]) -> None:
        self.language = language_from_scope(self.scope)
        limit, period = ratelimit.socket_limit()
        self.limit = ratelimit.SlidingWindow(limit, period)
        self.person_key = ""
        await super().websocket_connect(message)

    async def error(self, code: str, msg_id: Any = None, detail: str = "", **data: Any) -> None:
        await self.send_json(error_frame(code, detail, msg_id, self.language, **data))

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any) -> None:
        wait = await self._over_limit()
        if wait is not None:
            # Dropped, and told so: the answer echoes the request's id.
            msg_id = request_id(text_data) if text_data is not None else None
            await self.error("rate_limited", msg_id, retry_after=round(max(wait, 0.01), 2))
            return
        if text_data is None:
            await self.error("binary_not_supported")
            return
        try:
            message = parse(text_data)
        except ProtocolError as exc:
            await self.send_json(exc.frame(self.language))
            return
        try:
            await self.handle(message)
        except TableError as exc:
            await self.send_json(frame_for(exc, message.id, self.language))
        except Exception:
            # A bug must not close the socket nor disturb the other players.
            log.exception("table socket failed on a %s message", message.type)
            await self.error("server_error", message.id)

    async def _over_limit(self) -> float | None:
        """None when the message may be handled; else the seconds until it could be."""
        if not self.limit.hit():
            return self.limit.retry_after()
        if self.person_key:
            return await ratelimit.person_over(self.person_key)
        return None

    async def handle(self, message: Message) -> None:
        raise NotImplementedError

    async def pong(self, message: Message) -> None:
        await self.send_json({"t": "pong", "id": message.id, "server_time": server_time()})


def _person_key(who: services.Who, scope: dict[str, Any]) -> str:
    """The person's budget over all their sockets: account, guest identity, or
    else the address (a new socket is no new budget)."""
    return limits.person_key(who.user_id, who.guest_key, limits.scope_address(scope))


class TableConsumer(_Guarded):
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
        self.who = await db(services.Who.from_scope)(self.scope)
        self.person_key = _person_key(self.who, self.scope)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        poller = getattr(self, "poller", None)
        if poller is not None:
            poller.cancel()
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
        if kind == "ping":
            await self.pong(message)
            return
        if kind == "hello":
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
            await self.error("hello_first", msg_id)
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
                                              limits.scope_address(self.scope))
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
            self.person_key = _person_key(self.who, self.scope)
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
            interval = poll_seconds()
            if interval:
                self.poller = asyncio.create_task(self._poll(interval))

    async def _poll(self, interval: float) -> None:
        # The new version goes through this socket's own channel, so frames
        # stay in order with the other updates (versions only grow).
        read = db(services.current_version)
        while True:
            await asyncio.sleep(interval)
            try:
                version = await read(self.table_id)
            except Exception:
                log.exception("polling table %s failed", self.table_id)
                continue
            if version is not None and version > self.sent_v:
                await self.channel_layer.send(
                    self.channel_name, {"type": "table.update", "table": self.table_id, "v": version}
                )

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
        if self.opened and now - self.last_touch >= sockets.TOUCH_EVERY:
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


class LobbyConsumer(_Guarded):
    """The lobby: ``ws/lobby/``. The list of public tables, then one
    ``lobby_update`` per change."""

    async def connect(self) -> None:
        await self.accept()
        self.person_key = _person_key(await db(services.Who.from_scope)(self.scope), self.scope)
        await self.channel_layer.group_add(services.LOBBY_GROUP, self.channel_name)
        self.stamp = await db(services.lobby_stamp)()
        tables = await db(services.lobby_tables)()
        await self.send_json({"t": "lobby", "tables": tables})
        interval = poll_seconds()
        self.poller = asyncio.create_task(self._poll(interval * 2)) if interval else None

    async def disconnect(self, code: int) -> None:
        if getattr(self, "poller", None) is not None:
            self.poller.cancel()
        await self.channel_layer.group_discard(services.LOBBY_GROUP, self.channel_name)

    async def _poll(self, interval: float) -> None:
        read = db(services.lobby_stamp)
        while True:
            await asyncio.sleep(interval)
            try:
                stamp = await read()
            except Exception:
                log.exception("polling the lobby failed")
                continue
            if stamp != self.stamp:
                self.stamp = stamp
                await self.channel_layer.send(self.channel_name, {"type": "lobby.refresh"})

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
