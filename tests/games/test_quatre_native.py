"""Quatre en ligne's movement moves in C (games/engines/karo/_quatre_moves.c) are the
Python reference's (generate_movement), move for move, detail for detail, in the
same order (the bots' random choices depend on it); and the C function refuses what
is not a board instead of reading past it."""

from __future__ import annotations

import random

import pytest

from games.engines.karo import quatre_en_ligne as Q
from tests.conftest import require

NOT_BUILT = "the C move generator is not built (pip install -e . builds it where a C compiler is)"


def movement_positions(games: int, seed: int) -> list[Q.QuatreState]:
    """The movement-phase states of random games (tile moves, holes, shifts of the window)."""
    rules, rng, out = Q.RULES, random.Random(seed), []
    for game in range(games):
        state = rules.new_game(2, seed=game)
        for _ in range(600):
            if rules.outcome(state) is not None:
                break
            if not state.placing:
                out.append(state)
            seat = rules.to_act(state)[0]
            state = rules.play(state, seat, rng.choice(rules.legal_moves(state, seat)))
    return out


def fresh(layout: Q.Layout) -> Q.Layout:
    """The same tiles with empty memos (the Python generator fills them as it goes)."""
    return Q.Layout(layout.ox, layout.oy, layout.tiles, layout.mask)


def test_the_c_moves_are_the_python_moves_in_the_same_order():
    require(Q.native is not None, NOT_BUILT)
    asked: list[int] = []

    def liftable(board: str, layout: Q.Layout, t: int) -> bool:
        asked.append(t)
        return Q.liftable(board, layout, t)

    states = movement_positions(24, 2024)
    holes = 0
    for state in states:
        holes += bool(state.layout.holes)
        for seat in (0, 1):
            want = list(Q.generate_movement(state.board, fresh(state.layout), seat).items())
            got = Q.native.movement(state.board, state.layout.tiles, state.layout.names, seat, state.layout, liftable)
            assert list(got.items()) == want, Q.RULES.format_position(state)
    assert len(states) > 5000 and holes > 20
    assert asked  # boards with a hole: the tiles only a flood fill can judge went to Python


def test_the_rules_use_the_c_moves_when_they_are_built():
    require(Q.native is not None, NOT_BUILT)
    state = Q.RULES.parse_position("0,0 pP.../.p.pp/PMPp./M..mP 0")
    made = Q.generate(state, 0)
    assert list(made.items()) == list(Q.generate_movement(state.board, fresh(state.layout), 0).items())
    assert not state.layout.can_lift  # the Python generator's memos were not filled: C made them
    again = Q.native_movement(state.board, state.layout, 0)
    assert all(again[m] is made[m] for m in made)  # one detail per move, made once


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("é" * 20, (0,), ("0,0",) * 20, 0), "ASCII board"),
        ((" P." * 10, (1, 2), ("0,0",) * 30, 2), "seat 0 or 1"),
        ((" P." * 10, (1, 2), ("0,0",), 0), "outside the names"),
        ((" P." * 10, (1, 2), ("0,0", "é", "x"), 0), "short ASCII"),
        ((" P." * 10, (1, 2), ("0,0", "1" * 99, "x"), 0), "short ASCII"),
    ],
)
def test_what_is_not_a_board_is_refused_with_a_reason(args, message):
    require(Q.native is not None, NOT_BUILT)
    board, tiles, names, seat = args
    with pytest.raises(ValueError, match=message):
        Q.native.movement(board, tiles, names, seat, None, Q.liftable)


def test_places_off_the_string_are_no_tiles_and_have_no_name():
    # Pieces at the very start and end of a short board: their neighbours lie before
    # and after the string. They read as no tile (never as the memory around it), and
    # a tile move onto one is refused: such a place has no name.
    require(Q.native is not None, NOT_BUILT)
    board = "P." + " " * 60 + ".P"
    names = tuple(f"{i},0" for i in range(len(board)))
    with pytest.raises(ValueError, match="outside the names"):
        Q.native.movement(board, (0, 1, 62, 63), names, 0, None, Q.liftable)
    # With the two pieces next to each other and no empty tile, nothing is read off it.
    assert Q.native.movement("PP" + " " * 62, (0, 1), names, 0, None, Q.liftable) == {}
    with pytest.raises(TypeError):
        Q.native.movement(board, [0, 1], names, 0, None, Q.liftable)  # tiles must be a tuple
