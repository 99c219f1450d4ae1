"""Drumlin position text, dump/load, views and the protocol around the rules."""

from __future__ import annotations

import json
import math
import pkgutil
import random

import pytest

from games import engines
from games.engines.base import OptionError, PositionError
from games.engines.drumlin import RULES

VIOLET, PINK = 0, 1
START = "e1e1e1e1/8/1e1e1e1e/8/e1e1e1e1/1E1E1E1E/8/E1E1E1E1/8/1E1E1E1E p place std -"
MIDGAME = "2eE2D1/8/4(Eo)3/8/8/8/1(EE)6/4E3/d7/E6e v - std -"


def play(state, *moves: str):
    for move in moves:
        (seat,) = RULES.to_act(state)
        state = RULES.play(state, seat, move)
    return state


class TestPositionText:
    @pytest.mark.parametrize(
        "text",
        [
            START,
            MIDGAME,
            "e7/8/3(DEd)1E2/8/2E5/8/2E5/7e/6e1/1E6 v place std -",
            "3(Ee)2(OE)1/8/4(DEe)3/8/8/8/1D6/8/3d4/E6e v chain std -",
            "2D5/8/8/8/8/8/8/8/8/E6e v won std -",
            "6(DD)(Dde)/7(DD)/8/8/8/3e*3/8/8/(DD)7/(Dde)(DD)5E p - clou -",
            "7e/8/8/8/8/3*4/8/8/8/E7 v - std 7e/8/8/8/8/3*4/8/8/8/E7;7e/8/8/8/8/3*4/8/8/E7/8;"
            "8/7e/8/8/8/3*4/8/8/E7/8;8/7e/8/8/8/3*4/8/8/8/E7",
        ],
    )
    def test_it_reads_and_writes_the_same_text(self, text):
        assert RULES.format_position(RULES.parse_position(text)) == text

    def test_the_history_sets_the_seat_to_move_of_each_earlier_position(self):
        text = "7e/8/8/8/8/3*4/8/8/8/E7 v - std 7e/8/8/8/8/3*4/8/8/E7/8;8/7e/8/8/8/3*4/8/8/E7/8"
        state = RULES.parse_position(text)
        # oldest first; the last entry had pink to move, the one before violet
        assert [seat for seat, _ in state.seen] == [VIOLET, PINK, VIOLET]
        assert state.seen[-1] == (VIOLET, state.board)

    @pytest.mark.parametrize(
        ("text", "reason"),
        [
            ("", "5 fields"),
            (MIDGAME + " extra", "5 fields"),
            ("8/8/8 v - std -", "10 ranks"),
            ("2eE2D1/8/4(Eo)3/8/8/8/1(EE)6/4E4/d7/E6e v - std -", "rank 3 has 9 squares"),
            ("2eE2D1/8/4(Eo)3/8/8/8/1(EE)6/4E2/d7/E6e v - std -", "rank 3 has 7 squares"),
            ("2eX2D1/8/8/8/8/8/8/8/8/E6e v - std -", "unknown letter"),
            ("2e(eE)1D2/8/8/8/8/8/8/8/8/E6e v - std -", r"violet then pink, egg, dragons, elephants: \(Ee\)"),
            ("2e(E)2D2/8/8/8/8/8/8/8/8/E6e v - std -", "without brackets"),
            ("2e(Ee3D2/8/8/8/8/8/8/8/8/E6e v - std -", "never closed"),
            ("2e32D2/8/8/8/8/8/8/8/8/E6e v - std -", "one digit"),
            ("2e0E4D1/8/8/8/8/8/8/8/8/E6e v - std -", "count of empty squares"),
            ("2O5/8/8/8/8/8/8/8/8/E5*e v - std -", "only one Drumlin"),
            ("2(Oo)5/8/8/8/8/8/8/8/8/E6e v - std -", "at most one egg"),
            ("2(ODE)5/8/8/8/8/8/8/8/8/E6e v - std -", "an egg's square is worth 3 at most"),
            ("2(EEEEE)5/8/8/8/8/8/8/8/8/E5*e v - std -", "worth 5 without a dragon"),
            ("2(DDE)5/8/8/8/8/8/8/8/8/E5*e v - std -", None),
            ("(DD)(EEEE)(EEEE)(EEE)4/8/8/8/8/8/8/8/8/E5*e v - std -", "violet has 14 pieces"),
            ("2O5/8/8/8/8/8/8/8/8/E6e w - std -", "'v' \\(violet\\) or 'p' \\(pink\\)"),
            ("2O5/8/8/8/8/8/8/8/8/E6e v move std -", "the step is one of"),
            ("2O5/8/8/8/8/8/8/8/8/E6e v - fx -", "'std' or 'clou'"),
            ("8/8/8/8/8/8/8/8/8/E6e v place std 8/8/8/8/8/8/8/8/8/E6e", "has no history"),
            ("2O5/8/8/8/8/8/8/8/8/E6e v place std -", "already on c10"),
            ("8/8/8/8/8/8/8/8/8/E6e v - std -", "not on the board"),
            ("2D5/8/8/8/8/8/8/8/8/E5*e v won std -", "not on a base line"),
            ("1(OE)6/8/8/8/8/8/8/8/8/E6e v chain clou -", "no chained departure"),
            ("8/1(OE)6/8/8/8/8/8/8/8/E6e v chain std -", "egg of violet on rank 10"),
            ("8/8/8/8/8/8/8/8/8/D6e v place std -", "the game is over"),
            ("2O5/8/8/8/8/8/8/8/8/E6e v - std 8/8/8", "history entry 1"),
            (
                "7e/8/8/8/8/3*4/8/8/8/E7 v - std "
                "7e/8/8/8/8/3*4/8/8/8/E7;8/8/8/8/8/3*4/8/8/8/E6e;7e/8/8/8/8/3*4/8/8/8/E7;"
                "8/8/8/8/8/3*4/8/8/8/E6e;7e/8/8/8/8/3*4/8/8/8/E7;8/8/8/8/8/3*4/8/8/8/E6e",
                "three times",
            ),
        ],
    )
    def test_it_refuses_a_bad_position_with_a_reason(self, text, reason):
        if reason is None:
            # a 5 with a dragon is a legal board (right after a forced departure)
            assert RULES.format_position(RULES.parse_position(text)) == text
            return
        with pytest.raises(PositionError, match=reason):
            RULES.parse_position(text)


class TestStorage:
    def test_dump_and_load_round_trip_exactly_with_the_last_move(self):
        state = play(RULES.parse_position(MIDGAME), "Ee3-e8", "Ec10-d10")
        data = RULES.dump(state)
        assert json.loads(json.dumps(data)) == data
        assert data["last_move"] == "Ec10-d10"
        loaded = RULES.load(data)
        assert loaded == state
        assert RULES.legal_moves(loaded, VIOLET) == RULES.legal_moves(state, VIOLET)

    @pytest.mark.parametrize(
        "data",
        [{}, {"position": 3}, {"position": MIDGAME, "last_move": 4}, {"position": "nonsense"}],
    )
    def test_load_refuses_bad_data(self, data):
        with pytest.raises(PositionError):
            RULES.load(data)

    def test_the_seed_changes_nothing(self):
        assert RULES.dump(RULES.new_game(2, seed=1)) == RULES.dump(RULES.new_game(2, seed=99))


class TestViews:
    def test_a_view_shows_the_board_the_turn_and_the_moves_of_the_seat_to_act(self):
        state = RULES.parse_position("e7/8/3(DEd)1E2/8/2E5/8/2E5/7e/6e1/1E6 v place std -")
        view = RULES.view(state, VIOLET)
        assert json.loads(json.dumps(view)) == view
        assert view["to_act"] == [VIOLET]
        assert view["step"] == "place"
        assert view["position"] == RULES.format_position(state)
        assert view["legal_moves"] == RULES.legal_moves(state, VIOLET)
        d8 = view["board"]["squares"]["d8"]
        assert d8["value"] == 5 and d8["five"] is True
        assert d8["stack"] == [
            {"seat": 0, "kind": "dragon"},
            {"seat": 0, "kind": "elephant"},
            {"seat": 1, "kind": "dragon"},
        ]
        assert view["board"]["fives"] == ["d8"]
        assert view["board"]["drumlin"] is None
        assert "seed" not in json.dumps(view)

    def test_a_seat_not_to_act_and_a_spectator_get_no_moves(self):
        state = RULES.parse_position(MIDGAME)
        assert RULES.view(state, PINK)["legal_moves"] == []
        assert RULES.view(state, None)["legal_moves"] == []

    def test_the_lone_drumlin_and_the_egg_are_marked(self):
        state = RULES.parse_position("e1*5/8/3(DEd)1E2/8/2E5/8/2E5/7e/6e1/1E6 p - std -")
        board = RULES.view(state, None)["board"]
        assert board["drumlin"] == "c10" and board["squares"]["c10"]["lone_drumlin"] is True
        egg = RULES.view(RULES.parse_position(MIDGAME), None)["board"]
        assert egg["drumlin"] == "e8" and egg["squares"]["e8"]["lone_drumlin"] is False

    def test_a_finished_game_shows_its_outcome(self):
        state = play(RULES.parse_position("2O5/8/8/8/8/8/8/8/8/E6e v - std -"), "Oc10-base")
        view = RULES.view(state, PINK)
        assert view["outcome"] == {"winners": [0], "scores": [1.0, 0.0], "reason": "base-line"}
        assert view["to_act"] == [] and view["last_move"] == "Oc10-base"

    @pytest.mark.parametrize("seat", [VIOLET, PINK, None])
    def test_state_from_view_rebuilds_the_exact_state(self, seat):
        state = play(RULES.parse_position("7e/8/8/8/8/3*4/8/8/8/E7 v - std -"), "Ea1-a2", "Eh10-h9", "Ea2-a1")
        view = RULES.view(state, seat)
        rebuilt = RULES.state_from_view(view, seat, random.Random(0))
        assert rebuilt == state
        assert RULES.view(rebuilt, seat) == view


class TestProtocol:
    def test_it_is_found_by_the_registry_under_its_slug(self):
        # The registry imports every module under games/engines that defines RULES;
        # checking the module is found keeps this test independent of other engines.
        found = {info.name for info in pkgutil.iter_modules(engines.__path__)}
        assert "drumlin" in found
        assert RULES.slug == "drumlin"
        assert RULES.describe()["max_players"] == 2

    def test_it_is_played_by_two(self):
        with pytest.raises(OptionError):
            RULES.new_game(3)

    def test_it_refuses_unknown_or_bad_options(self):
        with pytest.raises(OptionError):
            RULES.new_game(2, options={"fast": True})
        with pytest.raises(OptionError):
            RULES.new_game(2, options={"clou_1986": "yes"})

    def test_running_out_of_time_loses(self):
        assert RULES.timeout_move(RULES.new_game(2), PINK) is None


class TestEvaluate:
    @pytest.mark.parametrize(
        "text",
        [START, MIDGAME, "3(Ee)2(OE)1/8/4(DEe)3/8/8/8/1D6/8/3d4/E6e v chain std -"],
    )
    def test_it_stays_between_0_and_1_and_the_two_seats_add_up_to_1(self, text):
        state = RULES.parse_position(text)
        values = [RULES.evaluate(state, seat) for seat in (VIOLET, PINK)]
        assert all(0.0 <= v <= 1.0 for v in values)
        assert values[0] + values[1] == pytest.approx(1.0)

    def test_it_favours_the_holder_of_an_egg_about_to_reach_the_base_line(self):
        threat = RULES.parse_position("2(OEe)5/8/3(DE)dE2/8/8/8/8/7e/6e1/1E6 v - std -")
        assert RULES.evaluate(threat, VIOLET) > 0.75

    def test_it_favours_the_side_with_more_elephants(self):
        state = RULES.parse_position("7e/8/8/8/8/3*4/8/8/E7/(EE)7 v - std -")
        assert RULES.evaluate(state, VIOLET) > 0.5 > RULES.evaluate(state, PINK)

    def test_each_elephant_is_worth_more_as_the_herd_shrinks(self):
        # Two of violet's elephants turned into dragons (what two departures of
        # violet's eggs do), nothing else changed, pink to place the Drumlin: from
        # a herd of six it costs half as much again as from a full herd of twelve,
        # since the herd that runs out of elephants first loses.
        def cost(before, after):
            values = [RULES.evaluate(RULES.parse_position(text), VIOLET) for text in (before, after)]
            return math.log(values[0] / (1 - values[0])) - math.log(values[1] / (1 - values[1]))

        full = cost(START, START.replace("1E1E1E1E p", "1D1D1E1E p"))
        six = "e1e1e1e1/8/1e1e4/8/8/8/8/E1E5/8/1E1E1E1E p place std -"
        small = cost(six, six.replace("1E1E1E1E p", "1D1D1E1E p"))
        assert 0 < full and small > 1.5 * full

    def test_a_finished_game_is_worth_its_result(self):
        won = play(RULES.parse_position("2O5/8/8/8/8/8/8/8/8/E6e v - std -"), "Oc10-base")
        assert RULES.evaluate(won, VIOLET) == 1.0 and RULES.evaluate(won, PINK) == 0.0
