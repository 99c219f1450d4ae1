"""The gate every socket of the site passes (games.consumers): who is asking, how
many sockets they hold, how fast they talk, and whether they still may.

- At the handshake: the person (``services.Who``) and their credentials
  (games.socket_credentials) are read once; a person holding all their slots
  (games.socket_slots) is accepted and closed at once (close code 4429); the
  socket joins the groups its credentials are pushed to and the process's
  credential check round.
- At each message, cheapest first: the socket's own window (memory), the
  person's budget over all their sockets, the address's over all its people
  (``ludo.limits``, Redis when configured); then the credentials, when the last
  check is older than LUDO_WS_CREDENTIALS_SECONDS; then the frame's shape; then
  the consumer's ``handle``. A refused message is answered (``rate_limited``,
  with its id); a socket whose credentials fell is closed (4401).
"""

from __future__ import annotations

import logging
import time
from typing import Any

from django.conf import settings
from django.utils import timezone

from games import ratelimit, services
from games import socket_credentials as credentials
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
from games.socket_slots import CLOSE_TOO_MANY, slots
from games.sockets import FastSocket, db
from ludo import limits

log = logging.getLogger(__name__)


def server_time() -> str:
    """The protocol's one time format: ISO 8601 in UTC (as every ``at`` and
    ``clock.server_time``)."""
    return timezone.now().isoformat()


def address_limit() -> tuple[int, float]:
    """Messages per address over all its sockets and people (LUDO_WS_ADDRESS_RATE_LIMIT)."""
    limit, period = getattr(settings, "LUDO_WS_ADDRESS_RATE_LIMIT", (600, 20.0))
    return int(limit), float(period)


def _identify(scope: dict[str, Any]) -> tuple[services.Who, credentials.Credentials]:
    return services.Who.from_scope(scope), credentials.Credentials.from_scope(scope)


class GuardedSocket(FastSocket):
    """A site socket: subclasses write ``handle(message)``; ``self.who`` is the
    person as the socket opened, ``self.person_key`` their budget's key."""

    closing = False  # closed by the server (signed out, too many sockets, no hello): nothing more is sent

    async def websocket_connect(self, message: dict[str, Any]) -> None:
        self.language = language_from_scope(self.scope)
        limit, period = ratelimit.socket_limit()
        self.limit = ratelimit.SlidingWindow(limit, period)
        self.address = limits.scope_address(self.scope)
        self.who, self.credentials = await db(_identify)(self.scope)
        self.person_key = limits.person_key(self.who.user_id, self.who.guest_key, self.address)
        self.credentials_checked_at = time.monotonic()
        self.closing = False
        if not await slots().take(self.person_key, self.channel_name):
            self.closing = True
            await self.accept()
            await self.close(CLOSE_TOO_MANY)
            return
        self.groups = self.credentials.groups()
        if self.credentials.checked:
            credentials.watch().add(self)
        await super().websocket_connect(message)

    async def websocket_disconnect(self, message: dict[str, Any]) -> None:
        credentials.watch().discard(self)
        await slots().release(self.channel_name)
        await super().websocket_disconnect(message)

    async def send_json(self, content: Any, close: bool = False) -> None:
        if not self.closing:  # nothing more once closed (signed out, too many sockets)
            await super().send_json(content, close)

    async def error(self, code: str, msg_id: Any = None, detail: str = "", **data: Any) -> None:
        await self.send_json(error_frame(code, detail, msg_id, self.language, **data))

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None,
                      **kwargs: Any) -> None:
        if self.closing:
            return
        wait = await self._over_limit()
        if wait is not None:
            # Dropped, and told so: the answer echoes the request's id.
            msg_id = request_id(text_data) if text_data is not None else None
            await self.error("rate_limited", msg_id, retry_after=round(max(wait, 0.01), 2))
            return
        if not await self._credentials_stand():
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
            log.exception("socket failed on a %s message", message.type)
            await self.error("server_error", message.id)

    async def _over_limit(self) -> float | None:
        """None when the message may be handled; else the seconds until it could be."""
        if not self.limit.hit():
            return self.limit.retry_after()
        if self.person_key:
            wait = await ratelimit.person_over(self.person_key)
            if wait is not None:
                return wait
        if self.address:
            verdict = await limits.aallow("ws:address", self.address, address_limit())
            if not verdict:
                return verdict.retry_after
        return None

    async def handle(self, message: Message) -> None:
        raise NotImplementedError

    async def pong(self, message: Message) -> None:
        await self.send_json({"t": "pong", "id": message.id, "server_time": server_time()})

    # -- credentials ---------------------------------------------------------------------------

    async def _credentials_stand(self, force: bool = False) -> bool:
        if not self.credentials.checked:
            return True
        now = time.monotonic()
        if not force and now - self.credentials_checked_at < credentials.check_seconds():
            return True
        self.credentials_checked_at = now
        if await db(credentials.still_valid)(self.credentials):
            return True
        await self.signed_out()
        return False

    async def signed_out(self) -> None:
        """Close: what opened this socket no longer stands. The disconnect that
        follows cleans up as for any closed socket."""
        if not self.closing:
            self.closing = True
            await self.close(credentials.CLOSE_SIGNED_OUT)

    async def credentials_revoked(self, event: dict[str, Any]) -> None:
        keep, session_key = event.get("keep"), self.credentials.session_key
        if keep and session_key and credentials.session_mark(session_key) == keep:
            return  # the session that made the change goes on
        await self.signed_out()

    async def credentials_check(self, event: dict[str, Any]) -> None:
        await self._credentials_stand(force=True)
