"""The move generators in C are the Python references', move for move, in the same
order (the bots' random choices depend on it), and refuse what is not a board instead
of reading past it:

- Quatre en ligne's movement phase (games/engines/karo/_quatre_moves.c) against
  quatre_en_ligne.generate_movement;
- Drumlin's ordinary turn (games/engines/drumlin/_drumlin_moves.c) against
  moves.turn_moves, on positions of real games and on boards of any stacks.

Pure functions, but run on both passes of CI (this module is not in conftest's
ENGINE_MODULES): the Python references are what the live games no longer run."""

from __future__ import annotations

import random

import pytest

from games.engines.drumlin import moves as M
from games.engines.drumlin import rules as R
from games.engines.drumlin.board import NUM_SQUARES, NUM_STACKS, OVERFULL, VALUE
from games.engines.drumlin.state import TURN
from games.engines.karo import quatre_en_ligne as Q
from tests.conftest import require

NOT_BUILT = "the C move generators are not built (pip install -e . builds them where a C compiler is)"


# -- Quatre en ligne --------------------------------------------------------------------------

def quatre_positions(games: int, seed: int) -> list[Q.QuatreState]:
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


def test_quatre_en_ligne_c_moves_are_the_python_moves_in_the_same_order():
    require(Q.native is not None, NOT_BUILT)
    asked: list[int] = []

    def liftable(board: str, layout: Q.Layout, t: int) -> bool:
        asked.append(t)
        return Q.liftable(board, layout, t)

    states = quatre_positions(24, 2024)
    holes = 0
    for state in states:
        holes += bool(state.layout.holes)
        for seat in (0, 1):
            want = list(Q.generate_movement(state.board, fresh(state.layout), seat).items())
            got = Q.native.movement(state.board, state.layout.tiles, state.layout.names, seat, state.layout, liftable)
            assert list(got.items()) == want, Q.RULES.format_position(state)
    assert len(states) > 5000 and holes > 20
    assert asked  # boards with a hole: the tiles only a flood fill can judge went to Python


def test_quatre_en_ligne_uses_the_c_moves_when_they_are_built():
    require(Q.native is not None, NOT_BUILT)
    state = Q.RULES.parse_position("0,0 pP.../.p.pp/PMPp./M..mP 0")
    made = Q.generate(state, 0)
    assert list(made.items()) == list(Q.generate_movement(state.board, fresh(state.layout), 0).items())
    assert not state.layout.can_lift  # the Python generator's memos were not filled: C made them
    again = Q.generate(Q.RULES.parse_position("0,0 pP.../.p.pp/PMPp./M..mP 0"), 0)
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
def test_quatre_en_ligne_refuses_what_is_not_a_board(args, message):
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


def test_quatre_en_ligne_a_refused_configuration_changes_nothing():
    require(Q.native is not None, NOT_BUILT)
    state = quatre_positions(1, 5)[-1]
    before = list(Q.generate(state, state.turn).items())
    for offsets, north, east in (
        (Q.OFFSETS[:7] + ("x",), Q.NORTH, Q.EAST),  # the eighth direction is no number
        (Q.OFFSETS, 1 << 40, Q.EAST),  # far beyond any window
        (Q.OFFSETS[:7], Q.NORTH, Q.EAST),  # seven directions
    ):
        with pytest.raises((ValueError, TypeError)):
            Q.native.configure(offsets, north, east, Q.MOVE, Q.TILE)
    again = Q.RULES.parse_position(Q.RULES.format_position(state))
    assert list(Q.generate(again, again.turn).items()) == before


# -- Drumlin -----------------------------------------------------------------------------------


def drumlin_positions(games: int, seed: int) -> list[R.State]:
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


def test_drumlin_c_moves_are_the_python_moves_in_games():
    require(M.native is not None, NOT_BUILT)
    states = drumlin_positions(30, 2024)
    assert len(states) > 5000 and any(s.clou for s in states)
    for state in states:
        for seat in (0, 1):
            want = M.turn_moves(state.board, seat, state.clou, state.fives)
            assert M.native.turn(state.board, seat, state.clou, state.fives) == want, R.RULES.format_position(state)


def test_drumlin_c_moves_are_the_python_moves_on_boards_of_any_stacks():
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


def test_drumlin_uses_the_c_moves_when_they_are_built():
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
        ((bytes(80), 0, False, (3,) * 81), ValueError, "more squares worth 5"),
        ((tuple(bytes(80)), 0, False, ()), TypeError, None),
        ((bytes(80), 0, False, [3]), TypeError, None),
    ],
)
def test_drumlin_refuses_what_is_not_a_board(args, error, message):
    require(M.native is not None, NOT_BUILT)
    with pytest.raises(error, match=message):
        M.native.turn(*args)


def test_drumlin_a_configuration_refused_halfway_leaves_no_half_copied_tables_in_use():
    require(M.native is not None, NOT_BUILT)
    state = R.RULES.parse_position("7e/8/8/8/8/8/D2(oe)4/8/8/E7 v - std -")
    want = M.turn_moves(state.board, state.side, state.clou, state.fives)
    tables = (
        (bytes(NUM_STACKS),) * 2, (bytes(NUM_STACKS),) * 2, (bytes(NUM_STACKS),) * 2, bytes(NUM_STACKS),
        bytes(NUM_STACKS), ((bytes(NUM_STACKS),) * 2,) * 2, (bytes(NUM_STACKS),) * 3,
        ((), ()),  # no rays: refused after the stack tables were copied
        ((), (), (), ()), (0, 9),
    )
    try:
        with pytest.raises(ValueError, match="rays"):
            M.native.configure(*tables)
        with pytest.raises(RuntimeError, match="configure"):
            M.native.turn(state.board, state.side, state.clou, state.fives)
        with pytest.raises(ValueError, match="one per stack"):
            M.native.configure((b"", b""), *tables[1:])
    finally:
        M.configure_native()
    assert M.native.turn(state.board, state.side, state.clou, state.fives) == want
