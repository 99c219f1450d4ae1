"""No deaf table socket (issue 28): a socket whose hello failed (rate-limited, a
database hiccup) must not look alive while it drops every update. It answers
nothing but ``hello`` (a ping gets ``hello_first``, not a pong), a later hello
opens the table and the updates follow, and a socket that never opens its table
is closed (code 4408) after LUDO_WS_HELLO_SECONDS."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async as db

from games import services
from ludo import limits
from tests.games.socket_helpers import answer, close_code, finish, open_socket, send
from tests.games.tables_helpers import guest_session, who_of
from tests.games.tables_helpers import move_connections  # noqa: F401  (an autouse fixture)

pytestmark = pytest.mark.django_db(transaction=True)

NO_HELLO = 4408


@pytest.fixture(autouse=True)
def quiet_tables(settings):
    settings.LUDO_TABLE_POLL_SECONDS = 0


async def a_table() -> tuple[int, str, str]:
    zoe_key, max_key = await db(guest_session)("Zoé"), await db(guest_session)("Max")
    table = await db(services.create_table)(await db(who_of)(zoe_key), "drumlin")
    return table.pk, zoe_key, max_key


async def test_after_a_rate_limited_hello_only_hello_is_answered_and_it_opens_the_table(settings):
    settings.LUDO_WS_PERSON_RATE_LIMIT = (5, 20.0)
    table, zoe_key, max_key = await a_table()
    busy = await open_socket(f"/ws/tables/{table}/", session=zoe_key)
    for n in range(5):  # Zoé's budget over all her sockets, spent
        await send(busy, t="ping", id=n)
        await answer(busy, n)
    page = await open_socket(f"/ws/tables/{table}/", session=zoe_key)
    await send(page, t="hello", id="h1")
    refused = await answer(page, "h1")
    assert refused["t"] == "error" and refused["code"] == "rate_limited"
    await db(limits.reset)()  # the window has passed
    await send(page, t="ping", id="p")
    # Not a pong: a socket that pongs without its table looked alive to the page.
    pong_or_not = await answer(page, "p")
    assert pong_or_not["t"] == "error" and pong_or_not["code"] == "hello_first"
    await send(page, t="hello", id="h2")
    state = await answer(page, "h2")
    assert state["t"] == "state"
    # Now the table reaches it: Max sits, the page gets the version.
    await db(services.join_table)(table, await db(who_of)(max_key))
    update = await page.receive_json_from(10)
    while update["t"] != "update":
        update = await page.receive_json_from(10)
    assert update["v"] == state["v"] + 1
    for comm in (busy, page):
        await comm.disconnect()


async def test_a_socket_that_never_opens_its_table_is_closed(settings):
    settings.LUDO_WS_HELLO_SECONDS = 1
    table, zoe_key, _ = await a_table()
    silent = await open_socket(f"/ws/tables/{table}/", session=zoe_key)
    assert await close_code(silent, 10) == NO_HELLO
    await finish(silent)
    opened = await open_socket(f"/ws/tables/{table}/", session=zoe_key)
    await send(opened, t="hello", id="h")
    assert (await answer(opened, "h"))["t"] == "state"
    assert await opened.receive_nothing(1.5)  # opened: it stays
    await opened.disconnect()


async def test_a_socket_whose_hello_failed_is_closed_unless_it_says_hello_again(settings, monkeypatch):
    settings.LUDO_WS_HELLO_SECONDS = 1
    table, zoe_key, _ = await a_table()

    def the_database_went_away(*args, **kwargs):
        raise RuntimeError("the database went away for a moment")

    monkeypatch.setattr(services, "open_table", the_database_went_away)
    comm = await open_socket(f"/ws/tables/{table}/", session=zoe_key)
    await send(comm, t="hello", id="h")
    assert (await answer(comm, "h"))["code"] == "server_error"
    assert await close_code(comm, 10) == NO_HELLO
    await finish(comm)
