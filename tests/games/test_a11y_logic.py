"""The table page's typed moves and clock warnings, under node (no browser).

Typed moves (static/js/table/typed.js): over positions of random games of the five
games, every legal move typed as written, in lower or upper case, with spaces around,
or in its words (as the move list says it, with or without the player's name) is
matched to that very move and no other; a move that is no move, or nothing, is matched
to none. Clock warnings (static/js/table/clock-warnings.js): said once under 30 s and
once under 10 s, only for a clock seen above the mark, again after time given back.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

from games import engines
from tests.conftest import require

RUNNER = Path(__file__).with_name("a11y_logic.mjs")
NAMES = ["Zoé", "Pomme (robot, easy)", "Ana"]
TABLES = [("drumlin", 2), ("rampants-sauteurs", 2), ("eclaircissement", 2), ("quatre-en-ligne", 2), ("drekki", 3)]


def run(tmp_path: Path, data: dict[str, Any]) -> dict[str, Any]:
    node = shutil.which("node")
    require(node is not None, "node is not installed (apt-get install nodejs)")
    source = tmp_path / "input.json"
    source.write_text(json.dumps(data))
    done = subprocess.run([node, str(RUNNER), str(source)], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def positions(game: str, seats: int, count: int = 6, seed: int = 5) -> list[dict[str, Any]]:
    """Cases from random games: the position before each of a few moves, seen by the seat to act."""
    rules = engines.get(game)
    rng = random.Random(seed)
    state = rules.new_game(seats, seed=seed)
    cases = []
    plies = 0
    while not rules.is_over(state) and len(cases) < count and plies < 400:
        seat = rng.choice(rules.to_act(state))
        legal = rules.legal_moves(state, seat)
        if plies % 5 == 0 or len(legal) > 1 and rng.random() < 0.1:
            cases.append({"game": game, "seat": seat, "names": NAMES[:seats], "view": rules.view(state, seat), "legal": legal})
        state = rules.play(state, seat, rng.choice(legal))
        plies += 1
    return cases


def test_every_legal_move_typed_in_notation_or_words_is_that_move(tmp_path):
    cases = [case for game, seats in TABLES for case in positions(game, seats)]
    out = run(tmp_path, {"typed": cases, "clocks": []})
    assert len(out["typed"]) == len(cases) >= 25
    for case, result in zip(cases, out["typed"], strict=True):
        lowered = [move.lower() for move in case["legal"]]
        words = [t["wordsText"] for t in result["tries"]]
        for t in result["tries"]:
            move = t["move"]
            assert t["exact"] == move, (case["game"], t)
            assert t["spaced"] == move, (case["game"], t)
            if lowered.count(move.lower()) == 1:  # no other move differs from it by case only
                assert t["lower"] == move and t["upper"] == move, (case["game"], t)
            if words.count(t["wordsText"]) == 1:  # two moves said alike are typed in notation
                assert t["words"] == move, (case["game"], t)
                assert t["short"] in (move, None), (case["game"], t)
            assert not t["wordsText"].startswith(move) or case["game"] == "drekki" or t["wordsText"] == move, t
        assert result["nonsense"] == {"move": None, "candidates": 0}, case["game"]
        assert result["empty"]["move"] is None, case["game"]


def test_clock_warnings_at_30_and_10_seconds_once_each(tmp_path):
    def at(*ms: float, running: int = 0, live: bool = True) -> list[Any]:
        return [[{"ms": value, "running": index == running} for index, value in enumerate(ms)], live]

    runs = [
        # Seat 0 runs down from a minute: 30 then 10, each once; seat 1's clock stands still.
        [at(60_000, 25_000), at(31_000, 25_000), at(29_900, 25_000), at(20_000, 25_000), at(9_000, 25_000),
         at(5_000, 25_000)],
        # A clock first seen under 30 s says nothing of 30, only of 10; a page asleep past both
        # marks says the lowest.
        [at(25_000, 60_000), at(9_000, 60_000), at(8_000, 60_000, running=1), at(8_000, 9_500, running=1)],
        # Time given back (an increment) arms the mark again; a game over says nothing.
        [at(31_000), at(29_000), at(35_000), at(29_500), at(40_000), at(20_000, live=False)],
        # A clock of 30 seconds a move: no warning at 30 at each move, only at 10.
        [at(30_000), at(25_000), at(9_900), at(30_000), at(29_000)],
    ]
    out = run(tmp_path, {"typed": [], "clocks": runs})["clocks"]
    said = [[[(w["seat"], w["seconds"]) for w in step] for step in steps] for steps in out]
    assert said[0] == [[], [], [(0, 30)], [], [(0, 10)], []]
    assert said[1] == [[], [(0, 10)], [], [(1, 10)]]
    assert said[2] == [[], [(0, 30)], [], [(0, 30)], [], []]
    assert said[3] == [[], [], [(0, 10)], [], []]


def test_the_position_read_aloud_names_the_squares_taken_and_says_an_empty_board_is_empty(tmp_path):
    """Alt+P's words (positionWords): the squares taken with what stands there; a board
    with none taken is said to be empty (a first move's board, not "not there yet"); no
    board at all gives nothing (the page then says the board is not there yet)."""
    empty = {"squares": [{"square": "a1"}, {"square": "b1"}]}
    taken = {"squares": [{"square": "a1", "owner": 0, "label": "a1, pion rouge"}, {"square": "b1"},
                         {"square": "c1", "piece": True}]}
    drekki = {"dk": {"status": "Manche 2", "hand": "Votre main : 3 cartes", "seats": "Zoé, Max"}}
    out = run(tmp_path, {"typed": [], "clocks": [], "position": [empty, taken, drekki, None]})["position"]
    assert out[0] == "No square is taken: the board is empty."
    assert out[1] == "2 squares taken: a1, pion rouge; c1."
    assert out[2] == "Manche 2 Votre main : 3 cartes Zoé, Max"
    assert out[3] == ""
