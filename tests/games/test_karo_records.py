"""The Karo games' record of positions: exact, of bounded cost, out of the views, converted.

The record (games/engines/karo/record.py) is what the repetition rule reads.
These tests hold it to four promises: a game saved and loaded after every move
(as the server does) plays exactly as one never saved, repetition included;
a save grows only by one short code per recorded position, and a view not at
all; and a stored record that is not one is refused. (The migration of the
older stored form: tests/games/test_migration_karo_records.py.)
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from games import engines
from games.engines.base import Outcome, PositionError, play_sequence
from games.engines.karo.common import KaroRules
from tests.games.karo_records import codes, lasting_move, long_game, occurrences, recorded, seat_to_act

KARO = [engines.get(slug) for slug in ("rampants-sauteurs", "eclaircissement", "quatre-en-ligne")]
QUATRE = engines.get("quatre-en-ligne")


def reloaded(rules: KaroRules, state: Any) -> Any:
    """``state`` saved and read back as the server does: dump, JSON text, load."""
    return rules.load(json.loads(json.dumps(rules.dump(state))))


# -- saved and loaded at every move, a game plays exactly the same --------------------------------------


@pytest.mark.parametrize("rules", KARO, ids=lambda r: r.slug)
def test_a_game_reloaded_after_every_move_plays_as_one_never_saved(rules: KaroRules):
    rng = random.Random(7)
    straight = rules.new_game(2, seed=7)
    stored = reloaded(rules, straight)
    for _ply in range(300):
        if rules.outcome(straight) is not None:
            break
        seat = seat_to_act(rules, straight, rng)
        # Half the time any move, so that games also end (by repetition among others).
        move = rng.choice(rules.legal_moves(straight, seat)) if rng.random() < 0.5 else \
            lasting_move(rules, straight, seat, rng)
        straight = rules.play(straight, seat, move)
        stored = reloaded(rules, rules.play(stored, seat, move))
        assert rules.dump(stored) == rules.dump(straight)
        assert stored == straight and rules.outcome(stored) == rules.outcome(straight)


def test_quatre_en_ligne_repetition_up_to_a_shift_is_found_across_reloads():
    # The ROW board moved one place right by twelve plies, twice: the third time
    # the (shifted) position comes back is a draw, whether or not it was reloaded between.
    row = "0,0 ........pPpPpPpPpPpP 0"

    def shift(dx: int) -> list[tuple[int, str]]:
        plies = [(0, f"{dx},0>{20 + dx},0:{19 + dx},0>{20 + dx},0")]
        plies += [(k % 2, f"{19 + dx - k},0>{20 + dx - k},0") for k in range(1, 12)]
        return plies

    state = QUATRE.parse_position(row)
    for seat, move in shift(0):
        state = reloaded(QUATRE, QUATRE.play(state, seat, move))
    assert QUATRE.format_position(state) == "1,0 ........pPpPpPpPpPpP 0"
    assert occurrences(QUATRE, state, row) == 2 and QUATRE.outcome(state) is None
    for seat, move in shift(1)[:-1]:
        state = reloaded(QUATRE, QUATRE.play(state, seat, move))
        assert QUATRE.outcome(state) is None
    assert QUATRE.outcome(QUATRE.play(state, *shift(1)[-1])) == Outcome.draw(2, "repetition")


def test_eclaircissement_repetition_survives_a_reload_and_a_lighting_clears_it():
    rules = engines.get("eclaircissement")
    roomy = "...dd/.D.dd/...dd/DDDdd/DDDD. 0"
    shuffle = [(0, "b4-a4"), (1, "d5-c5"), (0, "a4-b4"), (1, "c5-d5")]
    twice = reloaded(rules, play_sequence(rules, rules.parse_position(roomy), shuffle))
    assert occurrences(rules, twice, roomy) == 2
    state = reloaded(rules, play_sequence(rules, twice, shuffle[:3]))
    assert rules.outcome(rules.play(state, *shuffle[3])) == Outcome.draw(2, "repetition")
    lit = reloaded(rules, rules.play(twice, 0, "b4-c3"))  # onto the centre: lit for good
    assert rules.dump(lit)["record"] == rules.record_of({"...dd/...dd/..Ldd/DDDdd/DDDD. 1": 1})


# -- sizes ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", KARO, ids=lambda r: r.slug)
def test_a_save_grows_by_one_code_per_recorded_position_and_a_view_not_at_all(rules: KaroRules):
    states = long_game(rules, 600, seed=3)
    assert len(states) > 600, "the game should last (only lasting moves were played)"
    step = rules._code_width + 1
    for ply in (60, 300, 600):
        state = states[ply]
        data = rules.dump(state)
        count = sum(recorded(rules, state).values())
        assert len(data["record"]) == count * step - 1
        # Besides the record, a save holds one position (at most 20 x 20 places) and the last move.
        assert len(json.dumps({**data, "record": ""})) < 600
        # A view carries no record at all: its size does not grow with the game
        # (a seat's view lists its legal moves, which come and go with the position).
        for seat in (None, 0, 1):
            assert "record" not in rules.view(state, seat) and "seen" not in rules.view(state, seat)
        assert len(json.dumps(rules.view(state, None))) <= len(json.dumps(rules.view(states[60], None))) + 600


def test_the_record_starts_afresh_after_a_move_no_later_move_can_undo():
    rules = engines.get("rampants-sauteurs")
    state = rules.new_game(2, seed=1)
    assert rules.dump(state)["record"] == ""  # the secret setup: nothing recorded yet
    state = rules.play(rules.play(state, 0, "JCJ/CJC"), 1, "JCJ/CJC")
    assert recorded(rules, state) == codes(rules, {rules.format_position(state): 1})
    placing = QUATRE.new_game(2, seed=1, options={"first_player": "0"})
    placed = QUATRE.play(placing, 0, "2,1")
    assert recorded(QUATRE, placed) == codes(QUATRE, {QUATRE.format_position(placed): 1})


# -- a stored record is checked -------------------------------------------------------------------------


@pytest.mark.parametrize("rules", KARO, ids=lambda r: r.slug)
def test_a_stored_record_that_is_not_one_is_refused(rules: KaroRules):
    state = long_game(rules, 30, seed=5)[-1]
    good = json.loads(json.dumps(rules.dump(state)))
    code = good["record"].split(" ")[-1]
    for bad in (
        None, 3, ["x"], {code: 1},
        code[:-1], code + "A", " " + code, code + " ", f"{code}  {code}", f"{code},{code}",
        code[:-1] + "=", code[:-1] + "é", code[:-1] + "\n",
    ):
        with pytest.raises(PositionError):
            rules.load({**good, "record": bad})
    without = dict(good)
    del without["record"]
    with pytest.raises(PositionError, match="record"):
        rules.load(without)
    assert rules.dump(rules.load(good)) == good


def test_codes_tell_every_position_apart_and_a_shift_of_the_whole_board_is_none():
    # Every distinct position of a few long games has its own code, and only one.
    for rules in KARO:
        by_code: dict[str, str] = {}
        for state in long_game(rules, 400, seed=11):
            if rules._between_turns(state):
                text = rules.format_position(state)
                if rules.slug == "quatre-en-ligne":
                    text = QUATRE.format_position(QUATRE.parse_position("0,0 " + text.split(" ", 1)[1]))
                code = rules.record_of({text: 1})
                assert len(code) == rules._code_width
                assert by_code.setdefault(code, text) == text
        assert len(by_code) > 100
