"""Sockets follow the account: an open socket stands only as long as what opened it.

A socket remembers, when it opens, what proves who it is (:class:`Credentials`):
the account and the session of a signed-in page, or the API token of an outside
client. Guests' and anonymous visitors' sockets prove nothing and have nothing to
lose. The credentials are checked again

- at once, when this process is told they changed: ``ludo.signals.credentials_changed``
  (a password, an email, a deletion, a token revoked...) and Django's
  ``user_logged_out`` are pushed through the channel layer to the groups of the
  account, the token and the session, so that every server process hears them;
- on a timer, every LUDO_WS_CREDENTIALS_SECONDS (30): one round per process over
  all its sockets (:class:`Watch`), for whatever changed without a signal (a row
  edited in the admin, a session expired, a process that missed the push);
- before a message is handled, when the last check is older than that.

A socket whose credentials no longer stand is closed with :data:`CLOSE_SIGNED_OUT`
(docs/protocol.md, "Close codes").

The session check is Django's own (``django.contrib.auth.get_user``: the session's
account, its backend, an active account, the session's auth hash against the
account's current one or a fallback secret's), read-only: it never flushes nor
cycles the session, which belongs to the browser's HTTP requests.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.auth import load_backend
from django.utils.crypto import constant_time_compare

log = logging.getLogger(__name__)

CLOSE_SIGNED_OUT = 4401
# Reasons that end every socket of the account at once (but the session that made
# the change); the others ask each socket to check its own credentials.
ENDS_THE_ACCOUNT = ("password", "email", "deleted", "deactivated")


def check_seconds() -> float:
    """How old a socket's last check may be (setting LUDO_WS_CREDENTIALS_SECONDS, 30)."""
    return max(0.0, float(getattr(settings, "LUDO_WS_CREDENTIALS_SECONDS", 30)))


# -- groups: where a change is pushed --------------------------------------------------------

def account_group(user_id: int) -> str:
    return f"ludo.account.{user_id}"


def token_group(kind: str, token_id: int) -> str:
    """``kind``: "pat" (personal token) or "gst" (guest token)."""
    return f"ludo.token.{kind}.{token_id}"


def session_mark(session_key: str) -> str:
    """A session's name on the channel layer: a digest, never the key itself."""
    return hashlib.sha256(session_key.encode()).hexdigest()[:32]


def session_group(session_key: str) -> str:
    return f"ludo.session.{session_mark(session_key)}"


# -- what a socket holds, and whether it still stands -----------------------------------------

@dataclass(frozen=True)
class Credentials:
    user_id: int | None = None
    session_key: str = ""  # a signed-in page's session
    token: tuple[str, int] | None = None  # ("pat" | "gst", id) of an API token
    bearer: Any = field(default=None, compare=False, hash=False, repr=False)

    @classmethod
    def from_scope(cls, scope: dict[str, Any]) -> Credentials:
        """Call where the ORM may be used (it resolves the session's account)."""
        bearer = scope.get("bearer")
        if bearer is not None:
            user = bearer.user
            kind = "pat" if user is not None else "gst"
            user_id = user.pk if user is not None else None
            return cls(user_id=user_id, token=(kind, bearer.token.pk), bearer=bearer)
        user = scope.get("user")
        if user is not None and getattr(user, "is_authenticated", False):
            session = scope.get("session")
            return cls(user_id=user.pk, session_key=getattr(session, "session_key", None) or "")
        return cls()

    @property
    def checked(self) -> bool:
        """Whether there is anything to check (an account or a token)."""
        return self.user_id is not None or self.token is not None

    def groups(self) -> list[str]:
        found = []
        if self.user_id is not None:
            found.append(account_group(self.user_id))
        if self.token is not None:
            found.append(token_group(*self.token))
        if self.session_key:
            found.append(session_group(self.session_key))
        return found


def session_stands(session_key: str, user_id: int) -> bool:
    """Django's ``get_user`` for one session, without its writes: the session
    still signs in ``user_id``, an active account, with its current auth hash."""
    if not session_key:
        return False
    data = import_module(settings.SESSION_ENGINE).SessionStore(session_key).load()
    try:
        stored = get_user_model()._meta.pk.to_python(data[SESSION_KEY])
        backend_path = data[BACKEND_SESSION_KEY]
    except (KeyError, ValueError):
        return False
    if stored != user_id or backend_path not in settings.AUTHENTICATION_BACKENDS:
        return False
    user = load_backend(backend_path).get_user(user_id)
    session_hash = data.get(HASH_SESSION_KEY)
    if user is None or not session_hash or not hasattr(user, "get_session_auth_hash"):
        return False
    if constant_time_compare(session_hash, user.get_session_auth_hash()):
        return True
    return any(constant_time_compare(session_hash, h) for h in user.get_session_auth_fallback_hash())


def still_valid(credentials: Credentials) -> bool:
    """Whether ``credentials`` still stand (a few queries; call in a database thread)."""
    if credentials.bearer is not None:
        from ludo.tokens import services as tokens

        return tokens.still_valid(credentials.bearer)
    if credentials.user_id is None:
        return True
    return session_stands(credentials.session_key, credentials.user_id)


def fallen(many: list[Credentials]) -> set[Credentials]:
    """Those of ``many`` that no longer stand, each distinct one checked once."""
    return {c for c in set(many) if c.checked and not still_valid(c)}


# -- the timer: one round per process over its sockets ---------------------------------------

class Watch:
    """The open sockets of one event loop whose credentials need checking: every
    LUDO_WS_CREDENTIALS_SECONDS, those not checked meanwhile are checked together
    in one database call, and the fallen ones told (``signed_out``)."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.sockets: dict[str, Any] = {}
        self.task: asyncio.Task | None = None

    def add(self, consumer: Any) -> None:
        self.sockets[consumer.channel_name] = consumer
        if self.task is None or self.task.done():
            self.task = self.loop.create_task(self.run())

    def discard(self, consumer: Any) -> None:
        self.sockets.pop(consumer.channel_name, None)

    async def run(self) -> None:
        from games.sockets import db

        while self.sockets:
            every = check_seconds()
            await asyncio.sleep(max(every, 0.5))
            now = time.monotonic()
            due = [c for c in self.sockets.values() if now - c.credentials_checked_at >= every * 0.5]
            if not due:
                continue
            try:
                bad = await db(fallen)([c.credentials for c in due])
            except Exception:
                log.exception("checking the credentials of %d sockets failed", len(due))
                continue
            for consumer in due:
                consumer.credentials_checked_at = now
                if consumer.credentials in bad and consumer.channel_name in self.sockets:
                    await consumer.signed_out()


_watches: dict[int, Watch] = {}


def watch() -> Watch:
    loop = asyncio.get_running_loop()
    found = _watches.get(id(loop))
    if found is None or found.loop is not loop:
        found = _watches[id(loop)] = Watch(loop)
    return found


# -- the push: signals to the channel layer --------------------------------------------------

def _push(sends: list[tuple[str, dict[str, Any]]]) -> None:
    """Send each event to its group, on every server process; a failure is logged
    (the timer still closes those sockets within LUDO_WS_CREDENTIALS_SECONDS)."""
    layer = get_channel_layer()
    if layer is None or not sends:
        return

    async def send_all() -> None:
        for group, event in sends:
            try:
                await layer.group_send(group, event)
            except Exception:
                log.warning("could not tell the sockets of %s that their credentials changed", group,
                            exc_info=True)

    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        async_to_sync(send_all)()
    else:  # sent from an event loop's own thread: no waiting there
        loop.create_task(send_all())


def on_credentials_changed(sender: Any, user_id: int | None, reason: str, token_ids: list[int] = (),
                           keep_session: str = "", **kwargs: Any) -> None:
    """Receiver of ``ludo.signals.credentials_changed``. Token ids name an account's
    personal tokens when ``user_id`` is given, guest tokens otherwise."""
    kind = "pat" if user_id is not None else "gst"
    sends = [(token_group(kind, int(t)), {"type": "credentials.revoked"}) for t in token_ids or ()]
    if user_id is not None:
        if reason in ENDS_THE_ACCOUNT:
            keep = session_mark(keep_session) if keep_session else ""
            sends.append((account_group(user_id), {"type": "credentials.revoked", "keep": keep}))
        else:
            sends.append((account_group(user_id), {"type": "credentials.check"}))
    _push(sends)


def on_logged_out(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    """Receiver of Django's ``user_logged_out``: the sockets of that session end
    (sent before the session is flushed, so its key is still known)."""
    session = getattr(request, "session", None)
    key = getattr(session, "session_key", None)
    if user is not None and key:
        _push([(session_group(key), {"type": "credentials.revoked"})])


def connect_receivers() -> None:
    from django.contrib.auth.signals import user_logged_out

    from ludo.signals import credentials_changed

    credentials_changed.connect(on_credentials_changed, dispatch_uid="games.sockets_follow_credentials")
    user_logged_out.connect(on_logged_out, dispatch_uid="games.sockets_follow_logout")
