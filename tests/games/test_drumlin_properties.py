"""Properties of random Drumlin playouts (hypothesis).

Plain random play seldom piles pieces onto an egg, so the playouts lean, by a
drawn amount, towards moves that end on a stack or on an egg's square: that is
what brings forced departures, squares worth 5, captures and removals. Some
playouts start from positions where those are one move away.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engines.base import IllegalMove, make_rng
from games.engines.drumlin import RULES
from games.engines.drumlin.board import EGG_OWNER, LONE, PIECE_COUNT, SQUARE_INDEX, VALUE

STARTS = (
    RULES.dump(RULES.new_game(2)),
    RULES.dump(RULES.new_game(2, options={"clou_1986": True})),
    {"position": "e7/8/3(Eo)1E2/8/2E5/8/2E5/3D3e/6e1/1E6 v - std -", "last_move": None},
    {"position": "2eE2D1/8/4(Eo)3/8/8/8/1(EE)6/4E3/d7/E6e v - std -", "last_move": None},
    {"position": "2eE2D1/8/4(Eo)3/8/8/8/1(EE)6/4E3/d7/E6e v - clou -", "last_move": None},
    {"position": "6(DD)(Dde)/7(DD)/8/8/8/3e*3/8/8/(DD)7/(Dde)(DD)5E p - std -", "last_move": None},
    {"position": "7e/8/8/8/8/8/D2(oe)4/8/8/E7 v - std -", "last_move": None},
    {"position": "3(Ee)2(OE)1/8/4(DEe)3/8/8/8/1D6/8/3d4/E6e v chain std -", "last_move": None},
)


def destination(move: str) -> int | None:
    """The square an elephant or dragon move ends on."""
    if move[0] in "ED" and not move.startswith("EE"):
        return SQUARE_INDEX[move.split("-")[1]]
    return None


def choose(state, moves: list[str], rng, lean: float) -> str:
    if rng.random() < lean:
        onto_egg = [m for m in moves if (d := destination(m)) is not None and EGG_OWNER[state.board[d]] >= 0]
        onto_stack = [m for m in moves if (d := destination(m)) is not None and state.board[d] > LONE]
        for pool in (onto_egg, onto_stack):
            if pool and rng.random() < 0.7:
                return rng.choice(pool)
    return rng.choice(moves)


def pieces(state) -> int:
    return sum(PIECE_COUNT[stack] for stack in state.board)


def fives(state) -> set[int]:
    return {sq for sq, stack in enumerate(state.board) if VALUE[stack] == 5}


def drumlins(state) -> int:
    return sum(1 for stack in state.board if stack == LONE or EGG_OWNER[stack] >= 0)


def check_step(before, after, move: str) -> None:
    assert all(VALUE[stack] <= 5 for stack in after.board)
    # A square reaches 5 only by a forced departure, on the square the move ended on.
    new_fives = fives(after) - fives(before)
    if new_fives:
        assert new_fives == {destination(move)}
        assert after.step == 1 or RULES.outcome(after) is not None
    assert all(VALUE[after.board[sq]] <= 4 for sq in set(range(80)) - fives(after))
    # Pieces leave the board only when a player removes theirs from a square worth 5.
    if move.startswith("x"):
        assert pieces(after) < pieces(before)
    else:
        assert pieces(after) == pieces(before)
    # One Drumlin, on the board unless it waits to be placed or the game has ended.
    if after.step == 0 and RULES.outcome(after) is None:
        assert drumlins(after) == 1
    else:
        assert drumlins(after) <= 1


def check_round_trips(state, seat) -> None:
    text = RULES.format_position(state)
    reread = RULES.parse_position(text)
    assert RULES.format_position(reread) == text
    assert reread == state._replace(last=None)
    assert RULES.load(RULES.dump(state)) == state
    view = RULES.view(state, seat)
    assert RULES.state_from_view(view, seat, make_rng(0)) == state


@settings(max_examples=60, deadline=None)
@given(
    start=st.sampled_from(range(len(STARTS))),
    seed=st.integers(min_value=0, max_value=2**32),
    lean=st.floats(min_value=0.0, max_value=0.95),
    plies=st.integers(min_value=1, max_value=150),
)
def test_random_playouts_keep_the_rules_invariants(start, seed, lean, plies):
    rng = make_rng(seed, "drumlin-playout")
    state = RULES.load(STARTS[start])
    check_round_trips(state, None)
    for ply in range(plies):
        if RULES.outcome(state) is not None:
            assert RULES.to_act(state) == ()
            assert RULES.legal_moves(state, 0) == RULES.legal_moves(state, 1) == []
            return
        (seat,) = RULES.to_act(state)
        moves = RULES.legal_moves(state, seat)
        assert moves and len(set(moves)) == len(moves)
        assert RULES.legal_moves(state, 1 - seat) == []
        move = choose(state, moves, rng, lean)
        snapshot = RULES.dump(state)
        after = RULES.play(state, seat, move)
        assert RULES.dump(state) == snapshot  # play never changes its input
        assert RULES.load(snapshot) == state
        check_step(state, after, move)
        check_round_trips(after, (None, 0, 1)[ply % 3])
        state = after


@settings(max_examples=25, deadline=None)
@given(start=st.sampled_from(range(len(STARTS))), seed=st.integers(min_value=0, max_value=2**32))
def test_every_legal_move_is_accepted_and_every_other_seat_is_refused(start, seed):
    state = RULES.load(STARTS[start])
    rng = make_rng(seed, "drumlin-probe")
    for _ in range(20):
        if RULES.outcome(state) is not None:
            return
        (seat,) = RULES.to_act(state)
        moves = RULES.legal_moves(state, seat)
        for move in moves:
            RULES.play(state, seat, move)  # none raises
        with pytest.raises(IllegalMove, match="turn"):
            RULES.play(state, 1 - seat, moves[0])
        state = RULES.play(state, seat, rng.choice(moves))
