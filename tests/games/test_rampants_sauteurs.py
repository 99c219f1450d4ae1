"""Rampants et Sauteurs (games/engines/karo/rampants_sauteurs.py), rule by rule as RULES.md reads them.

Positions are written in the notation of docs/notation.md: ranks 8 to 1, files a to
c, ``C``/``J`` seat 0's crawlers/jumpers, ``c``/``j`` seat 1's, then the seat to move.
"""

from __future__ import annotations

import json
import random

import pytest

from games import engines
from games.engines.base import IllegalMove, Outcome, PositionError, play_sequence
from games.engines.karo.rampants_sauteurs import LAYOUTS, RULES, RampantsState
from tests.games.karo_perft import load_perft, perft
from tests.games.karo_records import codes, occurrences, recorded

# Seat 0: a lone crawler on b4, jumpers on ranks 1-2; seat 1 on ranks 7-8.
OPEN = "jjj/jjj/.../.../.C./.../J.J/JJJ 0"
# Seat 0: five pieces on ranks 7-8; the jumper on c6 can leap c7 to reach c8.
ALMOST_ACROSS = "JC./CJC/..J/.../.../jjj/j.j/.j. 0"
# The same, turned around for seat 1: its jumper on a3 can leap a2 to reach a1.
ALMOST_ACROSS_1 = ".J./J.J/JJJ/.../.../j../cjc/.cj 1"
# Seat 0's crawlers boxed in on rank 1 behind jumpers with nothing ahead of them.
STUCK = "jcj/cjc/.../.../.../.../JJJ/CCC 0"
# Both seats boxed in that way.
BOTH_STUCK = "ccc/jjj/.../.../.../.../JJJ/CCC 0"
# Each seat can walk one piece round a little loop and back (see the repetition tests).
LOOP = "ccc/.../cc./.c./.C./CC./.../CCC 0"
LOOP_MOVES = [
    (0, "a3-a4"), (1, "a6-a5"), (0, "a4-c4"), (1, "a5-c5"),
    (0, "c4-c3"), (1, "c5-c6"), (0, "c3-a3"), (1, "c6-a6"),
]  # fmt: skip


def pos(text: str) -> RampantsState:
    return RULES.parse_position(text)


def moves_from(state: RampantsState, square: str) -> list[str]:
    (seat,) = RULES.to_act(state)
    return sorted(m for m in RULES.legal_moves(state, seat) if m.startswith(square + "-"))


def refusal(state: RampantsState, seat: int, move: str) -> str:
    with pytest.raises(IllegalMove) as refused:
        RULES.play(state, seat, move)
    return str(refused.value)


def set_up(first: str = "0", layout0: str = "JCJ/CJC", layout1: str = "JCJ/CJC") -> RampantsState:
    state = RULES.new_game(2, seed=5, options={"first_player": first})
    return play_sequence(RULES, state, [(0, layout0), (1, layout1)])


def test_it_is_registered_under_its_slug():
    assert engines.get("rampants-sauteurs") is RULES
    assert (RULES.min_players, RULES.max_players) == (2, 2)


# -- crawlers ----------------------------------------------------------------------------


def test_a_crawler_steps_to_any_empty_neighbour():
    assert moves_from(pos(OPEN), "b4") == ["b4-a3", "b4-a4", "b4-a5", "b4-b3", "b4-b5", "b4-c3", "b4-c4", "b4-c5"]


def test_a_crawler_turns_into_a_jumper_where_it_lands():
    after = RULES.play(pos(OPEN), 0, "b4-c5")
    assert RULES.format_position(after) == "jjj/jjj/.../..J/.../.../J.J/JJJ 1"


def test_a_crawler_cannot_step_onto_a_piece_nor_leap():
    state = pos("jjj/jjj/.../.../.../.C./JJ./JJJ 0")
    assert moves_from(state, "b3") == ["b3-a3", "b3-a4", "b3-b4", "b3-c2", "b3-c3", "b3-c4"]
    assert "b2 is not empty" in refusal(state, 0, "b3-b2")
    assert "one square" in refusal(state, 0, "b3-b5")


# -- jumpers ---------------------------------------------------------------------------------


def test_a_jumper_leaps_one_piece_to_the_empty_square_behind_and_turns_into_a_crawler():
    state = pos("jjj/jjj/.../CC./.../..C/C../J.C 0")
    assert moves_from(state, "a1") == ["a1-a3"]
    after = RULES.play(state, 0, "a1-a3")
    assert RULES.format_position(after) == "jjj/jjj/.../CC./.../C.C/C../..C 1"


def test_a_jumper_leaps_a_line_of_pieces_of_both_colours_to_the_first_empty_square():
    state = pos("jjj/jj./.../..C/j../C../C../JCC 0")
    assert moves_from(state, "a1") == ["a1-a5"]  # over a2, a3 (its own) and a4 (seat 1's)
    assert "first empty square" in refusal(state, 0, "a1-a6")


def test_a_jumper_leaps_diagonally_too():
    state = pos("jjj/jjj/.../CCC/.../.../.C./J.C 0")
    assert moves_from(state, "a1") == ["a1-c3"]


def test_a_jumper_with_no_piece_beside_it_cannot_move():
    state = pos("jjj/jjj/.../.J./.../.../CCC/CC. 0")
    assert moves_from(state, "b5") == []
    assert "must jump" in refusal(state, 0, "b5-b6")


def test_a_line_of_pieces_running_off_the_board_is_no_move():
    state = pos("jjj/jjj/.../C../.../..C/C../JCC 0")
    assert moves_from(state, "a1") == ["a1-a3"]  # nothing eastwards: b1 and c1 reach the edge
    column = pos("j../j../j../j../j../j../CCC/JCC 0")
    assert moves_from(column, "a1") == ["a1-c3"]  # nothing northwards: a2 to a8 are all taken


# -- backwards ----------------------------------------------------------------------------


def test_a_crawler_may_step_backwards():
    state = pos("jjj/jjj/.../..C/.../.../CC./CCC 0")
    after = RULES.play(state, 0, "c5-c4")
    assert RULES.format_position(after) == "jjj/jjj/.../.../..J/.../CC./CCC 1"


def test_a_jumper_may_leap_backwards():
    state = pos("jjj/jjj/.../.J./.C./.../CC./CC. 0")
    assert moves_from(state, "b5") == ["b5-b3"]


# -- winning ---------------------------------------------------------------------------------


def test_the_sixth_piece_reaching_the_far_rows_wins_whatever_the_faces():
    state = pos(ALMOST_ACROSS)
    assert RULES.outcome(state) is None  # five across is not enough
    after = RULES.play(state, 0, "c6-c8")
    assert RULES.format_position(after) == "JCC/CJC/.../.../.../jjj/j.j/.j. 1"
    assert RULES.outcome(after) == Outcome.win(0, 2, "crossing")
    assert RULES.to_act(after) == ()
    assert RULES.legal_moves(after, 1) == []
    assert refusal(after, 1, "a3-a4") == "the game is over"


def test_seat_one_crosses_to_ranks_one_and_two():
    after = RULES.play(pos(ALMOST_ACROSS_1), 1, "a3-a1")
    assert RULES.outcome(after) == Outcome.win(1, 2, "crossing")


def test_a_win_counts_before_a_third_occurrence():
    won = "JCC/CJC/.../.../.../jjj/j.j/.j. 1"
    record = RULES.record_of({ALMOST_ACROSS: 1, won: 2})
    state = RULES.load({"position": ALMOST_ACROSS, "record": record, "last": None, "outcome": None})
    assert RULES.outcome(RULES.play(state, 0, "c6-c8")) == Outcome.win(0, 2, "crossing")


# -- passing and being stuck ---------------------------------------------------------------------


def test_a_player_with_no_move_must_pass():
    state = pos(STUCK)
    assert RULES.legal_moves(state, 0) == ["pass"]
    after = RULES.play(state, 0, "pass")
    assert RULES.format_position(after) == "jcj/cjc/.../.../.../.../JJJ/CCC 1"
    assert RULES.outcome(after) is None
    assert len(RULES.legal_moves(after, 1)) == 8


def test_a_stuck_player_running_out_of_time_passes():
    assert RULES.timeout_move(pos(STUCK), 0) == "pass"
    assert RULES.timeout_move(pos(OPEN), 0) is None


def test_nobody_passes_while_a_move_exists():
    assert "no legal move" in refusal(pos(OPEN), 0, "pass")


def test_both_players_stuck_is_a_draw_at_once():
    assert RULES.outcome(pos(BOTH_STUCK)) == Outcome.draw(2, "both-stuck")
    state = pos("ccc/jjj/.../.../.../..C/JJ./CCC 0")
    after = RULES.play(state, 0, "c3-c2")
    assert RULES.outcome(after) == Outcome.draw(2, "both-stuck")


def test_both_players_stuck_right_after_the_setup_is_a_draw():
    state = set_up(layout0="CCC/JJJ", layout1="CCC/JJJ")
    assert RULES.format_position(state) == BOTH_STUCK
    assert RULES.outcome(state) == Outcome.draw(2, "both-stuck")


def test_a_third_occurrence_counts_before_both_stuck():
    before = "ccc/jjj/.../.../.../..C/JJ./CCC 0"
    stuck = "ccc/jjj/.../.../.../.../JJJ/CCC 1"
    state = RULES.load({"position": before, "record": RULES.record_of({before: 1, stuck: 2}), "last": None,
                        "outcome": None})
    assert RULES.outcome(RULES.play(state, 0, "c3-c2")) == Outcome.draw(2, "repetition")


# -- repetition ----------------------------------------------------------------------------------


def test_the_third_occurrence_of_a_position_is_a_draw():
    state = pos(LOOP)
    state = play_sequence(RULES, state, LOOP_MOVES)
    assert RULES.format_position(state) == LOOP and RULES.outcome(state) is None  # twice
    state = play_sequence(RULES, state, LOOP_MOVES[:-1])
    assert RULES.outcome(state) is None
    state = RULES.play(state, *LOOP_MOVES[-1])
    assert RULES.outcome(state) == Outcome.draw(2, "repetition")


def test_the_same_board_with_the_other_seat_to_move_is_another_position():
    state = RULES.play(pos(STUCK), 0, "pass")
    assert recorded(RULES, state) == codes(RULES, {STUCK: 1, "jcj/cjc/.../.../.../.../JJJ/CCC 1": 1})
    assert len(recorded(RULES, state)) == 2


# -- the secret setup ---------------------------------------------------------------------------


def test_both_seats_choose_a_layout_at_the_same_time():
    state = RULES.new_game(2, seed=5)
    assert RULES.to_act(state) == (0, 1)
    assert RULES.legal_moves(state, 0) == RULES.legal_moves(state, 1) == list(LAYOUTS)
    assert len(LAYOUTS) == 20 and all(layout.count("J") == 3 for layout in LAYOUTS)
    state = RULES.play(state, 1, "JJC/CCJ")
    assert RULES.to_act(state) == (0,)
    assert RULES.legal_moves(state, 1) == []
    assert "not to act" in refusal(state, 1, "JCJ/CJC")


def test_a_layout_needs_three_crawlers_and_three_jumpers():
    state = RULES.new_game(2, seed=5)
    assert "three crawlers" in refusal(state, 0, "JJJ/JCC")
    assert "three crawlers" in refusal(state, 0, "jcj/cjc")
    assert "three crawlers" in refusal(state, 0, "b2-b3")


def test_the_layouts_are_revealed_together_and_the_starting_player_moves():
    state = set_up(first="1", layout0="JJC/CCJ", layout1="CJJ/JCC")
    assert RULES.format_position(state) == "cjj/jcc/.../.../.../.../CCJ/JJC 1"
    assert RULES.to_act(state) == (1,)
    for seat in (None, 0, 1):
        view = RULES.view(state, seat)
        assert view["position"] == "cjj/jcc/.../.../.../.../CCJ/JJC 1"
        assert len(view["board"]["pieces"]) == 12
        assert view["setup"] is None
        # The first layout, a secret until now, is public: the move list can show it.
        assert view["revealed_moves"] == [{"seat": 0, "move": "JJC/CCJ"}]
        assert view["last_move"] == {"seat": 1, "move": "CJJ/JCC"}
    # Only the version of the reveal says so; the next move reveals nothing.
    moved = RULES.play(state, 1, RULES.legal_moves(state, 1)[0])
    assert RULES.view(moved, None)["revealed_moves"] == []
    # While the setup lasts, nothing is revealed either.
    half = RULES.play(RULES.new_game(2, seed=5), 0, "JJC/CCJ")
    assert all(RULES.view(half, seat)["revealed_moves"] == [] for seat in (None, 0, 1))


def test_a_chosen_layout_is_hidden_from_the_other_seat_and_from_spectators():
    seen_by: dict[str, list[str]] = {}
    for layout in ("JJJ/CCC", "CCC/JJJ", "CJC/JCJ"):
        state = RULES.play(RULES.new_game(2, seed=5, options={"first_player": "0"}), 0, layout)
        others = [json.dumps(RULES.view(state, seat), sort_keys=True) for seat in (1, None)]
        seen_by.setdefault("others", []).append("".join(others))
        own = RULES.view(state, 0)
        assert own["setup"][0] == {"seat": 0, "chosen": True, "layout": layout}
        assert own["last_move"] == {"seat": 0, "move": layout}
        assert len(own["board"]["pieces"]) == 6
    # whatever seat 0 chose, seat 1 and spectators get exactly the same views
    assert len(set(seen_by["others"])) == 1
    view = RULES.view(state, 1)
    assert view["setup"][0] == {"seat": 0, "chosen": True, "layout": None}
    assert view["last_move"] == {"seat": 0, "move": None}
    assert view["board"]["pieces"] == []
    assert view["position"] == ".../.../.../.../.../.../???/??? setup 0"


def test_a_bot_gets_a_sampled_layout_for_the_hidden_seat():
    state = RULES.play(RULES.new_game(2, seed=5), 0, "JJJ/CCC")
    view = json.loads(json.dumps(RULES.view(state, 1)))
    layouts = set()
    for k in range(12):
        sample = RULES.state_from_view(view, 1, random.Random(k))
        assert RULES.view(sample, 1) == view
        assert RULES.legal_moves(sample, 1) == RULES.legal_moves(state, 1)
        bottom = RULES.format_position(sample).split(" ")[0].split("/")[6:]
        layouts.add(f"{bottom[1]}/{bottom[0]}")
    assert layouts <= set(LAYOUTS) and len(layouts) > 1


def test_a_view_in_play_rebuilds_the_state():
    state = play_sequence(RULES, set_up(), [(0, "a2-a3"), (1, "a7-a6")])
    for seat in (0, 1):
        view = json.loads(json.dumps(RULES.view(state, seat)))
        rebuilt = RULES.state_from_view(view, seat, random.Random(0))
        # the same state, but for the record of earlier positions, which views do not carry
        assert rebuilt._identity() == state._identity() and RULES.view(rebuilt, seat) == view
        assert recorded(RULES, rebuilt) == codes(RULES, {RULES.format_position(state): 1})


# -- the starting player ------------------------------------------------------------------------


def test_the_table_may_fix_the_starting_player_or_leave_it_to_the_seed():
    assert RULES.to_act(set_up(first="0")) == (0,)
    assert RULES.to_act(set_up(first="1")) == (1,)
    firsts = {RULES.new_game(2, seed=s).first for s in range(30)}
    assert firsts == {0, 1}
    assert RULES.new_game(2, seed=7).first == RULES.new_game(2, seed=7).first


# -- views ----------------------------------------------------------------------------------------


def test_a_view_shows_pieces_faces_the_moves_and_the_last_move():
    state = RULES.play(pos(OPEN), 0, "b4-c5")
    view = RULES.view(state, 1)
    assert view["to_act"] == [1] and view["phase"] == "play"
    assert {"square": "c5", "x": 2, "y": 4, "owner": 0, "face": "jumper", "circle": "up"} in view["board"]["pieces"]
    assert view["last_move"] == {"seat": 0, "move": "b4-c5"}
    assert view["legal_moves"] == RULES.legal_moves(state, 1)
    assert RULES.view(state, None)["legal_moves"] == []
    assert RULES.view(state, 0)["legal_moves"] == []


# -- notation and storage -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [OPEN, ALMOST_ACROSS, STUCK, ".../.../.../.../.../.../.../... setup 1", "jjc/cjc/.../.../.../.../.../... setup 0"],
)
def test_position_text_round_trips(text: str):
    assert RULES.format_position(pos(text)) == text


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("jjj/jjj/.../.../.../.../JJJ 0", "8 ranks"),
        ("jjj/jjj/.../.../.../.../JJJ/JJX 0", "unknown"),
        ("jjj/jjj/.../.../.../.../JJJ/JJ. 0", "5 pieces"),
        ("jjj/jjj/.../.../.../.../JJJ/JJJ 2", "seat to move"),
        ("jjj/jjj/.../.../.../.../JJJ/JJJ", "seat to move"),
        ("ccc/jjj/.../.../.../.../JJJ/CCC setup 0", "both layouts"),
        ("jjj/jjj/.../.../.../.../.../... setup 0", "three crawlers"),
        (".../.../.../.J./.../.../.../... setup 0", "outside its start rows"),
        (".../.../.../.../.../.../???/??? setup 0", "unknown"),
    ],
)
def test_bad_position_text_is_refused_with_a_reason(text: str, words: str):
    with pytest.raises(PositionError, match=words):
        pos(text)


def test_dump_and_load_keep_the_history():
    state = play_sequence(RULES, pos(LOOP), LOOP_MOVES + LOOP_MOVES[:3])
    data = json.loads(json.dumps(RULES.dump(state)))
    assert occurrences(RULES, state, LOOP) == 2
    loaded = RULES.load(data)
    assert loaded == state
    # the history came along: five more plies make the third occurrence
    assert RULES.outcome(play_sequence(RULES, loaded, LOOP_MOVES[3:])) == Outcome.draw(2, "repetition")


def test_a_stored_game_with_a_bad_history_is_refused():
    with pytest.raises(PositionError):
        RULES.load({"position": OPEN, "record": "garbage", "last": None, "outcome": None})
    with pytest.raises(PositionError):
        RULES.load({"position": OPEN, "record": {OPEN: 1}, "last": None, "outcome": None})
    with pytest.raises(PositionError):
        RULES.record_of({OPEN: 0})


# -- the heuristic -------------------------------------------------------------------------------------


def test_the_heuristic_favours_the_seat_closer_to_crossing():
    state = pos(ALMOST_ACROSS)
    assert RULES.evaluate(state, 0) > 0.5 > RULES.evaluate(state, 1)
    assert RULES.evaluate(state, 0) + RULES.evaluate(state, 1) == pytest.approx(1.0)
    assert RULES.evaluate(pos("jcj/cjc/.../.../.../.../CJC/JCJ 0"), 0) == pytest.approx(0.5)
    won = RULES.play(state, 0, "c6-c8")
    assert (RULES.evaluate(won, 0), RULES.evaluate(won, 1)) == (1.0, 0.0)


# -- golden move counts ------------------------------------------------------------------------------

CASES = load_perft("karo-rampants-sauteurs.perft")


def test_the_perft_file_holds_enough_positions():
    assert len(CASES) >= 3 and all(set(case.counts) == {1, 2, 3} for case in CASES)


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_it_counts_the_golden_move_sequences(case):
    state = pos(case.position)
    assert RULES.format_position(state) == case.position
    assert {depth: perft(RULES, state, depth) for depth in case.counts} == case.counts
