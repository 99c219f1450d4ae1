"""Arena (lichess's format): scoring with streaks and berserk, performance,
and pairing whoever waits."""

from __future__ import annotations

import random

import pytest

from tournaments.pairing.arena import Waiting, pair_waiting, performance, score

pytestmark = pytest.mark.engine


def test_wins_are_two_draws_one_losses_nothing():
    assert score([(1, False), (0.5, False), (0, False)]).per_game == (2, 1, 0)


def test_two_wins_in_a_row_set_a_player_on_fire_until_a_game_is_not_won():
    # win, win, then doubled: win 4, draw 2 (ends the streak), then back to normal.
    got = score([(1, False), (1, False), (1, False), (0.5, False), (1, False), (0, False)])
    assert got.per_game == (2, 2, 4, 2, 2, 0)
    assert got.total == 12 and not got.on_fire
    assert score([(1, False), (1, False)]).on_fire


def test_a_berserk_win_is_worth_one_more_point():
    assert score([(1, True), (0.5, True), (0, True)]).per_game == (3, 1, 0)
    assert score([(1, False), (1, False), (1, True)]).per_game == (2, 2, 5)


def test_performance_is_the_mean_of_ratings_plus_or_minus_500():
    assert performance([(1, 1500), (0, 1700), (0.5, 1600)]) == (2000 + 1200 + 1600) / 3
    assert performance([]) is None


def w(pid, points=0, last=None, since=0.0, firsts=0, games=0, rating=1500.0):
    return Waiting(pid, points, rating, since, last, firsts, games)


def test_it_pairs_close_scores_together():
    games = pair_waiting([w("a", 10), w("b", 0), w("c", 9), w("d", 1)], now=1.0)
    assert {frozenset(g) for g in games} == {frozenset("ac"), frozenset("bd")}


def test_it_avoids_an_immediate_rematch_when_someone_else_waits():
    games = pair_waiting([w("a", 4, last="b"), w("b", 4, last="a"), w("c", 2)], now=1.0)
    assert len(games) == 1 and set(games[0]) == {"a", "c"}


def test_two_players_alone_meet_again_once_both_waited_long_enough():
    pair = [w("a", 4, last="b", since=0.0), w("b", 2, last="a", since=0.0)]
    assert pair_waiting(pair, now=5.0, rematch_after=10.0) == []
    assert len(pair_waiting(pair, now=10.0, rematch_after=10.0)) == 1


def test_who_moved_first_less_often_moves_first():
    assert pair_waiting([w("a", 5, firsts=3, games=4), w("b", 5, firsts=1, games=4)], now=0)[0][0] == "b"


def test_everyone_waiting_is_paired_except_at_most_one():
    rng = random.Random(7)
    for _ in range(200):
        n = rng.randint(0, 20)
        ids = list(range(n))
        rng.shuffle(ids)
        field = [w(i, rng.randint(0, 30), last=rng.choice([None, *range(n)]), since=0.0) for i in ids]
        games = pair_waiting(field, now=60.0)  # everyone waited past the rematch delay
        seated = [p for g in games for p in g]
        assert len(seated) == len(set(seated)) == n - n % 2
