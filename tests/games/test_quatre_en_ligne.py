"""Quatre en ligne (games/engines/karo/quatre_en_ligne.py), rule by rule as RULES.md reads them.

Positions are written in the notation of docs/notation.md: the lowest corner ``x,y``
of the board's bounding box, its rows top first (``-`` no tile, ``.`` an empty tile,
``P``/``M`` seat 0's plain/marked pieces, ``p``/``m`` seat 1's), the seat to move.
Moves: ``x,y`` (placement), ``x,y>x,y`` (step or jump), and
``tile-from>tile-to:piece-from>piece-to`` (tile move).

Both players can never be stuck at once in this game: the tiles are joined, so some
piece stands next to one of the eight empty tiles and can step onto it.
"""

from __future__ import annotations

import json
import random

import pytest

from games import engines
from games.engines.base import IllegalMove, Outcome, PositionError, play_sequence
from games.engines.karo.quatre_en_ligne import RULES, QuatreState
from tests.games.karo_perft import load_perft, perft
from tests.games.karo_records import codes, occurrences, recorded

START = "0,0 ...../...../...../..... 0"
# All placed; only the empty corner 4,3 may move (hand-checked: 40 moves for seat 0).
PLACED = "0,0 pP.m./.pM.p/P.Pp./M.m.P 0"
# Twenty tiles in a row, pieces alternating from the right end.
ROW = "0,0 ........pPpPpPpPpPpP 0"
# Seat 0 fenced in: its pieces touch only pieces, and the only empty tiles form a
# corridor whose every tile holds the board together.
FENCED = "0,0 PP----------p-/PPpp........pp/PP----------p- 0"


def pos(text: str) -> QuatreState:
    return RULES.parse_position(text)


def legal(state: QuatreState) -> list[str]:
    (seat,) = RULES.to_act(state)
    return RULES.legal_moves(state, seat)


def refusal(state: QuatreState, seat: int, move: str) -> str:
    with pytest.raises(IllegalMove) as refused:
        RULES.play(state, seat, move)
    return str(refused.value)


def row_shift(dx: int) -> list[tuple[int, str]]:
    """The twelve plies that move the whole ROW board (tiles and pieces) one place right."""
    plies = [(0, f"{dx},0>{20 + dx},0:{19 + dx},0>{20 + dx},0")]
    for k in range(1, 12):
        x = 19 + dx - k
        plies.append((k % 2, f"{x},0>{x + 1},0"))
    return plies


def test_it_is_registered_under_its_slug():
    assert engines.get("quatre-en-ligne") is RULES


# -- placement ----------------------------------------------------------------------------


def test_the_players_place_a_plain_piece_on_any_empty_tile_in_turn():
    state = RULES.new_game(2, seed=1, options={"first_player": "1"})
    assert RULES.format_position(state) == "0,0 ...../...../...../..... 1"
    assert len(RULES.legal_moves(state, 1)) == 20
    state = RULES.play(state, 1, "2,1")
    assert RULES.format_position(state) == "0,0 ...../...../..p../..... 0"
    assert "already holds a piece" in refusal(state, 0, "2,1")
    assert "no tile" in refusal(state, 0, "7,1")
    assert "being placed" in refusal(state, 0, "2,1>3,1")


def test_twelve_placements_lead_to_the_movement_phase_opened_by_the_first_placer():
    state = RULES.new_game(2, seed=1, options={"first_player": "1"})
    places = ["0,0", "1,0", "2,0", "3,0", "4,0", "0,1", "1,1", "2,1", "3,1", "4,1", "0,2", "1,2"]
    state = play_sequence(RULES, state, [((k + 1) % 2, place) for k, place in enumerate(places)])
    assert RULES.format_position(state) == "0,0 ...../pP.../PpPpP/pPpPp 1"
    assert RULES.view(state, None)["phase"] == "movement"
    assert RULES.to_act(state) == (1,)
    assert "0,2>0,3" in RULES.legal_moves(state, 1)


# -- steps and jumps ----------------------------------------------------------------------------


def test_a_step_goes_to_a_neighbouring_empty_tile_without_flipping():
    state = pos(PLACED)
    assert "2,2>3,2" in legal(state)
    after = RULES.play(state, 0, "2,2>3,2")
    assert RULES.format_position(after) == "0,0 pP.m./.p.Mp/P.Pp./M.m.P 1"


def test_a_jump_over_one_neighbouring_piece_flips_the_jumper():
    after = RULES.play(pos(PLACED), 0, "2,1>4,1")  # over seat 1's piece on 3,1
    assert RULES.format_position(after) == "0,0 pP.m./.pM.p/P..pM/M.m.P 1"


def test_the_next_jump_flips_it_back():
    state = play_sequence(RULES, pos(PLACED), [(0, "2,1>4,1"), (1, "1,2>0,2")])
    after = RULES.play(state, 0, "4,1>2,1")
    assert RULES.format_position(after) == "0,0 pP.m./p.M.p/P.Pp./M.m.P 1"


def test_a_jump_needs_a_piece_right_next_to_it_and_an_empty_tile_right_behind():
    state = pos(PLACED)
    assert "needs a piece to jump over on 3,2" in refusal(state, 0, "2,1>4,3")
    assert "2,0 already holds a piece" in refusal(state, 0, "2,2>2,0")
    assert "0,0>0,2" in legal(state)  # over its own piece on 0,1


def test_a_diagonal_step_or_jump_needs_no_tile_at_the_corners():
    step = pos("0,0 pppp--/pp..../P-..../PP-PPP 0")
    assert "1,0>2,1" in legal(step)  # neither 2,0 nor 1,1 has a tile
    jump = pos("0,0 ppp.--/pp..../P-p.../PP-PPP 0")
    after = RULES.play(jump, 0, "1,0>3,2")
    assert RULES.format_position(after) == "0,0 ppp.--/pp.M../P-p.../P.-PPP 1"


# -- tile moves ----------------------------------------------------------------------------------


def test_a_tile_move_and_the_piece_going_onto_it_are_one_move():
    state = pos(PLACED)
    assert "4,3>5,1:4,0>5,1" in legal(state)
    after = RULES.play(state, 0, "4,3>5,1:4,0>5,1")
    assert RULES.format_position(after) == "0,0 pP.m--/.pM.p-/P.Pp.P/M.m..- 1"


def test_the_board_may_grow_in_any_direction():
    after = RULES.play(pos(PLACED), 0, "4,3>-1,1:0,1>-1,1")
    assert RULES.format_position(after) == "-1,0 -pP.m-/-.pM.p/P..Pp./-M.m.P 1"
    view = RULES.view(after, None)
    assert view["board"]["bounds"] == {"min_x": -1, "min_y": 0, "max_x": 4, "max_y": 3}
    assert {"square": "-1,1", "x": -1, "y": 1} in view["board"]["tiles"]


def test_a_piece_may_jump_onto_the_moved_tile_and_flips():
    after = RULES.play(pos(PLACED), 0, "4,3>0,4:2,2>0,4")  # over 1,3
    assert RULES.format_position(after) == "0,0 P----/pP.m-/.p..p/P.Pp./M.m.P 1"


def test_a_tile_holding_a_piece_cannot_move():
    assert "holds a piece" in refusal(pos(PLACED), 0, "0,0>-1,0:0,1>-1,0")


def test_a_tile_with_one_free_side_cannot_move():
    assert "1 free side" in refusal(pos(PLACED), 0, "2,3>5,1:4,0>5,1")


def test_a_tile_whose_lifting_splits_the_board_cannot_move():
    state = pos(ROW)
    assert not any(m.startswith("3,0>") for m in legal(state))
    assert "split the board" in refusal(state, 0, "3,0>20,0:19,0>20,0")


def test_the_moved_tile_must_touch_another_tile_by_a_side():
    state = pos(PLACED)
    assert "touch no other tile" in refusal(state, 0, "4,3>-1,-1:0,0>-1,-1")  # a corner only
    # 4,4 would touch only 4,3, the very tile that is moving
    assert "4,3>4,4:2,2>4,4" not in legal(state)
    assert "touch no other tile" in refusal(state, 0, "4,3>4,4:2,2>4,4")


def test_a_tile_move_needs_a_piece_of_the_mover_to_reach_the_tile():
    state = pos(PLACED)
    assert not any(">3,4:" in m for m in legal(state))  # 3,4 touches 3,3 but no piece reaches it
    assert "no piece can reach the moved tile" in refusal(state, 0, "4,3>3,4:1,3>3,4")
    assert "must move onto the moved tile" in refusal(state, 0, "4,3>3,4:1,3>2,4")


def test_a_tile_never_goes_back_where_it_was():
    assert "back where it was" in refusal(pos(PLACED), 0, "4,3>4,3:3,2>4,3")


def test_there_is_no_tile_move_while_pieces_are_placed():
    state = pos("0,0 pP.../.p..p/P.Pp./P.p.P 0")
    assert all(">" not in m for m in legal(state))


# -- winning ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("0,0 ppp../pp..p/...MP/MMM.P 0", "3,1>3,0"),  # a row
        ("0,0 .Mppp/M..pp/M...p/M.PP. 0", "1,3>0,3"),  # a column
        ("0,0 pp..M/p.M.p/.M.pp/MPP.. 0", "4,3>3,3"),  # a rising diagonal
        ("0,0 M.ppp/p.M.p/p..M./PP..M 0", "0,3>1,3"),  # a falling diagonal
        ("0,0 ppp../pp.Pp/...P./MMM.P 0", "3,2>3,0"),  # a jump marks the fourth piece
        ("0,0 ppp../pp..p/...MP/MMM.M 0", "3,1>3,0"),  # five in a row
    ],
)
def test_four_marked_pieces_in_a_line_win(text: str, move: str):
    after = RULES.play(pos(text), 0, move)
    assert RULES.outcome(after) == Outcome.win(0, 2, "four-in-line")
    assert RULES.to_act(after) == ()


@pytest.mark.parametrize(
    "text",
    [
        "0,0 ppp../pp..p/...MP/MPM.P 0",  # one of them is plain
        "0,0 ppp../pp..P/...MP/MmM.P 0",  # one of them is the other seat's
        "0,0 ppp../pp..p/P..MP/.MM.P 0",  # three only
    ],
)
def test_plain_mixed_or_short_lines_do_not_win(text: str):
    assert RULES.outcome(RULES.play(pos(text), 0, "3,1>3,0")) is None


# -- passing ------------------------------------------------------------------------------------------


def test_a_player_with_no_move_must_pass():
    state = pos(FENCED)
    assert RULES.legal_moves(state, 0) == ["pass"]
    after = RULES.play(state, 0, "pass")
    assert RULES.format_position(after) == FENCED[:-1] + "1"
    assert RULES.outcome(after) is None
    assert "3,1>4,1" in RULES.legal_moves(after, 1)


def test_nobody_passes_while_a_move_exists():
    assert "no legal move" in refusal(pos(PLACED), 0, "pass")


# -- repetition, up to a shift of the whole board ---------------------------------------------------------


def test_a_board_shifted_as_a_whole_is_the_same_position():
    once = play_sequence(RULES, pos(ROW), row_shift(0))
    assert RULES.format_position(once) == "1,0 ........pPpPpPpPpPpP 0"
    assert RULES.outcome(once) is None
    assert occurrences(RULES, once, "0,0 ........pPpPpPpPpPpP 0") == 2
    twice = play_sequence(RULES, once, row_shift(1)[:-1])
    assert RULES.outcome(twice) is None
    last = row_shift(1)[-1]
    assert RULES.outcome(RULES.play(twice, *last)) == Outcome.draw(2, "repetition")


# -- views, notation, storage ------------------------------------------------------------------------------


def test_a_view_shows_tiles_pieces_and_faces_and_rebuilds_the_state():
    state = RULES.play(pos(PLACED), 0, "4,3>-1,1:0,1>-1,1")
    view = RULES.view(state, 1)
    assert len(view["board"]["tiles"]) == 20 and len(view["board"]["pieces"]) == 12
    assert {"square": "2,2", "x": 2, "y": 2, "owner": 0, "marked": True, "circle": "up"} in view["board"]["pieces"]
    assert view["last_move"] == {"seat": 0, "move": "4,3>-1,1:0,1>-1,1"}
    assert view["placed"] == [6, 6]
    for seat in (None, 0, 1):
        seen = json.loads(json.dumps(RULES.view(state, seat)))
        rebuilt = RULES.state_from_view(seen, seat, random.Random(0))
        # the same state, but for the record of earlier positions, which views do not carry
        assert rebuilt._identity() == state._identity() and RULES.view(rebuilt, seat) == seen
        assert recorded(RULES, rebuilt) == codes(RULES, {RULES.format_position(state): 1})


@pytest.mark.parametrize("text", [START, PLACED, ROW, FENCED, "-3,-7 .Mm-/-.m./-.m./PMm./-P../-pmM/---P 0"])
def test_position_text_round_trips(text: str):
    assert RULES.format_position(pos(text)) == text


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("0,0 ...../...../...../.... 0", "same"),
        ("0,0 ...../...../...../....- 0", "19 tiles"),
        ("0,0 ......./......./....... 0", "21 tiles"),
        ("0,0 .....-...../....-...... 0", "joined"),
        ("0,0 ----/..../..../..../..../.... 0", "top and bottom rows"),
        ("0,0 -..../-..../-..../-..../-.... 0", "first and last columns"),
        ("0,0 ...../...../...../....X 0", "unknown"),
        ("0,0 ...../...../...../....M 1", "marked"),
        ("0,0 ...../...../...../..PP. 0", "cannot be placing"),
        ("0,0 PPPPP/PPppp/ppp../..... 0", "six pieces"),
        ("a,b ...../...../...../..... 0", "origin"),
        ("0,0 ...../...../...../..... 2", "seat to move"),
        ("0,0 .................... 0 x", "seat to move"),
    ],
)
def test_bad_position_text_is_refused_with_a_reason(text: str, words: str):
    with pytest.raises(PositionError, match=words):
        pos(text)


def test_dump_and_load_keep_the_history():
    state = play_sequence(RULES, pos(ROW), row_shift(0) + row_shift(1)[:5])
    data = json.loads(json.dumps(RULES.dump(state)))
    loaded = RULES.load(data)
    assert loaded == state
    after = play_sequence(RULES, loaded, row_shift(1)[5:])
    assert RULES.outcome(after) == Outcome.draw(2, "repetition")


# -- the heuristic ------------------------------------------------------------------------------------------


def test_the_heuristic_likes_marked_pieces_in_open_lines():
    state = pos("0,0 ppp../pp..p/...MP/MMM.P 0")
    assert RULES.evaluate(state, 0) > 0.5 > RULES.evaluate(state, 1)
    assert RULES.evaluate(state, 0) + RULES.evaluate(state, 1) == pytest.approx(1.0)
    weaker = pos("0,0 ppp../pp..p/...MP/MPM.P 0")
    assert RULES.evaluate(state, 0) > RULES.evaluate(weaker, 0)
    assert RULES.evaluate(pos(START), 0) == pytest.approx(0.5)


# -- golden move counts ---------------------------------------------------------------------------------------

CASES = load_perft("karo-quatre-en-ligne.perft")


def test_the_perft_file_holds_enough_positions():
    assert len(CASES) >= 3 and all(set(case.counts) == {1, 2, 3} for case in CASES)


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_it_counts_the_golden_move_sequences(case):
    state = pos(case.position)
    assert RULES.format_position(state) == case.position
    assert {depth: perft(RULES, state, depth) for depth in case.counts} == case.counts
