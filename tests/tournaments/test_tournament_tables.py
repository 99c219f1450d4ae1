"""Multi-table Swiss (Drekki, three to six a table)."""

from __future__ import annotations

import random

import pytest

from tests.tournaments.pairing_helpers import play, players
from tournaments.pairing.history import records
from tournaments.pairing.tables import pair_tables, table_sizes
from tournaments.pairing.types import PairingError

pytestmark = pytest.mark.engine


def test_table_sizes_stay_within_bounds_and_near_the_wish():
    assert table_sizes(8, 3, 6, 4) == [4, 4]
    assert table_sizes(7, 3, 6, 4) == [4, 3]
    assert table_sizes(13, 3, 6, 4) == [5, 4, 4]
    assert table_sizes(15, 3, 6, 6) == [5, 5, 5]
    assert table_sizes(2, 3, 6, 4) is None
    with pytest.raises(PairingError):
        table_sizes(8, 4, 6, 3)


def test_every_player_sits_once_a_round_or_has_a_bye():
    for seed in range(40):
        rng = random.Random(seed)
        n = rng.randint(3, 15)
        field, rounds = players(n), []
        for _ in range(4):
            plan = pair_tables(field, rounds, min_size=3, max_size=6, size=4)
            assert sorted(plan.everyone()) == list(range(1, n + 1))
            assert all(3 <= len(t) <= 6 for t in plan.games)
            rounds.append(play(plan, rng))


def test_a_count_that_cannot_be_cut_gives_byes_to_the_lowest():
    plan = pair_tables(players(7), min_size=4, max_size=6, size=4)
    assert plan.byes == (7,) and plan.games == ((1, 2, 3, 4, 5, 6),)


def test_the_first_seat_goes_round():
    field, rounds = players(4), []
    rng = random.Random(3)
    for _ in range(4):
        plan = pair_tables(field, rounds, min_size=4, max_size=4, size=4)
        rounds.append(play(plan, rng))
    firsts = {p: rec.seats.count(0) for p, rec in records(range(1, 5), rounds).items()}
    assert set(firsts.values()) == {1}


def repeats(tables, rounds) -> int:
    met = {frozenset((a, b)) for r in rounds for g in r.games for a in g.players for b in g.players if a != b}
    return sum(1 for t in tables for a in t for b in t if a < b and frozenset((a, b)) in met)


def test_repeat_meetings_are_fewer_than_by_ranking_alone():
    ours = naive = 0
    for seed in range(20):
        rng = random.Random(seed)
        field, rounds = players(12), []
        for _ in range(4):
            plan = pair_tables(field, rounds, min_size=3, max_size=3, size=3)
            recs = records(range(1, 13), rounds)
            ranked = sorted(range(1, 13), key=lambda p: (-recs[p].score, p))
            by_rank = [ranked[i:i + 3] for i in range(0, 12, 3)]
            ours += repeats(plan.games, rounds)
            naive += repeats(by_rank, rounds)
            assert repeats(plan.games, rounds) <= repeats(by_rank, rounds), seed
            rounds.append(play(plan, rng))
    assert ours < naive / 2


def test_too_few_players_is_refused():
    with pytest.raises(PairingError):
        pair_tables(players(2), min_size=3, max_size=6, size=4)
