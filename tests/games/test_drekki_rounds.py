"""Drekki from 3 to 6 players: setup, the invocation, the three auctions, the charm,
the dragon's moves, immunity, markers, hands coming back, the end and its tie-breaks.

Positions are written in the text notation. Where a test depends on a tile's
movement table, the expectation is read from the data file, so the tests keep
holding when the reconstructed tile faces are replaced by the printed ones.
"""

from __future__ import annotations

import pytest

from games.engines import get
from games.engines.base import Countdown, IllegalMove, OptionError, PositionError, play_sequence
from games.engines.drekki import RULES
from games.engines.drekki.tiles import TILES

PLAN = ((2, 4), (3, 4), (4, 4), (5, 1))
YELLOW, RED, BLACK = 0, 1, 2


def tile(auction: str, burns: int = 2):
    return next(t for t in TILES if t.burns == burns and t.auction == auction)


def level_ids(burns: int) -> list[str]:
    return [t.id for t in TILES if t.burns == burns]


def horde_and_history(current: str, rounds_done: int) -> tuple[list[str], list[str]]:
    """A horde whose next tile is ``current`` after ``rounds_done`` rounds, and round lines before it."""
    levels = [b for b, n in PLAN for _ in range(n)]
    pools = {b: [i for i in level_ids(b) if i != current] for b, _ in PLAN}
    history = []
    for k in range(rounds_done):
        history.append(f"round {pools[levels[k]].pop()} facing=0 cards=CARDS leader=0 bid=0 colour=red stops=0")
    horde = [current] + [pools[levels[k]].pop(0) for k in range(rounds_done + 1, 13)]
    return horde, history


def position(
    players: int,
    current: str,
    *,
    facing: int = 0,
    rounds_done: int = 0,
    hands: list[str] | None = None,
    tiles: list[str] | None = None,
    markers: list[str] | None = None,
    tears: list[str] | None = None,
    dropped: str = "-",
    countdown: int = 15,
):
    horde, history = horde_and_history(current, rounds_done)
    lines = [
        f"drekki players={players} countdown={countdown} seed=1",
        "phase cards",
        f"facing {facing}",
        "horde " + " ".join(horde),
        "chosen " + " ".join(["-"] * players),
        "hands " + " ".join(hands or ["012345"] * players),
        "auction high=- leader=- out=- turn=-",
        "tiles " + " ".join(tiles or ["-"] * players),
        "markers " + " ".join(markers or ["-"] * players),
        "tears " + " ".join(tears or ["-"] * players),
        f"dropped {dropped}",
    ]
    lines += [h.replace("CARDS", "0" * players) for h in history]
    return RULES.parse_position("\n".join(lines))


def lay(state, cards: list[int]):
    """Every seat lays the given card."""
    return play_sequence(RULES, state, [(s, f"play {c}") for s, c in enumerate(cards)])


def dumped(state):
    return RULES.dump(state)


# -- setup -------------------------------------------------------------------------------


def test_it_is_registered_for_two_to_six_players():
    rules = get("drekki")
    assert rules is RULES
    assert (rules.min_players, rules.max_players) == (2, 6)
    assert [o.name for o in rules.options] == ["live_countdown"]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_it_builds_a_rising_horde_of_thirteen_distinct_tiles(players):
    for seed in range(20):
        horde = dumped(RULES.new_game(players, seed=seed))["horde"]
        burns = [TILES[[t.id for t in TILES].index(i)].burns for i in horde]
        assert burns == [2] * 4 + [3] * 4 + [4] * 4 + [5]
        assert len(set(horde)) == 13


def test_the_horde_and_the_first_seat_come_from_the_seed():
    first = [dumped(RULES.new_game(4, seed=s)) for s in range(40)]
    again = [dumped(RULES.new_game(4, seed=s)) for s in range(40)]
    assert first == again
    assert len({tuple(d["horde"]) for d in first}) > 30
    assert {d["facing"] for d in first} == {0, 1, 2, 3}


@pytest.mark.parametrize("players", [1, 7, 0])
def test_it_refuses_a_player_count_outside_two_to_six(players):
    with pytest.raises(OptionError, match="2 to 6 players"):
        RULES.new_game(players, seed=1)


@pytest.mark.parametrize(
    "options, reason",
    [
        ({"live_countdown": 4}, "at least 5"),
        ({"live_countdown": 121}, "at most 120"),
        ({"live_countdown": "15"}, "whole number"),
        ({"countdown": 15}, "unknown option"),
    ],
)
def test_it_refuses_bad_options(options, reason):
    with pytest.raises(OptionError, match=reason):
        RULES.new_game(4, seed=1, options=options)


def test_it_refuses_a_seed_it_cannot_store_exactly():
    with pytest.raises(PositionError, match="seed"):
        RULES.new_game(4, seed=1.5)


# -- the invocation ----------------------------------------------------------------------


def test_every_seat_lays_a_card_at_the_same_time():
    state = position(4, tile("infinite").id)
    assert RULES.to_act(state) == (0, 1, 2, 3)
    assert RULES.legal_moves(state, 2) == [f"play {v}" for v in range(6)]
    state = RULES.play(state, 2, "play 4")
    assert RULES.to_act(state) == (0, 1, 3)
    assert RULES.legal_moves(state, 2) == []
    with pytest.raises(IllegalMove, match="already laid its card"):
        RULES.play(state, 2, "play 3")
    assert dumped(state)["hands"][2] == [0, 1, 2, 3, 5]
    assert dumped(state)["chosen"] == [None, None, 4, None]


def test_a_seat_can_only_lay_a_card_from_its_hand():
    state = position(3, tile("infinite").id, hands=["0125", "012345", "012345"])
    with pytest.raises(IllegalMove, match="card 4 is not in seat 0's hand"):
        RULES.play(state, 0, "play 4")
    with pytest.raises(IllegalMove, match="still choosing their cards"):
        RULES.play(state, 0, "bid 3")
    with pytest.raises(IllegalMove, match="two-player variant"):
        RULES.play(state, 0, "keep 1")
    with pytest.raises(IllegalMove, match="not a Drekki move"):
        RULES.play(state, 0, "play 9")


def test_the_auction_opens_with_the_seat_the_dragon_faces_once_all_cards_are_laid():
    state = lay(position(4, tile("infinite").id, facing=2), [1, 2, 3, 4])
    assert dumped(state)["phase"] == "bidding"
    assert RULES.to_act(state) == (2,)


def test_a_hand_down_to_one_card_takes_all_six_back():
    hands = ["35", "01", "24", "05"]
    state = position(4, tile("infinite").id, rounds_done=0, hands=hands)
    state = lay(state, [3, 0, 2, 5])
    state = play_sequence(RULES, state, [(0, "bid 0"), (1, "withdraw"), (2, "withdraw"), (3, "withdraw")])
    # Red is the majority (3 and 2): no colour to choose, the next round starts.
    assert dumped(state)["phase"] == "cards"
    assert dumped(state)["hands"] == [[0, 1, 2, 3, 4, 5]] * 4


def test_a_hand_of_two_or_more_cards_keeps_shrinking():
    state = lay(position(3, tile("infinite").id, hands=["012", "345", "024"]), [0, 3, 2])
    state = play_sequence(RULES, state, [(0, "bid 10"), (1, "withdraw"), (2, "withdraw")])
    assert dumped(state)["hands"] == [[1, 2], [4, 5], [0, 4]]


# -- the infinite auction -------------------------------------------------------------------


def bidding(players: int, auction: str, cards: list[int], facing: int = 0, **kw):
    return lay(position(players, tile(auction).id, facing=facing, **kw), cards)


def test_the_opener_must_bid_and_cannot_withdraw():
    state = bidding(4, "infinite", [0, 0, 0, 0], facing=1)
    assert "withdraw" not in RULES.legal_moves(state, 1)
    assert RULES.legal_moves(state, 1)[0] == "bid 0"
    assert RULES.legal_moves(state, 1)[-1] == "bid 20"
    with pytest.raises(IllegalMove, match="must bid: it cannot withdraw"):
        RULES.play(state, 1, "withdraw")
    with pytest.raises(IllegalMove, match="seat 1, whom the dragon faces, must open"):
        RULES.play(state, 2, "bid 3")


def test_infinite_bids_go_clockwise_and_must_rise():
    state = RULES.play(bidding(4, "infinite", [1, 2, 3, 4], facing=3), 3, "bid 5")
    assert RULES.to_act(state) == (0,)
    with pytest.raises(IllegalMove, match="bid 5 is not higher than the standing bid 5"):
        RULES.play(state, 0, "bid 5")
    with pytest.raises(IllegalMove, match="seat 0's turn"):
        RULES.play(state, 1, "bid 6")
    with pytest.raises(IllegalMove, match="cannot exceed 20"):
        RULES.play(state, 0, "bid 21")
    state = RULES.play(state, 0, "bid 6")
    assert RULES.to_act(state) == (1,)
    assert RULES.legal_moves(state, 1)[0] == "bid 7"
    assert RULES.legal_moves(state, 1)[-1] == "withdraw"


def test_an_infinite_withdrawal_is_for_good_and_the_last_seat_in_wins():
    state = bidding(4, "infinite", [1, 2, 3, 4], facing=0)
    state = play_sequence(RULES, state, [(0, "bid 3"), (1, "withdraw"), (2, "bid 4"), (3, "withdraw")])
    assert RULES.to_act(state) == (0,)
    state = RULES.play(state, 0, "bid 5")
    assert RULES.to_act(state) == (2,)  # seat 1 and seat 3 are skipped for good
    with pytest.raises(IllegalMove, match="seat 1 has withdrawn"):
        RULES.play(state, 1, "bid 9")
    state = RULES.play(state, 2, "bid 6")
    assert RULES.to_act(state) == (0,)
    state = RULES.play(state, 0, "withdraw")
    history = dumped(state)["history"]
    assert history[-1]["leader"] == 2 and history[-1]["bid"] == 6


def test_a_bid_of_the_highest_possible_total_ends_the_auction_at_once():
    state = RULES.play(bidding(3, "infinite", [5, 5, 5], facing=0), 0, "bid 15")
    last = dumped(state)["history"][-1]
    assert (last["leader"], last["bid"]) == (0, 15)


# -- the unique auction -------------------------------------------------------------------


def test_in_a_unique_auction_each_seat_speaks_once_and_the_highest_wins():
    state = bidding(5, "unique", [1, 1, 1, 1, 1], facing=3)
    state = RULES.play(state, 3, "bid 2")
    assert RULES.to_act(state) == (4,)
    state = RULES.play(state, 4, "bid 4")
    state = RULES.play(state, 0, "withdraw")
    assert RULES.to_act(state) == (1,)
    with pytest.raises(IllegalMove, match="already spoken"):
        RULES.play(state, 4, "bid 6")
    with pytest.raises(IllegalMove, match="already spoken"):
        RULES.play(state, 3, "bid 6")
    state = RULES.play(state, 1, "bid 5")
    state = RULES.play(state, 2, "withdraw")
    # Seat 2 was the last to speak: seat 1's 5 wins, although seat 4 was outbid and never spoke again.
    last = dumped(state)["history"][-1]
    assert (last["leader"], last["bid"]) == (1, 5)


def test_a_unique_auction_where_everyone_passes_goes_to_the_opener():
    state = bidding(3, "unique", [2, 2, 2], facing=1)
    state = play_sequence(RULES, state, [(1, "bid 4"), (2, "withdraw"), (0, "withdraw")])
    last = dumped(state)["history"][-1]
    assert (last["leader"], last["bid"]) == (1, 4)


# -- the live auction ------------------------------------------------------------------------


def test_in_a_live_auction_anyone_still_in_but_the_highest_bidder_may_raise():
    state = bidding(5, "live", [0, 0, 0, 0, 0], facing=2)
    assert RULES.to_act(state) == (2,)
    assert RULES.countdown(state) is None
    state = RULES.play(state, 2, "bid 1")
    assert RULES.to_act(state) == (0, 1, 3, 4)
    assert RULES.countdown(state) == Countdown(seat=2, move="close", seconds=15)
    state = RULES.play(state, 4, "bid 3")
    assert RULES.to_act(state) == (0, 1, 2, 3)
    assert RULES.countdown(state) == Countdown(seat=4, move="close", seconds=15)
    state = RULES.play(state, 0, "withdraw")
    assert RULES.to_act(state) == (1, 2, 3)
    with pytest.raises(IllegalMove, match="holds the highest bid"):
        RULES.play(state, 4, "withdraw")
    with pytest.raises(IllegalMove, match="seat 0 has withdrawn"):
        RULES.play(state, 0, "bid 7")


def test_the_countdown_closes_a_live_auction_for_the_highest_bidder():
    state = bidding(4, "live", [3, 3, 3, 3], facing=0, countdown=40)
    state = play_sequence(RULES, state, [(0, "bid 5"), (3, "bid 7")])
    clock = RULES.countdown(state)
    assert clock == Countdown(seat=3, move="close", seconds=40)
    assert "close" not in RULES.legal_moves(state, 3)
    assert all("close" not in RULES.legal_moves(state, s) for s in range(4))
    with pytest.raises(IllegalMove, match="for seat 3, the highest bidder"):
        RULES.play(state, 1, "close")
    state = RULES.play(state, clock.seat, clock.move)
    last = dumped(state)["history"][-1]
    assert (last["leader"], last["bid"]) == (3, 7)


def test_close_is_refused_outside_a_live_auction():
    state = RULES.play(bidding(4, "infinite", [3, 3, 3, 3]), 0, "bid 5")
    with pytest.raises(IllegalMove, match="only a live auction"):
        RULES.play(state, 0, "close")


def test_a_live_auction_ends_when_only_the_highest_bidder_is_left():
    state = bidding(3, "live", [2, 2, 2], facing=1)
    state = play_sequence(RULES, state, [(1, "bid 2"), (2, "withdraw")])
    assert RULES.to_act(state) == (0,)
    state = RULES.play(state, 0, "withdraw")
    last = dumped(state)["history"][-1]
    assert (last["leader"], last["bid"]) == (1, 2)


# -- the charm ---------------------------------------------------------------------------------


def test_a_bid_above_the_total_burns_the_winner_who_is_targeted_next():
    current = tile("infinite")
    state = bidding(4, "infinite", [1, 1, 1, 1], facing=0)
    state = play_sequence(RULES, state, [(0, "bid 2"), (1, "bid 5"), (2, "withdraw"), (3, "withdraw"), (0, "withdraw")])
    data = dumped(state)
    assert data["tiles"] == [[], [current.id], [], []]
    assert data["tears"] == [[], [], [], []]
    assert data["facing"] == 1
    assert data["history"][-1]["colour"] is None and data["history"][-1]["stops"] == [1]


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("facing, winner", [(0, 0), (0, 2), (2, 1)])
def test_a_broken_charm_does_not_move_the_dragon_and_the_burned_winner_is_targeted_next(players, facing, winner):
    current = tile("infinite")
    state = bidding(players, "infinite", [0] * players, facing=facing)  # total 0
    state = play_sequence(RULES, state, _win_for(state, winner=winner, bid=1))
    data = dumped(state)
    expected = [[] for _ in range(players)]
    expected[winner] = [current.id]
    assert data["tiles"] == expected
    assert data["markers"] == [[] for _ in range(players)]  # no second movement at 5-6 either
    assert data["tears"] == [[] for _ in range(players)] and data["dropped"] == []
    assert data["facing"] == winner
    assert RULES.to_act(state) == tuple(range(players))  # the next round: no choice to make
    last = data["history"][-1]
    assert (last["facing"], last["colour"], last["stops"]) == (facing, None, [winner])


def test_a_bid_equal_to_the_total_holds_and_the_majority_colour_moves_the_dragon():
    current = tile("infinite")
    # Cards 4, 5, 4, 0: black is the majority; total 13.
    state = bidding(4, "infinite", [4, 5, 4, 0], facing=2)
    state = play_sequence(RULES, state, [(2, "bid 13"), (3, "withdraw"), (0, "withdraw"), (1, "withdraw")])
    stop = (2 + current.moves[BLACK]) % 4
    data = dumped(state)
    assert data["tears"][2] == [1]
    expected = [[] for _ in range(4)]
    if stop == 2:
        assert data["dropped"] == [current.id]
    else:
        expected[stop] = [current.id]
    assert data["tiles"] == expected
    assert data["facing"] == stop
    assert data["history"][-1]["colour"] == "black"


def movement_tile(players: int, colour: int, wanted_step: int):
    """A 2-burn tile whose first move for ``colour`` is ``wanted_step`` seats (modulo the table)."""
    for t in TILES:
        if t.burns == 2 and t.moves[colour] % players == wanted_step % players:
            return t
    pytest.skip("no tile in the data file moves that way")


def test_the_winner_is_immune_and_the_tile_is_then_discarded():
    t = movement_tile(4, RED, 1)
    state = lay(position(4, t.id, facing=0), [2, 3, 2, 0])  # red majority, total 7
    # The dragon faces seat 0 and red moves it one seat: to seat 1, who wins the auction.
    state = play_sequence(RULES, state, _win_for(state, winner=1, bid=3))
    data = dumped(state)
    assert data["tiles"] == [[], [], [], []]
    assert data["dropped"] == [t.id]
    assert data["tears"][1] == [1]
    assert data["facing"] == 1


def test_the_dragon_burns_another_seat_than_the_winner():
    t = movement_tile(4, RED, 1)
    state = lay(position(4, t.id, facing=0), [2, 3, 2, 0])
    state = play_sequence(RULES, state, _win_for(state, winner=0, bid=3))
    data = dumped(state)
    assert data["tiles"] == [[], [t.id], [], []]
    assert data["tears"][0] == [1]


def _win_for(state, winner: int, bid: int) -> list[tuple[int, str]]:
    """Moves that let ``winner`` take an infinite, unique or live auction at ``bid``."""
    data = dumped(state)
    players = data["players"]
    opener = data["facing"]
    if winner == opener:
        moves = [(opener, f"bid {bid}")]
        others = [(opener + k) % players for k in range(1, players)]
        return moves + [(s, "withdraw") for s in others]
    moves = [(opener, "bid 0")]
    seat = (opener + 1) % players
    while seat != opener:
        moves.append((seat, f"bid {bid}" if seat == winner else "withdraw"))
        seat = (seat + 1) % players
    kind = next(t for t in TILES if t.id == data["horde"][0]).auction
    if kind != "unique" and winner != opener:
        moves.append((opener, "withdraw"))
    return moves


def test_a_tie_lets_the_winner_pick_among_the_tied_colours():
    t = tile("infinite")
    # Two yellow, two black: a tie between yellow and black.
    state = bidding(4, "infinite", [0, 1, 4, 5], facing=0)
    state = play_sequence(RULES, state, _win_for(state, winner=3, bid=2))
    data = dumped(state)
    assert data["phase"] == "colour"
    assert RULES.to_act(state) == (3,)
    assert RULES.legal_moves(state, 3) == ["colour yellow", "colour black"]
    assert RULES.view(state, 0)["colours"] == ["yellow", "black"]
    assert RULES.view(state, None)["revealed"] == [0, 1, 4, 5]
    with pytest.raises(IllegalMove, match="red is not among the tied majority colours"):
        RULES.play(state, 3, "colour red")
    with pytest.raises(IllegalMove, match="only seat 3, who won the auction, picks the colour"):
        RULES.play(state, 0, "colour yellow")
    # The tear is taken before the dragon moves: the scores shown during the choice count it.
    assert data["tears"][3] == [1]
    assert RULES.view(state, 3)["seats"][3]["score"] == -1
    assert [s["score"] for s in RULES.view(state, 0)["seats"]] == [0, None, None, None]  # others' tears hidden
    assert RULES.view(state, None)["seats"][3]["tears"] == 1
    state = RULES.play(state, 3, "colour black")
    data = dumped(state)
    stop = t.moves[BLACK] % 4
    assert data["facing"] == stop
    assert data["tears"][3] == [1]  # one tear, not a second with the colour
    assert data["history"][-1]["colour"] == "black"


def test_a_three_way_tie_offers_every_colour():
    state = bidding(3, "infinite", [0, 2, 4], facing=0)
    state = play_sequence(RULES, state, _win_for(state, winner=0, bid=1))
    assert RULES.legal_moves(state, 0) == ["colour yellow", "colour red", "colour black"]


# -- five and six players: two movements ------------------------------------------------


def double_tile(players: int, colour: int, first: int, second: int):
    for t in TILES:
        if t.burns == 2 and t.moves[colour] % players == first % players and t.moves_5_6[colour] % players == second % players:
            return t
    return None


def two_move_case(players: int):
    """Any 2-burn tile and colour: where its two movements stop from seat 0."""
    t = next(t for t in TILES if t.burns == 2 and t.moves[RED] % players != 0)
    first = t.moves[RED] % players
    second = (first + t.moves_5_6[RED]) % players
    return t, first, second


@pytest.mark.parametrize("players", [5, 6])
def test_at_five_and_six_the_first_stop_takes_a_marker_and_the_second_the_tile(players):
    t, first, second = two_move_case(players)
    assert first != second
    cards = [2] * players  # red majority
    winner = next(s for s in range(players) if s not in (first, second))
    state = lay(position(players, t.id, facing=0), cards)
    state = play_sequence(RULES, state, _win_for(state, winner=winner, bid=1))
    data = dumped(state)
    assert data["markers"][first] == [2]
    assert data["tiles"][second] == [t.id]
    assert sum(len(m) for m in data["markers"]) == 1
    assert data["facing"] == second
    assert data["history"][-1]["stops"] == [first, second]
    view = RULES.view(state, None)
    assert view["seats"][first]["burns"] == 2 and view["seats"][second]["burns"] == 2


@pytest.mark.parametrize("players", [5, 6])
def test_immunity_holds_for_both_movements(players):
    t, first, second = two_move_case(players)
    # The winner is the first stop: no marker, the second stop still takes the tile.
    state = lay(position(players, t.id, facing=0), [2] * players)
    state = play_sequence(RULES, state, _win_for(state, winner=first, bid=1))
    data = dumped(state)
    assert all(m == [] for m in data["markers"])
    assert data["tiles"][second] == [t.id]
    # The winner is the second stop: the first takes a marker, the tile is discarded.
    state = lay(position(players, t.id, facing=0), [2] * players)
    state = play_sequence(RULES, state, _win_for(state, winner=second, bid=1))
    data = dumped(state)
    assert data["markers"][first] == [2]
    assert all(won == [] for won in data["tiles"])
    assert data["dropped"] == [t.id]
    assert data["facing"] == second


def test_at_three_and_four_there_is_a_single_movement():
    t, first, _ = two_move_case(4)
    state = lay(position(4, t.id, facing=0), [2] * 4)
    state = play_sequence(RULES, state, _win_for(state, winner=(first + 1) % 4, bid=1))
    data = dumped(state)
    assert data["tiles"][first] == [t.id]
    assert all(m == [] for m in data["markers"])
    assert data["history"][-1]["stops"] == [first]


# -- the end ------------------------------------------------------------------------------


def last_round(players: int, tiles: list[str], markers: list[str], tears: list[str]):
    return position(players, "5-1" if "5-1" not in ",".join(tiles) else "5-2", rounds_done=12, tiles=tiles, markers=markers, tears=tears)


def finish(state, winner: int = 0, cards: list[int] | None = None):
    """Play the last round: everybody lays 0, the winner bids 1 and its charm breaks."""
    players = dumped(state)["players"]
    state = lay(state, cards or [0] * players)
    return play_sequence(RULES, state, _win_for(state, winner=winner, bid=1))


def test_after_thirteen_tiles_the_lowest_burns_minus_tears_wins():
    # Seat 0 takes the 5-burn tile when its bid of 1 breaks on a total of 0.
    state = last_round(3, ["2-1", "3-1,3-2", "4-1"], ["-", "-", "-"], ["1", "-", "1,1"])
    state = finish(state, winner=0)
    outcome = RULES.outcome(state)
    assert outcome is not None
    # burns - tears: seat 0 2+5-1 = 6, seat 1 3+3 = 6, seat 2 4-2 = 2.
    assert outcome.scores == (6.0, 6.0, 2.0)
    assert outcome.winners == (2,)
    assert outcome.reason == "score"
    assert RULES.to_act(state) == ()
    assert RULES.legal_moves(state, 0) == []
    assert RULES.timeout_move(state, 0) is None
    with pytest.raises(IllegalMove, match="the game is over"):
        RULES.play(state, 0, "play 0")


def test_a_tied_score_goes_to_the_most_tears():
    state = finish(last_round(3, ["2-1,2-2", "3-1,3-2", "-"], ["-", "-", "-"], ["1", "1,1,1", "-"]), winner=2)
    # seat 0: 4-1 = 3, seat 1: 6-3 = 3, seat 2: 5 (the last tile).
    outcome = RULES.outcome(state)
    assert outcome.scores == (3.0, 3.0, 5.0)
    assert (outcome.winners, outcome.reason) == ((1,), "tears")


def test_then_the_fewest_tiles_and_markers():
    tiles = ["2-1,2-2", "4-1", "-", "3-3,3-4"]
    markers = ["-", "-", "-", "-"]
    state = finish(last_round(4, tiles, markers, ["-", "-", "-", "-"]), winner=2)
    # seats 0 and 1 both at 4 burns and no tears; seat 1 has one tile, seat 0 two.
    outcome = RULES.outcome(state)
    assert outcome.scores[:2] == (4.0, 4.0)
    assert (outcome.winners, outcome.reason) == ((1,), "tiles")


def test_markers_count_as_burns_and_as_pieces_at_the_end():
    tiles = ["2-1", "-", "4-1,3-1", "4-2,3-2", "-"]
    markers = ["2", "4", "-", "-", "-"]
    state = finish(last_round(5, tiles, markers, ["-", "-", "-", "-", "-"]), winner=4)
    outcome = RULES.outcome(state)
    # seat 0: 2+2 = 4 with two pieces; seat 1: 4 with one piece; the others 7, 7 and 5.
    assert outcome.scores[:2] == (4.0, 4.0)
    assert (outcome.winners, outcome.reason) == ((1,), "tiles")


def test_a_tie_on_everything_is_a_shared_win():
    tiles = ["2-1", "2-2", "-", "-", "-", "-"]
    tears = ["-"] * 6
    markers = ["-", "-", "3", "3", "3", "3"]
    state = finish(last_round(6, tiles, markers, tears), winner=2)
    outcome = RULES.outcome(state)
    assert outcome.scores == (2.0, 2.0, 8.0, 3.0, 3.0, 3.0)
    assert (outcome.winners, outcome.reason) == ((0, 1), "shared")
    assert RULES.utility(outcome, 0) == RULES.utility(outcome, 1)
    assert RULES.utility(outcome, 0) > RULES.utility(outcome, 3) > RULES.utility(outcome, 2)


def test_a_full_game_lasts_thirteen_rounds_at_every_count():
    for players in (3, 4, 5, 6):
        state = RULES.new_game(players, seed=players)
        while not RULES.is_over(state):
            seat = RULES.to_act(state)[0]
            state = RULES.play(state, seat, RULES.timeout_move(state, seat))
        data = dumped(state)
        assert len(data["history"]) == 13 and data["horde"] == []
        taken = sum(len(t) for t in data["tiles"]) + len(data["dropped"])
        assert taken == 13


# -- timers and helpers for bots -----------------------------------------------------------------


def test_a_seat_out_of_time_lays_its_lowest_card_and_withdraws_or_bids_the_minimum():
    state = position(4, tile("live").id, facing=1, hands=["2345", "135", "012345", "45"])
    assert [RULES.timeout_move(state, s) for s in range(4)] == ["play 2", "play 1", "play 0", "play 4"]
    state = lay(state, [2, 1, 0, 4])
    assert RULES.timeout_move(state, 1) == "bid 0"
    assert RULES.timeout_move(state, 0) is None
    state = RULES.play(state, 1, "bid 3")
    assert RULES.timeout_move(state, 2) == "withdraw"
    assert RULES.timeout_move(state, 1) is None  # the highest bidder is not on the clock


def test_evaluate_prefers_the_seat_with_fewer_burns():
    state = position(3, tile("infinite", 3).id, rounds_done=4, tiles=["2-1,2-2", "-", "2-3"], tears=["-", "1", "-"])
    values = [RULES.evaluate(state, s) for s in range(3)]
    assert all(0.0 < v < 1.0 for v in values)
    assert values[1] > values[2] > values[0]
