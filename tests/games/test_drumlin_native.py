"""Drumlin's turn moves in C (games/engines/drumlin/_drumlin_moves.c) are the Python
reference's (moves.turn_moves), move for move, in the same order (the bots' random
choices depend on it), on positions of real games and on boards of any stacks; and
the C function refuses what is not a board instead of reading past its tables."""

from __future__ import annotations

import random

import pytest

from games.engines.drumlin import moves as M
from games.engines.drumlin import rules as R
from games.engines.drumlin.board import NUM_SQUARES, NUM_STACKS, OVERFULL, VALUE
from games.engines.drumlin.state import TURN
from tests.conftest import require

NOT_BUILT = "the C move generator is not built (pip install -e . builds it where a C compiler is)"


def game_positions(games: int, seed: int) -> list[R.State]:
    rules, rng, out = R.RULES, random.Random(seed), []
    for game in range(games):
        state = rules.new_game(2, options={"clou_1986": game % 2 == 1})
        for _ in range(400):
            if rules.outcome(state) is not None:
                break
            seat = rules.to_act(state)[0]
            state = rules.play(state, seat, rng.choice(rules.legal_moves(state, seat)))
            if state.step == TURN:
                out.append(state)
    return out


def test_the_c_moves_are_the_python_moves_in_games():
    require(M.native is not None, NOT_BUILT)
    states = game_positions(30, 2024)
    assert len(states) > 5000 and any(s.clou for s in states)
    for state in states:
        for seat in (0, 1):
            want = M.turn_moves(state.board, seat, state.clou, state.fives)
            assert M.native.turn(state.board, seat, state.clou, state.fives) == want, R.RULES.format_position(state)


def test_the_c_moves_are_the_python_moves_on_boards_of_any_stacks():
    # Not positions a game reaches: every stack anywhere, squares worth 5 held by either
    # seat or by nobody, so every branch is compared (the obligation met by moves, met
    # by removals, departures, swaps) however rare in play.
    require(M.native is not None, NOT_BUILT)
    rng = random.Random(11)
    removals = departures = 0
    for _ in range(6000):
        density = rng.choice((0.1, 0.3, 0.6))
        board = bytes(rng.randrange(NUM_STACKS) if rng.random() < density else 0 for _ in range(NUM_SQUARES))
        fives = tuple(sq for sq in range(NUM_SQUARES) if VALUE[board[sq]] == OVERFULL)
        for seat in (0, 1):
            for clou in (False, True):
                want = M.turn_moves(board, seat, clou, fives)
                assert M.native.turn(board, seat, clou, fives) == want, (board.hex(), seat, clou)
                removals += any(m.startswith("x") for m in want)
                departures += any(m.startswith("O") for m in want)
    assert removals and departures


def test_the_rules_use_the_c_moves_when_they_are_built():
    require(M.native is not None, NOT_BUILT)
    assert M.generate_turn is M.native.turn
    state = R.RULES.parse_position("7e/8/8/8/8/8/D2(oe)4/8/8/E7 v - std -")
    assert R.RULES.legal_moves(state, state.side) == M.turn_moves(state.board, state.side, state.clou, state.fives)


@pytest.mark.parametrize(
    ("args", "error", "message"),
    [
        ((bytes(79), 0, False, ()), ValueError, "80 squares"),
        ((bytes(81), 0, False, ()), ValueError, "80 squares"),
        ((bytes(80), 2, False, ()), ValueError, "seat 0 or 1"),
        ((bytes([NUM_STACKS]) + bytes(79), 0, False, ()), ValueError, "unknown stack"),
        ((bytes([255]) * 80, 1, False, ()), ValueError, "unknown stack"),
        ((bytes(80), 0, False, (80,)), ValueError, "off the board"),
        ((bytes(80), 0, False, (-1,)), ValueError, "off the board"),
        ((tuple(bytes(80)), 0, False, ()), TypeError, None),
        ((bytes(80), 0, False, [3]), TypeError, None),
    ],
)
def test_what_is_not_a_board_is_refused_with_a_reason(args, error, message):
    require(M.native is not None, NOT_BUILT)
    with pytest.raises(error, match=message):
        M.native.turn(*args)
