"""What one person or one address may hold and say on the sockets (issue 29, low):
at most LUDO_WS_MAX_SOCKETS sockets open per person (account, guest identity,
token's person), LUDO_WS_MAX_ANONYMOUS_SOCKETS per address for anonymous
visitors; one more is closed with code 4429. Messages per address over all
its sockets and people: LUDO_WS_ADDRESS_RATE_LIMIT, whatever the identities."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async as db

from ludo.tokens import services as tokens
from tests.games.socket_helpers import close_code, finish, open_socket, send, still_open
from tests.games.tables_helpers import guest_session, user_session
from tests.games.tables_helpers import move_connections  # noqa: F401  (an autouse fixture)

pytestmark = pytest.mark.django_db(transaction=True)

TOO_MANY = 4429


@pytest.fixture(autouse=True)
def quiet_tables(settings):
    settings.LUDO_TABLE_POLL_SECONDS = 0


async def test_one_token_holds_at_most_its_cap_of_sockets(settings):
    settings.LUDO_WS_MAX_SOCKETS = 3
    _, token = await db(tokens.create_guest_token)("Zoé")
    _, other = await db(tokens.create_guest_token)("Max")
    held = [await open_socket(path, token=token) for path in ("/ws/ping/", "/ws/lobby/", "/ws/ping/")]
    extra = await open_socket("/ws/tables/1/", token=token)
    assert await close_code(extra, 5) == TOO_MANY
    await finish(extra)
    assert await still_open(await open_socket("/ws/ping/", token=other))  # another person is not counted
    await held[0].disconnect()  # a closed socket gives its slot back
    again = await open_socket("/ws/ping/", token=token)
    assert await still_open(again)
    for comm in (*held[1:], again):
        await comm.disconnect()


async def test_an_account_counts_its_sessions_and_tokens_together(bob, settings):
    settings.LUDO_WS_MAX_SOCKETS = 2
    _, token = await db(tokens.create_personal_token)(bob, "bot")
    first = await open_socket("/ws/ping/", session=await db(user_session)(bob))
    second = await open_socket("/ws/ping/", token=token)
    third = await open_socket("/ws/ping/", session=await db(user_session)(bob), address="198.51.100.9")
    assert await close_code(third, 5) == TOO_MANY
    await finish(third)
    for comm in (first, second):
        assert await still_open(comm)
        await comm.disconnect()


async def test_anonymous_visitors_of_one_address_share_a_cap(settings):
    settings.LUDO_WS_MAX_ANONYMOUS_SOCKETS = 2
    held = [await open_socket("/ws/lobby/", session=await db(guest_session)(None)) for _ in range(2)]
    extra = await open_socket("/ws/lobby/", session=await db(guest_session)(None))
    assert await close_code(extra, 5) == TOO_MANY
    await finish(extra)
    elsewhere = await open_socket("/ws/lobby/", address="198.51.100.9")
    assert await still_open(elsewhere)
    for comm in (*held, elsewhere):
        await comm.disconnect()


async def test_an_address_has_one_message_budget_whatever_its_identities(settings):
    settings.LUDO_WS_ADDRESS_RATE_LIMIT = (10, 20.0)
    made = [await db(tokens.create_guest_token)(f"Guest{n}") for n in range(3)]
    comms = [await open_socket("/ws/ping/", token=token) for _, token in made]
    answers = []
    for n in range(5):
        for i, comm in enumerate(comms):
            await send(comm, t="ping", id=f"{i}-{n}")
            answers.append(json.loads(await comm.receive_from(10)))
    pongs = [a for a in answers if a["t"] == "pong"]
    refused = [a for a in answers if a["t"] == "error"]
    assert len(pongs) == 10 and len(refused) == 5
    assert all(a["code"] == "rate_limited" and a["retry_after"] > 0 for a in refused)
    _, token = await db(tokens.create_guest_token)("Elsewhere")
    other = await open_socket("/ws/ping/", token=token, address="198.51.100.9")
    assert await still_open(other)  # another address is not counted
    for comm in (*comms, other):
        await comm.disconnect()

