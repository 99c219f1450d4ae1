"""A finished table's outcome as tournament points (tournaments.results), and
the worker's tournament job in the play lane."""

from __future__ import annotations

import pytest

from tournaments.results import points_from_outcome, points_from_scores


def test_two_player_outcomes_give_one_half_or_nothing():
    assert points_from_outcome({"winners": [0], "scores": [1, 0], "reason": "four"}, 2) == (1.0, 0.0)
    assert points_from_outcome({"winners": [1], "scores": [0, 1], "reason": "resign"}, 2) == (0.0, 1.0)
    assert points_from_outcome({"winners": [], "scores": [0.5, 0.5], "reason": "agreement"}, 2) == (0.5, 0.5)


def test_no_outcome_is_a_double_forfeit():
    assert points_from_outcome(None, 2) == (0.0, 0.0)
    assert points_from_outcome({}, 3) == (0.0, 0.0, 0.0)


def test_a_larger_table_shares_points_by_place():
    assert points_from_scores([30, 10, 20, 10]) == (1.0, round(1 / 6, 6), round(2 / 3, 6), round(1 / 6, 6))
    # The winners first, whatever the board's score says (a resignation, a rule's win).
    got = points_from_outcome({"winners": [2], "scores": [40, 10, 20], "reason": "x"}, 3)
    assert got[2] == 1.0 and got[0] == 0.5 and got[1] == 0.0


def test_a_damaged_outcome_is_an_error_not_a_result():
    with pytest.raises((TypeError, ValueError)):
        points_from_outcome({"winners": [], "scores": ["x", None]}, 2)


@pytest.mark.django_db
def test_the_job_runs_in_the_play_lane():
    from ludo import worker

    assert worker.lane_of("tournaments") == worker.PLAY
