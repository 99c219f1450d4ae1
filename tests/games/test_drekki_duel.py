"""The two-player variant (the duel): two mages each, face-down piles, look-at-two,
rebuilt piles, bidding between the two players, immunity of both mages, hidden tears.
"""

from __future__ import annotations

import pytest

from games.engines.base import IllegalMove, play_sequence
from games.engines.drekki import RULES
from games.engines.drekki.tiles import TILES, TILESET

PLAN = ((2, 4), (3, 4), (4, 4), (5, 1))
YELLOW, RED, BLACK = 0, 1, 2
A1, B1, A2, B2 = 0, 1, 2, 3


def horde(current: str, rounds_done: int = 0) -> list[str]:
    levels = [b for b, n in PLAN for _ in range(n)]
    pools = {b: [t.id for t in TILES if t.burns == b and t.id != current] for b, _ in PLAN}
    return [current] + [pools[levels[k]].pop(0) for k in range(rounds_done + 1, 13)]


def duel(
    current: str,
    *,
    facing: int = 0,
    piles: str = "012345 012345 012345 012345",
    shown: str = "- - - -",
    hidden: str = "- - - -",
    tiles: str = "- - - -",
    tears: str = "- -",
    pool: str = ",".join(str(v) for v in TILESET.tear_tokens),
    rounds_done: int = 0,
    seed: int = 1,
):
    lines = [
        f"drekki players=2 countdown=15 seed={seed}",
        "phase cards",
        f"facing {facing}",
        "horde " + " ".join(horde(current, rounds_done)),
        "chosen - - - -",
        f"piles {piles}",
        f"shown {shown}",
        f"hidden {hidden}",
        "offers - - - -",
        f"tearpool {pool}",
        "auction high=- leader=- out=- turn=-",
        f"tiles {tiles}",
        "markers - - - -",
        f"tears {tears}",
        "dropped -",
    ]
    lines += [f"round {t} facing=0 cards=0000 leader=0 bid=0 colour=red stops=0" for t in history_tiles(current, rounds_done)]
    return RULES.parse_position("\n".join(lines))


def history_tiles(current: str, rounds_done: int) -> list[str]:
    levels = [b for b, n in PLAN for _ in range(n)]
    pools = {b: [t.id for t in TILES if t.burns == b and t.id != current] for b, _ in PLAN}
    return [pools[levels[k]].pop() for k in range(rounds_done)]


def tile(auction: str, burns: int = 2):
    return next(t for t in TILES if t.burns == burns and t.auction == auction)


def dumped(state):
    return RULES.dump(state)


def invoke(state, seat0: tuple[str, str], seat1: tuple[str, str]):
    """Both players pick a pile for the top card, then keep one of their two drawn cards."""
    return play_sequence(
        RULES, state, [(0, f"top {seat0[0]}"), (1, f"top {seat1[0]}"), (0, f"keep {seat0[1]}"), (1, f"keep {seat1[1]}")]
    )


# -- setup ---------------------------------------------------------------------------------


def test_a_duel_seats_four_mages_alternately_with_shuffled_piles():
    state = RULES.new_game(2, seed=5)
    view = RULES.view(state, 0)
    assert [m["label"] for m in view["mages"]] == ["A1", "B1", "A2", "B2"]
    assert [m["owner"] for m in view["mages"]] == [0, 1, 0, 1]
    assert [s["mages"] for s in view["seats"]] == [[0, 2], [1, 3]]
    data = dumped(state)
    assert all(sorted(p) == [0, 1, 2, 3, 4, 5] for p in data["piles"])
    assert sorted(data["tear_pool"]) == sorted(TILESET.tear_tokens)
    assert dumped(RULES.new_game(2, seed=5)) == data
    orders = {tuple(map(tuple, dumped(RULES.new_game(2, seed=s))["piles"])) for s in range(20)}
    assert len(orders) == 20


def test_each_player_first_picks_a_pile_for_its_top_card():
    state = RULES.new_game(2, seed=1)
    assert RULES.to_act(state) == (0, 1)
    assert RULES.legal_moves(state, 0) == ["top A1", "top A2"]
    assert RULES.legal_moves(state, 1) == ["top B1", "top B2"]


def test_top_lays_the_top_card_and_draws_the_two_top_cards_of_the_other_pile():
    state = duel(tile("infinite").id, piles="401235 012345 250134 012345")
    state = RULES.play(state, 0, "top A1")
    data = dumped(state)
    assert data["chosen"][A1] == 4
    assert data["offers"][A2] == [2, 5]
    assert data["piles"][A1] == [0, 1, 2, 3, 5] and data["piles"][A2] == [0, 1, 3, 4]
    assert RULES.legal_moves(state, 0) == ["keep 2", "keep 5"]
    assert RULES.to_act(state) == (0, 1)
    mine = RULES.view(state, 0)["mages"]
    assert (mine[A1]["card"], mine[A2]["offer"]) == (4, [2, 5])
    theirs = RULES.view(state, 1)["mages"]
    assert theirs[A1]["laid"] and theirs[A2]["drawing"]
    assert "card" not in theirs[A1] and "offer" not in theirs[A2] and "contents" not in theirs[A1]


def test_keep_lays_one_drawn_card_and_discards_the_other_face_down():
    state = duel(tile("infinite").id, piles="401235 012345 250134 012345")
    state = play_sequence(RULES, state, [(0, "top A1"), (0, "keep 5")])
    data = dumped(state)
    assert data["chosen"][A2] == 5 and data["hidden"][A2] == [2] and data["offers"][A2] == []
    assert RULES.to_act(state) == (1,)
    assert RULES.view(state, 0)["mages"][A2]["discarded"] == [2]
    theirs = RULES.view(state, 1)["mages"][A2]
    assert theirs["face_down"] == 1 and "discarded" not in theirs and theirs["shown"] == []


def test_the_invocation_refuses_moves_out_of_order():
    state = duel(tile("infinite").id, piles="401235 012345 250134 012345")
    with pytest.raises(IllegalMove, match="mage B1 is not one of seat 0's mages"):
        RULES.play(state, 0, "top B1")
    with pytest.raises(IllegalMove, match="draw first"):
        RULES.play(state, 0, "keep 2")
    with pytest.raises(IllegalMove, match="come from the piles"):
        RULES.play(state, 0, "play 1")
    state = RULES.play(state, 0, "top A1")
    with pytest.raises(IllegalMove, match="already laid a top card"):
        RULES.play(state, 0, "top A2")
    with pytest.raises(IllegalMove, match=r"card 3 is not one of the two cards you drew \(2 or 5\)"):
        RULES.play(state, 0, "keep 3")
    state = RULES.play(state, 0, "keep 2")
    with pytest.raises(IllegalMove, match="already laid its cards"):
        RULES.play(state, 0, "top A1")


def test_a_seat_out_of_time_takes_its_first_pile_and_keeps_the_lower_card():
    state = duel(tile("infinite").id, piles="401235 012345 250134 012345")
    assert RULES.timeout_move(state, 0) == "top A1"
    state = RULES.play(state, 0, "top A1")
    assert RULES.timeout_move(state, 0) == "keep 2"


# -- rebuilding piles ------------------------------------------------------------------------


def test_a_pile_short_of_cards_is_rebuilt_from_its_colours_discards():
    state = duel(tile("infinite").id, piles="012345 012345 3 012345", shown="- - 01 -", hidden="- - 245 -")
    after = RULES.play(state, 0, "top A1")
    data = dumped(after)
    offer = data["offers"][A2]
    assert 3 in offer  # the last card of the old pile is drawn first
    assert sorted(data["piles"][A2] + [c for c in offer if c != 3]) == [0, 1, 2, 4, 5]
    assert len(data["piles"][A2]) == 4
    assert data["shown"][A2] == [] and data["hidden"][A2] == []
    assert RULES.view(after, 1)["mages"][A2]["pile"] == 4
    assert dumped(RULES.play(state, 0, "top A1")) == data  # the shuffle comes from the seed


def test_the_rebuilt_order_depends_on_the_seed():
    orders = set()
    for seed in range(12):
        state = duel(tile("infinite").id, piles="012345 012345 - 012345", shown="- - 012 -", hidden="- - 345 -", seed=seed)
        data = dumped(RULES.play(state, 0, "top A2"))
        assert len(data["piles"][A2]) == 5
        orders.add(tuple(data["piles"][A2]) + (data["chosen"][A2],))
    assert len(orders) > 6


def test_an_empty_pile_is_rebuilt_for_the_top_card():
    state = duel(tile("infinite").id, piles="- 012345 012345 012345", shown="012 - - -", hidden="345 - - -")
    data = dumped(RULES.play(state, 0, "top A1"))
    assert sorted(data["piles"][A1] + [data["chosen"][A1]]) == [0, 1, 2, 3, 4, 5]


# -- the auction between two players -------------------------------------------------------------


def test_the_player_running_the_faced_mage_opens_and_the_two_players_alternate():
    state = duel(tile("infinite").id, facing=B2, piles="012345 012345 012345 012345")
    state = invoke(state, ("A1", "1"), ("B1", "1"))
    assert dumped(state)["phase"] == "bidding"
    assert RULES.to_act(state) == (1,)
    assert RULES.legal_moves(state, 1)[-1] == "bid 20"
    state = play_sequence(RULES, state, [(1, "bid 1"), (0, "bid 2"), (1, "bid 3")])
    assert RULES.to_act(state) == (0,)
    state = RULES.play(state, 0, "withdraw")
    last = dumped(state)["history"][-1]
    assert (last["leader"], last["bid"]) == (1, 3)
    assert last["cards"] == [0, 0, 1, 1]


def test_a_unique_auction_gives_the_other_player_one_answer():
    state = duel(tile("unique").id, facing=A1)
    state = invoke(state, ("A1", "1"), ("B1", "1"))
    state = play_sequence(RULES, state, [(0, "bid 1"), (1, "bid 2")])
    last = dumped(state)["history"][-1]
    assert (last["leader"], last["bid"]) == (1, 2)


def test_a_live_auction_between_two_players_has_a_countdown():
    state = duel(tile("live").id, facing=A2)
    state = invoke(state, ("A1", "1"), ("B1", "1"))
    state = RULES.play(state, 0, "bid 1")
    assert RULES.to_act(state) == (1,)
    assert RULES.countdown(state).seat == 0
    state = RULES.play(state, 1, "bid 2")
    assert RULES.to_act(state) == (0,)
    assert RULES.countdown(state).seat == 1


# -- the charm -------------------------------------------------------------------------------


def test_a_broken_charm_burns_the_faced_mage_when_its_player_won():
    state = invoke(duel(tile("infinite").id, facing=A2), ("A1", "1"), ("B1", "1"))  # total 2
    state = play_sequence(RULES, state, [(0, "bid 9"), (1, "withdraw")])
    data = dumped(state)
    # No choice to make: the dragon does not move and burns the mage it faces.
    assert data["phase"] == "cards"
    assert data["tiles"][A2] == [tile("infinite").id]
    assert data["tiles"][A1] == [] and data["tears"] == [[], []]
    assert data["facing"] == A2
    assert data["history"][-1]["stops"] == [A2] and data["history"][-1]["colour"] is None


def broken_for_seat_1(facing: int = A2):
    """Seat 1 wins with 9 on a total of 2 while the dragon faces seat 0's mage ``facing``."""
    state = invoke(duel(tile("infinite").id, facing=facing), ("A1", "1"), ("B1", "1"))
    return play_sequence(RULES, state, [(0, "bid 1"), (1, "bid 9"), (0, "withdraw")])


def test_a_broken_charm_lets_the_winner_choose_which_of_its_mages_is_burned():
    state = broken_for_seat_1(facing=A2)
    data = dumped(state)
    assert data["phase"] == "burn"
    assert all(won == [] for won in data["tiles"]) and data["horde"][0] == tile("infinite").id
    assert RULES.to_act(state) == (1,)
    # Clockwise from the faced mage A2: B2 first, then B1.
    assert RULES.legal_moves(state, 1) == ["burn B2", "burn B1"]
    assert RULES.legal_moves(state, 0) == []
    assert RULES.timeout_move(state, 1) == "burn B2"
    assert RULES.timeout_move(state, 0) is None


@pytest.mark.parametrize("facing, mage", [(A2, B1), (A2, B2), (A1, B1), (A1, B2)])
def test_the_chosen_mage_takes_the_tile_and_is_the_last_targeted(facing, mage):
    state = RULES.play(broken_for_seat_1(facing), 1, f"burn {'AB'[mage % 2]}{mage // 2 + 1}")
    data = dumped(state)
    expected = [[] for _ in range(4)]
    expected[mage] = [tile("infinite").id]
    assert data["tiles"] == expected
    assert data["tears"] == [[], []] and data["dropped"] == []
    # The dragon did not move; the next one faces the burned mage.
    assert data["facing"] == mage
    assert data["phase"] == "cards"
    assert data["history"][-1]["stops"] == [mage]
    assert (data["history"][-1]["facing"], data["history"][-1]["colour"]) == (facing, None)
    assert RULES.view(state, None)["seats"][1]["burns"] == 2


def test_the_burn_choice_refuses_other_moves_and_other_seats():
    state = broken_for_seat_1()
    with pytest.raises(IllegalMove, match="only seat 1, whose charm broke, picks which of its mages is burned"):
        RULES.play(state, 0, "burn A1")
    with pytest.raises(IllegalMove, match="mage A1 is not the winner's: burn B2 or B1"):
        RULES.play(state, 1, "burn A1")
    with pytest.raises(IllegalMove, match="must pick which of its mages takes the tile"):
        RULES.play(state, 1, "colour red")
    with pytest.raises(IllegalMove, match="must pick which of its mages"):
        RULES.play(state, 1, "top B1")


def test_everybody_sees_who_chooses_and_between_which_mages():
    state = broken_for_seat_1()
    for viewer in (None, 0, 1):
        view = RULES.view(state, viewer)
        assert view["phase"] == "burn"
        assert view["to_act"] == [1]
        assert view["burn"] == [B2, B1]  # clockwise from the faced mage, as the moves
        assert view["revealed"] == dumped(state)["chosen"]
        assert view["auction"]["leader"] == 1 and view["auction"]["high"] == 9
        assert view["colours"] is None
        assert view["legal_moves"] == (["burn B2", "burn B1"] if viewer == 1 else [])
    assert RULES.view(RULES.play(state, 1, "burn B1"), None)["burn"] is None


def test_a_burn_position_round_trips_and_a_wrong_one_is_refused():
    from games.engines.base import PositionError

    state = broken_for_seat_1()
    text = RULES.format_position(state)
    assert "phase burn" in text
    assert RULES.parse_position(text) == state
    with pytest.raises(PositionError, match="the winner runs the faced mage"):
        RULES.parse_position(text.replace("facing 2", "facing 1"))
    with pytest.raises(PositionError, match="the bid must exceed the revealed total"):
        RULES.parse_position(text.replace("high=9", "high=2"))


def test_a_held_charm_with_tied_colours_already_counts_the_drawn_tear():
    # Yellow 1 (A1, B1), black 4 (A2, B2): yellow and black tie; total 10.
    piles = "104235 104235 401235 401235"
    pool = ",".join(["2"] + ["1"] * 12)
    state = invoke(duel(tile("infinite").id, facing=A1, piles=piles, pool=pool), ("A1", "4"), ("B1", "4"))
    assert dumped(state)["chosen"] == [1, 1, 4, 4]
    state = play_sequence(RULES, state, [(0, "bid 3"), (1, "withdraw")])
    data = dumped(state)
    assert data["phase"] == "colour"
    assert data["tears"] == [[2], []] and data["tear_pool"] == [1] * 12
    assert RULES.view(state, 0)["seats"][0]["score"] == -2
    assert RULES.view(state, 1)["seats"][0]["tears"] == 1
    assert RULES.view(state, None)["tear_pool"] == 12
    data = dumped(RULES.play(state, 0, "colour black"))
    assert data["tears"] == [[2], []] and data["tear_pool"] == [1] * 12


def auction(state, winner: int, bid: int) -> list[tuple[int, str]]:
    """Moves that let ``winner`` take the auction at ``bid``, whatever its type."""
    data = dumped(state)
    opener = data["facing"] % 2
    other = 1 - opener
    if winner == opener:
        return [(opener, f"bid {bid}"), (other, "withdraw")]
    kind = next(t for t in TILES if t.id == data["horde"][0]).auction
    return [(opener, "bid 0"), (winner, f"bid {bid}")] + ([] if kind == "unique" else [(opener, "withdraw")])


def test_the_dragon_counts_mages_not_players():
    found = [(t, c) for t in TILES for c in range(3) if t.moves[c] % 4 == 2]
    if not found:
        pytest.skip("no tile moves the dragon two mages")
    t, colour = found[0]
    low, high = 2 * colour, 2 * colour + 1
    rest = "".join(str(v) for v in range(6) if v not in (low, high))
    piles = " ".join([f"{low}{high}{rest}"] * 4)
    rounds_done = {2: 0, 3: 4, 4: 8, 5: 12}[t.burns]
    state = duel(t.id, facing=A1, piles=piles, rounds_done=rounds_done)
    state = invoke(state, ("A1", str(high)), ("B1", str(high)))
    assert dumped(state)["chosen"] == [low, low, high, high]
    state = play_sequence(RULES, state, auction(state, winner=1, bid=1))
    data = dumped(state)
    # Two mages on from A1 is A2: seat 0's other mage is burned.
    assert data["tiles"][A2] == [t.id]
    assert data["facing"] == A2
    assert RULES.view(state, None)["seats"][0]["burns"] == t.burns


def test_immunity_covers_both_mages_of_the_winner():
    t = next((t for t in TILES if t.burns == 2 and t.moves[RED] % 4 in (1, 3)), None)
    if t is None:
        pytest.skip("no 2-burn tile moves an odd number of mages on red")
    stop = t.moves[RED] % 4  # from A1, an odd move stops on B1 or B2: seat 1's mages
    piles = "201345 201345 301245 301245"
    # Seat 1 wins: the stop is its own mage, so nobody is burned.
    state = invoke(duel(t.id, facing=A1, piles=piles), ("A1", "3"), ("B1", "3"))
    state = play_sequence(RULES, state, auction(state, winner=1, bid=2))
    data = dumped(state)
    assert data["dropped"] == [t.id]
    assert all(won == [] for won in data["tiles"])
    assert data["facing"] == stop
    # Seat 0 wins: seat 1's mage at the stop is burned.
    state = invoke(duel(t.id, facing=A1, piles=piles), ("A1", "3"), ("B1", "3"))
    state = play_sequence(RULES, state, auction(state, winner=0, bid=2))
    data = dumped(state)
    assert data["tiles"][stop] == [t.id]
    assert RULES.view(state, None)["seats"][1]["burns"] == 2


def test_tear_tokens_come_face_down_from_the_pool():
    pool = ",".join(["2"] + ["1"] * 12)
    state = invoke(duel(tile("infinite").id, facing=A1, pool=pool), ("A1", "1"), ("B1", "1"))
    state = play_sequence(RULES, state, [(0, "bid 1"), (1, "withdraw")])
    data = dumped(state)
    assert data["tears"] == [[2], []]
    assert data["tear_pool"] == [1] * 12
    mine = RULES.view(state, 0)["seats"][0]
    theirs = RULES.view(state, 1)["seats"][0]
    watcher = RULES.view(state, None)["seats"][0]
    assert (mine["tears"], mine["tear_values"]) == (1, [2])
    assert (theirs["tears"], theirs["tear_values"], theirs["score"]) == (1, None, None)
    assert (watcher["tear_values"], watcher["score"]) == (None, None)
    assert RULES.view(state, None)["tear_pool"] == 12


def test_both_mages_burns_count_for_their_player_at_the_end():
    state = duel("5-1", rounds_done=12, tiles="2-1 3-1 2-2 -", tears="1 1,1", pool=",".join(["1"] * 10))
    # Seat 0 opens (the dragon faces A1), bids 1 on a total of 0 and is burned: 5 more.
    state = invoke(state, ("A1", "0"), ("B1", "0"))
    assert dumped(state)["chosen"] == [0, 0, 0, 0]
    state = play_sequence(RULES, state, [(0, "bid 1"), (1, "withdraw")])
    outcome = RULES.outcome(state)
    assert outcome.scores == (2 + 2 + 5 - 1, 3 - 2)
    assert outcome.winners == (1,)
    view = RULES.view(state, None)
    assert [s["tear_values"] for s in view["seats"]] == [[1], [1, 1]]  # all shown at the end
