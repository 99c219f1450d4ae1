"""Ratings: the Glicko-2 system against Glickman's worked example, and every
rule of who is rated, when and against whom, through the table service."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from games import engines, services
from games.models import Action, Seat, Table
from games.ratings import glicko2
from games.ratings.jobs import rate_pending
from games.ratings.models import Departure, RatedGame, Rating, RatingChange
from games.ratings.rules import BOT_ANCHORS, Participant, rate, why_not_rated
from games.ratings.service import rate_table
from tests.games.tables_helpers import confirm, guest, member, short_game

GAME = "quatre-en-ligne"  # no chance, short games


# -- Glicko-2 (pure) ------------------------------------------------------------------------------

def test_glicko2_matches_the_worked_example_of_glickmans_paper():
    player = glicko2.Rating(1500, 200, 0.06)
    results = [
        glicko2.Result(glicko2.Rating(1400, 30), 1),
        glicko2.Result(glicko2.Rating(1550, 100), 0),
        glicko2.Result(glicko2.Rating(1700, 300), 0),
    ]
    after = glicko2.update(player, results, tau=0.5)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.rd == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_glicko2_without_games_only_widens_the_deviation_and_refuses_bad_scores():
    after = glicko2.update(glicko2.Rating(1500, 200, 0.06), [])
    assert after.rating == 1500 and after.rd == pytest.approx(200.27, abs=0.01)  # sqrt(phi² + sigma²), step 6
    with pytest.raises(ValueError):
        glicko2.update(glicko2.Rating(), [glicko2.Result(glicko2.Rating(), 2)])


def test_several_players_are_rated_in_pairs_from_the_final_ranking():
    first = Participant(0, glicko2.Rating(), 1.0, user_id=1, moves=5)
    second = Participant(1, glicko2.Rating(), 0.5, user_id=2, moves=5)
    bot = Participant(2, BOT_ANCHORS["hard"], 0.0)
    gone = Participant(3, glicko2.Rating(), -1.0, user_id=4, left=True, moves=5)
    changes = {c.participant.seat: c for c in rate([first, second, bot, gone])}
    assert set(changes) == {0, 1, 3}  # the bot is an anchor, never updated
    assert [changes[s].result for s in (0, 1, 3)] == ["win", "win", "loss"]
    expected = glicko2.update(second.rating, [glicko2.Result(first.rating, 0), glicko2.Result(bot.rating, 1),
                                              glicko2.Result(gone.rating, 1)])
    assert changes[1].after == expected
    assert changes[0].after.rating > changes[1].after.rating > 1500 > changes[3].after.rating
    assert why_not_rated([first, Participant(1, glicko2.Rating(), 0, user_id=2, moves=1)]) == "too_short"
    assert why_not_rated([bot]) == "no_accounts"


# -- through the table service ---------------------------------------------------------------------

@pytest.fixture
def people(db):
    User = get_user_model()
    return [member(confirm(User.objects.create_user(name, f"{name}@example.org", f"pw-{name}-12345")))
            for name in ("ana", "ben")]


def start(table, host):
    """Start with seed 1: the one short_game's moves were found with (who starts depends on it)."""
    Table.objects.filter(pk=table.pk).update(seed=1)
    services.start_table(table.pk, host)
    return Table.objects.get(pk=table.pk)


def rated_table(host, other, **kwargs):
    table = services.create_table(host, GAME, rated=True, **kwargs)
    services.join_table(table.pk, other)
    return start(table, host)


def who_at(table, people):
    return {s.index: next(p for p in people if p.user_id == s.user_id)
            for s in Seat.objects.filter(table=table) if s.user_id}


def play(table, moves, people):
    seats = who_at(table, people)
    for seat, move in moves:
        table = Table.objects.get(pk=table.pk)
        services.play_move(table.pk, seats[seat], move, table.version)
    return Table.objects.get(pk=table.pk)


def test_a_rated_game_between_accounts_rates_both_once_and_the_end_frame_shows_it(people):
    table = play(rated_table(*people), short_game(GAME, 2, 1, decisive=True), people)
    assert table.status == "finished"
    winner = table.outcome["winners"][0]
    seats = who_at(table, people)
    ratings = {r.user_id: r for r in Rating.objects.filter(game=GAME)}
    assert set(ratings) == {p.user_id for p in people}
    assert ratings[seats[winner].user_id].rating > 1500 > ratings[seats[1 - winner].user_id].rating
    assert all(r.games == 1 and r.provisional for r in ratings.values())
    changes = RatingChange.objects.filter(table=table)
    assert sorted(c.result for c in changes) == ["loss", "win"]
    shown = {r["seat"]: r for r in table.outcome["ratings"]}
    assert shown[winner]["before"] == 1500 and shown[winner]["delta"] > 0 > shown[1 - winner]["delta"]
    assert shown[winner]["after"] == round(ratings[seats[winner].user_id].rating)
    frame = services.snapshot(table.pk, people[0])
    assert frame["outcome"]["ratings"] == table.outcome["ratings"]
    # Rated once: neither the sweep nor another call changes anything.
    assert rate_pending() == 0
    assert rate_table(table, list(Seat.objects.filter(table=table).order_by("index")), timezone.now()) is None
    assert RatingChange.objects.count() == 2
    assert Rating.objects.get(pk=ratings[people[0].user_id].pk).games == 1


def test_guests_are_never_rated(people):
    ana = people[0]
    with pytest.raises(services.TableError):
        services.create_table(guest("Zoé"), GAME, rated=True)
    table = services.create_table(ana, GAME)  # not rated: a guest may join
    services.join_table(table.pk, guest("Zoé"))
    start(table, ana)
    # A guest at a rated table (cannot happen through the service): left out.
    Table.objects.filter(pk=table.pk).update(rated=True)
    table = Table.objects.get(pk=table.pk)
    seats = {s.index: s for s in Seat.objects.filter(table=table)}
    for seat, move in short_game(GAME, 2, 1, decisive=True):
        who = ana if seats[seat].user_id else guest("Zoé")
        services.play_move(table.pk, who, move, Table.objects.get(pk=table.pk).version)
    verdict = RatedGame.objects.get(table=table)
    assert not verdict.counted and verdict.reason == "alone"
    assert not Rating.objects.exists() and not RatingChange.objects.exists()


def test_an_unrated_table_between_accounts_is_not_rated(people):
    table = services.create_table(people[0], GAME)
    services.join_table(table.pk, people[1])
    table = start(table, people[0])
    table = play(table, short_game(GAME, 2, 1, decisive=True), people)
    assert table.status == "finished" and "ratings" not in table.outcome
    assert rate_pending() == 0 and not Rating.objects.exists()


def bot_game(player, level):
    table = services.create_table(player, GAME, rated=True)
    services.add_bots(table.pk, player, level)
    services.start_table(table.pk, player)
    rules = engines.get(GAME)
    for _ in range(100):
        table = Table.objects.get(pk=table.pk)
        if table.status != "running":
            break
        state = rules.load(table.state)
        seat = rules.to_act(state)[0]
        move = rules.legal_moves(state, seat)[0]
        if Seat.objects.get(table=table, index=seat).is_bot:
            services.bot_move(table.pk, seat, move, table.version)
        else:
            services.play_move(table.pk, player, move, table.version)
    return Table.objects.get(pk=table.pk)


def test_bots_are_fixed_anchors_per_level(people):
    ana = people[0]
    table = bot_game(ana, "hard")
    assert table.status == "finished"
    mine = Seat.objects.get(table=table, user_id=ana.user_id).index
    score = 1.0 if mine in table.outcome["winners"] else 0.5 if not table.outcome["winners"] else 0.0
    expected = glicko2.update(glicko2.Rating(), [glicko2.Result(BOT_ANCHORS["hard"], score)])
    rating = Rating.objects.get(user_id=ana.user_id, game=GAME)
    assert rating.rating == pytest.approx(expected.rating) and rating.rd == pytest.approx(expected.rd)
    assert Rating.objects.count() == 1  # nothing stored for the bot
    second = bot_game(ana, "hard")  # the anchor is the same in the next game
    change = RatingChange.objects.get(table=second)
    score = 1.0 if change.seat in second.outcome["winners"] else 0.5 if not second.outcome["winners"] else 0.0
    again = glicko2.update(expected, [glicko2.Result(BOT_ANCHORS["hard"], score)])
    assert Rating.objects.get(user_id=ana.user_id).rating == pytest.approx(again.rating)


def test_a_game_called_off_or_ended_in_its_first_moves_is_not_rated(people):
    moves = short_game(GAME, 2, 1, decisive=True)
    table = play(rated_table(*people), moves[:1], people)
    services.abort(table.pk, who_at(table, people)[moves[1][0]])  # the second player has not moved yet
    assert Table.objects.get(pk=table.pk).status == "aborted"
    # Resigned after one move each: finished, but too short to be rated.
    table = play(rated_table(*people), moves[:2], people)
    services.resign(table.pk, people[0])
    table = Table.objects.get(pk=table.pk)
    assert table.status == "finished" and "ratings" not in table.outcome
    assert RatedGame.objects.get(table=table).reason == "too_short"
    assert rate_pending() == 0
    assert not Rating.objects.exists() and not RatingChange.objects.exists()


def test_a_player_who_left_loses_even_when_the_other_then_loses_to_the_bot(people):
    moves = short_game(GAME, 2, 1, decisive=True)
    table = play(rated_table(*people, absent_grace=10), moves[:4], people)
    seats = who_at(table, people)
    stayer, leaver = moves[4][0], 1 - moves[4][0]
    # The leaver is away past the grace period: the other hands their seat to a bot.
    Seat.objects.filter(table=table, index=leaver).update(absent_since=timezone.now() - timedelta(minutes=5))
    services.kick_absent(table.pk, seats[stayer], leaver)
    assert Departure.objects.get(table=table).user_id == seats[leaver].user_id
    services.resign(table.pk, seats[stayer])  # and then gives up against the bot
    table = Table.objects.get(pk=table.pk)
    assert table.status == "finished" and table.outcome["winners"] == [leaver]
    changes = {c.user_id: c for c in RatingChange.objects.filter(table=table)}
    assert changes[seats[leaver].user_id].result == "loss" and changes[seats[leaver].user_id].left
    assert changes[seats[stayer].user_id].result == "win"
    assert Rating.objects.get(user_id=seats[leaver].user_id).rating < 1500


def test_the_worker_rates_a_finished_game_nobody_rated_once_with_a_rated_event(people):
    # A game whose rating was left to the worker (its last move was played on the event loop).
    table = services.create_table(people[0], GAME)
    services.join_table(table.pk, people[1])
    table = start(table, people[0])
    table = play(table, short_game(GAME, 2, 1, decisive=True), people)
    Table.objects.filter(pk=table.pk).update(rated=True)
    version = table.version
    assert rate_pending() == 1
    table = Table.objects.get(pk=table.pk)
    assert table.version == version + 1
    assert Action.objects.get(table=table, version=table.version).kind == "rated"
    assert len(table.outcome["ratings"]) == 2 and RatingChange.objects.filter(table=table).count() == 2
    assert rate_pending() == 0 and Table.objects.get(pk=table.pk).version == version + 1


@pytest.mark.postgres_backend
@pytest.mark.django_db(transaction=True)
def test_a_game_ended_by_a_move_on_the_event_loop_is_rated_by_the_worker_once(people):
    # The event loop's moves write in one batch that cannot read the database:
    # the game ends there unrated, and the worker's sweep rates it.
    import asyncio

    moves = short_game(GAME, 2, 1, decisive=True)
    table = play(rated_table(*people), moves[:-1], people)
    seat, move = moves[-1]
    try:
        asyncio.run(services.play_move_async(table.pk, who_at(table, people)[seat], move, table.version))
    finally:
        services.close_move_connections()
    table = Table.objects.get(pk=table.pk)
    assert table.status == "finished" and not RatedGame.objects.filter(table=table).exists()
    assert rate_pending() == 1 and rate_pending() == 0
    table = Table.objects.get(pk=table.pk)
    assert [r["seat"] for r in table.outcome["ratings"]] == [0, 1]
    assert Action.objects.filter(table=table, kind="rated").count() == 1
    assert RatingChange.objects.filter(table=table).count() == 2


@pytest.mark.django_db(transaction=True)
def test_rated_games_finished_before_ratings_existed_are_not_rated_afterwards(people):
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connection)
    executor.migrate([("ratings", "0001_initial")])
    table = services.create_table(people[0], GAME)
    Table.objects.filter(pk=table.pk).update(status="finished", rated=True, outcome={
        "winners": [0], "scores": [1.0, 0.0], "reason": "test"})
    executor = MigrationExecutor(connection)
    executor.migrate([("ratings", "0002_games_before_ratings")])
    # Then on to the latest migrations, which today's models (and later tests) need.
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    assert RatedGame.objects.get(table_id=table.pk).reason == "before_ratings"
    assert rate_pending() == 0 and not Rating.objects.exists()
