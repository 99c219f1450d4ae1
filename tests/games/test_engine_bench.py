"""bench/engines.py in a tiny configuration, so that its machinery cannot rot.

No timing is asserted: only that every engine and python-chess run through the
alternated slices, that the workloads count what they say, and that the table
names every row.
"""

from __future__ import annotations

import random
from pathlib import Path

import chess
import pytest

from bench import engines as bench
from games import engines
from tests.conftest import require

pytestmark = pytest.mark.engine

PERFT_FILE = Path(__file__).parent / "perft" / "drumlin.perft"


def test_a_slice_stops_once_its_cpu_time_is_spent():
    nodes = bench.engine_playouts(engines.get("drumlin"), 2, seed=1, max_plies=50, tally=bench.Tally())
    count, spent = bench.run_slice(nodes, 0.001)
    assert count >= bench.CHECK_EVERY and count % bench.CHECK_EVERY == 0
    assert spent >= 0.001


def test_the_chess_tree_counts_every_move_played():
    # perft(1) + perft(2) from the start: 20 + 400 moves played.
    assert sum(1 for _ in bench._chess_tree(chess.Board(), 2)) == 420


def test_an_engine_tree_counts_every_move_played():
    rules = engines.get("drumlin")
    lines = PERFT_FILE.read_text(encoding="utf-8").splitlines()
    start = lines.index("name start")
    position = lines[start + 2].removeprefix("position ")
    counts = dict(line.split()[1:] for line in lines[start + 3 : start + 6])
    state = rules.parse_position(position)
    assert sum(1 for _ in bench._engine_tree(rules, state, 2)) == int(counts["1"]) + int(counts["2"])


def test_random_playouts_count_finished_and_cut_games():
    tally = bench.Tally()
    nodes = bench.engine_playouts(engines.get("drumlin"), 2, seed=3, max_plies=5, tally=tally)
    for _ in range(23):
        next(nodes)
    # 5 plies per game, each cut: the sixth ply starts the fifth game.
    assert (tally.games, tally.cut) == (0, 4)


def test_every_engine_and_chess_alternate_in_one_round(capsys):
    pairs = bench.make_pairs(engines.all(), bench.WORKLOADS, seed=7, max_plies=40)
    # Without the collections between slices: the test process's heap is large.
    bench.measure(pairs, rounds=1, seconds=0.001, warmup=0, collect=False)
    expected = {(r.slug, players) for r in engines.all() for players in bench.PLAYER_COUNTS.get(r.slug, (2,))}
    assert {(p.engine, p.players) for p in pairs if p.workload == "playouts"} == expected
    assert {p.engine for p in pairs if p.workload == "perft"} == set(engines.slugs()) - bench.NO_PERFT
    for pair in pairs:
        assert len(pair.engine_rates) == len(pair.chess_rates) == 1
        assert pair.engine_rates[0] > 0 and pair.chess_rates[0] > 0
    lines = bench.rows(pairs)
    text = bench.table(lines, markdown=True)
    assert text.count("\n") == len(pairs) + 1
    for pair in pairs:
        assert f"| {pair.engine} | {pair.players} | {pair.workload} |" in text


def test_the_engines_with_moves_in_c_run_again_with_their_python_moves_when_asked():
    from games.engines.drumlin import moves as drumlin_moves
    from games.engines.karo import quatre_en_ligne as quatre

    require(quatre.native is not None and drumlin_moves.native is not None, "the C move generators are not built")
    pairs = bench.make_pairs([engines.get("quatre-en-ligne")], ("playouts",), seed=7, max_plies=40, python_moves=True)
    assert [p.engine for p in pairs] == ["quatre-en-ligne", "quatre-en-ligne (Python moves)"]
    [(_, python)] = bench.with_python_moves([engines.get("quatre-en-ligne")])
    state, rng = python.new_game(2, seed=3), random.Random(5)
    for _ in range(40):  # into the movement phase, where the two generators differ
        state = python.play(state, state.turn, rng.choice(python.legal_moves(state, state.turn)))
    assert not state.placing
    again = quatre.RULES.parse_position(quatre.RULES.format_position(state))  # no memo of the moves
    assert python.legal_moves(state, state.turn) == quatre.RULES.legal_moves(again, again.turn)
    [(label, python)] = bench.with_python_moves([engines.get("drumlin")])
    assert label == "drumlin (Python moves)"
    state, rng = python.new_game(2), random.Random(5)
    for _ in range(30):
        seat = python.to_act(state)[0]
        state = python.play(state, seat, rng.choice(python.legal_moves(state, seat)))
    assert python.to_act(state) == (state.side,) and state.step == 0  # an ordinary turn, its moves in Python
    again = engines.get("drumlin").parse_position(engines.get("drumlin").format_position(state))
    assert python.legal_moves(state, state.side) == engines.get("drumlin").legal_moves(again, again.side)
    assert bench.with_python_moves([engines.get("drekki")]) == []


def test_the_command_line_prints_a_table_and_refuses_nonsense(capsys):
    argv = ["--rounds", "1", "--slice", "0.001", "--engine", "drumlin", "--workload", "perft"]
    assert bench.main(argv) == 0
    out = capsys.readouterr().out
    assert "python-chess" in out and "drumlin" in out and "perft" in out
    with pytest.raises(SystemExit):
        bench.main(["--rounds", "0"])
    with pytest.raises(KeyError, match="no game engine"):
        bench.main(["--rounds", "1", "--slice", "0.001", "--engine", "nope"])
