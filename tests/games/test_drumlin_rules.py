"""Drumlin rules, each test built from a position in the engine's text notation.

Reading a board text: ranks 10 down to 1, files a to h; E D O are violet's
elephant, dragon and egg (seat 0), e d o pink's (seat 1), * the lone Drumlin,
(...) a stack, digits count empty squares. See docs/notation.md.
"""

from __future__ import annotations

import pytest

from games.engines.base import IllegalMove
from games.engines.drumlin import RULES
from games.engines.drumlin.board import SQUARE_INDEX, STACK_TEXT

VIOLET, PINK = 0, 1


def pos(text: str):
    return RULES.parse_position(text)


def at(state, square: str) -> str:
    """What stands on a square, as in the board text; '.' when empty."""
    return STACK_TEXT[state.board[SQUARE_INDEX[square]]] or "."


def play(state, *moves: str):
    """Play moves in order, each by the seat that is to act."""
    for move in moves:
        (seat,) = RULES.to_act(state)
        state = RULES.play(state, seat, move)
    return state


def legal(state) -> set[str]:
    return set(RULES.legal_moves(state, state.side))


def targets(state, prefix: str) -> set[str]:
    """Destination squares of the legal moves that start with ``prefix`` (like 'Ec3-')."""
    return {m[len(prefix) :] for m in legal(state) if m.startswith(prefix)}


def file_squares(file: str, ranks) -> set[str]:
    return {f"{file}{r}" for r in ranks}


def rank_squares(files: str, rank: int) -> set[str]:
    return {f"{f}{rank}" for f in files}


# -- the start -------------------------------------------------------------------------------


class TestStart:
    def test_it_starts_with_pink_placing_the_drumlin(self):
        state = RULES.new_game(2, seed=3)
        assert RULES.format_position(state) == (
            "e1e1e1e1/8/1e1e1e1e/8/e1e1e1e1/1E1E1E1E/8/E1E1E1E1/8/1E1E1E1E p place std -"
        )
        assert RULES.to_act(state) == (PINK,)
        assert RULES.legal_moves(state, VIOLET) == []
        moves = legal(state)
        assert len(moves) == 80 - 24
        assert {"*a1", "*b10", "*e4"} <= moves  # either first row is allowed
        assert "*b1" not in moves

    def test_it_hands_the_first_turn_to_violet_after_the_placement(self):
        state = play(RULES.new_game(2), "*e4")
        assert RULES.to_act(state) == (VIOLET,)
        assert at(state, "e4") == "*"
        assert len(legal(state)) == 103  # counted by hand in the perft file

    def test_it_refuses_a_placement_on_a_piece(self):
        with pytest.raises(IllegalMove, match="empty square, and b1 holds a violet elephant"):
            play(RULES.new_game(2), "*b1")

    def test_it_refuses_a_move_before_the_placement(self):
        with pytest.raises(IllegalMove, match="must first place the Drumlin"):
            play(RULES.new_game(2), "Eb8-b7")


# -- elephants ---------------------------------------------------------------------------------


class TestElephant:
    def test_it_stops_at_the_first_square_with_pieces_and_may_end_there(self):
        state = pos("e7/8/8/8/2e5/8/8/2E1E3/8/7* v - std -")
        assert targets(state, "Ec3-") == {"c4", "c5", "c6", "c2", "c1", "b3", "a3", "d3", "e3"}

    def test_it_may_end_on_an_own_piece_and_shares_the_square(self):
        state = play(pos("e7/8/8/8/2e5/8/8/2E1E3/8/7* v - std -"), "Ec3-e3")
        assert at(state, "e3") == "(EE)"
        assert at(state, "c3") == "."

    def test_it_crosses_the_lone_drumlin(self):
        state = pos("e7/8/8/8/8/2*5/8/2E5/8/8 v - std -")
        assert file_squares("c", range(4, 11)) <= targets(state, "Ec3-")
        after = play(state, "Ec3-c8")
        assert at(after, "c5") == "*"
        assert at(after, "c8") == "E"

    def test_it_picks_up_the_lone_drumlin_and_becomes_an_egg(self):
        state = play(pos("e7/8/8/8/8/2*5/8/2E5/8/8 v - std -"), "Ec3-c5")
        assert at(state, "c5") == "O"
        assert RULES.outcome(state) is None

    def test_the_rule_of_4_stops_it_before_a_full_square(self):
        state = pos("e7/8/8/8/2(dd)2(De)2/8/8/2E2E2/8/7* v - std -")
        up_c = targets(state, "Ec3-") & file_squares("c", range(4, 11))
        assert up_c == {"c4", "c5"}  # c6 is worth 4
        assert "f6" in targets(state, "Ef3-")  # f6 is worth 3: an elephant makes it 4
        with pytest.raises(IllegalMove, match="c6 is worth 4 and the elephant would bring it to 5"):
            play(state, "Ec3-c6")
        with pytest.raises(IllegalMove, match="cannot pass a stack of 2 pieces on c6"):
            play(state, "Ec3-c7")

    def test_it_moves_only_along_files_and_ranks(self):
        state = pos("e7/8/8/8/2e5/8/8/2E1E3/8/7* v - std -")
        with pytest.raises(IllegalMove, match="not a Drumlin move"):
            play(state, "Ec3-d4")


# -- dragons -----------------------------------------------------------------------------------


class TestDragon:
    OVER_EGG = "7e/8/8/8/8/O7/8/e7/8/D6E v - std -"  # a3 pink elephant, a5 violet egg
    OVER_DRUMLIN = "7e/8/8/*7/8/8/8/e7/8/D6E v - std -"  # a3 pink elephant, a7 lone Drumlin

    def test_it_flies_over_a_lone_elephant_and_an_egg(self):
        up = targets(pos(self.OVER_EGG), "Da1-") & file_squares("a", range(2, 11))
        assert up == file_squares("a", range(2, 11))

    def test_it_flies_over_the_lone_drumlin_but_never_lands_on_it(self):
        up = targets(pos(self.OVER_DRUMLIN), "Da1-") & file_squares("a", range(2, 11))
        assert up == file_squares("a", range(2, 11)) - {"a7"}
        with pytest.raises(IllegalMove, match="may not land on the lone Drumlin on a7"):
            play(pos(self.OVER_DRUMLIN), "Da1-a7")

    def test_it_may_land_on_an_egg_square(self):
        state = play(pos(self.OVER_EGG), "Da1-a5")
        assert at(state, "a5") == "(OD)"  # worth 3: no forced departure
        assert RULES.to_act(state) == (PINK,)

    def test_it_may_land_on_a_lone_elephant_of_either_herd(self):
        state = pos(self.OVER_EGG)
        assert {"a3", "h1"} <= targets(state, "Da1-")
        assert at(play(state, "Da1-a3"), "a3") == "(De)"

    def test_it_cannot_fly_over_two_pieces_or_a_dragon_but_may_end_there(self):
        state = pos("*6e/8/8/8/8/8/2(EE)2d2/8/8/2D2D2 v - std -")
        assert targets(state, "Dc1-") & file_squares("c", range(2, 11)) == {"c2", "c3", "c4"}
        assert targets(state, "Df1-") & file_squares("f", range(2, 11)) == {"f2", "f3", "f4"}
        with pytest.raises(IllegalMove, match="cannot fly over two or more pieces on c4"):
            play(pos("*6e/8/8/8/8/8/2(EE)2d2/8/8/2D2D2 v - std -"), "Dc1-c6")
        with pytest.raises(IllegalMove, match="cannot fly over a dragon on f4"):
            play(pos("*6e/8/8/8/8/8/2(EE)2d2/8/8/2D2D2 v - std -"), "Df1-f6")

    def test_the_rule_of_4_keeps_it_off_a_square_worth_3(self):
        state = pos("*6e/8/8/8/8/8/8/2(Ee)2(DE)2/8/E1D2D2 v - std -")
        assert targets(state, "Dc1-") & file_squares("c", range(2, 11)) == {"c2", "c3"}
        assert targets(state, "Df1-") & file_squares("f", range(2, 11)) == {"f2"}
        with pytest.raises(IllegalMove, match="rule of 4: f3 is worth 3 and the dragon would bring it to 5"):
            play(state, "Df1-f3")


# -- eggs and exchange -------------------------------------------------------------------------------


class TestEggAndExchange:
    def test_an_egg_never_moves(self):
        state = pos("7e/8/8/8/8/O7/8/8/8/8 v - std -")
        assert all(m.startswith("Oa5-") for m in legal(state))
        with pytest.raises(IllegalMove, match="the egg on a5 cannot move"):
            play(state, "Ea5-a6")

    def test_two_elephants_swap_with_a_dragon(self):
        state = pos("e7/8/7D/8/5D2/8/8/2(EE)5/8/E6* v - std -")
        assert {"EEc3=Df6", "EEc3=Dh8"} <= legal(state)
        after = play(state, "EEc3=Df6")
        assert at(after, "c3") == "D"
        assert at(after, "f6") == "(EE)"
        assert RULES.to_act(after) == (PINK,)

    def test_an_egg_does_not_count_as_one_of_the_two_elephants(self):
        state = pos("e7/8/8/8/5D2/8/8/2(OE)5/8/8 v - std -")
        assert not [m for m in legal(state) if m.startswith("EE")]
        with pytest.raises(IllegalMove, match="an exchange needs two violet elephants on c3"):
            play(state, "EEc3=Df6")


# -- free departure --------------------------------------------------------------------------------


class TestFreeDeparture:
    def test_it_sends_the_drumlin_to_any_empty_square_and_hatches_the_egg(self):
        state = pos("7e/8/8/8/8/4(OE)3/8/8/8/E(EE)(EEE)(Ee)4 v - std -")
        empties = {
            name for name in SQUARE_INDEX if at(state, name) == "."
        }
        assert empties <= targets(state, "Oe5-")
        after = play(state, "Oe5-d8")
        assert at(after, "e5") == "(DE)"
        assert at(after, "d8") == "*"
        assert after.herd == (state.herd[0] - 1, state.herd[1])

    def test_it_goes_onto_an_own_elephant_only_with_the_majority_there(self):
        first = pos("7e/8/8/8/8/4(OE)3/8/8/8/E(EE)(EEE)(Ee)4 v - std -")
        # a1 E (1/0), b1 EE (2/0), c1 EEE (3/0): yes; d1 E against e (1/1): no
        assert targets(first, "Oe5-") & rank_squares("abcd", 1) == {"a1", "b1", "c1"}
        second = pos("7e/8/8/8/8/4(OE)3/8/8/(Ed)D6/4(EEe)(DE)(DEe)1 v - std -")
        # e1 2/1 worth 3: yes; f1 DE worth 3: yes; g1 worth 4: no; a2 1 against 2: no; b2 no elephant
        assert targets(second, "Oe5-") & {"e1", "f1", "g1", "a2", "b2"} == {"e1", "f1"}
        with pytest.raises(IllegalMove, match="square worth less than 4, and g1 is worth 4"):
            play(second, "Oe5-g1")
        with pytest.raises(IllegalMove, match="needs the majority on a2"):
            play(second, "Oe5-a2")
        with pytest.raises(IllegalMove, match="b2 holds a violet dragon"):
            play(second, "Oe5-b2")

    def test_onto_an_own_elephant_makes_a_new_egg(self):
        after = play(pos("7e/8/8/8/8/4(OE)3/8/8/8/E(EE)(EEE)(Ee)4 v - std -"), "Oe5-b1")
        assert at(after, "b1") == "(OE)"
        assert at(after, "e5") == "(DE)"

    def test_it_never_goes_onto_an_elephant_of_the_eggs_own_square(self):
        state = pos("7e/8/8/8/8/4(OE)3/8/8/8/E(EE)(EEE)(Ee)4 v - std -")
        assert "e5" not in targets(state, "Oe5-")

    @pytest.mark.parametrize(
        ("stack", "allowed"),
        [
            ("O", True),  # 1/0
            ("(OE)", True),  # 2/0
            ("(OEE)", True),  # 3/0
            ("(OEe)", True),  # 2/1
            ("(OD)", True),  # own dragon: 3/0
            ("(Oe)", False),  # 1/1
            ("(Od)", False),  # 1/2
            ("(Oee)", False),  # 1/2
        ],
    )
    def test_it_needs_a_strict_majority_on_the_eggs_square(self, stack, allowed):
        state = pos(f"7e/8/8/8/8/8/3{stack}4/8/8/E7 v - std -")
        assert bool(targets(state, "Od4-")) is allowed
        if not allowed:
            with pytest.raises(IllegalMove, match="needs the majority on d4"):
                play(state, "Od4-h4")

    def test_it_reaches_the_base_line_from_the_opponents_first_row_and_wins(self):
        state = pos("2O5/8/8/8/8/8/8/8/8/E6e v - std -")
        assert "Oc10-base" in legal(state)
        after = play(state, "Oc10-base")
        outcome = RULES.outcome(after)
        assert outcome is not None and outcome.winners == (VIOLET,) and outcome.reason == "base-line"
        assert RULES.to_act(after) == ()
        assert RULES.format_position(after) == "2D5/8/8/8/8/8/8/8/8/E6e v won std -"

    def test_pink_reaches_violets_base_line_from_rank_1(self):
        after = play(pos("E6e/8/8/8/8/8/8/8/8/5o2 p - std -"), "Of1-base")
        assert RULES.outcome(after).winners == (PINK,)

    def test_it_reaches_no_base_line_from_elsewhere(self):
        state = pos("8/2O5/8/8/8/8/8/8/8/E6e v - std -")
        assert not [m for m in legal(state) if m.endswith("base")]
        with pytest.raises(IllegalMove, match="only from an egg on rank 10"):
            play(state, "Oc9-base")

    def test_a_departure_onto_an_elephant_on_the_first_row_may_go_on_to_the_base_line(self):
        state = play(pos("1(EE)4E1/8/8/8/8/4O3/8/8/8/E6e v - std -"), "Oe5-g10")
        assert state.step == 2  # chain
        assert RULES.to_act(state) == (VIOLET,)
        assert legal(state) == {"Og10-base", "stop"}
        won = play(state, "Og10-base")
        assert RULES.outcome(won).winners == (VIOLET,)
        assert at(won, "g10") == "D" and at(won, "e5") == "D"

    def test_the_chained_departure_may_stop_and_the_new_egg_stays(self):
        state = play(pos("1(EE)4E1/8/8/8/8/4O3/8/8/8/E6e v - std -"), "Oe5-b10", "stop")
        assert RULES.to_act(state) == (PINK,)
        assert at(state, "b10") == "(OE)"
        assert RULES.outcome(state) is None
        with pytest.raises(IllegalMove, match="no chained departure to stop"):
            RULES.play(play(state, "Eh1-h2"), VIOLET, "stop")

    def test_during_the_chain_nothing_else_may_be_played(self):
        state = play(pos("1(EE)4E1/8/8/8/8/4O3/8/8/8/E6e v - std -"), "Oe5-g10")
        with pytest.raises(IllegalMove, match="either send the Drumlin on to the base line or stop"):
            play(state, "Ea1-a2")

    def test_picking_up_the_lone_drumlin_on_the_first_row_does_not_win(self):
        state = play(pos("2*5/8/8/8/8/8/8/2E5/8/E6e v - std -"), "Ec3-c10")
        assert at(state, "c10") == "O"
        assert RULES.outcome(state) is None
        assert RULES.to_act(state) == (PINK,)


# -- capture -------------------------------------------------------------------------------------------


class TestCapture:
    def test_a_second_elephant_takes_the_drumlin_from_the_opponents_egg(self):
        state = pos("7e/8/8/8/2(Eo)5/8/8/2E5/8/E7 v - std -")
        after = play(state, "Ec3-c6")
        assert at(after, "c6") == "(OEe)"  # the old egg is a plain elephant again, not a dragon
        assert after.herd == state.herd
        assert "Oc6-" in {m[:4] for m in RULES.legal_moves(play(after, "Eh10-h9"), VIOLET)}

    def test_the_exchange_captures_too(self):
        after = play(pos("7e/8/8/8/2(Do)5/8/8/5(EE)2/8/E7 v - std -"), "EEf3=Dc6")
        assert at(after, "c6") == "(OEe)"
        assert at(after, "f3") == "D"

    def test_a_dragon_captures_nothing_but_takes_the_majority_away(self):
        after = play(pos("7e/8/8/8/2o5/8/8/8/8/E1D5 v - std -"), "Dc1-c6")
        assert at(after, "c6") == "(Do)"
        assert RULES.to_act(after) == (PINK,)
        assert not [m for m in legal(after) if m.startswith("Oc6")]
        with pytest.raises(IllegalMove, match=r"majority on c6 to let the Drumlin go \(1 against 2\)"):
            play(after, "Oc6-a5")

    def test_an_elephant_of_the_egg_owner_does_not_make_a_capture(self):
        after = play(pos("e7/8/8/8/2(Eo)5/8/8/8/8/E1e5 p - std -"), "Ec1-c6")
        assert at(after, "c6") == "(Eoe)"  # pink holds 2 against 1 and keeps its egg


# -- forced departure and the square worth 5 -------------------------------------------------------


class TestForcedDeparture:
    def test_bringing_an_own_egg_square_to_4_hatches_it_and_the_mover_places_the_drumlin(self):
        state = play(pos("7e/8/8/8/8/8/3(OD)4/8/8/E2E4 v - std -"), "Ed1-d4")
        assert at(state, "d4") == "(DDE)"
        assert RULES.to_act(state) == (VIOLET,)
        assert state.step == 1  # place
        moves = legal(state)
        assert "*d1" in moves  # the square the elephant just left
        assert all(m.startswith("*") for m in moves)
        assert len(moves) == 80 - 3
        assert state.herd == (2, 1)  # the egg hatched; the elephant that came in still counts

    def test_bringing_the_opponents_egg_square_to_4_hatches_it_too(self):
        state = play(pos("7e/8/8/8/8/8/D2(oe)4/8/8/E7 v - std -"), "Da4-d4")
        assert at(state, "d4") == "(Dde)"
        assert RULES.to_act(state) == (VIOLET,)
        placed = play(state, "*h5")
        assert at(placed, "h5") == "*"
        assert RULES.to_act(placed) == (PINK,)

    def test_the_obligation_falls_on_a_player_with_pieces_on_the_5(self):
        state = play(pos("7e/8/8/8/8/8/D2(oe)4/8/8/E7 v - std -"), "Da4-d4", "*h5")
        assert {m[:4] for m in legal(state)} == {"Ed4-", "Dd4-"}
        after = play(state, "Dd4-d8")
        assert at(after, "d4") == "(De)"
        assert after.fives == ()

    def test_a_player_without_pieces_on_the_5_moves_freely_and_the_owner_must_move_next(self):
        state = play(pos("7e/8/8/8/8/8/3(OD)4/8/8/E2E4 v - std -"), "Ed1-d4", "*h5")
        assert RULES.to_act(state) == (PINK,)
        assert "Eh10-h9" in legal(state)
        state = play(state, "Eh10-h9")
        assert {m[:4] for m in legal(state)} == {"Ed4-", "Dd4-"}
        with pytest.raises(IllegalMove, match="d4 is worth 5: violet must first move"):
            play(state, "Ea1-a2")

    def test_an_exchange_or_a_departure_does_not_meet_the_obligation(self):
        state = pos("8/8/5d1o/8/8/2(Dde)5/8/5(ee)2/8/E7 p - std -")
        moves = legal(state)
        assert moves and all(m.startswith(("Ec5-", "Dc5-")) for m in moves)
        with pytest.raises(IllegalMove, match="c5 is worth 5"):
            play(state, "EEf3=Df8")
        with pytest.raises(IllegalMove, match="c5 is worth 5"):
            play(state, "Oh8-a8")

    def test_pieces_that_cannot_leave_the_5_are_removed_and_that_is_the_turn(self):
        state = pos("7e/8/8/8/8/4*3/8/8/(DD)7/(Dde)(DD)5E p - std -")
        assert legal(state) == {"xa1"}
        after = play(state, "xa1")
        assert at(after, "a1") == "D"
        assert after.fives == ()
        assert after.herd == (1, 1)
        assert RULES.to_act(after) == (VIOLET,)

    def test_with_two_5s_that_cannot_be_left_the_player_chooses_one(self):
        state = pos("6(DD)(Dde)/7(DD)/8/8/8/3e*3/8/8/(DD)7/(Dde)(DD)5E p - std -")
        assert legal(state) == {"xa1", "xh10"}
        after = play(state, "xh10")
        assert at(after, "h10") == "D" and at(after, "a1") == "(Dde)"
        assert after.fives == (SQUARE_INDEX["a1"],)

    def test_leaving_any_one_5_is_enough_and_then_nothing_is_removed(self):
        state = pos("6(DD)(Dde)/8/8/8/8/3e*3/8/8/(DD)7/(Dde)(DD)5E p - std -")
        moves = legal(state)
        assert moves and all(m.startswith(("Eh10-", "Dh10-")) for m in moves)
        with pytest.raises(IllegalMove, match="a piece can still leave a1 or h10, so nothing is removed"):
            play(state, "xa1")


# -- end of game -------------------------------------------------------------------------------------


class TestEndOfGame:
    def test_a_departure_that_hatches_the_last_elephant_loses(self):
        after = play(pos("7e/8/8/8/8/4O3/8/8/1D6/8 v - std -"), "Oe5-a1")
        outcome = RULES.outcome(after)
        assert outcome.winners == (PINK,) and outcome.reason == "no-elephant"
        assert RULES.to_act(after) == ()

    def test_a_forced_departure_that_hatches_the_last_egg_ends_the_game_before_the_placement(self):
        after = play(pos("7d/8/8/8/8/8/D2(Eo)4/8/8/E7 v - std -"), "Da4-d4")
        outcome = RULES.outcome(after)
        assert outcome.winners == (VIOLET,) and outcome.reason == "no-elephant"
        assert RULES.to_act(after) == ()
        assert "*" not in RULES.format_position(after).split(" ")[0]
        assert RULES.format_position(after) == "7d/8/8/8/8/8/3(DEd)4/8/8/E7 p - std -"

    def test_removing_the_last_elephants_loses(self):
        after = play(pos("7d/8/8/8/8/4*3/8/8/(DD)7/(Dde)(DD)5E p - std -"), "xa1")
        assert RULES.outcome(after).winners == (VIOLET,)

    def test_the_base_line_wins_even_when_it_hatches_the_last_elephant(self):
        after = play(pos("2O5/8/8/8/8/8/8/8/1D6/7e v - std -"), "Oc10-base")
        assert after.herd == (0, 1)
        outcome = RULES.outcome(after)
        assert outcome.winners == (VIOLET,) and outcome.reason == "base-line"

    def test_a_player_with_no_legal_action_loses(self):
        state = pos("8/8/8/8/8/4*3/8/8/(DD)7/e(DD)5E p - std -")
        assert RULES.legal_moves(state, PINK) == []
        outcome = RULES.outcome(state)
        assert outcome.winners == (VIOLET,) and outcome.reason == "stalemate"
        assert RULES.to_act(state) == ()

    def test_the_third_repetition_of_a_position_is_a_draw(self):
        start = pos("7e/8/8/8/8/3*4/8/8/8/E7 v - std -")
        cycle = ("Ea1-a2", "Eh10-h9", "Ea2-a1", "Eh9-h10")
        once = play(start, *cycle)
        assert once.board == start.board and RULES.outcome(once) is None
        assert RULES.format_position(once) == (
            "7e/8/8/8/8/3*4/8/8/8/E7 v - std "
            "7e/8/8/8/8/3*4/8/8/8/E7;7e/8/8/8/8/3*4/8/8/E7/8;"
            "8/7e/8/8/8/3*4/8/8/E7/8;8/7e/8/8/8/3*4/8/8/8/E7"
        )
        twice = play(once, *cycle[:3])
        assert RULES.outcome(twice) is None  # the position before the last move: seen twice
        drawn = play(twice, cycle[3])
        outcome = RULES.outcome(drawn)
        assert outcome.is_draw and outcome.reason == "repetition"
        assert RULES.to_act(drawn) == ()

    def test_the_repetition_count_survives_the_position_text(self):
        start = pos("7e/8/8/8/8/3*4/8/8/8/E7 v - std -")
        cycle = ("Ea1-a2", "Eh10-h9", "Ea2-a1", "Eh9-h10")
        state = play(start, *cycle, *cycle[:2])
        reread = RULES.parse_position(RULES.format_position(state))
        assert RULES.outcome(play(reread, *cycle[2:])).reason == "repetition"

    def test_a_pick_up_clears_the_record_since_the_old_positions_cannot_return(self):
        state = play(pos("7e/8/8/8/8/3*4/8/8/8/E7 v - std -"), "Ea1-a2", "Eh10-h9", "Ea2-a1", "Eh9-h10")
        state = play(state, "Ea1-d1", "Eh10-h9", "Ed1-d5")
        assert RULES.format_position(state).endswith(" p - std -")


# -- Clou 1986 -----------------------------------------------------------------------------------------


class TestClou1986:
    CLOU = "6E1/8/8/8/8/4O3/8/8/8/E(EE)5e v - clou -"

    def test_the_option_is_declared_and_read(self):
        (option,) = RULES.options
        assert (option.name, option.kind, option.default, option.label) == (
            "clou_1986",
            "bool",
            False,
            "Clou 1986 rules",
        )
        state = RULES.new_game(2, options={"clou_1986": True})
        assert RULES.format_position(state).endswith(" p place clou -")

    def test_a_departure_goes_onto_a_lone_elephant_only(self):
        clou = pos(self.CLOU)
        assert {"a1", "g10"} <= targets(clou, "Oe5-")
        assert "b1" not in targets(clou, "Oe5-")
        with pytest.raises(IllegalMove, match="Clou 1986 rules: the Drumlin goes only onto an elephant"):
            play(clou, "Oe5-b1")
        standard = pos(self.CLOU.replace("clou", "std"))
        assert "b1" in targets(standard, "Oe5-")

    def test_a_departure_that_makes_an_egg_on_the_opponents_first_row_wins_at_once(self):
        after = play(pos(self.CLOU), "Oe5-g10")
        outcome = RULES.outcome(after)
        assert outcome.winners == (VIOLET,) and outcome.reason == "base-line"
        assert RULES.to_act(after) == ()
        # The won position, with the Drumlin still in its egg, reads back exactly.
        text = RULES.format_position(after)
        assert RULES.format_position(RULES.parse_position(text)) == text
        assert RULES.outcome(RULES.parse_position(text)) == outcome

    def test_picking_up_the_lone_drumlin_on_that_row_does_not_win(self):
        after = play(pos("2*5/8/8/8/8/8/8/2E5/8/E6e v - clou -"), "Ec3-c10")
        assert RULES.outcome(after) is None


# -- refusals ------------------------------------------------------------------------------------------


class TestRefusals:
    STATE = "e7/8/8/8/2e5/8/8/2E1E3/8/7* v - std -"

    @pytest.mark.parametrize(
        ("seat", "move", "reason"),
        [
            (VIOLET, "hello", "not a Drumlin move"),
            (VIOLET, "Ec3-c11", "not a Drumlin move"),
            (PINK, "Ea10-a9", "it is violet's turn, not pink's"),
            (VIOLET, "Ed3-d4", "there is no violet elephant on d3"),
            (VIOLET, "Dc3-c4", "there is no violet dragon on c3"),
            (VIOLET, "Ec3-c7", "the elephant on c3 cannot pass a pink elephant on c6"),
            (VIOLET, "*d4", "only placed at the start of the game or after a forced departure"),
            (VIOLET, "Oc3-c4", "violet has no egg on c3"),
            (VIOLET, "xc3", "pieces are only removed from a square worth 5"),
            (VIOLET, "stop", "no chained departure to stop"),
        ],
    )
    def test_it_says_why_a_move_is_refused(self, seat, move, reason):
        with pytest.raises(IllegalMove, match=reason):
            RULES.play(pos(self.STATE), seat, move)

    def test_it_refuses_every_move_once_the_game_is_over(self):
        won = play(pos("2O5/8/8/8/8/8/8/8/8/E6e v - std -"), "Oc10-base")
        with pytest.raises(IllegalMove, match="the game is over"):
            RULES.play(won, PINK, "Eh1-h2")

    def test_an_illegal_move_leaves_the_state_untouched(self):
        state = pos(self.STATE)
        before = RULES.dump(state)
        with pytest.raises(IllegalMove):
            RULES.play(state, VIOLET, "Ec3-c9")
        assert RULES.dump(state) == before
