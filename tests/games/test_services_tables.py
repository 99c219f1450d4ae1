"""The table service: creating, filling, starting, playing and ending tables."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from games import engines, services
from games.models import Action, ChatMessage, Connection, ModerationLog, Seat, Table
from games.protocol import TableError
from games.services import broadcasts, loop_moves
from tests.games.tables_helpers import confirm, guest, member, replayed_state, short_game

pytestmark = pytest.mark.django_db

ZOE = guest("Zoé")
MAX = guest("Max")
NO_NAME = services.Who(guest_key="session-nameless")


@pytest.fixture
def host(db):
    User = get_user_model()
    return member(User.objects.create_user("hostess", "h@example.org", "pw-hostess-1234", is_staff=True))


@pytest.fixture
def player(db):
    return member(get_user_model().objects.create_user("bob", "bob@example.org", "pw-bob-123456"))


def refused(code: str, func, *args, **kwargs) -> TableError:
    with pytest.raises(TableError) as info:
        func(*args, **kwargs)
    assert info.value.code == code, info.value
    return info.value


def table_of(table_id: int) -> Table:
    return Table.objects.get(pk=table_id)


def two_player(slug: str = "eclaircissement", **kwargs) -> Table:
    table = services.create_table(ZOE, slug, **kwargs)
    services.join_table(table.pk, MAX)
    services.start_table(table.pk, ZOE)
    return table_of(table.pk)


def unchanged(table: Table):
    """Assert later that nothing about the table changed."""
    before = (table_of(table.pk).version, Action.objects.filter(table=table).count(), table_of(table.pk).state)

    def check():
        after = (table_of(table.pk).version, Action.objects.filter(table=table).count(), table_of(table.pk).state)
        assert after == before

    return check


# -- create, join, leave ------------------------------------------------------------------------

def test_it_creates_an_open_table_with_its_creator_on_seat_0():
    table = services.create_table(ZOE, "drumlin")
    assert table.status == "open" and table.version == 1 and table.seat_count == 2
    seats = list(table.seats.order_by("index"))
    assert seats[0].name == "Zoé" and seats[0].guest_key == ZOE.guest_key and seats[1].is_empty
    assert Action.objects.get(table=table).kind == "create"
    assert [e["id"] for e in services.lobby_tables()] == [table.pk]


def test_it_validates_game_seats_options_and_clock():
    refused("unknown_game", services.create_table, ZOE, "chess")
    refused("bad_seats", services.create_table, ZOE, "drumlin", 3)
    refused("bad_options", services.create_table, ZOE, "drumlin", 2, {"no_such_option": 1})
    refused("bad_options", services.create_table, ZOE, "drekki", 4, {"live_countdown": 1})
    refused("bad_clock", services.create_table, ZOE, "drumlin", clock={"kind": "game", "base": -5})
    refused("bad_clock", services.create_table, ZOE, "drumlin", clock={"kind": "sundial"})
    refused("bad_level", services.create_table, ZOE, "drumlin", absent_bot="grandmaster")
    assert not Table.objects.exists()


def test_it_accepts_the_three_time_controls():
    assert services.create_table(ZOE, "drumlin").clock == {"kind": "none"}
    game = services.create_table(ZOE, "drumlin", clock={"kind": "game", "base": 300, "increment": 5})
    assert game.clock == {"kind": "game", "base": 300, "increment": 5}
    slow = services.create_table(ZOE, "drumlin", clock={"kind": "move", "days": 2})
    assert slow.clock == {"kind": "move", "seconds": 2 * 86400}


def test_a_guest_without_a_name_cannot_create_or_sit():
    refused("name_required", services.create_table, NO_NAME, "drumlin")
    table = services.create_table(ZOE, "drumlin")
    refused("name_required", services.join_table, table.pk, NO_NAME)
    refused("name_required", services.join_table, table.pk, services.Who())


def test_rated_tables_are_for_accounts(player):
    refused("account_required", services.create_table, ZOE, "drumlin", rated=True)
    refused("unconfirmed_account", services.create_table, player, "drumlin", rated=True)
    confirm(get_user_model().objects.get(pk=player.user_id))
    table = services.create_table(player, "drumlin", rated=True)
    refused("account_required", services.join_table, table.pk, ZOE)


def test_it_joins_the_first_free_seat_or_the_one_asked():
    table = services.create_table(ZOE, "drekki", 4)
    assert services.join_table(table.pk, MAX, seat=2) == 2
    assert services.join_table(table.pk, guest("Léa")) == 1
    refused("seat_taken", services.join_table, table.pk, guest("Ugo"), seat=2)
    refused("bad_seat", services.join_table, table.pk, guest("Ugo"), seat=9)
    refused("already_seated", services.join_table, table.pk, MAX)
    assert services.join_table(table.pk, guest("Ugo")) == 3
    refused("table_full", services.join_table, table.pk, guest("Eve"))
    refused("seat_taken", services.join_table, table.pk, guest("Eve"), seat=1)  # the seat asked for is taken
    assert table_of(table.pk).version == 4


def test_a_private_table_needs_its_invite_token():
    table = services.create_table(ZOE, "drumlin", private=True)
    check = unchanged(table)
    refused("private_table", services.join_table, table.pk, MAX)
    refused("private_table", services.join_table, table.pk, MAX, invite="guessed-token")
    refused("private_table", services.open_table, table.pk, MAX)
    check()
    assert services.join_table(table.pk, MAX, invite=table.invite_token) == 1
    assert services.lobby_tables() == []


def test_a_player_can_leave_before_the_start_and_the_last_one_out_aborts():
    table = services.create_table(ZOE, "drumlin")
    services.join_table(table.pk, MAX)
    services.leave_table(table.pk, MAX)
    assert table_of(table.pk).seats.get(index=1).is_empty
    refused("not_seated", services.leave_table, table.pk, MAX)
    services.leave_table(table.pk, ZOE)
    assert table_of(table.pk).status == "aborted"


def test_only_the_host_fills_seats_with_bots_and_starts():
    table = services.create_table(ZOE, "drekki", 4)
    services.join_table(table.pk, MAX)
    refused("not_host", services.add_bots, table.pk, MAX, "easy")
    refused("bad_level", services.add_bots, table.pk, ZOE, "godlike")
    refused("seats_empty", services.start_table, table.pk, ZOE)
    assert services.add_bots(table.pk, ZOE, "medium", seats=[3]) == [3]
    refused("seat_taken", services.add_bots, table.pk, ZOE, "easy", seats=[3])
    assert services.add_bots(table.pk, ZOE, "easy") == [2]
    refused("table_full", services.add_bots, table.pk, ZOE, "easy")
    services.remove_bot(table.pk, ZOE, 2)
    refused("not_a_bot", services.remove_bot, table.pk, ZOE, 2)
    services.add_bots(table.pk, ZOE, "easy")
    refused("not_host", services.start_table, table.pk, MAX)
    services.start_table(table.pk, ZOE)
    table = table_of(table.pk)
    assert table.status == "running" and table.state is not None and table.started_at
    refused("not_open", services.join_table, table.pk, guest("Late"))
    refused("not_open", services.add_bots, table.pk, ZOE, "easy")


def test_the_host_role_passes_on_when_the_creator_leaves():
    table = services.create_table(ZOE, "drumlin")
    services.join_table(table.pk, MAX)
    services.leave_table(table.pk, ZOE)
    services.add_bots(table.pk, MAX, "easy")
    services.start_table(table.pk, MAX)
    assert table_of(table.pk).status == "running"


def test_quick_game_seats_the_person_against_bots_and_starts():
    table = services.quick_game(ZOE, "drekki", "easy", seats=4)
    seats = list(table.seats.order_by("index"))
    assert table.status == "running"
    assert seats[0].name == "Zoé" and [s.bot_level for s in seats[1:]] == ["easy"] * 3


# -- playing ------------------------------------------------------------------------------------

def test_a_move_is_checked_applied_logged_and_versioned():
    table = two_player("eclaircissement")
    rules = engines.get(table.game)
    state = rules.load(table.state)
    seat = rules.to_act(state)[0]
    mover, other = (ZOE, MAX) if seat == 0 else (MAX, ZOE)
    check = unchanged(table)
    refused("stale_version", services.play_move, table.pk, mover, rules.legal_moves(state, seat)[0], table.version - 1)
    error = refused("not_your_turn", services.play_move, table.pk, other, "a1-a2", table.version)
    assert error.data == {"v": table.version}
    error = refused("illegal_move", services.play_move, table.pk, mover, "z9-z10", table.version)
    assert error.detail  # the engine says why
    refused("not_seated", services.play_move, table.pk, guest("Ugo"), "a1-a2", table.version)
    refused("not_your_seat", services.play_move, table.pk, mover, "a1-a2", table.version, seat=1 - seat)
    check()
    move = rules.legal_moves(state, seat)[0]
    assert services.play_move(table.pk, mover, move, table.version) == table.version + 1
    action = Action.objects.get(table=table, version=table.version + 1)
    assert (action.kind, action.seat, action.move) == ("move", seat, move)
    assert table_of(table.pk).state == rules.dump(rules.play(state, seat, move))


@pytest.mark.postgres_backend
@pytest.mark.django_db(transaction=True)
def test_a_move_on_the_event_loop_checks_writes_and_broadcasts_like_play_move(monkeypatch):
    # PostgreSQL only: table sockets play moves there with play_move_async, on
    # connections of their own (committed data only, hence transaction=True).
    import asyncio

    assert services.async_moves()
    sent = []
    monkeypatch.setattr(broadcasts, "_group_send", lambda group, message: sent.append((group, message)))
    start = timezone.now()
    table = services.create_table(ZOE, "eclaircissement", clock={"kind": "game", "base": 60, "increment": 2})
    services.join_table(table.pk, MAX)
    services.start_table(table.pk, ZOE, now=start)
    table = table_of(table.pk)
    rules = engines.get(table.game)
    state = rules.load(table.state)
    seat = rules.to_act(state)[0]
    mover, other = (ZOE, MAX) if seat == 0 else (MAX, ZOE)
    move = rules.legal_moves(state, seat)[0]
    check = unchanged(table)
    sent.clear()

    async def play(*args, **kwargs):
        try:
            return await services.play_move_async(*args, **kwargs)
        finally:
            assert all(not c.closed and c.pgconn.transaction_status == 0  # idle: committed or rolled back
                       for pool in loop_moves._move_connections.values() for c in pool.free)

    def played(*args, **kwargs):
        return asyncio.run(play(*args, **kwargs))

    refused("stale_version", played, table.pk, mover, move, table.version - 1)
    assert refused("not_your_turn", played, table.pk, other, "a1-a2", table.version).data == {"v": table.version}
    assert refused("illegal_move", played, table.pk, mover, "z9-z10", table.version).detail
    refused("not_your_seat", played, table.pk, mover, move, table.version, seat=1 - seat)
    refused("not_found", played, 10**9, mover, move, 1)
    check()
    assert sent == []  # nothing refused is broadcast
    try:
        assert asyncio.run(play(table.pk, mover, move, table.version)) == table.version + 1
    finally:
        services.close_move_connections()
    action = Action.objects.get(table=table, version=table.version + 1)
    assert (action.kind, action.seat, action.move) == ("move", seat, move)
    after = table_of(table.pk)
    assert after.version == table.version + 1 and after.state == rules.dump(rules.play(state, seat, move))
    moved = Seat.objects.get(table=table, index=seat)
    assert moved.turn_started_at is None and moved.deadline is None and moved.clock_ms <= 62_000
    assert Seat.objects.get(table=table, index=1 - seat).deadline is not None  # the other clock runs
    assert [m for _, m in sent] == [{"type": "table.update", "table": table.pk, "v": table.version + 1,
                                      "event": "move"}]


@pytest.mark.postgres_backend
@pytest.mark.django_db(transaction=True)
def test_a_move_on_the_version_held_in_memory_is_written_only_if_the_table_is_still_there(monkeypatch):
    # A process that holds the version a player saw (it sent it) plays the move
    # on it without reading the table under lock: one guarded round trip.
    import asyncio

    sent = []
    monkeypatch.setattr(broadcasts, "_group_send", lambda group, message: sent.append((group, message)))
    locked = []
    under_lock = loop_moves._move_under_lock

    async def spy(*args, **kwargs):
        locked.append(args[3])
        return await under_lock(*args, **kwargs)

    monkeypatch.setattr(loop_moves, "_move_under_lock", spy)
    start = timezone.now()
    table = services.create_table(ZOE, "eclaircissement", clock={"kind": "game", "base": 60, "increment": 2})
    services.join_table(table.pk, MAX)
    services.start_table(table.pk, ZOE, now=start)
    services.snapshot(table.pk, ZOE)  # this process now holds the running table's version
    sent.clear()
    table = table_of(table.pk)
    rules = engines.get(table.game)
    state = rules.load(table.state)
    seat = rules.to_act(state)[0]
    people = {seat: ZOE if seat == 0 else MAX, 1 - seat: MAX if seat == 0 else ZOE}

    def play(who, move, version, **kwargs):
        return asyncio.run(services.play_move_async(table.pk, who, move, version, **kwargs))

    try:
        # Refusals found on the held version are answered by the locked path, as before.
        check = unchanged(table)
        assert refused("not_your_turn", play, people[1 - seat], "a1-a2", table.version).data == {"v": table.version}
        assert refused("illegal_move", play, people[seat], "z9-z10", table.version).detail
        check()
        assert locked == [people[1 - seat], people[seat]]
        locked.clear()

        # Presence is written without the table's lock: a move must not put it back.
        away = timezone.now()
        Seat.objects.filter(table=table, index=1 - seat).update(absent_since=away)
        move = rules.legal_moves(state, seat)[0]
        assert play(people[seat], move, table.version) == table.version + 1
        assert locked == []  # one guarded round trip, no read under lock
        after = table_of(table.pk)
        state = rules.play(state, seat, move)
        assert after.version == table.version + 1 and after.state == rules.dump(state)
        assert Action.objects.get(table=table, version=after.version).move == move
        assert Seat.objects.get(table=table, index=1 - seat).absent_since == away
        assert Seat.objects.get(table=table, index=1 - seat).deadline is not None  # the other clock runs
        assert [m["v"] for _, m in sent if m["type"] == "table.update"] == [after.version]

        # Another process changes the table (a draw offer: a new version this one does
        # not hold): a move for the version held here is refused as stale, nothing written.
        table = after
        seat = rules.to_act(state)[0]
        services.draw(table.pk, people[1 - seat], "offer")
        check = unchanged(table_of(table.pk))
        seats_before = list(Seat.objects.filter(table=table).order_by("index").values())
        error = refused("stale_version", play, people[seat], rules.legal_moves(state, seat)[0], table.version)
        assert error.data == {"v": table.version + 1}
        assert locked == [people[seat]]  # tried on the held version, then answered under the lock
        check()
        assert list(Seat.objects.filter(table=table).order_by("index").values()) == seats_before  # clocks too
    finally:
        services.close_move_connections()


@pytest.mark.parametrize("slug", engines.slugs())
def test_every_engine_plays_a_whole_game_that_replays_from_its_log(slug):
    rules = engines.get(slug)
    table = services.create_table(ZOE, slug, rules.min_players)
    people = {0: ZOE}
    for seat in range(1, rules.min_players):
        people[seat] = guest(f"Player {seat}")
        services.join_table(table.pk, people[seat])
    services.start_table(table.pk, ZOE)
    table = table_of(table.pk)
    for seat, move in short_game(slug, table.seat_count, table.seed):
        services.play_move(table.pk, people[seat], move, table_of(table.pk).version)
    table = table_of(table.pk)
    assert table.status == "finished" and table.outcome is not None
    assert table.outcome == rules.outcome(rules.load(table.state)).to_dict()
    assert rules.dump(replayed_state(table)) == table.state
    replay = services.replay(table.pk, guest("Watcher"))
    assert replay["steps"][-1]["view"] == rules.view(rules.load(table.state), None)
    assert all("move" in step for step in replay["steps"] if step["kind"] == "move")
    exported = services.export(table.pk, guest("Watcher"))
    assert "seed" not in str(exported).lower() or str(table.seed) not in str(exported)
    assert [a["v"] for a in exported["actions"]] == list(range(1, table.version + 1))
    refused("game_over", services.play_move, table.pk, ZOE, "x", table.version)


def test_a_running_game_replays_without_naming_moves():
    table = two_player("drekki")
    rules = engines.get("drekki")
    state = rules.load(table.state)
    services.play_move(table.pk, ZOE, rules.legal_moves(state, 0)[0], table.version)
    replay = services.replay(table.pk, MAX)
    assert [s["kind"] for s in replay["steps"]] == ["start", "move"]
    assert all("move" not in s for s in replay["steps"])
    assert all("move" not in a for a in services.export(table.pk, MAX)["actions"])


def test_a_private_table_replays_only_for_those_invited():
    table = services.create_table(ZOE, "drumlin", private=True)
    refused("private_table", services.replay, table.pk, MAX)
    refused("private_table", services.export, table.pk, MAX)
    assert services.replay(table.pk, MAX, invite=table.invite_token)["steps"] == []


def test_snapshot_sends_each_seat_its_own_view_only():
    table = two_player("rampants-sauteurs")
    rules = engines.get(table.game)
    state = rules.load(table.state)
    for who, seat in ((ZOE, 0), (MAX, 1), (guest("Watcher"), None)):
        snap = services.snapshot(table.pk, who)
        assert snap["seat"] == seat and snap["v"] == table.version
        assert snap["view"] == rules.view(state, seat)
        assert snap["legal"] == (rules.legal_moves(state, seat) if seat is not None else [])
        assert "seed" not in snap and "state" not in snap


def test_snapshot_gives_missed_events_or_a_full_state():
    table = two_player("drekki")
    people = {0: ZOE, 1: MAX}
    moves = short_game("drekki", 2, table.seed)
    assert len(moves) > 25
    for seat, move in moves[:25]:
        services.play_move(table.pk, people[seat], move, table_of(table.pk).version)
    current = table_of(table.pk).version
    recent = services.snapshot(table.pk, ZOE, since=current - 3)
    assert not recent["full"] and [e["v"] for e in recent["events"]] == [current - 2, current - 1, current]
    assert all(("move" in e) == (e["seat"] == 0) for e in recent["events"])
    far = services.snapshot(table.pk, ZOE, since=current - 21)
    assert far["full"] and far["events"] is None
    assert services.snapshot(table.pk, ZOE, since=current)["events"] == []
    assert services.snapshot(table.pk, ZOE, since=current + 5)["full"]


# -- draws, resignations, aborts, rematches ---------------------------------------------------------

def test_a_draw_needs_every_player_and_a_move_withdraws_the_offer():
    table = two_player("drumlin")
    refused("no_draw_offer", services.draw, table.pk, MAX, "accept")
    services.draw(table.pk, ZOE, "offer")
    refused("already_offered", services.draw, table.pk, ZOE, "offer")
    services.draw(table.pk, MAX, "decline")
    assert table_of(table.pk).draw_offers == []
    services.draw(table.pk, ZOE, "offer")
    services.draw(table.pk, MAX, "accept")
    table = table_of(table.pk)
    assert table.status == "finished" and table.outcome == {"winners": [], "scores": [0.5, 0.5], "reason": "agreement"}


def test_bots_do_not_take_draws():
    table = services.quick_game(ZOE, "drumlin", "easy")
    refused("draw_with_bots", services.draw, table.pk, ZOE, "offer")


def test_resigning_at_two_hands_the_other_the_win():
    table = two_player("drumlin")
    services.resign(table.pk, MAX)
    table = table_of(table.pk)
    assert table.status == "finished" and table.outcome == {"winners": [0], "scores": [1.0, 0.0], "reason": "resign"}
    refused("game_over", services.resign, table.pk, ZOE)


def test_resigning_at_four_leaves_a_bot_on_the_seat():
    table = services.create_table(ZOE, "drekki", 4, absent_bot="medium")
    services.join_table(table.pk, MAX)
    services.add_bots(table.pk, ZOE, "easy")
    services.start_table(table.pk, ZOE)
    services.resign(table.pk, MAX)
    table = table_of(table.pk)
    seat = table.seats.get(index=1)
    assert table.status == "running" and seat.bot_level == "medium" and seat.resigned
    refused("not_seated", services.play_move, table.pk, MAX, "play 0", table.version)


def test_abort_is_allowed_until_everybody_has_moved():
    table = two_player("eclaircissement")
    rules = engines.get(table.game)
    people = {0: ZOE, 1: MAX}
    state = rules.load(table.state)
    first = rules.to_act(state)[0]
    services.play_move(table.pk, people[first], rules.legal_moves(state, first)[0], table.version)
    t = table_of(table.pk)
    state = rules.load(t.state)
    second = rules.to_act(state)[0]
    assert second != first
    services.play_move(table.pk, people[second], rules.legal_moves(state, second)[0], t.version)
    refused("too_late_to_abort", services.abort, table.pk, ZOE)
    other = two_player("eclaircissement")
    services.abort(other.pk, MAX)
    assert table_of(other.pk).status == "aborted" and table_of(other.pk).outcome is None


def test_a_rematch_starts_when_everybody_agrees_with_seats_turned():
    table = two_player("drumlin")
    refused("not_finished", services.rematch, table.pk, ZOE)
    services.resign(table.pk, ZOE)
    assert services.rematch(table.pk, ZOE) is None
    refused("already_offered", services.rematch, table.pk, ZOE)
    new_id = services.rematch(table.pk, MAX)
    new = table_of(new_id)
    assert new.status == "running" and table_of(table.pk).rematch_id == new_id
    assert [s.name for s in new.seats.order_by("index")] == ["Max", "Zoé"]
    assert new.seed != table.seed
    assert services.rematch(table.pk, ZOE) == new_id


def test_a_rematch_with_bots_needs_only_the_people():
    table = services.quick_game(ZOE, "drumlin", "easy")
    services.resign(table.pk, ZOE)
    new_id = services.rematch(table.pk, ZOE)
    assert new_id and table_of(new_id).status == "running"


# -- clocks, countdowns, absent players ---------------------------------------------------------------

def test_a_game_clock_counts_down_adds_the_increment_and_flags():
    start = timezone.now()
    table = services.create_table(ZOE, "drumlin", clock={"kind": "game", "base": 60, "increment": 2})
    services.join_table(table.pk, MAX)
    services.start_table(table.pk, ZOE, now=start)
    table = table_of(table.pk)
    rules = engines.get("drumlin")
    state = rules.load(table.state)
    seat = rules.to_act(state)[0]
    people = {0: ZOE, 1: MAX}
    assert table.clock_deadline == start + timedelta(seconds=60)
    later = start + timedelta(seconds=10)
    services.play_move(table.pk, people[seat], rules.legal_moves(state, seat)[0], table.version, now=later)
    mover = Seat.objects.get(table=table, index=seat)
    assert mover.clock_ms == 52_000 and mover.deadline is None
    table = table_of(table.pk)
    other = 1 - seat
    assert table.clock_deadline == later + timedelta(seconds=60)
    assert services.time_out(table.pk, now=later + timedelta(seconds=59)) == 0
    assert table_of(table.pk).status == "running"
    assert services.time_out(table.pk, now=later + timedelta(seconds=61)) == 1
    table = table_of(table.pk)
    # Drumlin has no timeout move: running out of time loses.
    assert table.status == "finished" and table.outcome["reason"] == "timeout" and table.outcome["winners"] == [seat]
    assert table.clock_deadline is None
    assert Action.objects.filter(table=table, kind="flag", seat=other).exists()


def test_a_move_clock_gives_each_turn_its_time_and_plays_the_timeout_move():
    start = timezone.now()
    table = services.create_table(ZOE, "drekki", 2, clock={"kind": "move", "seconds": 30})
    services.join_table(table.pk, MAX)
    services.start_table(table.pk, ZOE, now=start)
    table = table_of(table.pk)
    rules = engines.get("drekki")
    assert table.clock_deadline == start + timedelta(seconds=30)
    ran_out = services.time_out(table.pk, now=start + timedelta(seconds=31))
    assert ran_out == len(rules.to_act(rules.load(table.state)))
    after = table_of(table.pk)
    assert after.status == "running" and after.version == table.version + ran_out
    assert set(Action.objects.filter(table=table, kind="timeout").values_list("seat", flat=True)) == {0, 1}


def test_a_live_auction_countdown_closes_the_auction():
    rules = engines.get("drekki")
    table = services.create_table(ZOE, "drekki", 3)
    people = {0: ZOE, 1: MAX, 2: guest("Léa")}
    services.join_table(table.pk, people[1])
    services.join_table(table.pk, people[2])
    services.start_table(table.pk, ZOE)
    import random

    rng = random.Random(5)
    for _ in range(400):
        table = table_of(table.pk)
        state = rules.load(table.state)
        if rules.countdown(state) is not None or table.status != "running":
            break
        seat = rng.choice(rules.to_act(state))
        moves = rules.legal_moves(state, seat)
        bids = [m for m in moves if m.startswith("bid")]
        services.play_move(table.pk, people[seat], rng.choice(bids or moves), table.version)
    assert rules.countdown(state) is not None, "no live auction came up"
    assert table.countdown_deadline is not None
    assert services.fire_countdown(table.pk, now=table.countdown_deadline - timedelta(seconds=1)) is False
    assert services.fire_countdown(table.pk, now=table.countdown_deadline + timedelta(seconds=1)) is True
    action = Action.objects.get(table=table, version=table.version + 1)
    assert action.kind == "countdown" and action.move == rules.countdown(state).move
    assert rules.countdown(rules.load(table_of(table.pk).state)) is None


def test_an_absent_player_can_be_handed_to_a_bot_after_the_grace_period():
    start = timezone.now()
    table = services.create_table(ZOE, "drumlin", absent_grace=60)
    services.join_table(table.pk, MAX)
    services.connect(table.pk, "chan-zoe", ZOE, 0, now=start)
    services.start_table(table.pk, ZOE, now=start)
    assert Seat.objects.get(table=table, index=1).absent_since == start
    refused("not_absent", services.kick_absent, table.pk, ZOE, 1, now=start + timedelta(seconds=30))
    refused("bad_seat", services.kick_absent, table.pk, ZOE, 0, now=start + timedelta(seconds=90))
    services.kick_absent(table.pk, ZOE, 1, now=start + timedelta(seconds=90))
    seat = Seat.objects.get(table=table, index=1)
    assert seat.bot_level == "easy" and seat.guest_key == "" and seat.name == "Max"
    assert table_of(table.pk).bot_due is not None or engines.get("drumlin").to_act(
        engines.get("drumlin").load(table_of(table.pk).state)) == (0,)


def test_the_worker_replaces_absent_players_where_the_table_asks():
    start = timezone.now()
    table = services.create_table(ZOE, "drumlin", absent_bot="medium", absent_grace=60)
    services.join_table(table.pk, MAX)
    services.connect(table.pk, "chan-max", MAX, 1, now=start)
    services.connect(table.pk, "chan-zoe", ZOE, 0, now=start)
    services.start_table(table.pk, ZOE, now=start)
    services.disconnect("chan-max", now=start + timedelta(seconds=5))
    assert services.replace_absent(now=start + timedelta(seconds=30)) == 0
    assert services.replace_absent(now=start + timedelta(seconds=70)) == 1
    assert Seat.objects.get(table=table, index=1).bot_level == "medium"
    assert Seat.objects.get(table=table, index=0).bot_level == ""


def test_a_reconnection_clears_absence_and_stale_sockets_are_pruned():
    start = timezone.now()
    table = two_player("drumlin")
    services.connect(table.pk, "chan-a", MAX, 1, now=start)
    assert Seat.objects.get(table=table, index=1).absent_since is None
    assert services.presence(table.pk) == {"seats": [1], "spectators": 0}
    services.connect(table.pk, "chan-b", guest("Watcher"), None, now=start)
    assert services.presence(table.pk) == {"seats": [1], "spectators": 1}
    assert services.prune_connections(timedelta(seconds=60), now=start + timedelta(seconds=61)) == 2
    assert not Connection.objects.exists()
    assert Seat.objects.get(table=table, index=1).absent_since is not None


# -- chat and the hosts ---------------------------------------------------------------------------------

def test_players_and_spectators_have_separate_chats():
    table = two_player("drumlin")
    said = services.post_chat(table.pk, ZOE, "  bonne   partie\u0007 ! ")
    assert said["channel"] == "players" and said["text"] == "bonne partie !"
    heard = services.post_chat(table.pk, guest("Watcher"), "allez Max")
    assert heard["channel"] == "spectators"
    refused("bad_chat", services.post_chat, table.pk, ZOE, "   ")
    refused("bad_chat", services.post_chat, table.pk, ZOE, "x" * 501)
    refused("name_required", services.post_chat, table.pk, services.Who(), "hello")
    assert [m["text"] for m in services.chat_backlog(table.pk, "players")] == ["bonne partie !"]
    assert [m["text"] for m in services.chat_backlog(table.pk, "spectators")] == ["allez Max"]


def test_staff_end_remove_and_moderate_and_every_act_is_logged(host):
    table = two_player("drumlin")
    message = services.post_chat(table.pk, MAX, "rude words")
    refused("staff_only", services.staff_hide_chat, message["id"], ZOE)
    refused("staff_only", services.staff_end, table.pk, ZOE)
    refused("staff_only", services.staff_remove, table.pk, ZOE, 1)
    hidden = services.staff_hide_chat(message["id"], host)
    assert hidden["hidden"] and hidden["text"] == "" and ChatMessage.objects.get(pk=message["id"]).hidden
    services.staff_remove(table.pk, host, 1)
    assert Seat.objects.get(table=table, index=1).bot_level == "easy"
    services.staff_end(table.pk, host, "abandoned")
    assert table_of(table.pk).status == "aborted"
    assert list(ModerationLog.objects.order_by("created_at").values_list("kind", flat=True)) == [
        "hide_chat", "remove", "end"
    ]
    assert all(entry.staff_id == host.user_id for entry in ModerationLog.objects.all())


def test_staff_see_private_tables_in_their_list(host):
    private = services.create_table(ZOE, "drumlin", private=True)
    assert services.lobby_tables() == []
    assert [e["id"] for e in services.tables_for_staff()] == [private.pk]
    assert services.open_table(private.pk, host)[1] is None


def test_staff_removing_a_player_before_the_start_frees_the_seat(host):
    table = services.create_table(ZOE, "drumlin")
    services.join_table(table.pk, MAX)
    services.staff_remove(table.pk, host, 1)
    assert Seat.objects.get(table=table, index=1).is_empty


def test_stale_open_tables_are_abandoned():
    table = services.create_table(ZOE, "drumlin")
    assert services.abandon_stale_open_tables(timedelta(hours=6)) == 0
    assert services.abandon_stale_open_tables(timedelta(hours=6), now=timezone.now() + timedelta(hours=7)) == 1
    assert table_of(table.pk).status == "aborted"
