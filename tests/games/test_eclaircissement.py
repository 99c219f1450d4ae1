"""Éclaircissement (games/engines/karo/eclaircissement.py), rule by rule as RULES.md reads them.

Positions are written in the notation of docs/notation.md: ranks 5 to 1, files a to
e, ``D``/``L`` seat 0's dark/lit pieces, ``d``/``l`` seat 1's, the seat to move, and
during a chain of jumps the squares the jumping piece stood on.

A seat can never be without a move in this game: its eight pieces, the squares next
to them and the squares two steps away in a straight line always cover more than the
16 squares the pieces fill, so one of the 9 empty squares is a step or a jump away.
Passing and "both stuck" are therefore tested with the other two Karo games.
"""

from __future__ import annotations

import json
import random

import pytest

from games import engines
from games.engines.base import IllegalMove, Outcome, PositionError, play_sequence
from games.engines.karo.eclaircissement import RULES, EclaircissementState
from tests.games.karo_perft import load_perft, perft
from tests.games.karo_records import codes, recorded

START = "ddddd/D...d/D...d/D...d/DDDDD"
# Seat 0's piece on b4 has eight empty neighbours, the centre c3 among them.
ROOMY = "...dd/.D.dd/...dd/DDDdd/DDDD. 0"
# b2 may jump the dark piece on b3; c2 faces the empty centre; a1 has b2 diagonally.
JUMPS = "ddddd/D...d/.d.../.DD.d/DDDDD 0"
# The piece on a1 can jump a2, then b3 onto the centre, then c4 to c5.
CHAIN = "dd.dd/D.d.d/.D..d/D...d/DDDDD 0"
# Seat 0: seven lit pieces on the edge and a lit one on b3.
NEARLY_WON = "ddddd/....d/LL..d/L...d/LLLLL 0"
# Seat 0: seven lit pieces on the edge; the lit one on c2 can jump b2 to a2, and from
# there a3 to a4.
WIN_IN_CHAIN = "LLddd/....d/d...d/.dL.d/LLLLL 0"


def pos(text: str) -> EclaircissementState:
    return RULES.parse_position(text)


def moves_from(state: EclaircissementState, square: str) -> list[str]:
    (seat,) = RULES.to_act(state)
    return sorted(m for m in RULES.legal_moves(state, seat) if m.startswith(square + "-"))


def refusal(state: EclaircissementState, seat: int, move: str) -> str:
    with pytest.raises(IllegalMove) as refused:
        RULES.play(state, seat, move)
    return str(refused.value)


def test_it_is_registered_under_its_slug():
    assert engines.get("eclaircissement") is RULES


# -- setup ------------------------------------------------------------------------------


def test_the_game_starts_with_eight_dark_pieces_each_on_the_edge():
    state = RULES.new_game(2, seed=3, options={"first_player": "1"})
    assert RULES.format_position(state) == f"{START} 1"
    assert RULES.to_act(state) == (1,)
    view = RULES.view(state, None)
    assert [p["square"] for p in view["board"]["pieces"] if p["owner"] == 0] == [
        "a1", "b1", "c1", "d1", "e1", "a2", "a3", "a4",
    ]  # fmt: skip
    assert not any(p["lit"] for p in view["board"]["pieces"])
    assert len(view["board"]["tiles"]) == 24 and view["board"]["centre"]["square"] == "c3"


def test_the_starting_player_comes_from_the_seed_unless_the_table_fixes_it():
    assert RULES.to_act(RULES.new_game(2, seed=3, options={"first_player": "0"})) == (0,)
    assert {RULES.to_act(RULES.new_game(2, seed=s))[0] for s in range(30)} == {0, 1}


# -- steps ------------------------------------------------------------------------------


def test_a_piece_steps_to_any_neighbouring_empty_square():
    assert moves_from(pos(ROOMY), "b4") == ["b4-a3", "b4-a4", "b4-a5", "b4-b3", "b4-b5", "b4-c3", "b4-c4", "b4-c5"]


def test_a_piece_stepping_onto_the_centre_is_lit():
    after = RULES.play(pos(ROOMY), 0, "b4-c3")
    assert RULES.format_position(after) == "...dd/...dd/..Ldd/DDDdd/DDDD. 1"


def test_a_step_elsewhere_lights_nothing():
    after = RULES.play(pos(ROOMY), 0, "b4-c4")
    assert RULES.format_position(after) == "...dd/..Ddd/...dd/DDDdd/DDDD. 1"


# -- jumps ------------------------------------------------------------------------------


def test_a_piece_jumps_a_neighbour_orthogonally_to_the_empty_square_behind():
    state = pos(JUMPS)
    # steps to a2, a3, c3; jumps over b3 to b4 and over c2 to d2
    assert moves_from(state, "b2") == ["b2-a2", "b2-a3", "b2-b4", "b2-c3", "b2-d2"]
    after = RULES.play(state, 0, "b2-b4")
    # jumping a dark piece lights nothing; no jump is left, so the turn is over
    assert RULES.format_position(after) == "ddddd/DD..d/.d.../..D.d/DDDDD 1"


def test_there_is_no_diagonal_jump():
    state = pos(JUMPS)
    assert "a1-c3" not in RULES.legal_moves(state, 0)
    assert "orthogonal jump" in refusal(state, 0, "a1-c3")


def test_the_empty_centre_cannot_be_jumped():
    state = pos(JUMPS)
    assert "c2-c4" not in RULES.legal_moves(state, 0)
    assert "no piece on c3" in refusal(state, 0, "c2-c4")


def test_a_piece_standing_on_the_centre_can_be_jumped():
    after = RULES.play(pos("ddddd/D...d/..l../.DD.d/DDDDD 0"), 0, "c2-c4")
    assert RULES.format_position(after) == "ddddd/D.L.d/..l../.D..d/DDDDD 1"


# -- lighting ----------------------------------------------------------------------------


def test_jumping_a_lit_piece_of_the_other_colour_lights_the_jumper():
    after = RULES.play(pos("ddddd/D...d/.l.D./.D..d/DDDDD 0"), 0, "b2-b4")
    assert RULES.format_position(after) == "ddddd/DL..d/.l.D./....d/DDDDD 1"


def test_jumping_an_own_lit_piece_lights_the_jumper():
    after = RULES.play(pos("ddddd/D...d/.L..d/.D..d/DDDDD 0"), 0, "b2-b4")
    assert RULES.format_position(after) == "ddddd/DL..d/.L..d/....d/DDDDD 1"


def test_a_lit_piece_stays_lit():
    lit = RULES.play(pos(ROOMY), 0, "b4-c3")
    later = play_sequence(RULES, lit, [(1, "d5-c5"), (0, "c3-b4")])
    assert RULES.format_position(later) == "..d.d/.L.dd/...dd/DDDdd/DDDD. 1"


# -- chains of jumps ---------------------------------------------------------------------------


def test_after_a_jump_the_same_piece_may_jump_on_or_stop():
    state = RULES.play(pos(CHAIN), 0, "a1-a3")
    assert RULES.format_position(state) == "dd.dd/D.d.d/DD..d/D...d/.DDDD 0 a1-a3"
    assert RULES.to_act(state) == (0,)
    assert RULES.legal_moves(state, 0) == ["a3-c3", "stop"]
    stopped = RULES.play(state, 0, "stop")
    assert RULES.format_position(stopped) == "dd.dd/D.d.d/DD..d/D...d/.DDDD 1"


def test_a_chain_lights_the_piece_on_the_way_and_ends_when_no_jump_is_left():
    state = play_sequence(RULES, pos(CHAIN), [(0, "a1-a3"), (0, "a3-c3")])
    assert RULES.format_position(state) == "dd.dd/D.d.d/.DL.d/D...d/.DDDD 0 a1-a3-c3"
    assert RULES.legal_moves(state, 0) == ["c3-c5", "stop"]
    state = RULES.play(state, 0, "c3-c5")
    assert RULES.format_position(state) == "ddLdd/D.d.d/.D..d/D...d/.DDDD 1"
    assert RULES.to_act(state) == (1,)


def test_a_chain_never_lands_where_the_piece_already_stood():
    state = RULES.play(pos(CHAIN), 0, "a1-a3")
    assert "already stood on a1" in refusal(state, 0, "a3-a1")


def test_a_step_cannot_follow_a_jump():
    state = RULES.play(pos(CHAIN), 0, "a1-a3")
    assert "a step cannot follow a jump" in refusal(state, 0, "a3-b2")


def test_only_the_jumping_piece_moves_on():
    state = RULES.play(pos(CHAIN), 0, "a1-a3")
    assert "piece on a3 is jumping" in refusal(state, 0, "b1-b2")


def test_the_view_shows_the_chain_in_progress():
    state = RULES.play(pos(CHAIN), 0, "a1-a3")
    view = RULES.view(state, 1)
    assert view["chain"] == {"piece": "a3", "path": ["a1", "a3"]}
    assert view["to_act"] == [0] and view["legal_moves"] == []
    assert RULES.view(state, 0)["legal_moves"] == ["a3-c3", "stop"]


# -- winning ------------------------------------------------------------------------------------


def test_all_eight_lit_on_the_edge_win():
    after = RULES.play(pos(NEARLY_WON), 0, "b3-a4")
    assert RULES.outcome(after) == Outcome.win(0, 2, "all-lit-on-edge")
    assert RULES.to_act(after) == ()


def test_a_lit_piece_left_inside_is_no_win():
    assert RULES.outcome(RULES.play(pos(NEARLY_WON), 0, "b3-b4")) is None
    assert RULES.outcome(pos(NEARLY_WON)) is None


def test_a_dark_piece_on_the_edge_is_no_win():
    state = pos("ddddd/....d/LL..d/L...d/DLLLL 0")
    assert RULES.outcome(RULES.play(state, 0, "b3-a4")) is None


def test_the_win_comes_the_moment_it_happens_even_in_a_chain():
    state = pos(WIN_IN_CHAIN)
    after = RULES.play(state, 0, "c2-a2")
    assert RULES.outcome(after) == Outcome.win(0, 2, "all-lit-on-edge")
    assert RULES.format_position(after) == "LLddd/....d/d...d/Ld..d/LLLLL 0 c2-a2"
    # with one piece still dark, the same jump leaves the chain open
    dark = RULES.play(pos("LDddd/....d/d...d/.dL.d/LLLLL 0"), 0, "c2-a2")
    assert RULES.outcome(dark) is None and RULES.legal_moves(dark, 0) == ["a2-a4", "stop"]


# -- repetition -----------------------------------------------------------------------------------

SHUFFLE = [(0, "b4-a4"), (1, "d5-c5"), (0, "a4-b4"), (1, "c5-d5")]


def test_the_third_occurrence_of_a_position_is_a_draw():
    state = play_sequence(RULES, pos(ROOMY), SHUFFLE)
    assert RULES.format_position(state) == ROOMY and RULES.outcome(state) is None
    state = play_sequence(RULES, state, SHUFFLE[:3])
    assert RULES.outcome(state) is None
    assert RULES.outcome(RULES.play(state, *SHUFFLE[3])) == Outcome.draw(2, "repetition")


def test_a_lighting_clears_the_record_as_no_earlier_position_can_come_back():
    state = play_sequence(RULES, pos(ROOMY), SHUFFLE)
    assert len(recorded(RULES, state)) == 4
    lit = RULES.play(state, 0, "b4-c3")
    assert recorded(RULES, lit) == codes(RULES, {"...dd/...dd/..Ldd/DDDdd/DDDD. 1": 1})


def test_positions_in_the_middle_of_a_chain_are_not_recorded():
    state = play_sequence(RULES, pos(CHAIN), [(0, "a1-a3"), (0, "stop")])
    assert recorded(RULES, state) == codes(RULES, {CHAIN: 1, "dd.dd/D.d.d/DD..d/D...d/.DDDD 1": 1})


# -- no passing -------------------------------------------------------------------------------------


def test_nobody_passes_while_a_move_exists():
    assert "no legal move" in refusal(pos(ROOMY), 0, "pass")
    assert "no chain" in refusal(pos(ROOMY), 0, "stop")


# -- views, notation, storage --------------------------------------------------------------------------


def test_a_view_rebuilds_the_exact_state_even_in_a_chain():
    state = play_sequence(RULES, pos(CHAIN), [(0, "a1-a3"), (0, "a3-c3")])
    for seat in (None, 0, 1):
        view = json.loads(json.dumps(RULES.view(state, seat)))
        assert RULES.state_from_view(view, seat, random.Random(0)) == state
    piece = {"square": "c3", "x": 2, "y": 2, "owner": 0, "lit": True, "circle": "up"}
    assert piece in RULES.view(state, None)["board"]["pieces"]


@pytest.mark.parametrize("text", [f"{START} 0", ROOMY, "dd.dd/D.d.d/.DL.d/D...d/.DDDD 0 a1-a3-c3"])
def test_position_text_round_trips(text: str):
    assert RULES.format_position(pos(text)) == text


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("ddddd/D...d/D...d/D...d/DDDD 0", "5 ranks"),
        ("ddddd/D...d/D...d/D...d/DDDDX 0", "unknown"),
        ("ddddd/D...d/D...d/D...d/DDDD. 0", "7 pieces"),
        ("ddddd/D...d/D...d/D...d/DDDDD 2", "seat to move"),
        ("dd.dd/D.d.d/DD..d/D...d/.DDDD 0 a1-a4", "chain of squares|not a jump"),
        ("dd.dd/D.d.d/DD..d/D...d/.DDDD 1 a1-a3", "piece of seat 1"),
        ("dd.dd/D.d.d/DD..d/D...d/.DDDD 0 a1-a3-a1", "twice"),
        ("dd.dd/D.d.d/DD..d/D...d/D.DDD 0 b1-b3", "not a jump|must be empty"),
        ("ddLdd/D.d.d/.D..d/D...d/.DDDD 0 a1-a3-c3-c5", "no jump left"),
    ],
)
def test_bad_position_text_is_refused_with_a_reason(text: str, words: str):
    with pytest.raises(PositionError, match=words):
        pos(text)


def test_dump_and_load_keep_the_history_and_the_chain():
    state = play_sequence(RULES, pos(ROOMY), SHUFFLE + SHUFFLE[:3])
    data = json.loads(json.dumps(RULES.dump(state)))
    loaded = RULES.load(data)
    assert loaded == state
    assert RULES.outcome(RULES.play(loaded, *SHUFFLE[3])) == Outcome.draw(2, "repetition")
    chained = RULES.play(pos(CHAIN), 0, "a1-a3")
    assert RULES.load(RULES.dump(chained)) == chained


# -- the heuristic -------------------------------------------------------------------------------------


def test_the_heuristic_counts_lit_pieces_and_their_way_to_the_edge():
    start = pos(f"{START} 0")
    assert RULES.evaluate(start, 0) == pytest.approx(0.5)
    lit = RULES.play(pos(ROOMY), 0, "b4-c3")
    assert RULES.evaluate(lit, 0) > RULES.evaluate(pos(ROOMY), 0)
    near = pos(NEARLY_WON)  # the lit piece on b3 is one step from the edge
    assert RULES.evaluate(near, 0) > 0.5 > RULES.evaluate(near, 1)
    assert RULES.evaluate(near, 0) + RULES.evaluate(near, 1) == pytest.approx(1.0)
    deeper = pos("ddddd/....d/L.L.d/L...d/LLLLL 0")  # the same piece on the centre, two steps away
    assert RULES.evaluate(near, 0) > RULES.evaluate(deeper, 0)


# -- golden move counts --------------------------------------------------------------------------------

CASES = load_perft("karo-eclaircissement.perft")


def test_the_perft_file_holds_enough_positions():
    assert len(CASES) >= 3 and all(set(case.counts) == {1, 2, 3} for case in CASES)


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_it_counts_the_golden_move_sequences(case):
    state = pos(case.position)
    assert RULES.format_position(state) == case.position
    assert {depth: perft(RULES, state, depth) for depth in case.counts} == case.counts


# -- the server's clock ---------------------------------------------------------------------------------


def test_running_out_of_time_in_a_chain_stops_it_and_otherwise_loses():
    chained = RULES.play(pos(CHAIN), 0, "a1-a3")
    assert RULES.timeout_move(chained, 0) == "stop"
    assert RULES.timeout_move(chained, 1) is None
    assert RULES.timeout_move(pos(CHAIN), 0) is None
