"""Standings and tie-breaks: worked examples computed by hand from the
definitions in tournaments/pairing/tiebreaks.py (the FIDE rules for unplayed
rounds included), and the order of the keys for each format."""

from __future__ import annotations

import pytest

from tournaments.pairing.tiebreaks import ROUND_ROBIN, SWISS, standings
from tournaments.pairing.types import Bye, Game, Player, Round

pytestmark = pytest.mark.engine

A, B, C, D, E = "ABCDE"
FIELD = [Player(x, i + 1) for i, x in enumerate("ABCDE")]
# Five players, three rounds, one bye a round.
SWISS_EVENT = [
    Round((Game((A, D), (1, 0)), Game((B, E), (0.5, 0.5))), (Bye(C),)),
    Round((Game((A, C), (1, 0)), Game((B, D), (1, 0))), (Bye(E),)),
    Round((Game((A, B), (0.5, 0.5)), Game((C, E), (1, 0))), (Bye(D),)),
]


def by_id(rows):
    return {r.id: r for r in rows}


def test_it_computes_buchholz_with_the_fide_rules_for_unplayed_rounds():
    # Scores: A 2.5, B 2, C 2, E 1.5, D 1. For an opponent, unplayed rounds
    # count as draws: C 0+1 played + 0.5 = 1.5, D 0 + 0.5, E 0.5 + 0.5 = 1.
    # A player's own bye is a virtual opponent: score before the round + (1 - 1)
    # + 0.5 a round left: C (round 1) 0 + 1 = 1, E (round 2) 0.5 + 0.5 = 1, D (round 3) 0.
    rows = by_id(standings(FIELD, SWISS_EVENT, SWISS))
    assert {p: rows[p].score for p in "ABCDE"} == {"A": 2.5, "B": 2, "C": 2, "D": 1, "E": 1.5}
    assert rows[A].buchholz == 0.5 + 1.5 + 2      # D, C, B
    assert rows[B].buchholz == 1 + 0.5 + 2.5      # E, D, A
    assert rows[C].buchholz == 1 + 2.5 + 1        # virtual, A, E
    assert rows[D].buchholz == 2.5 + 2 + 0        # A, B, virtual
    assert rows[E].buchholz == 2 + 1 + 1.5        # B, virtual, C


def test_it_computes_sonneborn_berger():
    rows = by_id(standings(FIELD, SWISS_EVENT, SWISS))
    assert rows[A].sonneborn_berger == 1 * 0.5 + 1 * 1.5 + 0.5 * 2
    assert rows[B].sonneborn_berger == 0.5 * 1 + 1 * 0.5 + 0.5 * 2.5
    assert rows[C].sonneborn_berger == 1 * 1 + 0 * 2.5 + 1 * 1
    assert rows[D].sonneborn_berger == 0
    assert rows[E].sonneborn_berger == 0.5 * 2 + 1 * 1 + 0


def test_swiss_order_is_score_then_buchholz():
    # B and C tie on 2: C's Buchholz (4.5) beats B's (4), though B's SB is higher.
    rows = standings(FIELD, SWISS_EVENT, SWISS)
    assert [r.id for r in rows] == [A, C, B, E, D]
    assert [r.place for r in rows] == [1, 2, 3, 4, 5]


def rr(results):
    """A round robin's games, one round each (the order does not matter to the standings)."""
    return [Round((Game((a, b), pts),)) for a, b, pts in results]


def test_round_robin_puts_direct_encounter_before_sonneborn_berger():
    field = FIELD[:4]
    event = rr([(A, B, (1, 0)), (A, C, (0, 1)), (A, D, (0.5, 0.5)), (B, C, (1, 0)),
                (B, D, (1, 0)), (C, D, (0.5, 0.5))])
    rows = by_id(standings(field, event, ROUND_ROBIN))
    # Scores: A 1.5, B 2, C 1.5, D 1. A and C tie: C beat A.
    assert [r.id for r in standings(field, event, ROUND_ROBIN)] == [B, C, A, D]
    assert rows[C].direct == 1 and rows[A].direct == 0
    # Sonneborn-Berger would have said otherwise: A 1x2 + 0.5x1 = 2.5, C 1x1.5 + 0.5x1 = 2.
    assert rows[A].sonneborn_berger == 2.5 and rows[C].sonneborn_berger == 2


def test_a_cycle_leaves_direct_encounter_tied_and_players_share_the_place():
    field = FIELD[:4]
    event = rr([(A, B, (1, 0)), (B, C, (1, 0)), (C, A, (1, 0)),
                (A, D, (1, 0)), (B, D, (1, 0)), (C, D, (1, 0))])
    rows = standings(field, event, ROUND_ROBIN)
    assert [(r.place, r.tied) for r in rows] == [(1, True), (1, True), (1, True), (4, False)]
    assert {r.direct for r in rows[:3]} == {1}


def test_direct_encounter_applies_only_when_all_tied_players_met():
    # Swiss: B and C are tied on score, Buchholz and SB but never met: no direct encounter.
    field = [Player(x, i + 1) for i, x in enumerate("ABCD")]
    event = [Round((Game((A, B), (1, 0)), Game((C, D), (0, 1)))),
             Round((Game((A, C), (1, 0)), Game((B, D), (0, 1))))]
    rows = by_id(standings(field, event, SWISS))
    assert rows[B].score == rows[C].score == 0
    assert rows[B].direct == rows[C].direct == 0
    assert rows[B].place == rows[C].place and rows[B].tied


def test_games_in_play_count_nothing_yet():
    field = FIELD[:2]
    rows = by_id(standings(field, [Round((Game((A, B)),))], SWISS))
    assert rows[A].score == rows[B].score == 0 and rows[A].games == 0


def test_it_refuses_an_unknown_system():
    with pytest.raises(ValueError):
        standings(FIELD, [], "knockout")
