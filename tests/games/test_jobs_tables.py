"""The worker's table jobs: bots play through the service from the worker (run
here in the test), clocks and countdowns run out from deadlines kept in the
database, absent players are replaced."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async as db
from django.utils import timezone

from games import engines, jobs, services
from games.models import Action, Seat, Table
from ludo import worker
from tests.games.tables_helpers import Sock, guest, guest_session, replayed_state, who_of

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def quick_bots(settings):
    settings.LUDO_BOT_THINK_SECONDS = 0
    settings.LUDO_TABLE_POLL_SECONDS = 0  # broadcasts only (one test below turns polling on)


def table_of(table_id: int) -> Table:
    return Table.objects.get(pk=table_id)


def run_worker_once() -> None:
    worker.run_once(["tables.bots", "tables.clocks"])


def test_the_jobs_are_registered_with_the_worker():
    assert {"tables.bots", "tables.clocks", "tables.presence"} <= set(worker.jobs())


def test_a_bot_waits_its_think_delay(settings):
    settings.LUDO_BOT_THINK_SECONDS = 3600
    table = services.quick_game(guest("Zoé"), "drekki", "easy")
    table = table_of(table.pk)
    assert table.bot_due is not None and table.bot_due > timezone.now() + timedelta(minutes=50)
    before = table.version
    run_worker_once()
    assert table_of(table.pk).version == before


def test_bots_keep_playing_with_every_person_away():
    # Nobody has a socket open; the person plays now and then (over HTTP, say),
    # the worker plays the two bots whenever they are due.
    zoe = guest("Zoé")
    table = services.quick_game(zoe, "drekki", "easy", seats=3)
    rules = engines.get("drekki")
    rng = random.Random(2)
    for _ in range(2000):
        current = table_of(table.pk)
        if current.status != "running":
            break
        state = rules.load(current.state)
        if 0 in rules.to_act(state) and rng.random() < 0.5:
            services.play_move(table.pk, zoe, rng.choice(rules.legal_moves(state, 0)), current.version)
        else:
            run_worker_once()
    table = table_of(table.pk)
    assert table.status == "finished"
    assert rules.dump(replayed_state(table)) == table.state
    assert set(Action.objects.filter(table=table, kind="move").values_list("seat", flat=True)) == {0, 1, 2}


async def test_a_person_plays_a_bot_through_the_socket_and_the_worker():
    key = await db(guest_session)("Zoé")
    zoe = await db(who_of)(key)
    table = await db(services.quick_game)(zoe, "eclaircissement", "easy")
    rules = engines.get("eclaircissement")
    sock = await Sock(f"/ws/tables/{table.pk}/", key).connect()
    frame = await sock.open()
    assert frame["seat"] == 0 and frame["seats"][1]["bot"] == "easy"
    rng = random.Random(3)
    for _ in range(600):
        if sock.latest["status"] != "running":
            break
        if 0 in sock.latest["to_act"]:
            await sock.send(t="move", move=rng.choice(sock.latest["legal"]), v=sock.v)
            assert (await sock.answer())["t"] == "ack"
            await sock.until("update", v=sock.v + 1)
        else:
            before = sock.v
            await db(run_worker_once)()
            await sock.until("update", v=before + 1)
    final = await db(table_of)(table.pk)
    assert final.status == "finished" and sock.latest["outcome"] == final.outcome
    bot_moves = await db(lambda: Action.objects.filter(table=final, kind="move", seat=1).count())()
    assert bot_moves > 0
    await sock.close()


async def test_four_player_drekki_with_bots_and_no_secret_leaks():
    """Two people, two bots and a spectator: no frame anyone receives holds
    another seat's hidden card before the reveal (checked on the raw frames)."""
    keys = [await db(guest_session)(name) for name in ("Zoé", "Max")]
    zoe, max_ = [await db(who_of)(k) for k in keys]
    table = await db(services.create_table)(zoe, "drekki", 4)
    await db(services.join_table)(table.pk, max_)
    await db(services.add_bots)(table.pk, zoe, "easy")
    await db(services.start_table)(table.pk, zoe)
    socks = {0: await Sock(f"/ws/tables/{table.pk}/", keys[0]).connect(),
             1: await Sock(f"/ws/tables/{table.pk}/", keys[1]).connect(),
             None: await Sock(f"/ws/tables/{table.pk}/").connect()}
    for sock in socks.values():
        await sock.open()
    rules = engines.get("drekki")
    rng = random.Random(11)
    for _ in range(1500):
        current = await db(table_of)(table.pk)
        if current.status != "running":
            break
        state = rules.load(current.state)
        people_to_act = [s for s in rules.to_act(state) if s in (0, 1)]
        if people_to_act:
            seat = people_to_act[0]
            sock = socks[seat]
            while sock.v < current.version:
                await sock.recv()
            await sock.send(t="move", move=rng.choice(sock.latest["legal"]), v=current.version)
            answer = await sock.answer()
            assert answer["t"] == "ack" or answer["code"] == "stale_version"
        else:
            await db(run_worker_once)()
        new_version = (await db(table_of)(table.pk)).version
        for sock in socks.values():
            while sock.v < new_version:
                await sock.recv()
    final = await db(table_of)(table.pk)
    assert final.status == "finished"
    checked = 0
    for seat, sock in socks.items():
        for raw in sock.raw:
            frame = sock.json.loads(raw)
            if frame.get("t") not in ("state", "update") or frame["view"] is None:
                continue
            view = frame["view"]
            for mage in view["mages"]:
                if mage["owner"] != seat:
                    assert "card" not in mage and "hand" not in mage, (seat, mage)
            if view["phase"] != "colour":
                assert view["revealed"] is None
            assert frame["view"] == rules.view(await db(replayed_state)(final, frame["v"]), seat)
            for event in frame["events"] or []:
                assert "move" not in event or event["seat"] == seat
            checked += 1
    assert checked > 100
    for sock in socks.values():
        await sock.close()


def test_a_bot_that_fails_falls_back_on_a_legal_move(monkeypatch):
    from games import bots

    table = services.quick_game(guest("Zoé"), "drumlin", "easy")
    rules = engines.get("drumlin")
    state = rules.load(table_of(table.pk).state)
    if 1 not in rules.to_act(state):
        services.play_move(table.pk, guest("Zoé"), rules.legal_moves(state, 0)[0], table_of(table.pk).version)

    class Broken(bots.Bot):
        kind = "broken"

        def choose(self, view, seat):
            return "not a move"

    monkeypatch.setattr(bots, "make", lambda *args, **kwargs: Broken(rules))
    before = table_of(table.pk).version
    run_worker_once()
    assert table_of(table.pk).version == before + 1


def test_clock_deadlines_in_the_database_survive_a_restart_and_run_out():
    # Started "an hour ago": the deadline passed while no worker ran.
    past = timezone.now() - timedelta(hours=1)
    table = services.create_table(guest("Zoé"), "drumlin", clock={"kind": "move", "seconds": 60})
    services.join_table(table.pk, guest("Max"))
    services.start_table(table.pk, guest("Zoé"), now=past)
    assert table_of(table.pk).clock_deadline < timezone.now()
    assert services.next_deadline() == table_of(table.pk).clock_deadline
    run_worker_once()
    table = table_of(table.pk)
    assert table.status == "finished" and table.outcome["reason"] == "timeout"


def test_a_seat_out_of_time_plays_the_engines_timeout_move():
    past = timezone.now() - timedelta(hours=1)
    table = services.create_table(guest("Zoé"), "drekki", 2, clock={"kind": "game", "base": 60, "increment": 0})
    services.join_table(table.pk, guest("Max"))
    services.start_table(table.pk, guest("Zoé"), now=past)
    run_worker_once()
    table = table_of(table.pk)
    timeouts = Action.objects.filter(table=table, kind="timeout")
    assert table.status == "running" and set(timeouts.values_list("seat", flat=True)) == {0, 1}
    assert engines.get("drekki").dump(replayed_state(table)) == table.state


def test_the_live_auction_countdown_runs_out_in_the_worker():
    rules = engines.get("drekki")
    people = {0: guest("Zoé"), 1: guest("Max"), 2: guest("Léa")}
    table = services.create_table(people[0], "drekki", 3)
    services.join_table(table.pk, people[1])
    services.join_table(table.pk, people[2])
    # A fixed deal: with a fresh secret seed, about one deal in two hundred ends the game
    # before a live auction opens (seen once in CI), and the test must not depend on luck.
    Table.objects.filter(pk=table.pk).update(seed=2026)
    services.start_table(table.pk, people[0])
    rng = random.Random(5)
    past = timezone.now() - timedelta(minutes=5)
    for _ in range(400):
        t = table_of(table.pk)
        state = rules.load(t.state)
        if rules.countdown(state) is not None:
            break
        assert rules.to_act(state), "the game ended before a live auction opened"
        seat = rng.choice(rules.to_act(state))
        moves = rules.legal_moves(state, seat)
        bids = [m for m in moves if m.startswith("bid")]
        services.play_move(t.pk, people[seat], rng.choice(bids or moves), t.version, now=past)
    assert rules.countdown(state) is not None
    run_worker_once()
    last = Action.objects.filter(table=table).order_by("-version").first()
    assert last.kind == "countdown"


def test_the_presence_job_replaces_absent_players_and_prunes_dead_sockets():
    past = timezone.now() - timedelta(hours=1)
    table = services.create_table(guest("Zoé"), "drumlin", absent_bot="easy", absent_grace=60)
    services.join_table(table.pk, guest("Max"))
    services.connect(table.pk, "dead-socket", guest("Zoé"), 0, now=past)
    services.start_table(table.pk, guest("Zoé"), now=past)
    jobs.run_presence(force=True)
    seats = list(Seat.objects.filter(table=table).order_by("index"))
    # Max never came; Zoé's socket died with its server an hour ago (pruned, then absent).
    assert seats[1].bot_level == "easy"
    assert not table.connections.exists() and seats[0].absent_since is not None
