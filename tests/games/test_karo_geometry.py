"""The Karo box's shared modules: board geometry (geometry.py) and turn rules (common.py)."""

from __future__ import annotations

import pytest

from games.engines.base import Outcome
from games.engines.karo.common import (
    BOTH_STUCK,
    EMPTY_SEEN,
    REPETITION,
    Seen,
    close_turn,
    starting_seat,
)
from games.engines.karo.geometry import (
    DIRECTIONS,
    LINE_AXES,
    ORTHOGONAL,
    Grid,
    Window,
    opposite,
    parse_place,
    run_length,
    shift_text,
)

# -- directions ----------------------------------------------------------------------


def test_it_lists_eight_distinct_directions_with_their_opposites():
    assert len(set(DIRECTIONS)) == 8
    for k, (dx, dy) in enumerate(DIRECTIONS):
        assert DIRECTIONS[opposite(k)] == (-dx, -dy)


def test_it_marks_four_orthogonal_directions_and_four_line_axes():
    assert {DIRECTIONS[k] for k in ORTHOGONAL} == {(0, 1), (1, 0), (0, -1), (-1, 0)}
    axes = {DIRECTIONS[k] for k in LINE_AXES}
    assert len(axes) == 4
    assert all((-dx, -dy) not in axes for dx, dy in axes)  # one direction per line


# -- fixed grids -----------------------------------------------------------------------


def test_it_names_squares_file_then_rank_from_a1():
    grid = Grid(3, 8)
    assert grid.names[0] == "a1" and grid.names[2] == "c1" and grid.names[3] == "a2"
    assert grid.names[-1] == "c8"
    assert all(grid.square(name) == i for i, name in enumerate(grid.names))


def test_a_corner_has_three_neighbours_and_a_centre_square_eight():
    grid = Grid(5, 5)
    assert sorted(grid.names[n] for n in grid.neighbours[grid.square("a1")]) == ["a2", "b1", "b2"]
    assert len(grid.neighbours[grid.square("c3")]) == 8


def test_rays_run_to_the_edge_and_stop_there():
    grid = Grid(3, 8)
    north = DIRECTIONS.index((0, 1))
    north_east = DIRECTIONS.index((1, 1))
    assert [grid.names[i] for i in grid.rays[grid.square("b2")][north]] == ["b3", "b4", "b5", "b6", "b7", "b8"]
    assert [grid.names[i] for i in grid.rays[grid.square("a1")][north_east]] == ["b2", "c3"]
    assert grid.rays[grid.square("c8")][north] == ()
    assert grid.steps[grid.square("c8")][north] == -1


def test_orthogonal_jumps_need_two_squares_of_room():
    grid = Grid(5, 5)
    jumps = {grid.names[land]: grid.names[over] for over, land in grid.orthogonal_jumps[grid.square("a1")]}
    assert jumps == {"a3": "a2", "c1": "b1"}
    assert len(grid.orthogonal_jumps[grid.square("c3")]) == 4
    small = Grid(3, 3)
    assert small.orthogonal_jumps[small.square("b2")] == ()  # every jump would leave the board


def test_it_measures_edges_and_distances():
    grid = Grid(5, 5)
    assert grid.is_edge(grid.square("a3")) and not grid.is_edge(grid.square("b3"))
    assert [grid.distance_to_edge(grid.square(n)) for n in ("e5", "d4", "c3")] == [0, 1, 2]
    assert grid.king_distance(grid.square("a1"), grid.square("c2")) == 2


def test_rows_text_round_trips_and_refuses_a_bad_shape():
    grid = Grid(3, 2)
    assert grid.rows_text("abcdef") == "def/abc"
    assert grid.rows_cells("def/abc") == "abcdef"
    assert grid.rows_cells("de/abc") is None
    assert grid.rows_cells("def") is None


# -- the open plane ----------------------------------------------------------------------


def test_a_window_turns_directions_into_index_offsets():
    window = Window(stride=32, rows=27, margin=3)
    i = window.index(5, 7)
    assert window.xy(i) == (5, 7)
    for (dx, dy), offset in zip(DIRECTIONS, window.offsets, strict=True):
        assert window.xy(i + offset) == (5 + dx, 7 + dy)
    assert [window.xy(i + s) for s in window.sides] == [(5, 8), (6, 7), (5, 6), (4, 7)]


def test_shifting_a_board_moves_every_place_by_the_same_amount():
    assert shift_text("..ab..", 2, ".") == "ab...."
    assert shift_text("..ab..", -1, ".") == "...ab."
    assert shift_text("xy", 0, ".") == "xy"


def test_places_are_read_as_whole_numbers_maybe_negative():
    assert parse_place("3,-12") == (3, -12)
    for bad in ("3", "a,1", "1,2,3", "+1,2", "01,2", " 1,2", "1.0,2"):
        with pytest.raises(ValueError):
            parse_place(bad)


def test_run_length_counts_the_same_letter_both_ways():
    board = "..MMM.M.."
    assert run_length(board, 3, 1) == 3
    assert run_length(board, 6, 1) == 1


# -- the starting player ---------------------------------------------------------------------


def test_the_table_can_fix_the_starting_seat():
    assert starting_seat("game", 123, "0") == 0
    assert starting_seat("game", 123, "1") == 1


def test_a_random_starting_seat_comes_from_the_seed_only():
    draws = [starting_seat("game", seed, "random") for seed in range(40)]
    assert draws == [starting_seat("game", seed, "random") for seed in range(40)]
    assert set(draws) == {0, 1}


# -- the repetition record ---------------------------------------------------------------------


def test_it_counts_occurrences_without_changing_older_records():
    one, n1 = EMPTY_SEEN.add("x")
    two, n2 = one.add("x")
    assert (n1, n2) == (1, 2)
    assert one.count("x") == 1 and two.count("x") == 2 and EMPTY_SEEN.count("x") == 0
    branch, _ = one.add("y")
    assert branch.count("y") == 1 and two.count("y") == 0


def test_records_with_the_same_counts_are_equal_whatever_the_order():
    a = EMPTY_SEEN.add("p")[0].add("q")[0].add("p")[0]
    b = Seen.of([("q", 1), ("p", 2)])
    assert a == b and a.counts() == {"p": 2, "q": 1}
    assert a != Seen.of([("q", 2), ("p", 1)])


def test_many_keys_keep_their_own_counts():
    seen = EMPTY_SEEN
    for k in range(3000):
        seen = seen.add(k)[0]
    seen = seen.add(1234)[0]
    assert seen.count(1234) == 2 and seen.count(2999) == 1 and seen.count(-1) == 0
    assert seen.size == 3001


# -- closing a turn ----------------------------------------------------------------------


def never_stuck(_seat: int) -> bool:
    return False


def always_stuck(_seat: int) -> bool:
    return True


def test_a_win_comes_before_the_third_occurrence():
    seen = Seen.of([("pos", 2)])
    _, outcome = close_turn(1, True, "won", seen, "pos", always_stuck)
    assert outcome == Outcome.win(1, 2, "won")


def test_the_third_occurrence_draws_and_comes_before_both_stuck():
    seen = Seen.of([("pos", 2)])
    after, outcome = close_turn(0, False, "won", seen, "pos", always_stuck)
    assert outcome == Outcome.draw(2, REPETITION)
    assert after.count("pos") == 3


def test_the_second_occurrence_is_no_draw():
    _, outcome = close_turn(0, False, "won", Seen.of([("pos", 1)]), "pos", never_stuck)
    assert outcome is None


def test_both_stuck_draws_but_one_stuck_player_just_passes():
    _, outcome = close_turn(0, False, "won", EMPTY_SEEN, "pos", always_stuck)
    assert outcome == Outcome.draw(2, BOTH_STUCK)
    _, outcome = close_turn(0, False, "won", EMPTY_SEEN, "pos", lambda seat: seat == 1)
    assert outcome is None


def test_the_mover_is_asked_about_only_when_the_next_player_is_stuck():
    asked: list[int] = []

    def stuck(seat: int) -> bool:
        asked.append(seat)
        return False

    close_turn(0, False, "won", EMPTY_SEEN, "pos", stuck)
    assert asked == [1]
