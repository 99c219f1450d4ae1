"""What a client written from docs/protocol.md relies on: every request's
answer echoes its id (drops included), one time format, the state before any
other frame of the table, and a clear error for text that is not Unicode."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from channels.db import database_sync_to_async as db

from games import services
from games.models import Table
from tests.games.tables_helpers import (
    Sock,
    guest_session,
    move_connections,  # noqa: F401  (an autouse fixture)
    who_of,
)

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def quiet(settings):
    settings.LUDO_BOT_THINK_SECONDS = 0
    settings.LUDO_TABLE_POLL_SECONDS = 0


async def a_table(slug: str = "drumlin") -> tuple[Table, str, str]:
    zoe_key, max_key = await db(guest_session)("Zoé"), await db(guest_session)("Max")
    table = await db(services.create_table)(await db(who_of)(zoe_key), slug)
    return table, zoe_key, max_key


def server_time(text: str) -> datetime:
    """The one time format of the protocol: ISO 8601, in UTC, with its offset."""
    moment = datetime.fromisoformat(text)
    assert moment.utcoffset() == timedelta(0), text
    return moment


async def test_every_dropped_request_is_answered_rate_limited_with_its_id(settings):
    settings.LUDO_WS_RATE_LIMIT = (5, 20.0)
    settings.LUDO_WS_PERSON_RATE_LIMIT = (100_000, 20.0)
    table, zoe_key, _ = await a_table()
    sock = await Sock(f"/ws/tables/{table.pk}/", zoe_key).connect()
    await sock.send(t="hello", id="h")
    for i in range(12):
        await sock.send(t="ping", id=i)
    answers = {}
    while len(answers) < 13:
        frame = await sock.recv()
        if "id" in frame:
            answers[frame["id"]] = frame
    assert answers["h"]["t"] == "state"
    assert [answers[i]["t"] for i in range(4)] == ["pong"] * 4
    for i in range(4, 12):
        assert answers[i]["t"] == "error" and answers[i]["code"] == "rate_limited", answers[i]
        assert 0 < answers[i]["retry_after"] <= 20
    await sock.close()


async def test_the_state_answering_hello_and_sync_echoes_the_request_id():
    table, zoe_key, _ = await a_table()
    sock = await Sock(f"/ws/tables/{table.pk}/", zoe_key).connect()
    await sock.send(t="hello", id="open-1")
    state = await sock.until("state")
    assert state["id"] == "open-1"
    await sock.send(t="sync", since=0, id=42)
    assert (await sock.until("state"))["id"] == 42
    await sock.send(t="sync")
    assert "id" not in await sock.until("state")
    await sock.close()


async def test_pong_and_clock_times_are_both_iso_8601_in_utc():
    table, zoe_key, _ = await a_table()
    sock = await Sock(f"/ws/tables/{table.pk}/", zoe_key).connect()
    state = await sock.open()
    before = datetime.now(UTC)
    await sock.send(t="ping", id="p")
    pong = await sock.until("pong")
    assert abs(server_time(pong["server_time"]) - before) < timedelta(minutes=1)
    server_time(state["clock"]["server_time"])
    probe = await Sock("/ws/ping/").connect()
    await probe.send(t="ping", id="q")
    pong = await probe.recv()
    assert pong["t"] == "pong" and pong["id"] == "q"
    server_time(pong["server_time"])
    await probe.close()
    await sock.close()


async def test_no_frame_of_the_table_comes_before_the_state(monkeypatch):
    table, zoe_key, max_key = await a_table()
    snapshot = services.snapshot
    failures = []

    def fails_once(*args, **kwargs):
        if not failures:
            failures.append(1)
            raise RuntimeError("the database went away for a moment")
        return snapshot(*args, **kwargs)

    monkeypatch.setattr(services, "snapshot", fails_once)
    first = await Sock(f"/ws/tables/{table.pk}/", zoe_key).connect()
    assert (await first.open())["code"] == "server_error"
    # Someone else opens the table and chats: presence and chat are broadcast.
    other = await Sock(f"/ws/tables/{table.pk}/", max_key).connect()
    assert (await other.open())["t"] == "state"
    await other.send(t="sit", id="s")
    assert (await other.answer())["t"] == "ack"
    await other.send(t="chat", text="bonjour", id="c")
    assert (await other.answer())["t"] == "ack"
    # Nothing but hello is answered before the table opens: not even a ping (a
    # socket that pongs without its table looked alive to the page, and stayed deaf).
    await first.send(t="ping", id="p")
    refused = await first.until("error")
    assert refused["code"] == "hello_first" and refused["id"] == "p"
    assert [f["t"] for f in first.frames] == ["error", "error"]
    state = await first.open()
    assert state["t"] == "state" and 0 in state["presence"]["seats"]  # Max's seat shows once his socket follows it
    await first.close()
    await other.close()


@pytest.mark.parametrize("raw, field", [
    ('{"t": "chat", "text": "\\ud800", "id": "c1"}', "text"),
    ('{"t": "chat", "text": "bonjour \\udfff", "id": "c1"}', "text"),
    ('{"t": "move", "move": "\\udc00", "v": 1, "id": "c1"}', "move"),
])
async def test_a_lone_surrogate_is_bad_text_naming_its_field(raw, field):
    table, zoe_key, _ = await a_table()
    sock = await Sock(f"/ws/tables/{table.pk}/", zoe_key).connect()
    await sock.open()
    await sock.send_raw(raw)
    error = await sock.answer()
    assert error == {**error, "t": "error", "code": "bad_text", "field": field, "id": "c1"}
    assert "Unicode" in error["detail"]
    await sock.send(t="ping", id="after")
    assert (await sock.until("pong"))["id"] == "after"
    await sock.close()


async def test_an_id_that_is_not_text_is_refused_without_echo():
    table, zoe_key, _ = await a_table()
    sock = await Sock(f"/ws/tables/{table.pk}/", zoe_key).connect()
    await sock.send_raw('{"t": "ping", "id": "\\ud800"}')
    error = await sock.answer()
    assert error["code"] == "bad_text" and error["field"] == "id" and "id" not in error
    await sock.close()
