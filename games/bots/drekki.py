"""Drekki bots: a heuristic player, and a search that improves on it by playouts.

Both reason over what one seat knows of the round (an :class:`Outlook`): the
tile, where the dragon faces, and, for every mage, the cards it may have laid
(its own laid card when the seat runs it; 3-6 players: the mage's public
holding; the duel: the colour's cards not yet revealed since its pile was
rebuilt). Hidden cards are taken as equally likely among those, and the
spread of the revealed total and of the majority colours is worked out
exactly (and kept, since the same holdings come back again and again).

The heuristic ("heuristic", the medium level):

- Cards: it lays the card that makes the dragon least likely to stop on its own
  mages, given the tile's movement table, while keeping some colours in hand
  to steer with later.
- Bids: it bids when winning is worth it: a tear and immunity when the charm
  holds, against the tile's burns when it breaks. It opens as high as it dares,
  raises by the least step (by as much as it dares in a unique auction), and
  withdraws beyond that.
- Tied colours (it won the auction): it sends the dragon onto the opponent
  doing best, else as far from itself as it can.
- Its burned mage (duel, its charm broke and the dragon faces the other
  player's mage): the two choices give the same game up to swapping the labels
  A1/A2 and B1/B2 (the next dragon faces this player either way, and mages
  alternate round the table, so every later stop lands on the same player),
  so it takes the first one offered, the mage to the left of the faced one,
  as the timeout does; the search does not spend playouts on the other.

The search ("ismcts", the hard level) is information-set Monte Carlo search
with a single information-set node, the bot's decision: every iteration draws
a full state its seat cannot tell from the one it sees
(``rules.state_from_view``), plays one candidate move on it, and plays on with
the heuristic at every seat (itself included), each reading only its own
seat's knowledge of the drawn state, to the end of the round (``horizon``
further rounds, or the game's end, on request). The reward is linear: the
other seats' average score minus the bot's (burns minus tears) when the
playout stops. The candidates are the heuristic's: every card or colour, but
only the bids near what the cards can plausibly total, and withdrawing. All
candidates meet the same drawn states and the same playout dice (a paired
comparison, which removes most of the luck of the deal from the differences),
and candidates that fall clearly behind the best are dropped as the search
goes. Measured against three heuristic bots (docs/performance.md), playouts
that stop with the round did better than longer ones (whose later rounds add
noise the same for every candidate in expectation, but not in any one
sample), and noise-free heuristic playouts better than noisy ones.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Mapping
from typing import Any

from games.engines.base import Rules, Seat
from games.engines.drekki.rules import BID_MOVES, MOVES
from games.engines.drekki.state import (
    BIDDING,
    BURN,
    CARDS,
    COLOUR,
    NO_CARD,
    OVER,
    REVEALED,
    ROUNDS,
    DrekkiState,
    mask_cards,
    seat_score,
)
from games.engines.drekki.tiles import COLOURS, TILES, TILESET, DragonTile

from .base import Bot, Budget, Clock, check_budget

ALL_CARDS = 0b111111
CARD_COLOURS = tuple(c // 2 for c in range(6))
# The heuristic's bidding: a bid is good when its worth is at least GOOD_WORTH,
# a broken charm weighing CAUTION times the tile's burns.
CAUTION = 1.2
GOOD_WORTH = 0.25
HAND_COLOUR_WEIGHT = 0.2


# -- what a seat knows of the round ------------------------------------------------------------


class Outlook:
    """One seat's knowledge of the round: the tile, the mages, the cards each may lay.

    ``options[m]`` is a mask of the cards mage ``m`` may have laid (or may lay):
    one card when it is known, 0 for the seat's own mage still to choose.
    """

    __slots__ = ("seat", "players", "count", "owners", "tile", "facing", "options", "hand", "scores")

    def __init__(
        self,
        seat: Seat,
        players: int,
        tile: DragonTile,
        facing: int,
        options: tuple[int, ...],
        hand: int | None,
        scores: tuple[float, ...] = (),
    ) -> None:
        self.seat = seat
        self.players = players
        self.count = len(options)
        self.owners = OWNERS[players]
        self.tile = tile
        self.facing = facing
        self.options = options
        self.hand = hand
        self.scores = scores

    @property
    def mine(self) -> tuple[int, ...]:
        return tuple(m for m in range(self.count) if self.owners[m] == self.seat)

    def stops(self, colour: int) -> tuple[int, ...]:
        return dragon_stops(self.tile, self.facing, self.players, colour)

    def harm_to(self, owner: Seat, colour: int, immune: Seat | None) -> float:
        """Burns ``owner`` takes if ``colour`` moves the dragon and ``immune`` won."""
        if owner == immune:
            return 0.0
        return harm_vector(self.tile, self.facing, owner, self.players)[colour]

    def danger(self, options: tuple[int, ...]) -> float:
        """Average burns to this seat when the charm holds and nobody is immune."""
        harm = harm_vector(self.tile, self.facing, self.seat, self.players)
        w = colour_weights(options)
        return w[0] * harm[0] + w[1] * harm[1] + w[2] * harm[2]

    def with_card(self, mage: int, card: int) -> tuple[int, ...]:
        options = list(self.options)
        options[mage] = 1 << card
        return tuple(options)


# Per player count, the seat that runs each mage.
OWNERS = {players: tuple(m % 2 if players == 2 else m for m in range(4 if players == 2 else players))
          for players in range(2, 7)}


def dragon_stops(tile: DragonTile, facing: int, players: int, colour: int) -> tuple[int, ...]:
    count = len(OWNERS[players])
    first = (facing + tile.moves[colour]) % count
    if players < 5:
        return (first,)
    return (first, (first + tile.moves_5_6[colour]) % count)


_harms: dict[tuple[int, int, int, int], tuple[float, float, float]] = {}


def harm_vector(tile: DragonTile, facing: int, seat: Seat, players: int) -> tuple[float, float, float]:
    """Per power colour, the burns ``seat`` takes when that colour moves the dragon (nobody immune)."""
    key = (tile.index, facing, seat, players)
    found = _harms.get(key)
    if found is None:
        owners = OWNERS[players]
        found = _harms[key] = tuple(
            float(sum(tile.burns for m in dragon_stops(tile, facing, players, c) if owners[m] == seat))
            for c in range(3)
        )  # type: ignore[assignment]
    return found


def duel_options(shown: int, laid: bool, drawing: bool, pile: int) -> int:
    """The cards another duel mage may lay, as far as its rival knows."""
    if laid or drawing or pile >= 2:
        return ALL_CARDS & ~shown
    # A pile of one card or none is rebuilt, from all the mage's discards (the
    # revealed ones too), before its next card or its next pair is drawn: any
    # card may come.
    return ALL_CARDS


def outlook_of_view(view: Mapping[str, Any], seat: Seat) -> Outlook:
    revealed = view.get("revealed")
    options = []
    for info in view["mages"]:
        if info["owner"] == seat:
            options.append(0 if info.get("card") is None else 1 << info["card"])
        elif revealed is not None:
            options.append(1 << revealed[info["mage"]])
        elif "holding" in info:
            options.append(_mask(info["holding"]))
        else:
            options.append(duel_options(_mask(info["shown"]), info["laid"], info["drawing"], info["pile"]))
    mine = view["mages"][seat]
    hand = _mask(mine["hand"]) if "hand" in mine else None
    scores = tuple(
        float(s["score"] if s["score"] is not None else s["burns"] - s["tears"]) for s in view["seats"]
    )
    return Outlook(
        seat, view["players"], TILES[TILESET.by_id[view["tile"]["id"]]], view["facing"], tuple(options), hand, scores
    )


def state_options(state: DrekkiState, seat: Seat) -> tuple[int, ...]:
    """Per mage, the cards ``seat`` knows it may have laid (see :class:`Outlook`), read from a state."""
    chosen = state.chosen
    if state.phase in REVEALED:
        return tuple(1 << c for c in chosen)
    owners = OWNERS[state.players]
    if state.duel:
        return tuple(
            (0 if chosen[m] == NO_CARD else 1 << chosen[m]) if owners[m] == seat
            else duel_options(state.shown[m], chosen[m] != NO_CARD, bool(state.offers[m]), len(state.piles[m]))
            for m in range(4)
        )
    hands = state.hands
    return tuple(
        (0 if c == NO_CARD else 1 << c) if m == seat else hands[m] | (0 if c == NO_CARD else 1 << c)
        for m, c in enumerate(chosen)
    )


def outlook_of_state(state: DrekkiState, seat: Seat) -> Outlook:
    """What ``seat`` knows of ``state``'s round, read from the state without a view."""
    return Outlook(
        seat,
        state.players,
        TILES[state.horde[0]],
        state.facing,
        state_options(state, seat),
        None if state.duel else state.hands[seat],
    )


def _mask(cards: Any) -> int:
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


# -- spreads, worked out exactly and kept ------------------------------------------------------

_SPREAD_CACHE_MAX = 50_000
_totals: dict[tuple[int, ...], tuple[float, ...]] = {}
_colours: dict[tuple[int, ...], tuple[float, float, float]] = {}


def total_tail(options: tuple[int, ...]) -> tuple[float, ...]:
    """``tail[b]``: the chance that the revealed total is at least ``b`` (b = 0..30)."""
    key = tuple(sorted(options))
    found = _totals.get(key)
    if found is not None:
        return found
    dist = [1.0]
    for mask in key:
        cards = mask_cards(mask)
        w = 1.0 / len(cards)
        new = [0.0] * (len(dist) + cards[-1])
        for total, p in enumerate(dist):
            if p:
                for c in cards:
                    new[total + c] += p * w
        dist = new
    tail = [0.0] * 32
    running = 0.0
    for total in range(len(dist) - 1, -1, -1):
        running += dist[total]
        tail[total] = running
    for b in range(len(dist)):
        tail[b] = min(1.0, tail[b])
    if len(_totals) >= _SPREAD_CACHE_MAX:
        _totals.clear()
    found = _totals[key] = tuple(tail)
    return found


def colour_weights(options: tuple[int, ...]) -> tuple[float, float, float]:
    """Per power colour, its share of moving the dragon: the chance that it is a
    majority colour, a tie of two or three counting a half or a third (the heuristic
    takes a tie's colours as equally likely)."""
    key = tuple(sorted(options))
    found = _colours.get(key)
    if found is not None:
        return found
    dist: dict[tuple[int, int, int], float] = {(0, 0, 0): 1.0}
    for mask in key:
        cards = mask_cards(mask)
        weights = [0.0, 0.0, 0.0]
        for c in cards:
            weights[CARD_COLOURS[c]] += 1.0 / len(cards)
        new: dict[tuple[int, int, int], float] = {}
        for (y, r, b), p in dist.items():
            for colour, w in enumerate(weights):
                if w:
                    k = (y + (colour == 0), r + (colour == 1), b + (colour == 2))
                    new[k] = new.get(k, 0.0) + p * w
        dist = new
    share = [0.0, 0.0, 0.0]
    for counts, p in dist.items():
        top = max(counts)
        tied = [c for c in range(3) if counts[c] == top]
        for c in tied:
            share[c] += p / len(tied)
    if len(_colours) >= _SPREAD_CACHE_MAX:
        _colours.clear()
    found = _colours[key] = (share[0], share[1], share[2])
    return found


# -- the heuristic's choices ---------------------------------------------------------------------


def missing_colours(hand: int) -> int:
    if hand.bit_count() <= 1:
        return 0
    return 3 - len({CARD_COLOURS[c] for c in mask_cards(hand)})


def card_costs(look: Outlook, mage: int, cards: tuple[int, ...]) -> list[float]:
    """Per card: the burns it lets the dragon bring onto this seat, and the colours it costs."""
    costs = []
    for card in cards:
        cost = look.danger(look.with_card(mage, card))
        if look.hand is not None:
            cost += HAND_COLOUR_WEIGHT * missing_colours(look.hand & ~(1 << card))
        costs.append(cost)
    return costs


def bid_worths(look: Outlook, low: int, high: int) -> list[float]:
    """Per bid from ``low`` to ``high``: what winning the auction with it is worth to this seat."""
    tail = total_tail(look.options)
    danger = look.danger(look.options)
    burns = look.tile.burns
    return [tail[b] * (1.0 + danger) - (1.0 - tail[b]) * burns * CAUTION for b in range(low, high + 1)]


def heuristic_bid(look: Outlook, low: int, high: int, can_withdraw: bool, unique: bool) -> int | None:
    """The heuristic's bid (None: withdraw)."""
    worths = bid_worths(look, low, high)
    good = [low + k for k, w in enumerate(worths) if w >= GOOD_WORTH]
    if not can_withdraw:
        return max(good) if good else low
    if not good:
        return None
    return max(good) if unique else min(good)


def colour_value(look: Outlook, colour: int) -> tuple[float, int]:
    """How much a tied colour hurts the others (the leader most), then how far it sends the dragon."""
    others = [s for s in range(look.players) if s != look.seat]
    leading = min(others, key=lambda s: look.scores[s])
    harm = sum(look.harm_to(s, colour, look.seat) * (1.5 if s == leading else 1.0) for s in others)
    last = look.stops(colour)[-1]
    away = min(min((last - m) % look.count, (m - last) % look.count) for m in look.mine)
    return (harm, away)


def burn_move(moves: list[str]) -> str:
    """Which of its mages the winner burns when its charm breaks (duel): see the module's notes.

    Either choice leads to the same game with the labels swapped, so the first
    one listed (the mage to the left of the faced one) is as good as any.
    """
    return moves[0]


def _own_undecided(look: Outlook) -> int:
    return next(m for m in look.mine if not look.options[m])


# -- the heuristic bot (medium) -----------------------------------------------------------------


class DrekkiHeuristicBot(Bot):
    kind = "heuristic"

    def choose(self, view: Mapping[str, Any], seat: Seat) -> str:
        moves: list[str] = list(view["legal_moves"])
        if not moves:
            raise ValueError(f"seat {seat} has no move to make now")
        if len(moves) == 1:
            return moves[0]
        if moves[0].startswith("top "):
            return self.rng.choice(moves)
        if view["phase"] == BURN:
            return burn_move(moves)
        look = outlook_of_view(view, seat)
        if view["phase"] == "bidding":
            bids = [int(m.split()[1]) for m in moves if m.startswith("bid ")]
            bid = heuristic_bid(look, bids[0], bids[-1], "withdraw" in moves, view["auction"]["type"] == "unique")
            return "withdraw" if bid is None else f"bid {bid}"
        if view["phase"] == "colour":
            return max(moves, key=lambda m: colour_value(look, COLOURS.index(m.split()[1])))
        cards = tuple(int(m.split()[1]) for m in moves)
        costs = card_costs(look, _own_undecided(look), cards)
        best = min(range(len(cards)), key=lambda k: (costs[k], self.rng.random()))
        return moves[best]


# -- the heuristic as a playout policy, straight from a state ------------------------------------


def policy_move(rules: Rules, state: DrekkiState, seat: Seat, rng: random.Random, noise: float) -> str:
    """The heuristic's move for ``seat`` in ``state``, from that seat's knowledge only.

    With probability ``noise`` it plays a near miss instead: a random card or
    pile, or a bid one step off (withdrawing when the step falls below the
    lowest bid, bidding the lowest when it would have withdrawn).
    """
    moves = rules.legal_moves(state, seat)
    if len(moves) == 1:
        return moves[0]
    phase = state.phase
    noisy = noise and rng.random() < noise
    if phase == CARDS:
        if noisy or moves[0][0] == "t":  # "top A1": the heuristic draws a pile at random
            return rng.choice(moves)
        look = outlook_of_state(state, seat)
        cards = tuple(MOVES[m][1] for m in moves)
        costs = card_costs(look, _own_undecided(look), cards)
        return moves[min(range(len(cards)), key=lambda k: (costs[k], rng.random()))]
    if phase == BIDDING:
        look = outlook_of_state(state, seat)
        low = state.high + 1
        can_withdraw = state.high >= 0
        bid = heuristic_bid(look, low, state.max_total, can_withdraw, TILES[state.horde[0]].auction == "unique")
        if noisy:
            if bid is None:
                bid = low
            else:
                bid += rng.choice((-1, 1))
                if bid < low:
                    bid = None if can_withdraw else low
                bid = None if bid is None else min(bid, state.max_total)
        return "withdraw" if bid is None else BID_MOVES[bid]
    if phase == BURN:
        return burn_move(moves)
    if phase == COLOUR:
        look = outlook_of_state(state, seat)
        look.scores = tuple(float(seat_score(state, s)) for s in range(state.players))
        return max(moves, key=lambda m: (colour_value(look, MOVES[m][1]), rng.random()))
    return rng.choice(moves)


# -- the search (hard) ------------------------------------------------------------------------


class DrekkiSearchBot(Bot):
    """Flat information-set Monte Carlo search over the heuristic's candidate moves.

    ``iterations`` counts playouts (one candidate on one drawn state);
    ``seconds`` caps the wall-clock time (checked between rounds of playouts, a
    round giving every candidate still in the race one playout on the same
    state, and not started when, at the pace so far, it would end past the cap);
    ``floor`` playouts are always played (one round at least), unless the race is
    decided before: one candidate left.
    After ``min_rounds`` rounds, a candidate whose paired difference with the
    best is below zero by more than ``drop_z`` standard errors is dropped.
    """

    kind = "ismcts"

    def __init__(
        self,
        rules: Rules,
        seed: Any = 0,
        *,
        iterations: int | None = 2000,
        seconds: float | None = None,
        floor: int = 1,
        noise: float = 0.0,
        horizon: int | None = 0,
        min_rounds: int = 10,
        drop_z: float = 2.5,
        clock: Clock = time.monotonic,
    ) -> None:
        super().__init__(rules, seed, clock=clock)
        check_budget(iterations, seconds, "the Drekki search", floor)
        self.iterations = iterations
        self.seconds = seconds
        self.floor = floor
        self.noise = noise
        if horizon is not None and horizon < 0:
            raise ValueError(f"horizon must be 0 or more rounds, not {horizon}")
        self.horizon = horizon
        self.min_rounds = min_rounds
        self.drop_z = drop_z
        # What the last search did, for benchmarks and logs.
        self.last_iterations = 0
        self.last_seconds = 0.0

    def choose(self, view: Mapping[str, Any], seat: Seat) -> str:
        budget = Budget(self.iterations, self.seconds, self.floor, self.clock)
        budget.start()
        moves: list[str] = list(view["legal_moves"])
        if not moves:
            raise ValueError(f"seat {seat} has no move to make now")
        candidates = self.candidates(view, seat, moves)
        self.last_iterations = 0
        if len(candidates) > 1:
            candidates = self._search(view, seat, candidates, budget)
        self.last_seconds = budget.elapsed()
        return candidates[0]

    def candidates(self, view: Mapping[str, Any], seat: Seat, moves: list[str]) -> list[str]:
        """The moves worth searching, the heuristic's own choice first."""
        if view["phase"] == BURN:
            return [burn_move(moves)]
        if view["phase"] != "bidding" or len(moves) == 1:
            return moves
        look = outlook_of_view(view, seat)
        tail = total_tail(look.options)
        bids = [MOVES[m][1] for m in moves if m != "withdraw"]
        low, top = bids[0], bids[-1]
        can_withdraw = "withdraw" in moves
        chosen = heuristic_bid(look, low, top, can_withdraw, view["auction"]["type"] == "unique")
        wanted: list[int | None] = [chosen, low, low + 1]
        if chosen is not None:
            wanted += [chosen - 1, chosen + 1]
        for chance in (0.8, 0.6, 0.4):
            wanted.append(max((b for b in range(low, top + 1) if tail[b] >= chance), default=None))
        found: list[str] = []
        for bid in wanted:
            if bid is None:
                move = "withdraw" if can_withdraw else None
            elif low <= bid <= top and (tail[bid] >= 0.1 or (bid == low and not can_withdraw)):
                move = BID_MOVES[bid]
            else:
                move = None
            if move is not None and move not in found:
                found.append(move)
        if can_withdraw and "withdraw" not in found:
            found.append("withdraw")
        return found

    def _search(
        self, view: Mapping[str, Any], seat: Seat, candidates: list[str], budget: Budget
    ) -> list[str]:
        rules = self.rules
        rng = self.rng
        rewards: dict[str, list[float]] = {move: [] for move in candidates}
        alive = list(candidates)
        # The playouts stop ``horizon`` rounds after the current one (the game's end at most).
        stop = view["round"] + (self.horizon if self.horizon is not None else ROUNDS)
        done = 0
        rounds = 0
        while len(alive) > 1:
            if rounds and not budget.more(done, len(alive)):
                break
            drawn = rules.state_from_view(view, seat, rng)
            dice = rng.getrandbits(64)
            for move in alive:
                after = rules.play(drawn, seat, move)
                rewards[move].append(self._playout(after, seat, random.Random(dice), stop))
            done += len(alive)
            rounds += 1
            if rounds >= self.min_rounds:
                alive = self._race(alive, rewards)
        self.last_iterations = done
        return sorted(alive, key=lambda m: -math.fsum(rewards[m]) / max(1, len(rewards[m])))

    def _race(self, alive: list[str], rewards: dict[str, list[float]]) -> list[str]:
        """The candidates not clearly behind the best (paired differences, same states and dice)."""
        n = len(rewards[alive[0]])
        best = max(alive, key=lambda m: math.fsum(rewards[m]))
        kept = []
        for move in alive:
            if move == best:
                kept.append(move)
                continue
            diffs = [a - b for a, b in zip(rewards[move], rewards[best])]
            mean = math.fsum(diffs) / n
            var = math.fsum((d - mean) ** 2 for d in diffs) / (n - 1)
            if mean + self.drop_z * math.sqrt(var / n) >= 0:
                kept.append(move)
        return kept

    def _playout(self, state: DrekkiState, me: Seat, rng: random.Random, stop: int) -> float:
        """The game played on by the heuristic at every seat: the others' average score minus mine.

        It stops at the end of the game, or once ``stop`` rounds are over.
        """
        rules = self.rules
        noise = self.noise
        while state.phase != OVER and len(state.history) < stop:
            acting = rules.to_act(state)
            actor = acting[0] if len(acting) == 1 else rng.choice(acting)
            state = rules.play(state, actor, policy_move(rules, state, actor, rng, noise))
        players = state.players
        mine = seat_score(state, me)
        return sum(seat_score(state, s) for s in range(players) if s != me) / (players - 1) - mine
