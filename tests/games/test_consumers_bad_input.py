"""Bad input against the table socket, generated with hypothesis: malformed
JSON, wrong types, unknown message types, huge frames, moves out of turn or for
another seat, stale versions. Each gets a clear error; the table does not
change; the socket and every other socket keep working. Plus the rate limits."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async as db
from hypothesis import HealthCheck, given, settings as hsettings, strategies as st

from games import engines, ratelimit, services
from games.models import Table
from games.protocol import MAX_FRAME_BYTES, SCHEMAS
from tests.games.tables_helpers import Sock, guest_session, who_of
from tests.games.tables_helpers import move_connections  # noqa: F401  (an autouse fixture)

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.fixture
def roomy_limits(settings):
    # Hypothesis sends many frames from the same person: lift the limits here
    # (they have their own tests below).
    settings.LUDO_WS_RATE_LIMIT = (100_000, 20.0)
    settings.LUDO_WS_PERSON_RATE_LIMIT = (100_000, 20.0)
    settings.LUDO_TABLE_POLL_SECONDS = 0


@pytest.fixture
def table_and_people(roomy_limits):
    keys = [guest_session("Zoé"), guest_session("Max")]
    who = [who_of(k) for k in keys]
    table = services.create_table(who[0], "eclaircissement")
    services.join_table(table.pk, who[1])
    services.start_table(table.pk, who[0])
    table = Table.objects.get(pk=table.pk)
    rules = engines.get(table.game)
    state = rules.load(table.state)
    mover = rules.to_act(state)[0]
    return table, keys, mover, rules.legal_moves(state, mover)


def _not_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return True
    return False


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
wrong_for_str = st.none().filter(lambda _: False) | st.integers() | st.booleans() | st.lists(st.integers(), max_size=2)
wrong_for_int = st.text(max_size=5) | st.booleans() | st.floats(allow_nan=False) | st.lists(st.integers(), max_size=2)


@st.composite
def wrong_types(draw):
    """A known message type with one required field of the wrong type."""
    kind = draw(st.sampled_from(sorted(k for k, fields in SCHEMAS.items() if any(f.required for f in fields.values()))))
    message = {"t": kind}
    for name, spec in SCHEMAS[kind].items():
        if spec.required:
            message[name] = draw(wrong_for_int if spec.kind is int else wrong_for_str)
    return json.dumps(message)


def bad_frames(moves: list[str]):
    garbage = st.text(min_size=1, max_size=60).filter(_not_json)
    not_objects = json_values.filter(lambda v: not isinstance(v, dict)).map(json.dumps)
    unknown = st.text(max_size=20).filter(lambda t: t not in SCHEMAS).map(lambda t: json.dumps({"t": t, "v": 1}))
    no_type = st.dictionaries(st.text(max_size=5).filter(lambda k: k != "t"), json_values, max_size=3).map(json.dumps)
    huge = st.integers(min_value=MAX_FRAME_BYTES + 1, max_value=MAX_FRAME_BYTES * 4).map(
        lambda n: json.dumps({"t": "chat", "text": "é" * (n // 2)})
    )
    silly_moves = st.text(min_size=1, max_size=40).filter(lambda m: m not in moves)
    return st.one_of(
        garbage.map(lambda t: ("bad_json", "mover", t)),
        not_objects.map(lambda t: ("bad_message", "mover", t)),
        unknown.map(lambda t: ("unknown_type", "mover", t)),
        no_type.map(lambda t: ("bad_message", "mover", t)),
        wrong_types().map(lambda t: ("bad_message", "mover", t)),
        huge.map(lambda t: ("frame_too_large", "mover", t)),
        silly_moves.map(lambda m: ("illegal_move", "mover", {"t": "move", "move": m})),
        st.sampled_from(moves).map(lambda m: ("not_your_turn", "other", {"t": "move", "move": m})),
        st.sampled_from(moves).map(lambda m: ("not_your_seat", "mover", {"t": "move", "move": m, "seat": "other"})),
        st.tuples(st.sampled_from(moves), st.integers(min_value=0, max_value=40)).map(
            lambda mv: ("stale_version", "mover", {"t": "move", "move": mv[0], "v": mv[1], "shift": True})
        ),
    )


async def _fresh(table_id: int, key: str | None) -> Sock:
    sock = await Sock(f"/ws/tables/{table_id}/", key).connect()
    frame = await sock.open()
    assert frame["t"] == "state"
    return sock


@pytest.fixture
def case(table_and_people):
    return table_and_people


@hsettings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
async def test_bad_input_gets_a_clear_error_and_changes_nothing(case, data):
    table, keys, mover, moves = case
    expected, who, frame = data.draw(bad_frames(moves))
    other = 1 - mover
    if isinstance(frame, dict):
        frame = dict(frame)
        if frame.get("seat") == "other":
            frame["seat"] = other
        if frame.pop("shift", False):
            if frame["v"] == table.version:
                frame["v"] = table.version + 1
        else:
            frame["v"] = table.version
        frame = json.dumps(frame)
    sender = await _fresh(table.pk, keys[mover if who == "mover" else other])
    bystander = await _fresh(table.pk, keys[other if who == "mover" else mover])
    watcher = await _fresh(table.pk, None)
    await sender.send_raw(frame)
    error = await sender.answer()
    assert error["t"] == "error" and error["code"] == expected, (frame[:200], error)
    assert error["message"]
    assert (await db(Table.objects.get)(pk=table.pk)).version == table.version
    # The sender's socket and everybody else's still answer, with no stray frame first.
    for sock in (sender, bystander, watcher):
        await sock.send(t="ping", id="after")
        pong = await sock.recv()
        assert pong["t"] in ("pong", "presence"), pong
        while pong["t"] != "pong":
            pong = await sock.recv()
        assert not any(f.get("t") == "update" for f in sock.frames)
    for sock in (sender, bystander, watcher):
        await sock.close()


async def test_binary_frames_are_refused(table_and_people):
    table, keys, mover, moves = table_and_people
    sock = await _fresh(table.pk, keys[mover])
    await sock.comm.send_to(bytes_data=b"\x00\x01")
    assert (await sock.answer())["code"] == "binary_not_supported"
    await sock.send(t="move", move=moves[0], v=table.version)
    assert (await sock.answer())["t"] == "ack"
    await sock.close()


async def test_a_flooding_socket_is_told_to_slow_down_and_others_are_not(settings):
    settings.LUDO_TABLE_POLL_SECONDS = 0
    settings.LUDO_WS_RATE_LIMIT = (100, 20.0)
    settings.LUDO_WS_PERSON_RATE_LIMIT = (100_000, 20.0)
    zoe_key = await db(guest_session)("Zoé")
    zoe = await db(who_of)(zoe_key)
    table = await db(services.create_table)(zoe, "drumlin")
    flooder = await _fresh(table.pk, None)
    calm = await _fresh(table.pk, zoe_key)
    for i in range(150):
        await flooder.send(t="ping", id=i)
    limited = await flooder.until("error")
    assert limited["code"] == "rate_limited"
    pongs = [f for f in flooder.frames if f["t"] == "pong"]
    assert [p["id"] for p in pongs] == list(range(99))  # the hello counted too
    await calm.send(t="ping", id="calm")
    assert (await calm.until("pong"))["id"] == "calm"
    await flooder.close()
    await calm.close()


async def test_one_person_is_limited_across_their_sockets(settings):
    settings.LUDO_TABLE_POLL_SECONDS = 0
    settings.LUDO_WS_RATE_LIMIT = (1000, 20.0)
    settings.LUDO_WS_PERSON_RATE_LIMIT = (30, 20.0)
    key = await db(guest_session)("Zoé")
    zoe = await db(who_of)(key)
    table = await db(services.create_table)(zoe, "drumlin")
    first, second = await _fresh(table.pk, key), await _fresh(table.pk, key)
    for i in range(20):
        await first.send(t="ping", id=i)
        await second.send(t="ping", id=i)
    frames = []
    for sock in (first, second):
        await sock.send(t="ping", id="last")
    for sock in (first, second):
        while True:
            frame = await sock.recv()
            frames.append(frame)
            if frame.get("t") == "error" or frame.get("id") == "last":
                break
    assert any(f.get("code") == "rate_limited" for f in frames)
    await first.close()
    await second.close()


def test_the_sliding_window_forgets_old_hits():
    now = [0.0]
    window = ratelimit.SlidingWindow(3, 10.0, clock=lambda: now[0])
    assert [window.hit() for _ in range(4)] == [True, True, True, False]
    now[0] = 10.5
    assert window.hit() and window.hit() and window.hit() and not window.hit()


def test_keyed_limits_keep_people_apart_and_forget_idle_ones():
    now = [0.0]
    limits = ratelimit.KeyedLimits(2, 5.0, clock=lambda: now[0], max_keys=4)
    assert limits.hit("a") and limits.hit("a") and not limits.hit("a")
    assert limits.hit("b")
    now[0] = 100.0
    for key in "cdef":
        limits.hit(key)
    assert len(limits.windows) <= 4
    assert limits.hit("a")
