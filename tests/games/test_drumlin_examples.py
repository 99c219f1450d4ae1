"""The two endgames of the FX Schmid 1987 rulebook ("Exemple A" and "Exemple B").

The rulebook's diagrams are lost; only the numbered steps survive. Each start
position below is rebuilt so that every step is legal, does what the text says,
and every claim the text makes ("Rosa has no way to ...") holds. Violette plays
violet (seat 0, upper case), Rosa plays pink (seat 1, lower case); pink's base
line is behind rank 10.
"""

from __future__ import annotations

from games.engines.drumlin import RULES
from games.engines.drumlin.board import SQUARE_INDEX, STACK_TEXT

VIOLET, PINK = 0, 1


def at(state, square: str) -> str:
    return STACK_TEXT[state.board[SQUARE_INDEX[square]]] or "."


def play(state, seat: int, move: str):
    assert RULES.to_act(state) == (seat,)
    return RULES.play(state, seat, move)


def every_reply_still_allows(state, seat: int, move: str) -> bool:
    """Whatever ``seat`` plays now, the opponent can still play ``move`` after it."""
    return all(
        move in RULES.legal_moves(RULES.play(state, seat, reply), 1 - seat)
        for reply in RULES.legal_moves(state, seat)
    )


# Exemple A. d8: pink egg with a violet elephant (worth 2); d3: violet dragon with a
# clear d-file up to d8; f8: a lone violet elephant; c6 and c4: violet elephants on
# the c-file; a10: a pink elephant on pink's first row; pink's other elephants (g2,
# h3) are far away.
EXAMPLE_A = "e7/8/3(Eo)1E2/8/2E5/8/2E5/3D3e/6e1/1E6 v - std -"


def test_example_a_the_egg_on_the_first_row_kept_with_a_majority():
    state = RULES.parse_position(EXAMPLE_A)

    # 1) Violette brings a dragon onto the square of Rosa's egg: 2 + 2 = 4, so the
    #    Drumlin must leave and the egg hatches into a pink dragon; d8 is worth 5.
    state = play(state, VIOLET, "Dd3-d8")
    assert at(state, "d8") == "(DEd)"
    assert RULES.to_act(state) == (VIOLET,)

    # 1.1) Violette places the Drumlin on a free square of Rosa's first row.
    state = play(state, VIOLET, "*c10")
    assert at(state, "c10") == "*"

    # 2) Rosa must first clear the square worth 5: nothing else is allowed, so
    #    she cannot go for the Drumlin. She moves her new dragon away, flying over
    #    the lone violet elephant on f8.
    assert {m[:4] for m in RULES.legal_moves(state, PINK)} == {"Dd8-"}
    state = play(state, PINK, "Dd8-h8")
    assert at(state, "d8") == "(DE)"

    # 3) Violette picks up the Drumlin with an elephant: an egg on Rosa's first row.
    state = play(state, VIOLET, "Ec6-c10")
    assert at(state, "c10") == "O"
    assert RULES.outcome(state) is None

    # 4) Rosa brings an elephant onto the egg: 1 against 1, no free departure.
    state = play(state, PINK, "Ea10-c10")
    assert at(state, "c10") == "(Oe)"
    assert not [m for m in RULES.legal_moves(state, VIOLET) if m.startswith("Oc10-")]

    # 5) Violette brings a second elephant: 2 against 1, the majority is back.
    state = play(state, VIOLET, "Ec4-c10")
    assert at(state, "c10") == "(OEe)"

    # 6) Rosa cannot stop the departure: no pink elephant reaches c10 (worth 3) to
    #    bring it to 4, and a dragon would make it 5. She moves her dragon as near as
    #    she can, over the violet elephant on f8, until the violet dragon on d8 stops her.
    assert every_reply_still_allows(state, PINK, "Oc10-base")
    assert not [m for m in RULES.legal_moves(state, PINK) if m.endswith("-c10")]
    dragon_moves = {m for m in RULES.legal_moves(state, PINK) if m.startswith("Dh8-")}
    assert "Dh8-e8" in dragon_moves and "Dh8-d8" not in dragon_moves
    state = play(state, PINK, "Dh8-e8")

    # 7) Violette lets the Drumlin go from c10 onto Rosa's base line and wins.
    state = play(state, VIOLET, "Oc10-base")
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.winners == (VIOLET,) and outcome.reason == "base-line"


# Exemple B. e8: pink egg with a violet elephant; e3: a violet elephant with a clear
# e-file up to e8; d10: a lone violet elephant on Rosa's first row, with a pink
# elephant next to it on c10; g10: a lone violet dragon on that row; b4: two violet
# elephants; a2: Rosa's dragon; h1: a far pink elephant.
EXAMPLE_B = "2eE2D1/8/4(Eo)3/8/8/8/1(EE)6/4E3/d7/E6e v - std -"


def test_example_b_the_drumlin_sent_onto_an_elephant_on_the_first_row():
    state = RULES.parse_position(EXAMPLE_B)

    # 1) Violette brings a second elephant onto Rosa's egg: 2 against 1.
    # 1.1) The Drumlin passes at once onto one of her two elephants there and Rosa's
    #      egg becomes a plain elephant again. The two violet elephants are alike, so
    #      the engine asks nothing: the capture is part of the move.
    state = play(state, VIOLET, "Ee3-e8")
    assert at(state, "e8") == "(OEe)"
    assert RULES.to_act(state) == (PINK,)

    # Violette now threatens Oe8-d10 (the lone elephant on d10 gives her the majority)
    # followed by the chained departure onto the base line.
    assert "Oe8-d10" in RULES.legal_moves(RULES.play(state, PINK, "Eh1-h2"), VIOLET)

    # 2) Rosa cannot attack the egg (no pink piece reaches e8), so she moves her
    #    elephant next to it onto d10: 1 against 1 there, no longer a target.
    assert not [m for m in RULES.legal_moves(state, PINK) if m.endswith("-e8")]
    state = play(state, PINK, "Ec10-d10")
    assert at(state, "d10") == "(Ee)"
    assert "Oe8-d10" not in RULES.legal_moves(state, VIOLET)

    # 3) Violette exchanges her two elephants on b4 with her dragon on g10: two
    #    violet elephants now stand together on Rosa's first row.
    state = play(state, VIOLET, "EEb4=Dg10")
    assert at(state, "g10") == "(EE)"
    assert at(state, "b4") == "D"

    # 4) No pink elephant can reach e8 (worth 3) to force the Drumlin out, and the
    #    pink dragon cannot reach g10 to spoil the majority there: whatever Rosa
    #    does, the departure onto g10 stays open. She moves her dragon to the right.
    assert every_reply_still_allows(state, PINK, "Oe8-g10")
    state = play(state, PINK, "Da2-d2")

    # 5) Violette's free departure puts the Drumlin on one of the two elephants on
    #    g10; the egg she leaves on e8 hatches into a dragon.
    state = play(state, VIOLET, "Oe8-g10")
    assert at(state, "g10") == "(OE)"
    assert at(state, "e8") == "(DEe)"
    assert RULES.legal_moves(state, VIOLET) == ["Og10-base", "stop"]

    # 5.1) In the same turn she sends it on to Rosa's base line and wins.
    state = play(state, VIOLET, "Og10-base")
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.winners == (VIOLET,) and outcome.reason == "base-line"
