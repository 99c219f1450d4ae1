"""Round robin by the FIDE Berger tables: the published tables, and everyone
meeting everyone once with at most one round off."""

from __future__ import annotations

from itertools import combinations

import pytest

from tests.tournaments.pairing_helpers import players
from tournaments.pairing.roundrobin import berger_table, pair_round, rounds_needed
from tournaments.pairing.types import PairingError, Player

pytestmark = pytest.mark.engine

# FIDE Handbook C.05, Annex 1: the Berger tables for 3-4, 5-6 and 7-8 players.
PUBLISHED = {
    4: ["1-4 2-3", "4-3 1-2", "2-4 3-1"],
    6: ["1-6 2-5 3-4", "6-4 5-3 1-2", "2-6 3-1 4-5", "6-5 1-4 2-3", "3-6 4-2 5-1"],
    8: ["1-8 2-7 3-6 4-5", "8-5 6-4 7-3 1-2", "2-8 3-1 4-7 5-6", "8-6 7-5 1-4 2-3",
        "3-8 4-2 5-1 6-7", "8-7 1-6 2-5 3-4", "4-8 5-3 6-2 7-1"],
}


@pytest.mark.parametrize("n", sorted(PUBLISHED))
def test_it_reproduces_the_published_berger_tables(n):
    got = [" ".join(f"{a}-{b}" for a, b in rnd) for rnd in berger_table(n)]
    assert got == PUBLISHED[n]


@pytest.mark.parametrize("n", range(2, 9))
@pytest.mark.parametrize("double", [False, True])
def test_it_pairs_everyone_with_everyone_once_per_cycle(n, double):
    field = players(n)
    total = rounds_needed(n, double)
    seen: dict[frozenset, list[tuple[int, int]]] = {}
    sat_out: list[int] = []
    for k in range(1, total + 1):
        plan = pair_round(field, k, double)
        assert sorted(plan.everyone()) == list(range(1, n + 1))  # everyone paired or off, once
        assert len(plan.byes) == n % 2
        sat_out += plan.byes
        for a, b in plan.games:
            seen.setdefault(frozenset((a, b)), []).append((a, b))
    cycles = 2 if double else 1
    assert set(seen) == {frozenset(p) for p in combinations(range(1, n + 1), 2)}
    assert all(len(games) == cycles for games in seen.values())
    if double:  # the second cycle swaps who moves first
        assert all(games[0] == games[1][::-1] for games in seen.values())
    assert sorted(sat_out) == sorted(list(range(1, n + 1)) * cycles if n % 2 else [])


@pytest.mark.parametrize("n", range(2, 9))
def test_it_keeps_first_moves_within_one_over_the_event(n):
    whites = dict.fromkeys(range(1, n + 1), 0)
    games = dict.fromkeys(range(1, n + 1), 0)
    for k in range(1, rounds_needed(n) + 1):
        for a, b in pair_round(players(n), k).games:
            whites[a] += 1
            games[a] += 1
            games[b] += 1
    assert all(abs(2 * whites[p] - games[p]) <= 1 for p in whites)


def test_it_refuses_bad_sizes_and_rounds():
    with pytest.raises(PairingError):
        pair_round(players(9), 1)
    with pytest.raises(PairingError):
        pair_round(players(1), 1)
    with pytest.raises(PairingError):
        pair_round(players(4), 4)
    with pytest.raises(PairingError):
        pair_round([Player(1, 1), Player(2, 1)], 1)


def test_it_follows_pairing_numbers_not_the_order_given():
    field = [Player("c", 3), Player("a", 1), Player("d", 4), Player("b", 2)]
    assert pair_round(field, 1).games == (("a", "d"), ("b", "c"))
