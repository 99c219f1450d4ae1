"""What each seat and a spectator see in Drekki, and that nothing secret leaks.

The leak test does not list the fields that ought to be hidden: it re-deals,
with its own code, everything a viewer may not know (other mages' laid cards,
the order and the unseen tiles of the horde, pile contents and orders,
face-down discards, drawn pairs, tear values, the seed) and requires the
viewer's JSON view to come out byte for byte the same. Any secret that reaches
a view, in any field, makes the two views differ.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

import pytest
import ujson

from games.engines.drekki import RULES
from games.engines.drekki.state import NO_CARD, TILE_BURNS, DrekkiState, evolve
from games.engines.drekki.tiles import TILES
from tests.conftest import soak

COUNTS = [2, 3, 4, 5, 6]


def random_game(players: int, seed: int):
    """Every state of a seeded random game, with enough withdrawals to see all outcomes."""
    rng = random.Random(seed * 7 + players)
    state = RULES.new_game(players, seed=seed)
    yield state
    while not RULES.is_over(state):
        seat = rng.choice(RULES.to_act(state))
        moves = RULES.legal_moves(state, seat)
        if "withdraw" in moves and rng.random() < 0.55:
            move = "withdraw"
        else:
            move = rng.choice(moves[:4])
        state = RULES.play(state, seat, move)
        yield state


def mask(cards) -> int:
    out = 0
    for c in cards:
        out |= 1 << c
    return out


BY_BURNS = {b: [t.index for t in TILES if t.burns == b] for b in (2, 3, 4, 5)}


def rehide(state: DrekkiState, viewer: int | None, rng: random.Random) -> DrekkiState:
    """Re-deal, at random, everything ``viewer`` cannot know; keep everything else."""
    own = set() if viewer is None else set(state.mages_of(viewer))
    revealed = state.phase in ("colour", "burn")
    horde = state.horde
    if horde:
        # The later tiles: at each burn level (they come in rising order), as many
        # tiles drawn from those nobody has seen.
        seen = {r.tile for r in state.history} | {horde[0]}
        later: list[int] = []
        for burns, tiles in BY_BURNS.items():
            count = sum(1 for t in horde[1:] if TILE_BURNS[t] == burns)
            if count:
                later += rng.sample([t for t in tiles if t not in seen], count)
        horde = (horde[0], *later)
    changes: dict = {"seed": rng.getrandbits(48), "horde": horde}
    if state.last is not None and state.last[0] != viewer and state.last[1].split()[0] in ("play", "keep"):
        # The card in a face-down move: any card at all.
        changes["last"] = (state.last[0], f"{state.last[1].split()[0]} {rng.randrange(6)}")
    chosen = list(state.chosen)
    if not state.duel:
        hands = list(state.hands)
        for m in range(state.mage_count):
            if m in own or revealed or chosen[m] == NO_CARD:
                continue
            holding = hands[m] | 1 << chosen[m]
            chosen[m] = rng.choice([v for v in range(6) if holding >> v & 1])
            hands[m] = holding & ~(1 << chosen[m])
        changes.update(chosen=tuple(chosen), hands=tuple(hands))
        return evolve(state, **changes, **rehide_tears(state, viewer, rng))
    piles, hidden, offers = list(state.piles), list(state.hidden), list(state.offers)
    for m in range(4):
        if m in own:
            order = list(piles[m])
            rng.shuffle(order)
            piles[m] = tuple(order)
            continue
        laid = chosen[m] != NO_CARD and not revealed
        unknown = list(piles[m]) + [v for v in range(6) if hidden[m] >> v & 1] + list(offers[m])
        unknown += [chosen[m]] if laid else []
        rng.shuffle(unknown)
        if laid:
            chosen[m] = unknown.pop()
        if offers[m]:
            offers[m] = tuple(sorted(unknown.pop() for _ in range(2)))
        hidden[m] = mask(unknown.pop() for _ in range(hidden[m].bit_count()))
        piles[m] = tuple(unknown)
    changes.update(chosen=tuple(chosen), piles=tuple(piles), hidden=tuple(hidden), offers=tuple(offers))
    return evolve(state, **changes, **rehide_tears(state, viewer, rng))


def rehide_tears(state: DrekkiState, viewer: int | None, rng: random.Random) -> dict:
    """Tear tokens are taken face down: until the end, another seat's values are
    any values. In the duel they come from the face-down pool; at 3-6 players
    every token is worth 1 today, so other values are drawn (the day the printed
    values are known, no view may give them away either)."""
    tears = list(state.tears)
    secret = [s for s in range(state.players) if s != viewer and state.phase != "over"]
    if not state.duel:
        for s in secret:
            tears[s] = tuple(rng.randint(1, 3) for _ in tears[s])
        return {"tears": tuple(tears)}
    values = list(state.tear_pool) + [v for s in secret for v in tears[s]]
    rng.shuffle(values)
    for s in secret:
        tears[s] = tuple(values.pop() for _ in tears[s])
    return {"tears": tuple(tears), "tear_pool": tuple(values)}


def as_json(view) -> str:
    """The view's text as a socket frame carries it (games/consumers.py encodes
    frames with ujson, 3 to 4 times faster than json)."""
    return ujson.dumps(view, ensure_ascii=False, escape_forward_slashes=False)


def check_no_leak(players: int, seeds: Iterable[int]) -> None:
    rng = random.Random(players)
    changed = 0
    steps = 0
    for seed in seeds:
        for state in random_game(players, seed):
            steps += 1
            for viewer in [None, *range(players)]:
                other = rehide(state, viewer, rng)
                changed += other != state
                seen = as_json(RULES.view(state, viewer))
                assert as_json(RULES.view(other, viewer)) == seen, (players, seed, viewer, RULES.format_position(state))
                if viewer is not None:
                    assert RULES.legal_moves(other, viewer) == RULES.legal_moves(state, viewer)
    # The re-dealing really changed hidden things (else the test would prove nothing).
    assert changed > steps


# Games that reach every line of the engine and of this test that the 300 games reach
# beyond the first 8 (measured per game with sys.monitoring: docs/performance.md, "CI").
# The suite plays these; `make soak` (LUDO_SOAK=full) the 300.
REACHING_SEEDS = {2: [43, 31, 60], 3: [135, 199], 4: [8, 118, 207], 5: [31, 38], 6: [57, 137]}


@pytest.mark.parametrize("players", COUNTS)
def test_no_view_shows_a_secret_fast(players):
    check_no_leak(players, range(8))


@pytest.mark.slow
@pytest.mark.parametrize("players", COUNTS)
def test_no_view_shows_a_secret_over_300_games(players):
    check_no_leak(players, soak(range(300), REACHING_SEEDS[players]))


@pytest.mark.parametrize("players", COUNTS)
def test_another_seats_tear_values_and_score_are_hidden_until_the_end(players):
    tears_seen = 0
    for seed in range(3):
        for state in random_game(players, seed):
            over = state.phase == "over"
            for viewer in [None, *range(players)]:
                for info in RULES.view(state, viewer)["seats"]:
                    known = over or info["seat"] == viewer
                    assert (info["tear_values"] is not None) == known, (players, seed, viewer, info)
                    assert (info["score"] is not None) == known, (players, seed, viewer, info)
                    assert info["tears"] == len(state.tears[info["seat"]])  # the count is public
                    tears_seen += bool(info["tears"]) and not known
    assert tears_seen  # the games really took tear tokens before their end


@pytest.mark.parametrize("players", COUNTS)
def test_a_state_rebuilt_from_a_view_looks_the_same_to_that_seat(players):
    rng = random.Random(99)
    for seed in range(3):
        for state in random_game(players, seed):
            for viewer in [None, *range(players)]:
                view = RULES.view(state, viewer)
                sample = RULES.state_from_view(view, viewer, rng)
                assert RULES.view(sample, viewer) == view
                if viewer is not None:
                    assert RULES.legal_moves(sample, viewer) == RULES.legal_moves(state, viewer)
                    assert RULES.to_act(sample) == RULES.to_act(state)


def test_rebuilt_states_vary_what_the_seat_cannot_see():
    state = RULES.new_game(4, seed=3)
    for seat in range(4):
        state = RULES.play(state, seat, RULES.legal_moves(state, seat)[seat])
    view = RULES.view(state, 0)
    rng = random.Random(1)
    samples = [RULES.state_from_view(view, 0, rng) for _ in range(30)]
    assert {s.chosen[0] for s in samples} == {state.chosen[0]}
    assert len({s.chosen[1:] for s in samples}) > 5
    assert len({s.horde[1:] for s in samples}) > 5
    assert len({s.seed for s in samples}) == 30


def test_a_seat_sees_its_own_hand_and_card_but_only_the_others_holdings():
    state = RULES.new_game(3, seed=2)
    state = RULES.play(state, 1, "play 4")
    mine = RULES.view(state, 1)["mages"][1]
    assert (mine["hand"], mine["card"], mine["laid"]) == ([0, 1, 2, 3, 5], 4, True)
    theirs = RULES.view(state, 0)["mages"][1]
    assert theirs["holding"] == [0, 1, 2, 3, 4, 5] and theirs["laid"]
    assert "hand" not in theirs and "card" not in theirs
    watcher = RULES.view(state, None)
    assert all("hand" not in m and "card" not in m for m in watcher["mages"])
    assert watcher["legal_moves"] == []
    assert "seed" not in as_json(watcher)


def test_a_view_tells_the_horde_by_count_only():
    state = RULES.new_game(5, seed=4)
    view = RULES.view(state, 2)
    assert view["horde_left"] == {"2": 3, "3": 4, "4": 4, "5": 1}
    later = {TILES[t].id for t in state.horde[1:]}
    assert not any(f'"{tile}"' in as_json(view) for tile in later)


def test_the_live_auction_countdown_is_public():
    state = RULES.parse_position(
        "\n".join(
            [
                "drekki players=3 countdown=20 seed=1",
                "phase bidding",
                "facing 0",
                "horde 2-3 2-1 2-2 2-4 3-1 3-2 3-3 3-4 4-1 4-2 4-3 4-4 5-1",
                "chosen 1 2 3",
                "hands 02345 01345 01245",
                "auction high=4 leader=0 out=- turn=-",
                "tiles - - -",
                "markers - - -",
                "tears - - -",
                "dropped -",
            ]
        )
    )
    assert RULES.view(state, None)["countdown"] == {"seat": 0, "move": "close", "seconds": 20}
    assert RULES.view(state, 1)["to_act"] == [1, 2]


@pytest.mark.parametrize("players", [3, 4, 6])
def test_the_move_list_learns_public_moves_at_once_and_laid_cards_at_the_reveal(players):
    reveals = 0
    for seed in range(4):
        previous = None
        for state in random_game(players, seed):
            if state.last is None:
                assert RULES.view(state, None)["last_move"] is None
                previous = state
                continue
            seat, move = state.last
            for viewer in [None, *range(players)]:
                view = RULES.view(state, viewer)
                hidden = move.startswith("play ") and viewer != seat
                assert view["last_move"] == {"seat": seat, "move": None if hidden else move}
                revealed = view["revealed_moves"]
                if state.phase in ("colour", "burn") or (previous.phase == "bidding" and state.phase != "bidding"):
                    # The move that ended the auction shows every laid card.
                    cards = previous.chosen
                    assert revealed == [{"seat": m, "move": f"play {c}"} for m, c in enumerate(cards)]
                else:
                    assert revealed == []
            reveals += bool(RULES.view(state, None)["revealed_moves"])
            previous = state
    assert reveals >= 4 * 13


def broken_charm_duels(games: int):
    """Burn phases of random duels where bids are often too high (the charm breaks),
    with the states just before and after them."""
    rng = random.Random(5)
    found = 0
    for seed in range(games):
        state = RULES.new_game(2, seed=seed)
        previous = state
        while not RULES.is_over(state):
            seat = rng.choice(RULES.to_act(state))
            moves = RULES.legal_moves(state, seat)
            move = "withdraw" if "withdraw" in moves and rng.random() < 0.5 else rng.choice(moves)
            previous, state = state, RULES.play(state, seat, move)
            if state.phase == "burn" or previous.phase == "burn":
                found += state.phase == "burn"
                yield state
    assert found >= games  # the test really meets the burn phase


def test_no_view_shows_a_secret_while_the_winner_picks_its_burned_mage():
    rng = random.Random(7)
    for state in broken_charm_duels(games=12):
        for viewer in (None, 0, 1):
            other = rehide(state, viewer, rng)
            seen = as_json(RULES.view(state, viewer))
            assert as_json(RULES.view(other, viewer)) == seen, (viewer, RULES.format_position(state))
            view = RULES.view(state, viewer)
            sample = RULES.state_from_view(view, viewer, rng)
            assert RULES.view(sample, viewer) == view
            if viewer is not None:
                assert RULES.legal_moves(sample, viewer) == RULES.legal_moves(state, viewer)
