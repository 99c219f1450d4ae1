"""Swiss pairing (FIDE Dutch system as the reference): properties over many
seeded random tournaments, and the round-one pairing the rules fix."""

from __future__ import annotations

import functools
import random

import pytest

from tests.tournaments.pairing_helpers import play, players, repeat_free_possible
from tournaments.pairing.history import records
from tournaments.pairing.swiss import pair_swiss
from tournaments.pairing.types import Bye, Game, PairingError, Plan, Player, Round

pytestmark = pytest.mark.engine

EVENTS = 80  # seeded tournaments of 2 to 40 players


@functools.cache
def events() -> list[tuple[int, int, list[Round], list[Plan]]]:
    """(seed, players, rounds played, the plan of each round), simulated once for every test."""
    out = []
    for seed in range(EVENTS):
        rng = random.Random(seed)
        # Odd seeds: small events played as long as they can be, where repeats become forced.
        n = rng.randint(4, 12) if seed % 2 else rng.randint(2, 40)
        longest = min(9, n if n % 2 else n - 1)
        total = longest if seed % 2 else rng.randint(1, longest)
        field, rounds, plans = players(n), [], []
        for _ in range(total):
            plan = pair_swiss(field, rounds)
            plans.append(plan)
            rounds.append(play(plan, rng))
        out.append((seed, n, rounds, plans))
    return out


def rounds_with_plans():
    """(seed, n, the rounds before, the plan made from them) for every round of every event."""
    for seed, n, rounds, plans in events():
        for k, plan in enumerate(plans):
            yield seed, n, rounds[:k], plan


def test_it_pairs_round_one_top_half_against_bottom_half():
    # C.04.3: S1 = 1..4 meets S2 = 5..8 in order; the higher-ranked player on
    # board 1 takes the initial colour (white), and colours alternate by board.
    plan = pair_swiss(players(8))
    assert plan.games == ((1, 5), (6, 2), (3, 7), (8, 4))
    assert plan.byes == ()


def test_it_gives_round_one_bye_to_the_lowest_ranked():
    plan = pair_swiss(players(7))
    assert plan.byes == (7,)
    assert plan.games == ((1, 4), (5, 2), (3, 6))


def test_it_pairs_within_score_groups_top_half_against_bottom_half():
    # After round 1 of 8 (1, 6, 3, 8 won, all with white): the winners' group
    # ranks 1, 3, 6, 8: S1 (1, 3) meets S2 (6, 8) in order. Everyone wants
    # black: the higher-ranked player's wish is granted (E.4). Same in the
    # losers' group 2, 4, 5, 7, where everyone wants white.
    r1 = Round((Game((1, 5), (1, 0)), Game((6, 2), (1, 0)), Game((3, 7), (1, 0)), Game((8, 4), (1, 0))))
    plan = pair_swiss(players(8), [r1])
    assert plan.games == ((6, 1), (8, 3), (2, 5), (4, 7))


def test_it_grants_both_colour_wishes_before_the_bracket_order():
    # 1 and 3 had white, 6 and 8 black: S1-S2 in order (1-6, 3-8) grants every wish.
    r1 = Round((Game((1, 5), (1, 0)), Game((2, 6), (0, 1)), Game((3, 7), (1, 0)), Game((4, 8), (0, 1))))
    plan = pair_swiss(players(8), [r1])
    assert plan.games[:2] == ((6, 1), (8, 3))
    # An S2 order that would deny both wishes (1 and 3 with white, 6 with white)
    # gives way to a transposition: 1 meets 8.
    r1 = Round((Game((1, 5), (1, 0)), Game((6, 2), (1, 0)), Game((3, 7), (1, 0)), Game((4, 8), (0, 1))))
    plan = pair_swiss(players(8), [r1])
    assert plan.games[:2] == ((8, 1), (6, 3))


def test_every_round_pairs_everyone_once_with_at_most_one_bye():
    for seed, n, _before, plan in rounds_with_plans():
        assert sorted(plan.everyone()) == list(range(1, n + 1)), seed
        assert len(plan.byes) == n % 2, seed



def test_no_repeat_pairing_while_one_is_possible():
    checked = 0
    for seed, n, before, plan in rounds_with_plans():
        met = {frozenset(g.players) for r in before for g in r.games}
        if not any(frozenset(g) in met for g in plan.games):
            continue
        assert "repeat_pairing" in plan.notes, seed
        # The round could not have been paired without one, whoever had the bye (an exhaustive check).
        everyone = range(1, n + 1)
        assert not any(repeat_free_possible([p for p in everyone if p != bye], before)
                       for bye in (everyone if n % 2 else [None])), seed
        checked += 1
    assert checked  # the seeds do reach rounds that cannot avoid a repeat



def test_colours_stay_within_fide_limits():
    # The absolute colour rule: nobody reaches a colour difference of three,
    # nor the same colour three times in a row, unless a round had to relax it.
    within_one = total_players = 0
    for seed, n, rounds, plans in events():
        relaxed = [i for i, plan in enumerate(plans) if plan.notes]
        strict = rounds[: relaxed[0]] if relaxed else rounds
        for p, rec in records(range(1, n + 1), strict).items():
            assert abs(rec.colour_difference) <= 2, seed
            for i in range(len(rec.colours) - 2):
                assert len(set(rec.colours[i:i + 3])) == 2, seed
        for rec in records(range(1, n + 1), rounds).values():
            total_players += 1
            within_one += abs(rec.colour_difference) <= 1
    # Within one for the great majority at the end (measured: 94 % over these
    # events, whose small ones are played to exhaustion; 98 % over events of 2-40
    # players of random length).
    assert within_one / total_players > 0.9



def test_the_bye_goes_to_the_lowest_ranked_player_without_one():
    for seed, n, before, plan in rounds_with_plans():
        if n % 2 == 0 or n > 13:
            continue
        (bye,) = plan.byes
        recs = records(range(1, n + 1), before)
        if any(r.byes == 0 for r in recs.values()) and not plan.notes:
            assert recs[bye].byes == 0, seed
            # Anyone ranked lower without a bye could not have had it: the rest would
            # not pair without a repeat or two players who must both have one colour.
            order = sorted(range(1, n + 1), key=lambda p: (-recs[p].score, p))
            for lower in order[order.index(bye) + 1:]:
                if recs[lower].byes == 0:
                    assert not repeat_free_possible([p for p in range(1, n + 1) if p != lower], before, True), seed



def test_a_second_bye_only_when_everyone_had_one():
    for seed, n, before, plan in rounds_with_plans():
        recs = records(range(1, n + 1), before)
        if plan.byes and recs[plan.byes[0]].byes:
            assert all(r.byes for r in recs.values()) or plan.notes, seed



def test_players_who_left_are_simply_not_paired():
    field = players(6)
    r1 = play(pair_swiss(field), random.Random(1))
    plan = pair_swiss([p for p in field if p.id != 2], [r1])
    assert 2 not in plan.everyone()
    assert len(plan.byes) == 1


def test_it_refuses_a_round_of_one():
    with pytest.raises(PairingError):
        pair_swiss(players(1))
    with pytest.raises(PairingError):
        pair_swiss([Player(1, 1), Player(1, 2)])


def test_a_round_of_two_who_met_is_paired_again_and_says_so():
    r1 = Round((Game((1, 2), (1, 0)),))
    plan = pair_swiss(players(2), [r1])
    assert plan.games == ((2, 1),)
    assert plan.notes == ("repeat_pairing",)


def test_byes_count_in_the_score_order():
    r1 = Round((Game((1, 2), (0, 1)),), (Bye(3, 1.0),))
    plan = pair_swiss(players(3), [r1])
    assert 1 in plan.byes  # the lowest score without a bye
    assert plan.games == ((3, 2),) or plan.games == ((2, 3),)
