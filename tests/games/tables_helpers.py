"""Helpers shared by the live-table tests (services, consumers, worker, API).

Not a test module: plain functions to make people, find short games and
replay a table's log.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from games import engines, services
from games.models import Action, Table
from games.services import MOVE_KINDS, Who


@pytest.fixture(autouse=True)
def move_connections():
    """Close the connections that sockets' moves opened on PostgreSQL
    (services.play_move_async) once a test is over: its event loop is gone,
    and the test database is dropped at the end of the session. Test modules
    that open sockets import it."""
    yield
    services.close_move_connections()


def guest(name: str, key: str | None = None) -> Who:
    """A guest with a display name (the session key stands for their session)."""
    return Who(guest_key=key or f"session-{name.lower()}", name=name)


def confirm(user: Any) -> Any:
    """Mark the account's current email address as confirmed (as following the
    confirmation link does): rated games need it (ludo.accounts.is_confirmed)."""
    from games.bookings.models import VerifiedAddress

    VerifiedAddress.objects.get_or_create(user=user, email=user.email)
    return user


def member(user: Any) -> Who:
    return Who(user_id=user.pk, name=user.get_username(), is_staff=bool(user.is_staff))


def _eager_move(rules: Any, state: Any, seat: int, rng: random.Random) -> str:
    """Mostly the move that looks best one ply ahead, sometimes a random one:
    games end in tens of moves instead of thousands."""
    moves = rules.legal_moves(state, seat)
    if rng.random() < 0.3:
        return rng.choice(moves)
    best: tuple[float, str] | None = None
    for move in moves:
        after = rules.play(state, seat, move)
        outcome = rules.outcome(after)
        value = rules.utility(outcome, seat) if outcome else (rules.evaluate(after, seat) or 0.5)
        if best is None or value > best[0]:
            best = (value, move)
    return best[1]


def short_game(
    slug: str, seats: int, seed: int, tries: int = 3, limit: int = 400, decisive: bool = False
) -> list[tuple[int, str]]:
    """A sequence of (seat, move) that takes a game from its start to its end,
    the shortest of a few eager playouts (``decisive``: of those won by someone;
    more playouts are tried until one is, up to ten times ``tries``)."""
    rules = engines.get(slug)
    best: list[tuple[int, str]] | None = None
    for attempt in range(tries * 10 if decisive else tries):
        if best is not None and attempt >= tries:
            break
        rng = random.Random(attempt)
        state = rules.new_game(seats, seed=seed)
        moves: list[tuple[int, str]] = []
        while rules.outcome(state) is None and len(moves) < limit:
            seat = rng.choice(rules.to_act(state))
            move = _eager_move(rules, state, seat, rng)
            moves.append((seat, move))
            state = rules.play(state, seat, move)
        outcome = rules.outcome(state)
        if outcome is None or (decisive and not outcome.winners):
            continue
        if best is None or len(moves) < len(best):
            best = moves
    assert best is not None, f"no random {slug} game ended{' with a winner' if decisive else ''} within {limit} moves"
    return best


def replayed_state(table: Table, upto: int | None = None) -> Any:
    """The engine state rebuilt from the table's seed and its log (up to a version)."""
    rules = engines.get(table.game)
    state = rules.new_game(table.seat_count, seed=table.seed, options=table.options)
    actions = Action.objects.filter(table=table, kind__in=MOVE_KINDS).order_by("version")
    if upto is not None:
        actions = actions.filter(version__lte=upto)
    for action in actions:
        state = rules.play(state, action.seat, action.move)
    return state


# -- sockets --------------------------------------------------------------------------------------

ORIGIN = (b"origin", b"http://testserver")


def guest_session(name: str | None) -> str:
    """A real guest session (in the session store), with a display name or not."""
    from django.contrib.sessions.backends.db import SessionStore

    from ludo.accounts import GUEST_NAME_KEY
    from ludo.guests import GUEST_ID_KEY, new_guest_id

    session = SessionStore()
    if name:
        session[GUEST_NAME_KEY] = name
        session[GUEST_ID_KEY] = new_guest_id()
    session.create()
    return session.session_key


def user_session(user: Any) -> str:
    """A real logged-in session for an account."""
    from django.test import Client

    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


def who_of(session_key: str) -> Who:
    """The identity a socket with this session has (what the consumer computes)."""
    from django.contrib.sessions.backends.db import SessionStore

    return Who.from_user_and_session(None, SessionStore(session_key))


class Sock:
    """A WebSocket client on the real ASGI application (origin check, session,
    auth), recording every raw frame it receives."""

    def __init__(self, path: str, session_key: str | None = None, language: str | None = None) -> None:
        import json

        from channels.testing import WebsocketCommunicator

        from ludo.asgi import application

        headers = [ORIGIN]
        if session_key:
            headers.append((b"cookie", f"sessionid={session_key}".encode()))
        if language:
            headers.append((b"accept-language", language.encode()))
        headers.append((b"host", b"testserver"))  # the origin check: the page's own scheme, host and port
        self.json = json
        self.comm = WebsocketCommunicator(application, path, headers=headers)
        self.raw: list[str] = []
        self.frames: list[dict[str, Any]] = []
        self.seat: int | None = None
        self.v = 0
        self.latest: dict[str, Any] | None = None

    async def connect(self) -> Sock:
        connected, _ = await self.comm.connect()
        assert connected
        return self

    async def send(self, **message: Any) -> None:
        await self.comm.send_to(text_data=self.json.dumps(message))

    async def send_raw(self, text: str) -> None:
        await self.comm.send_to(text_data=text)

    async def recv(self, timeout: float = 10) -> dict[str, Any]:
        text = await self.comm.receive_from(timeout)
        self.raw.append(text)
        frame = self.json.loads(text)
        self.frames.append(frame)
        if frame.get("t") in ("state", "update"):
            self.seat, self.v, self.latest = frame["seat"], frame["v"], frame
        return frame

    async def until(self, kind: str, timeout: float = 10, **match: Any) -> dict[str, Any]:
        """The next frame of that kind (and those field values); frames of other
        kinds on the way are kept in ``frames``."""
        while True:
            frame = await self.recv(timeout)
            if frame.get("t") == kind and all(frame.get(k) == v for k, v in match.items()):
                return frame

    async def answer(self, timeout: float = 10) -> dict[str, Any]:
        """The next ack or error, skipping broadcasts (updates, presence, chat)."""
        while True:
            frame = await self.recv(timeout)
            if frame.get("t") in ("ack", "error", "pong", "state"):
                return frame

    async def open(self, since: int | None = None, invite: str | None = None,
                   acks: str | None = None) -> dict[str, Any]:
        message: dict[str, Any] = {"t": "hello"}
        if since is not None:
            message["since"] = since
        if invite is not None:
            message["invite"] = invite
        if acks is not None:
            message["acks"] = acks
        await self.send(**message)
        return await self.answer()

    async def close(self) -> None:
        await self.comm.disconnect()



def race(calls, timeout: float = 120):
    """Table actions started at the same moment (tests.races): ``("refused", code)``
    for a TableError."""
    from games.protocol import TableError
    from tests.races import race as start_together

    return start_together(calls, TableError, timeout=timeout)
