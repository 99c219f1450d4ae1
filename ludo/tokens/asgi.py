"""Tokens on the sockets: an ASGI middleware in front of the WebSocket routes.

A handshake that carries a token (``Authorization: Bearer <token>``, or the
``Sec-WebSocket-Protocol`` pair ``ludo, ludo.bearer.<token>`` for browsers,
which cannot set headers on a WebSocket) goes to ``token_app`` as the token's
person: ``scope["user"]`` is its account, or ``scope["session"]`` a read-only
stand-in holding the guest's identity and name, which is all that
``games.services.Who.from_scope`` reads. Cookies are ignored, so no Origin
check applies: the token proves who is asking, a cookie does not.

An unknown, revoked or expired token is refused at the handshake (the server
answers HTTP 403). Once open, a socket follows its token as a page's socket
follows its session: revoked, or its account deactivated or deleted, it is
closed with code 4401 (games.socket_credentials, which reads ``scope["bearer"]``).
A handshake without a token goes to ``session_app`` (the Origin check, then
sessions), as before.

Why a subprotocol rather than a query parameter for browsers: URLs are written
to access logs, proxies' logs and browser history; headers are not.
"""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from channels.security.websocket import WebsocketDenier
from django.contrib.auth.models import AnonymousUser

from ludo.tokens import services
from ludo.tokens.http import bearer_token

SUBPROTOCOL = "ludo"
BEARER_SUBPROTOCOL = "ludo.bearer."


def handshake_token(scope: dict[str, Any]) -> tuple[str, bool] | None:
    """(token, offered as a subprotocol?) from a handshake, or None when it carries none.

    A malformed Bearer header gives an empty token (refused)."""
    for name, value in scope.get("headers") or ():
        if name.lower() == b"authorization":
            token = bearer_token(value.decode("latin-1"))
            if token is not None:
                return token, False
    for offered in scope.get("subprotocols") or ():
        if offered.startswith(BEARER_SUBPROTOCOL):
            return offered[len(BEARER_SUBPROTOCOL):], True
    return None


class TokenAuthMiddleware:
    """Routes a handshake by how it says who is asking: a token, or the session."""

    def __init__(self, token_app: Any, session_app: Any) -> None:
        self.token_app = token_app
        self.session_app = session_app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        found = handshake_token(scope) if scope["type"] == "websocket" else None
        if found is None:
            return await self.session_app(scope, receive, send)
        token, as_subprotocol = found
        bearer = await database_sync_to_async(services.authenticate)(token) if token else None
        if bearer is None:
            return await WebsocketDenier()(scope, receive, send)
        scope = dict(scope, user=bearer.user or AnonymousUser(), session=bearer.guest_session, bearer=bearer)
        if as_subprotocol and SUBPROTOCOL in scope.get("subprotocols", ()):
            send = _answering_subprotocol(send)
        return await self.token_app(scope, receive, send)


def _answering_subprotocol(send: Any) -> Any:
    """A browser fails a handshake whose answer names none of the subprotocols
    it offered: accept with ``ludo`` (never with the one holding the token)."""

    async def sender(message: dict[str, Any]) -> None:
        if message.get("type") == "websocket.accept" and not message.get("subprotocol"):
            message = dict(message, subprotocol=SUBPROTOCOL)
        await send(message)

    return sender

