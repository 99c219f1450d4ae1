"""Ratings that mean something (issue 29, findings 7 and 9), tried as a farmer
and a curious visitor would: throwaway accounts that sit down, make two moves
and resign; a player who walks away from a rated game against a bot; the same
two accounts playing each other all day; anonymous visitors reading a private
player's rating changes from every route that shows a finished game."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from games import engines, services
from games.bookings.models import VerifiedAddress
from games.models import Action, Seat, Table
from games.protocol import TableError
from games.ratings.jobs import rate_pending
from games.ratings.models import Departure, Privacy, RatedGame, Rating, RatingChange
from games.services import Who
from tests.games.tables_helpers import confirm, member, move_connections, short_game  # noqa: F401 (autouse)

GAME = "quatre-en-ligne"
MOVES = short_game(GAME, 2, 1, decisive=True)


def account(name: str, confirmed: bool = True):
    user = get_user_model().objects.create_user(name, f"{name}@example.org", f"pw-{name}-12345")
    return confirm(user) if confirmed else user


def refused(code: str, func, *args, **kwargs) -> None:
    with pytest.raises(TableError) as info:
        func(*args, **kwargs)
    assert info.value.code == code, info.value


def rated_pair(host: Who, other: Who) -> Table:
    table = services.create_table(host, GAME, rated=True)
    services.join_table(table.pk, other)
    Table.objects.filter(pk=table.pk).update(seed=1)  # the seed MOVES were found with
    services.start_table(table.pk, host)
    return Table.objects.get(pk=table.pk)


def play(table: Table, moves, people: list[Who]) -> Table:
    seats = {s.index: next(p for p in people if p.user_id == s.user_id)
             for s in Seat.objects.filter(table=table) if s.user_id}
    for seat, move in moves:
        services.play_move(table.pk, seats[seat], move, Table.objects.get(pk=table.pk).version)
    return Table.objects.get(pk=table.pk)


def rated_game(host: Who, other: Who) -> Table:
    return play(rated_pair(host, other), MOVES, [host, other])


# -- finding 7: farming with throwaway accounts -----------------------------------------------------

@pytest.mark.django_db
def test_fresh_unconfirmed_accounts_that_make_two_moves_and_resign_change_nothing():
    # The finding replayed: a player and three accounts made a second ago (no
    # confirmed address), each to sit at a rated table, make two moves and resign.
    victim = member(account("vic"))
    for n in range(3):
        fresh_user = account(f"fresh{n}", confirmed=False)
        fresh = member(fresh_user)
        # Through the services: neither creating nor joining a rated table.
        refused("unconfirmed_account", services.create_table, fresh, GAME, rated=True)
        table = services.create_table(victim, GAME, rated=True)
        refused("unconfirmed_account", services.join_table, table.pk, fresh)
        # Through the HTTP API, as the attacker's script would.
        client = Client()
        client.force_login(fresh_user)
        answer = client.post(f"/api/tables/{table.pk}/join/", "{}", content_type="application/json")
        assert answer.status_code == 403 and answer.json()["code"] == "unconfirmed_account"
        answer = client.post("/api/tables/", json.dumps({"game": GAME, "rated": True}),
                             content_type="application/json")
        assert answer.status_code == 403 and answer.json()["code"] == "unconfirmed_account"
        assert [s.user_id for s in Seat.objects.filter(table=table)] == [victim.user_id, None]
        services.leave_table(table.pk, victim)
    assert not Table.objects.filter(rated=True, status="running").exists()
    assert not Rating.objects.exists() and not RatingChange.objects.exists()


@pytest.mark.django_db
def test_an_account_unconfirmed_by_the_end_of_the_game_is_not_rated_nor_its_opponent():
    ana, ben = member(account("ana")), member(account("ben"))
    table = play(rated_pair(ana, ben), MOVES[:-1], [ana, ben])
    # Ben changes his address mid-game (now unconfirmed) and loses on purpose.
    get_user_model().objects.filter(pk=ben.user_id).update(email="ben@elsewhere.example")
    table = play(table, MOVES[-1:], [ana, ben])
    assert table.status == "finished" and "ratings" not in table.outcome
    assert RatedGame.objects.get(table=table).reason == "unconfirmed"
    assert not RatingChange.objects.exists()


@pytest.mark.django_db
def test_a_rematch_of_a_rated_table_needs_confirmed_accounts_too():
    ana, ben = member(account("ana")), member(account("ben"))
    table = rated_game(ana, ben)
    VerifiedAddress.objects.filter(user_id=ben.user_id).delete()
    refused("unconfirmed_account", services.rematch, table.pk, ben)
    services.rematch(table.pk, ana)
    refused("unconfirmed_account", services.rematch, table.pk, ben)
    assert Table.objects.filter(rated=True).count() == 1


@pytest.mark.django_db
def test_the_hosts_and_confirmed_accounts_still_play_rated_games():
    host_user = account("hostess", confirmed=False)
    host_user.is_staff = True
    host_user.save()
    table = rated_game(member(host_user), member(account("ben")))
    assert len(table.outcome["ratings"]) == 2


# -- finding 7: the same two accounts all day -------------------------------------------------------

@pytest.mark.django_db
def test_past_the_days_limit_games_between_the_same_two_accounts_are_not_rated(settings):
    settings.LUDO_RATED_GAMES_PER_PAIR = limit = 3
    ana, ben, cid = (member(account(n)) for n in ("ana", "ben", "cid"))
    for _ in range(limit):
        assert "ratings" in rated_game(ana, ben).outcome
    before = {r.user_id: (r.rating, r.games) for r in Rating.objects.all()}
    extra = rated_game(ana, ben)  # one too many today: not rated, for either
    assert "ratings" not in extra.outcome and RatedGame.objects.get(table=extra).reason == "repeated"
    assert {r.user_id: (r.rating, r.games) for r in Rating.objects.all()} == before
    assert "ratings" in rated_game(ana, cid).outcome  # another opponent still counts
    # A day later the pair counts again (the window is 24 hours, rolling).
    RatingChange.objects.update(created_at=timezone.now() - timedelta(hours=25))
    assert "ratings" in rated_game(ben, ana).outcome


# -- finding 7: walking away from a rated game ------------------------------------------------------

def bot_table(player: Who, bots: int = 1, game: str = GAME, **kwargs) -> Table:
    table = services.create_table(player, game, bots + 1, rated=True, **kwargs)
    services.add_bots(table.pk, player, "hard")
    Table.objects.filter(pk=table.pk).update(seed=1)
    services.start_table(table.pk, player)
    return Table.objects.get(pk=table.pk)


def until_my_turn(table: Table, player: Who, my_moves: int) -> Table:
    """Bots answer at once; the player makes ``my_moves`` moves, then it is
    their turn again."""
    rules = engines.get(table.game)
    made = 0
    for _ in range(200):
        table = Table.objects.get(pk=table.pk)
        assert table.status == "running"
        state = rules.load(table.state)
        seat = rules.to_act(state)[0]
        if Seat.objects.get(table=table, index=seat).is_bot:
            services.bot_move(table.pk, seat, rules.legal_moves(state, seat)[0], table.version)
        elif made == my_moves:
            return table
        else:
            services.play_move(table.pk, player, rules.legal_moves(state, seat)[0], table.version)
            made += 1
    raise AssertionError("the game did not come back to the player")


@pytest.mark.django_db
def test_a_player_who_walks_away_from_a_rated_game_against_a_bot_loses_it_rated_at_the_idle_limit(settings):
    settings.LUDO_RATED_IDLE_SECONDS = 300
    ana = member(account("ana"))
    table = until_my_turn(bot_table(ana), ana, 2)
    mine = Seat.objects.get(table=table, user_id=ana.user_id)
    # The worker finds the table by its deadline: the idle limit from her turn's start.
    assert mine.deadline == mine.turn_started_at + timedelta(seconds=300) == table.clock_deadline
    frame = services.snapshot(table.pk, Who())
    assert frame["clock"]["idle"] == 300 and frame["clock"]["seats"][mine.index]["running"]
    # She walks away. Just before the limit nothing happens; at the limit she has lost.
    assert services.time_out(table.pk, now=mine.deadline - timedelta(seconds=1)) == 0
    assert Table.objects.get(pk=table.pk).status == "running"
    assert services.time_out(table.pk, now=mine.deadline) == 1
    table = Table.objects.get(pk=table.pk)
    assert table.status == "finished" and table.outcome["reason"] == "timeout"
    assert table.outcome["winners"] == [1 - mine.index]
    flag = Action.objects.get(table=table, kind="flag")
    assert flag.seat == mine.index and flag.payload == {"idle": 300}
    change = RatingChange.objects.get(table=table)
    assert change.user_id == ana.user_id and change.result == "loss"
    assert Rating.objects.get(user_id=ana.user_id).rating < 1500
    assert [r["seat"] for r in table.outcome["ratings"]] == [mine.index]


@pytest.mark.django_db
def test_idle_among_several_hands_the_seat_to_a_bot_and_ranks_the_player_last(settings):
    settings.LUDO_RATED_IDLE_SECONDS = 300
    ana = member(account("ana"))
    table = bot_table(ana, bots=2, game="drekki")
    rules = engines.get("drekki")
    mine = Seat.objects.get(table=table, user_id=ana.user_id)
    for _ in range(200):  # the bots play until Ana is expected to act
        table = Table.objects.get(pk=table.pk)
        state = rules.load(table.state)
        if mine.index in rules.to_act(state):
            break
        seat = rules.to_act(state)[0]
        services.bot_move(table.pk, seat, rules.legal_moves(state, seat)[0], table.version)
    mine = Seat.objects.get(pk=mine.pk)
    assert mine.deadline is not None
    services.time_out(table.pk, now=mine.deadline)
    table = Table.objects.get(pk=table.pk)
    seat = Seat.objects.get(pk=mine.pk)
    assert seat.is_bot and seat.user_id is None and seat.resigned
    assert Departure.objects.get(table=table).user_id == ana.user_id
    assert Action.objects.filter(table=table, kind="flag", payload={"idle": 300}).count() == 1


@pytest.mark.django_db
def test_clocks_of_other_tables_are_unchanged():
    ana, ben = member(account("ana")), member(account("ben"))
    casual = services.create_table(ana, GAME)  # not rated: no idle limit
    services.join_table(casual.pk, ben)
    services.start_table(casual.pk, ana)
    casual = Table.objects.get(pk=casual.pk)
    assert casual.clock_deadline is None and "idle" not in services.snapshot(casual.pk, ana)["clock"]
    clocked = services.create_table(ana, GAME, rated=True, clock={"kind": "move", "seconds": 30})
    services.join_table(clocked.pk, ben)
    services.start_table(clocked.pk, ana)
    clocked = Table.objects.get(pk=clocked.pk)  # a rated table with a clock keeps its clock
    assert clocked.clock_deadline == clocked.started_at + timedelta(seconds=30)
    assert "idle" not in services.snapshot(clocked.pk, ana)["clock"]


# -- finding 9: a private profile's numbers ---------------------------------------------------------

@pytest.fixture
def private_game(db):
    """A finished rated game: Ana (private profile) against Ben (public)."""
    ana_user, ben_user = account("ana"), account("ben")
    Privacy.objects.create(user=ana_user, private=True)
    ana, ben = member(ana_user), member(ben_user)
    table = rated_game(ana, ben)
    seats = {s.user_id: s.index for s in Seat.objects.filter(table=table)}
    return table, seats[ana.user_id], seats[ben.user_id], {"ana": ana_user, "ben": ben_user}


def seats_in(outcome) -> set[int]:
    return {r["seat"] for r in outcome.get("ratings", [])}


def test_a_private_players_rating_change_is_absent_from_every_anonymous_route(private_game):
    table, ana_seat, ben_seat, _users = private_game
    assert seats_in(table.outcome) == {ana_seat, ben_seat}  # stored whole
    client = Client()
    routes = {
        "table": client.get(f"/api/tables/{table.pk}/").json()["outcome"],
        "replay": client.get(f"/api/tables/{table.pk}/replay/").json()["outcome"],
        "export": json.loads(client.get(f"/api/tables/{table.pk}/export/").content)["outcome"],
        "frame": services.snapshot(table.pk, Who())["outcome"],
    }
    for route, outcome in routes.items():
        assert seats_in(outcome) == {ben_seat}, route  # Ben's public numbers stay
        assert outcome["winners"] == table.outcome["winners"], route  # the result is there


def test_other_accounts_see_the_result_without_the_private_numbers_players_and_hosts_see_all(private_game):
    table, ana_seat, ben_seat, users = private_game
    cid = account("cid")
    staff = account("hostess")
    staff.is_staff = True
    staff.save()
    expected = {cid: {ben_seat}, users["ana"]: {ana_seat, ben_seat}, users["ben"]: {ana_seat, ben_seat},
                staff: {ana_seat, ben_seat}}
    for user, seen in expected.items():
        client = Client()
        client.force_login(user)
        assert seats_in(client.get(f"/api/tables/{table.pk}/").json()["outcome"]) == seen, user
        assert seats_in(client.get(f"/api/tables/{table.pk}/replay/").json()["outcome"]) == seen, user
        assert seats_in(json.loads(client.get(f"/api/tables/{table.pk}/export/").content)["outcome"]) == seen
    # Ana opens her profile again: everyone sees her numbers.
    Privacy.objects.filter(user=users["ana"]).update(private=False)
    assert seats_in(Client().get(f"/api/tables/{table.pk}/").json()["outcome"]) == {ana_seat, ben_seat}


@pytest.mark.django_db
def test_the_rated_event_of_a_game_rated_by_the_worker_hides_the_private_numbers_too():
    ana_user, ben_user = account("ana"), account("ben")
    Privacy.objects.create(user=ana_user, private=True)
    ana, ben = member(ana_user), member(ben_user)
    # A game left to the worker's sweep (its last move came from the event loop).
    table = services.create_table(ana, GAME)
    services.join_table(table.pk, ben)
    Table.objects.filter(pk=table.pk).update(seed=1)
    services.start_table(table.pk, ana)
    table = play(Table.objects.get(pk=table.pk), MOVES, [ana, ben])
    Table.objects.filter(pk=table.pk).update(rated=True)
    assert rate_pending() == 1
    table = Table.objects.get(pk=table.pk)
    ana_seat = Seat.objects.get(table=table, user=ana_user).index
    frame = services.snapshot(table.pk, Who(), since=table.version - 1)
    [event] = frame["events"]
    assert event["kind"] == "rated" and ana_seat not in seats_in(event["data"])
    assert ana_seat not in seats_in(frame["outcome"])
    exported = json.loads(Client().get(f"/api/tables/{table.pk}/export/").content)
    rated = next(a for a in exported["actions"] if a["kind"] == "rated")
    assert ana_seat not in seats_in(rated["data"]) and len(rated["data"]["ratings"]) == 1
    mine = services.snapshot(table.pk, ana, since=table.version - 1)
    assert ana_seat in seats_in(mine["events"][0]["data"])


@pytest.mark.django_db(transaction=True)
async def test_the_end_frame_on_the_socket_hides_the_private_numbers_from_watchers():
    from channels.db import database_sync_to_async as db

    from tests.games.tables_helpers import Sock, user_session

    def setup():
        ana_user, ben_user = account("ana"), account("ben")
        Privacy.objects.create(user=ana_user, private=True)
        ana, ben = member(ana_user), member(ben_user)
        table = play(rated_pair(ana, ben), MOVES[:-1], [ana, ben])
        return table, ana, ben, user_session(ana_user), user_session(account("cid"))

    table, ana, ben, ana_key, cid_key = await db(setup)()
    ana_seat = await db(lambda: Seat.objects.get(table=table, user_id=ana.user_id).index)()
    socks = {name: await Sock(f"/ws/tables/{table.pk}/", key).connect() for name, key in
             (("anonymous", None), ("cid", cid_key), ("ana", ana_key))}
    try:
        for sock in socks.values():
            await sock.open()
        await db(play)(table, MOVES[-1:], [ana, ben])
        ends = {name: await sock.until("update", status="finished") for name, sock in socks.items()}
        for name in ("anonymous", "cid"):
            outcome = ends[name]["outcome"]
            assert "winners" in outcome and ana_seat not in seats_in(outcome), name
            # And again when the watcher comes back later (a fresh state frame).
            late = await Sock(f"/ws/tables/{table.pk}/", None if name == "anonymous" else cid_key).connect()
            try:
                frame = await late.open()
                assert frame["status"] == "finished" and ana_seat not in seats_in(frame["outcome"])
                assert len(frame["outcome"]["ratings"]) == 1
            finally:
                await late.close()
        assert ana_seat in seats_in(ends["ana"]["outcome"]) and len(ends["ana"]["outcome"]["ratings"]) == 2
    finally:
        for sock in socks.values():
            await sock.close()


@pytest.mark.django_db
def test_a_rated_game_without_a_clock_already_stalled_before_the_upgrade_gets_its_limit(settings):
    # A table started before the idle limit existed: no deadline anywhere, so
    # the worker never looked at it. The migration wakes it up; the worker's
    # timeout pass then gives the waiting seat the limit from that moment.
    import importlib

    from django.apps import apps

    settings.LUDO_RATED_IDLE_SECONDS = 300
    migration = importlib.import_module("games.ratings.migrations.0003_idle_limit_for_running_rated_tables")
    ana = member(account("ana"))
    table = until_my_turn(bot_table(ana), ana, 2)
    Table.objects.filter(pk=table.pk).update(clock_deadline=None)
    Seat.objects.filter(table=table).update(deadline=None, turn_started_at=None)
    migration.wake_running_rated_tables(apps, None)
    woken = Table.objects.get(pk=table.pk).clock_deadline
    assert woken is not None
    assert services.time_out(table.pk, now=woken) == 0  # nobody loses for the time before
    deadline = Seat.objects.get(table=table, user_id=ana.user_id).deadline
    assert deadline == woken + timedelta(seconds=300) == Table.objects.get(pk=table.pk).clock_deadline
    assert services.time_out(table.pk, now=deadline) == 1
    assert Table.objects.get(pk=table.pk).status == "finished"
    assert RatingChange.objects.get(table=table).result == "loss"
