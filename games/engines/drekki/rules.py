"""Drekki through the engine protocol: moves, turns, views, outcome.

Moves (docs/notation.md, section Drekki)::

    play 3          3-6 players: lay the card 3 from your hand, face down
    top A1          duel: lay the top card of mage A1's pile; draw two from your other pile
    keep 4          duel: of the two drawn cards, lay 4 and discard the other face down
    bid 7           claim the revealed total is at least 7 (opening or raising)
    withdraw        leave the auction for good (unique: pass your one turn)
    colour red      the auction winner picks among tied majority colours
    burn A2         duel, broken charm: the winner picks which of its mages takes the tile
    close           the live auction's countdown ran out: the highest bidder wins

``close`` is the clock's move, not a player's: it is never listed in
``legal_moves``, and ``play`` accepts it only for the seat named by
``countdown(state)``. The server plays it when that countdown runs out; it must
not relay a ``close`` sent by a client.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from typing import Any

from ..base import Countdown, IllegalMove, Option, Outcome, PositionError, Rules
from . import play as act
from .notation import format_text, parse_text
from .state import (
    BIDDING,
    BURN,
    CARDS,
    COLOUR,
    DEFAULT_COUNTDOWN,
    NO_CARD,
    OVER,
    DrekkiState,
    from_dict,
    mage_label,
    mask_cards,
    ranking_key,
    seat_score,
    to_dict,
)
from .tiles import COLOURS
from .views import build_view, sample_state

PLAY_MOVES = tuple(f"play {v}" for v in range(6))
KEEP_MOVES = tuple(f"keep {v}" for v in range(6))
TOP_MOVES = tuple(f"top {mage_label(2, m)}" for m in range(4))
BID_MOVES = tuple(f"bid {k}" for k in range(31))
COLOUR_MOVES = tuple(f"colour {c}" for c in COLOURS)
BURN_MOVES = tuple(f"burn {mage_label(2, m)}" for m in range(4))
WITHDRAW = "withdraw"
CLOSE = "close"

# Every move string, read once into (kind, value).
MOVES: dict[str, tuple[str, int]] = {
    **{m: ("play", v) for v, m in enumerate(PLAY_MOVES)},
    **{m: ("keep", v) for v, m in enumerate(KEEP_MOVES)},
    **{m: ("top", v) for v, m in enumerate(TOP_MOVES)},
    **{m: ("bid", v) for v, m in enumerate(BID_MOVES)},
    **{m: ("colour", v) for v, m in enumerate(COLOUR_MOVES)},
    **{m: ("burn", v) for v, m in enumerate(BURN_MOVES)},
    WITHDRAW: ("withdraw", 0),
    CLOSE: ("close", 0),
}


_set_last = DrekkiState.__dict__["last"].__set__


class DrekkiRules(Rules):
    slug = "drekki"
    title = "Drekki"
    min_players = 2
    max_players = 6
    options = (
        Option(
            name="live_countdown",
            kind="int",
            default=DEFAULT_COUNTDOWN,
            label="Live auction countdown (seconds)",
            help="In a live auction, the highest bidder wins when nobody raises for this long.",
            minimum=5,
            maximum=120,
        ),
    )

    # -- setting up ----------------------------------------------------------------------

    def new_game(self, num_players: int, seed: Any = 0, options: Mapping[str, Any] | None = None) -> DrekkiState:
        self.check_players(num_players)
        chosen = self.validate_options(options)
        if isinstance(seed, bool) or not isinstance(seed, (int, str)):
            raise PositionError(f"a Drekki seed must be a whole number or a text, not {seed!r}")
        return act.new_state(num_players, seed, chosen["live_countdown"])

    def num_players(self, state: DrekkiState) -> int:
        return state.players

    # -- whose turn, which moves ----------------------------------------------------------------

    def to_act(self, state: DrekkiState) -> tuple[int, ...]:
        found = state.memo.get("to_act")
        if found is None:
            found = state.memo["to_act"] = _to_act(state)
        return found

    def legal_moves(self, state: DrekkiState, seat: int) -> list[str]:
        found = state.memo.get(seat)
        if found is None:
            found = state.memo[seat] = _legal(state, seat) if seat in self.to_act(state) else []
        return list(found)

    def play(self, state: DrekkiState, seat: int, move: str) -> DrekkiState:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.players:
            raise IllegalMove(f"there is no seat {seat!r} at this {state.players}-player table")
        if state.phase == OVER:
            raise IllegalMove("the game is over: the whole horde has passed")
        action = MOVES.get(move) if isinstance(move, str) else None
        if action is None:
            raise IllegalMove(f"{move!r} is not a Drekki move (see docs/notation.md)")
        new = self._apply(state, seat, move, *action)
        # ``new`` is a fresh copy nobody holds yet: it records the move in place.
        _set_last(new, (seat, move))
        return new

    def _apply(self, state: DrekkiState, seat: int, move: str, kind: str, value: int) -> DrekkiState:
        if kind == "close":
            return self._close(state, seat)
        if seat not in self.to_act(state):
            raise IllegalMove(_why_waiting(state, seat))
        legal = state.memo.get(seat)
        if legal is None:
            legal = state.memo[seat] = _legal(state, seat)
        if move not in legal:
            raise IllegalMove(_why_illegal(state, seat, kind, value))
        if kind == "play":
            return act.lay_card(state, seat, value)
        if kind == "top":
            return act.play_top(state, seat, value)
        if kind == "keep":
            return act.keep_card(state, seat, value)
        if kind == "bid":
            return act.place_bid(state, seat, value)
        if kind == "withdraw":
            return act.withdraw(state, seat)
        if kind == "burn":
            return act.burn_winner(state, value)
        return act.hold_charm(state, value)  # "colour": the winner's pick among tied colours

    def _close(self, state: DrekkiState, seat: int) -> DrekkiState:
        clock = self.countdown(state)
        if clock is None:
            raise IllegalMove("only a live auction with a standing bid can be closed by its countdown")
        if seat != clock.seat:
            raise IllegalMove(f"the countdown closes the auction for seat {clock.seat}, the highest bidder")
        return act.end_auction(state)

    # -- clocks ---------------------------------------------------------------------------------

    def countdown(self, state: DrekkiState) -> Countdown | None:
        if state.phase != BIDDING or state.high < 0 or act.auction_type(state) != "live":
            return None
        return Countdown(seat=state.leader, move=CLOSE, seconds=state.countdown)

    def timeout_move(self, state: DrekkiState, seat: int) -> str | None:
        """A seat out of time withdraws (the opener bids 0), lays its lowest card, picks the first
        colour, or (duel, broken charm) burns its mage to the left of the faced one."""
        moves = self.legal_moves(state, seat)
        if not moves:
            return None
        if WITHDRAW in moves:
            return WITHDRAW
        # The lowest bid, card or drawn card; the first pile; the first tied colour; the
        # first mage clockwise from the faced one.
        return moves[0]

    # -- what a seat sees --------------------------------------------------------------------

    def view(self, state: DrekkiState, seat: int | None) -> dict[str, Any]:
        if seat is not None and not 0 <= seat < state.players:
            raise ValueError(f"there is no seat {seat!r} at this {state.players}-player table")
        clock = self.countdown(state)
        outcome = self.outcome(state)
        return build_view(
            state,
            seat,
            self.to_act(state),
            [] if seat is None else self.legal_moves(state, seat),
            None if clock is None else {"seat": clock.seat, "move": clock.move, "seconds": clock.seconds},
            None if outcome is None else outcome.to_dict(),
        )

    def state_from_view(self, view: Mapping[str, Any], seat: int | None, rng: random.Random) -> DrekkiState:
        return sample_state(view, seat, rng)

    # -- the end ---------------------------------------------------------------------------

    def outcome(self, state: DrekkiState) -> Outcome | None:
        if state.phase != OVER:
            return None
        found = state.memo.get("outcome")
        if found is None:
            found = state.memo["outcome"] = _final(state)
        return found

    def evaluate(self, state: DrekkiState, seat: int) -> float:
        """Standing by burns minus tears against the others' average, squashed into (0, 1)."""
        mine = seat_score(state, seat)
        others = [seat_score(state, s) for s in range(state.players) if s != seat]
        return 0.5 + 0.5 * math.tanh((sum(others) / len(others) - mine) / 4.0)

    def utility(self, outcome: Outcome, seat: int) -> float:
        """Share of the other seats this seat finished ahead of (a tie counts half)."""
        def place(s: int) -> tuple[int, float]:
            return (0 if s in outcome.winners else 1, outcome.scores[s])

        mine = place(seat)
        others = [place(s) for s in range(len(outcome.scores)) if s != seat]
        beaten = sum(1.0 if mine < o else 0.5 if mine == o else 0.0 for o in others)
        return beaten / len(others)

    # -- storage and notation -------------------------------------------------------------

    def dump(self, state: DrekkiState) -> dict[str, Any]:
        return to_dict(state)

    def load(self, data: Mapping[str, Any]) -> DrekkiState:
        try:
            return from_dict(data)
        except (KeyError, TypeError, AttributeError) as exc:
            raise PositionError(f"not a readable Drekki position: {exc!r}") from exc

    def parse_position(self, text: str) -> DrekkiState:
        return self.load(parse_text(text))

    def format_position(self, state: DrekkiState) -> str:
        return format_text(to_dict(state))


# -- helpers -------------------------------------------------------------------------------


def _to_act(state: DrekkiState) -> tuple[int, ...]:
    if state.phase == CARDS:
        chosen = state.chosen
        if state.duel:
            return tuple(s for s in (0, 1) if chosen[s] == NO_CARD or chosen[s + 2] == NO_CARD)
        return tuple(s for s in range(state.players) if chosen[s] == NO_CARD)
    if state.phase == BIDDING:
        if state.turn >= 0:
            return (state.turn,)
        return tuple(s for s in state.still_in() if s != state.leader)
    if state.phase in (COLOUR, BURN):
        return (state.leader,)
    return ()


def _legal(state: DrekkiState, seat: int) -> tuple[str, ...]:
    if state.phase == CARDS:
        if not state.duel:
            return tuple(PLAY_MOVES[v] for v in mask_cards(state.hands[seat]))
        offered = [m for m in state.mages_of(seat) if state.offers[m]]
        if offered:
            return tuple(KEEP_MOVES[v] for v in state.offers[offered[0]])
        return tuple(TOP_MOVES[m] for m in state.mages_of(seat))
    if state.phase == BIDDING:
        bids = BID_MOVES[state.high + 1 : state.max_total + 1]
        return bids if state.high < 0 else bids + (WITHDRAW,)
    if state.phase == COLOUR:
        return tuple(COLOUR_MOVES[c] for c in act.majority_colours(state.chosen))
    if state.phase == BURN:
        # Clockwise from the faced mage: the first is the one the timeout burns.
        return tuple(BURN_MOVES[m] for m in act.burn_choices(state))
    return ()


def _why_waiting(state: DrekkiState, seat: int) -> str:
    if state.phase == CARDS:
        return f"seat {seat} has already laid its card{'s' if state.duel else ''} this round"
    if state.phase == COLOUR:
        return f"only seat {state.leader}, who won the auction, picks the colour"
    if state.phase == BURN:
        return f"only seat {state.leader}, whose charm broke, picks which of its mages is burned"
    if state.out >> seat & 1:
        return f"seat {seat} has withdrawn from this auction"
    if state.high < 0:
        return f"seat {state.turn}, whom the dragon faces, must open the auction"
    if state.turn < 0 and seat == state.leader:
        return f"seat {seat} holds the highest bid: it waits for the others to raise or withdraw"
    if act.auction_type(state) == "unique" and (seat - state.opener) % state.players < (
        state.turn - state.opener
    ) % state.players:
        return f"seat {seat} has already spoken: in a unique auction each seat speaks once"
    return f"it is seat {state.turn}'s turn to speak in the auction"


def _why_illegal(state: DrekkiState, seat: int, kind: str, value: int) -> str:
    if state.phase == CARDS:
        return _why_not_card(state, seat, kind, value)
    if state.phase == COLOUR:
        if kind != "colour":
            return "the charm held on a tie: the auction winner must pick a colour"
        tied = ", ".join(COLOURS[c] for c in act.majority_colours(state.chosen))
        return f"{COLOURS[value]} is not among the tied majority colours ({tied})"
    if state.phase == BURN:
        if kind != "burn":
            return "the charm broke: the auction winner must pick which of its mages takes the tile"
        mages = " or ".join(mage_label(2, m) for m in act.burn_choices(state))
        return f"mage {mage_label(2, value)} is not the winner's: burn {mages}"
    if kind == "bid":
        if value > state.max_total:
            return f"a bid cannot exceed {state.max_total}, the highest total the cards can show"
        return f"bid {value} is not higher than the standing bid {state.high}"
    if kind == "withdraw":
        return "the mage the dragon faces opens the auction and must bid: it cannot withdraw"
    if kind in ("colour", "burn"):
        return f"the auction is still on: there is no {'colour' if kind == 'colour' else 'mage'} to pick yet"
    return "the cards are laid: this is the auction, bid or withdraw"


def _why_not_card(state: DrekkiState, seat: int, kind: str, value: int) -> str:
    if kind in ("bid", "withdraw", "colour", "burn"):
        return "no auction yet: the mages are still choosing their cards"
    if not state.duel:
        if kind != "play":
            return "'top' and 'keep' belong to the two-player variant; lay a card with 'play'"
        return f"card {value} is not in seat {seat}'s hand"
    offered = [m for m in state.mages_of(seat) if state.offers[m]]
    if kind == "play":
        return "in the two-player variant cards come from the piles: use 'top' then 'keep'"
    if kind == "top":
        if offered:
            return "you already laid a top card: keep one of the two cards you drew"
        return f"mage {mage_label(2, value)} is not one of seat {seat}'s mages"
    if not offered:
        return "draw first: lay the top card of one of your piles with 'top'"
    shown = " or ".join(str(c) for c in state.offers[offered[0]])
    return f"card {value} is not one of the two cards you drew ({shown})"


def _final(state: DrekkiState) -> Outcome:
    keys = [ranking_key(state, s) for s in range(state.players)]
    best = min(keys)
    winners = tuple(s for s in range(state.players) if keys[s] == best)
    contenders = [k for k in keys if k[0] == best[0]]
    if len(winners) > 1:
        reason = "shared"
    elif len(contenders) == 1:
        reason = "score"
    elif sum(1 for k in contenders if k[1] == best[1]) == 1:
        reason = "tears"
    else:
        reason = "tiles"
    scores = tuple(float(seat_score(state, s)) for s in range(state.players))
    return Outcome(winners, scores, reason)

