"""Drekki positions in text and JSON: exact round trips, and clear refusals."""

from __future__ import annotations

import json
import random

import pytest

from games.engines.base import PositionError
from games.engines.drekki import RULES
from games.engines.drekki.rules import MOVES

EXAMPLE = """drekki players=4 countdown=15 seed=7
phase bidding
facing 0
horde 2-1 3-1 3-2 3-5 3-3 4-5 4-4 4-7 4-6 5-1
chosen 3 2 5 5
hands 04 13 13 04
auction high=6 leader=1 out=2 turn=3
tiles 2-5 - - 2-2
markers - - - -
tears 1 - - -
dropped 2-7
round 2-7 facing=1 cards=5441 leader=0 bid=12 colour=black stops=0
round 2-2 facing=0 cards=1503 leader=3 bid=11 colour=- stops=3
round 2-5 facing=3 cards=2022 leader=0 bid=8 colour=- stops=0"""

DUEL = """drekki players=2 countdown=30 seed="la gîte"
phase cards
facing 0
horde 2-6 2-5 2-8 3-4 3-8 3-2 3-5 4-6 4-2 4-8 4-7 5-1
chosen 0 - - -
piles 421 23045 402 0314
shown 3 1 1 2
hidden 5 - - 5
offers - - 35 -
tearpool 1,1,1,1,1,1,1,1,1,1,1,1
auction high=- leader=- out=- turn=-
tiles - - - -
markers - - - -
tears 1 -
dropped 2-3
round 2-3 facing=3 cards=3112 leader=0 bid=7 colour=red stops=0"""


def random_states(players: int, seed: int):
    rng = random.Random(seed)
    state = RULES.new_game(players, seed=seed)
    yield state
    while not RULES.is_over(state):
        seat = rng.choice(RULES.to_act(state))
        moves = RULES.legal_moves(state, seat)
        move = "withdraw" if "withdraw" in moves and rng.random() < 0.5 else rng.choice(moves[:5])
        state = RULES.play(state, seat, move)
        yield state


def test_the_documented_example_round_trips_exactly():
    for text in (EXAMPLE, DUEL):
        state = RULES.parse_position(text)
        assert RULES.format_position(state) == text
        assert RULES.load(json.loads(json.dumps(RULES.dump(state)))) == state


def test_the_example_reads_as_expected():
    state = RULES.parse_position(EXAMPLE)
    assert RULES.to_act(state) == (3,)
    assert RULES.legal_moves(state, 3)[:2] == ["bid 7", "bid 8"]
    view = RULES.view(state, None)
    # Each seat sees its own score; tear values (and so scores) are hidden from the others.
    assert [RULES.view(state, seat)["seats"][seat]["score"] for seat in range(4)] == [2 - 1, 0, 0, 2]
    assert [s["score"] for s in view["seats"]] == [None] * 4
    assert [h["charm"] for h in view["history"]] == ["held", "broken", "broken"]
    assert view["mages"][2]["holding"] == [1, 3, 5]
    duel = RULES.parse_position(DUEL)
    assert RULES.to_act(duel) == (0, 1)
    assert RULES.legal_moves(duel, 0) == ["keep 3", "keep 5"]
    assert RULES.legal_moves(duel, 1) == ["top B1", "top B2"]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_position_of_random_games_round_trips(players):
    for seed in range(4):
        for state in random_states(players, seed):
            text = RULES.format_position(state)
            again = RULES.parse_position(text)
            assert again == state
            assert RULES.format_position(again) == text
            data = json.loads(json.dumps(RULES.dump(state)))
            assert RULES.load(data) == state
            assert RULES.dump(RULES.load(data)) == data


@pytest.mark.parametrize("players", [2, 4, 6])
def test_every_legal_move_is_a_known_notation_that_play_accepts(players):
    for state in random_states(players, 11):
        for seat in RULES.to_act(state):
            for move in RULES.legal_moves(state, seat):
                assert move in MOVES
                RULES.play(state, seat, move)


def replace_line(text: str, key: str, new: str) -> str:
    lines = text.split("\n")
    at = next(k for k, line in enumerate(lines) if line.split(" ")[0] == key)
    lines[at] = new
    return "\n".join(lines)


@pytest.mark.parametrize(
    "key, line, reason",
    [
        ("horde", "horde 2-1 3-1 3-2 3-5 3-3 4-5 4-4 4-7 4-6 9-9", "unknown dragon tile '9-9'"),
        ("horde", "horde 2-1 3-1 3-2 3-5 3-3 4-5 4-4 4-7 4-6 5-1 5-2", "must add up to 13"),
        ("horde", "horde 3-4 3-1 3-2 3-5 3-3 4-5 4-4 4-7 4-6 5-1", "out of the horde's rising order"),
        ("dropped", "dropped 2-5", "a dragon tile appears twice"),
        ("hands", "hands 04 13 13", "needs 4 entries, not 3"),
        ("hands", "hands 034 13 13 04", "chosen card 3 still in hand"),
        ("hands", "hands 40 13 13 04", "distinct cards in rising order"),
        ("chosen", "chosen 3 2 5 7", "a chosen card must be a whole number from 0 to 5"),
        ("phase", "phase dusk", "unknown phase 'dusk'"),
        ("auction", "auction high=6 leader=1 turn=3", "the auction line must read"),
        ("auction", "auction high=6 leader=9 out=2 turn=3", "the auction leader must be"),
        ("drekki", "drekki players=4 countdown=2 seed=7", "countdown must be a whole number from 5 to 120"),
        ("drekki", "drekki players=4 countdown=15 seed=[1]", "the seed must be"),
        ("drekki", "drekki players=9 countdown=15 seed=7", "players must be from 2 to 6"),
        ("round", "round 2-7 facing=1 cards=5441 leader=0 bid=12 colour=pink stops=0", "unknown colour 'pink'"),
    ],
)
def test_a_bad_position_is_refused_with_its_reason(key, line, reason):
    with pytest.raises(PositionError, match=reason):
        RULES.parse_position(replace_line(EXAMPLE, key, line))


def test_a_duel_position_must_account_for_every_card_once():
    with pytest.raises(PositionError, match="mage A2 does not hold each of its six cards exactly once"):
        RULES.parse_position(replace_line(DUEL, "piles", "piles 421 23045 4021 0314"))
    with pytest.raises(PositionError, match="tear tokens taken and left do not add up"):
        RULES.parse_position(replace_line(DUEL, "tearpool", "tearpool 1,1"))


def test_a_missing_line_or_a_foreign_object_is_refused():
    with pytest.raises(PositionError, match="should be the 'facing' line"):
        RULES.parse_position(EXAMPLE.replace("facing 0\n", ""))
    with pytest.raises(PositionError, match="ends before its 'dropped' line"):
        RULES.parse_position("\n".join(EXAMPLE.split("\n")[:10]))
    with pytest.raises(PositionError, match="not a Drekki position"):
        RULES.load({"game": "drumlin"})
    with pytest.raises(PositionError, match="has no 'phase'"):
        RULES.load({"game": "drekki", "players": 3, "seed": 1, "countdown": 15})
