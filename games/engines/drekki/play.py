"""How a Drekki round unfolds: laying cards, the auction, the charm, the transition.

Every function takes a state and returns a new one; none checks legality (the
rules object does that first, against ``legal_moves``).

Readings fixed here (see docs/notation.md and the rules page):

- The auction is between seats (in the duel, the two players, not the mages).
- A bid is the claim "the revealed total is at least this"; it goes from 0 to
  the highest total the cards can show (5 per mage). A bid of that maximum
  closes the auction at once, since nobody could raise it.
- Infinite: clockwise from the opener, each seat still in raises or withdraws
  for good, until one seat is left. Unique: the opener bids, then each other
  seat speaks once, clockwise (raise or withdraw); the highest bid wins.
  Live: after the opening, every seat still in except the highest bidder may
  raise or withdraw, in any order; the highest bidder may not withdraw. It ends
  when only the highest bidder is left, or when the countdown runs out.
- When the charm breaks the dragon does not move: the winner is burned and is
  the "last targeted" (the next dragon faces it). In the duel the burned mage
  is the one the dragon faces if the winner runs it; otherwise the winner
  chooses which of its two mages takes the tile (the ``burn`` phase), and that
  mage is the last targeted. Both of the winner's mages are immune when the
  charm holds.
- When the charm holds, the winner's tear token is taken first (the
  rulebook's order), then the dragon moves: during a tie's colour choice the
  tear already counts.
- At 5-6 players, the tied colour chosen by the winner (if any) moves the
  dragon for both movements; the first stop takes a marker, the second the
  tile; an immune stop takes nothing (the tile is then discarded).
- In the duel, a pile that cannot supply a card is rebuilt: all that colour's
  discards are shuffled into a new face-down pile (the draw goes on from it).
"""

from __future__ import annotations

from ..base import make_rng
from .state import (
    BIDDING,
    BURN,
    CARD_VALUES,
    CARDS,
    COLOUR,
    DUEL_MAGES,
    FULL_HAND,
    HORDE_PLAN,
    NO_CARD,
    OVER,
    DrekkiState,
    Round,
    evolve,
    mask_cards,
    power_colour,
)
from .tiles import TILES, TILESET

# -- a new game -------------------------------------------------------------------


def draw_horde(seed: int | str) -> tuple[int, ...]:
    """Four tiles of 2 burns, four of 3, four of 4 and one of 5, each level in random order."""
    rng = make_rng(seed, "horde")
    horde: list[int] = []
    for burns, count in HORDE_PLAN:
        horde.extend(rng.sample(TILESET.by_burns[burns], count))
    return tuple(horde)


def new_state(players: int, seed: int | str, countdown: int) -> DrekkiState:
    duel = players == 2
    mages = DUEL_MAGES if duel else players
    piles: tuple[tuple[int, ...], ...] = ()
    tear_pool: tuple[int, ...] = ()
    if duel:
        piles = tuple(_shuffled(CARD_VALUES, make_rng(seed, "pile", m)) for m in range(mages))
        tear_pool = _shuffled(TILESET.tear_tokens, make_rng(seed, "tears"))
    return DrekkiState(
        players=players,
        seed=seed,
        countdown=countdown,
        phase=CARDS,
        horde=draw_horde(seed),
        facing=make_rng(seed, "first").randrange(mages),
        chosen=(NO_CARD,) * mages,
        hands=() if duel else (FULL_HAND,) * mages,
        piles=piles,
        shown=(0,) * mages if duel else (),
        hidden=(0,) * mages if duel else (),
        offers=((),) * mages if duel else (),
        tear_pool=tear_pool,
        high=-1,
        leader=-1,
        out=0,
        turn=-1,
        tiles=((),) * mages,
        markers=((),) * mages,
        tears=((),) * players,
        dropped=(),
        history=(),
    )


def _shuffled(values: tuple[int, ...], rng: object) -> tuple[int, ...]:
    items = list(values)
    rng.shuffle(items)  # type: ignore[attr-defined]
    return tuple(items)


# -- the invocation ------------------------------------------------------------------


def lay_card(state: DrekkiState, seat: int, card: int) -> DrekkiState:
    """3-6 players: ``seat`` lays ``card`` from its hand, face down."""
    hands = list(state.hands)
    hands[seat] &= ~(1 << card)
    chosen = list(state.chosen)
    chosen[seat] = card
    return _laid(state, chosen, hands=tuple(hands))


def play_top(state: DrekkiState, seat: int, mage: int) -> DrekkiState:
    """Duel: the top card of ``mage``'s pile is laid; two are drawn from the other pile."""
    other = next(m for m in state.mages_of(seat) if m != mage)
    piles = list(state.piles)
    shown = list(state.shown)
    hidden = list(state.hidden)
    (card,) = _draw(state, piles, shown, hidden, mage, 1)
    offer = _draw(state, piles, shown, hidden, other, 2)
    chosen = list(state.chosen)
    chosen[mage] = card
    offers = list(state.offers)
    offers[other] = tuple(sorted(offer))
    return evolve(
        state,
        piles=tuple(piles),
        shown=tuple(shown),
        hidden=tuple(hidden),
        chosen=tuple(chosen),
        offers=tuple(offers),
    )


def keep_card(state: DrekkiState, seat: int, card: int) -> DrekkiState:
    """Duel: of the two drawn cards, ``card`` is laid and the other discarded face down."""
    mage = next(m for m in state.mages_of(seat) if state.offers[m])
    (dropped,) = (c for c in state.offers[mage] if c != card)
    hidden = list(state.hidden)
    hidden[mage] |= 1 << dropped
    chosen = list(state.chosen)
    chosen[mage] = card
    offers = list(state.offers)
    offers[mage] = ()
    return _laid(state, chosen, hidden=tuple(hidden), offers=tuple(offers))


def _draw(
    state: DrekkiState, piles: list[tuple[int, ...]], shown: list[int], hidden: list[int], mage: int, count: int
) -> tuple[int, ...]:
    """Take ``count`` cards from the top of ``mage``'s pile, rebuilding it when it runs out."""
    drawn: list[int] = []
    pile = piles[mage]
    while len(drawn) < count:
        if not pile:
            rng = make_rng(state.seed, "rebuild", mage, state.round_index)
            pile = _shuffled(mask_cards(shown[mage] | hidden[mage]), rng)
            shown[mage] = 0
            hidden[mage] = 0
        drawn.append(pile[0])
        pile = pile[1:]
    piles[mage] = pile
    return tuple(drawn)


def _laid(state: DrekkiState, chosen: list[int], **changes: object) -> DrekkiState:
    """The state once a card is laid; the auction opens when every mage has laid one."""
    laid = tuple(chosen)
    if NO_CARD in laid:
        return evolve(state, chosen=laid, **changes)
    return evolve(state, chosen=laid, phase=BIDDING, high=-1, leader=-1, out=0, turn=state.opener, **changes)


# -- the enchantment (auction) ------------------------------------------------------------


def auction_type(state: DrekkiState) -> str:
    return TILES[state.tile].auction


def next_still_in(players: int, out: int, seat: int) -> int:
    """The next seat clockwise after ``seat`` that has not withdrawn, or -1."""
    for step in range(1, players):
        other = (seat + step) % players
        if not out >> other & 1:
            return other
    return -1


def place_bid(state: DrekkiState, seat: int, value: int) -> DrekkiState:
    kind = auction_type(state)
    if value >= state.max_total:
        return end_auction(evolve(state, high=value, leader=seat))
    if kind == "live":
        return evolve(state, high=value, leader=seat, turn=-1)
    if kind == "unique":
        nxt = (seat + 1) % state.players
        ended = nxt == state.opener
    else:
        nxt = next_still_in(state.players, state.out, seat)
        ended = nxt < 0
    if ended:
        return end_auction(evolve(state, high=value, leader=seat))
    return evolve(state, high=value, leader=seat, turn=nxt)


def withdraw(state: DrekkiState, seat: int) -> DrekkiState:
    out = state.out | 1 << seat
    kind = auction_type(state)
    if kind == "unique":
        nxt = (seat + 1) % state.players
        if nxt == state.opener:
            return end_auction(evolve(state, out=out))
        return evolve(state, out=out, turn=nxt)
    if state.players - out.bit_count() == 1:
        return end_auction(evolve(state, out=out))
    if kind == "live":
        return evolve(state, out=out)
    return evolve(state, out=out, turn=next_still_in(state.players, out, seat))


# -- the charm -------------------------------------------------------------------------


def majority_colours(cards: tuple[int, ...]) -> tuple[int, ...]:
    """The power colours played most often (several when tied)."""
    counts = [0, 0, 0]
    for card in cards:
        counts[power_colour(card)] += 1
    top = max(counts)
    return tuple(c for c in range(3) if counts[c] == top)


def end_auction(state: DrekkiState) -> DrekkiState:
    """Reveal the cards and work the charm, or wait for the winner's choice.

    A broken charm burns the winner where the dragon is (in the duel, when the
    winner does not run the faced mage, it first chooses which of its mages).
    A held charm gives the winner its tear at once, then the majority colour
    moves the dragon (on a tie, once the winner has picked the colour).
    """
    if state.high > sum(state.chosen):
        if state.duel and state.owner(state.facing) != state.leader:
            return evolve(state, phase=BURN, turn=-1)
        return burn_winner(state, winner_mage(state))
    state = take_tear(state)
    tied = majority_colours(state.chosen)
    if len(tied) > 1:
        return evolve(state, phase=COLOUR, turn=-1)
    return hold_charm(state, tied[0])


def winner_mage(state: DrekkiState) -> int:
    """The mage burned when the winner's charm breaks, when there is no choice to make."""
    if state.owner(state.facing) == state.leader:
        return state.facing
    return state.leader


def burn_choices(state: DrekkiState) -> tuple[int, ...]:
    """The mages the winner may burn when its charm breaks: the faced one if it
    runs it, else (in the duel) either of its two, clockwise from the faced mage
    (the first is the one a timeout burns)."""
    if state.owner(state.facing) == state.leader:
        return (state.facing,)
    mages = state.mage_count
    return tuple(sorted(state.mages_of(state.leader), key=lambda m: (m - state.facing) % mages))


def burn_winner(state: DrekkiState, burned: int) -> DrekkiState:
    """The charm broke: ``burned``, the winner's mage, takes the tile; the dragon stays put
    and the next one faces ``burned``."""
    tiles = list(state.tiles)
    tiles[burned] += (state.tile,)
    record = Round(state.tile, state.facing, state.chosen, state.leader, state.high, -1, (burned,))
    return _next_round(state, record, tiles=tuple(tiles))


def take_tear(state: DrekkiState) -> DrekkiState:
    """The charm held: the winner takes a tear token (in the duel, the top of the face-down pool)."""
    tears = list(state.tears)
    pool = state.tear_pool
    if state.duel:
        tears[state.leader] += (pool[0],)
        pool = pool[1:]
    else:
        tears[state.leader] += (1,)
    return evolve(state, tears=tuple(tears), tear_pool=pool)


def dragon_stops(state: DrekkiState, colour: int) -> tuple[int, ...]:
    """Where the dragon stops when ``colour`` moves it: one stop, two at 5-6 players."""
    tile = TILES[state.tile]
    mages = state.mage_count
    first = (state.facing + tile.moves[colour]) % mages
    if state.players < 5:
        return (first,)
    return (first, (first + tile.moves_5_6[colour]) % mages)


def hold_charm(state: DrekkiState, colour: int) -> DrekkiState:
    """The charm held and the winner has its tear (``take_tear``): ``colour`` moves the dragon, which burns."""
    tile = TILES[state.tile]
    stops = dragon_stops(state, colour)
    markers = list(state.markers)
    tiles = list(state.tiles)
    dropped = state.dropped
    if len(stops) == 2 and state.owner(stops[0]) != state.leader:
        markers[stops[0]] += (tile.burns,)
    last = stops[-1]
    if state.owner(last) != state.leader:
        tiles[last] += (state.tile,)
    else:
        dropped += (state.tile,)
    record = Round(state.tile, state.facing, state.chosen, state.leader, state.high, colour, stops)
    return _next_round(state, record, markers=tuple(markers), tiles=tuple(tiles), dropped=dropped)


# -- the transition -----------------------------------------------------------------------


def _next_round(state: DrekkiState, record: Round, **changes: object) -> DrekkiState:
    """Discard the laid cards, give hands back, and bring the next dragon."""
    hands = state.hands
    shown = state.shown
    if state.duel:
        shown = tuple(s | 1 << c for s, c in zip(shown, state.chosen))
    else:
        hands = tuple(FULL_HAND if h.bit_count() == 1 else h for h in hands)
    horde = state.horde[1:]
    return evolve(
        state,
        phase=CARDS if horde else OVER,
        horde=horde,
        facing=record.stops[-1],
        chosen=(NO_CARD,) * state.mage_count,
        hands=hands,
        shown=shown,
        high=-1,
        leader=-1,
        out=0,
        turn=-1,
        history=state.history + (record,),
        **changes,
    )
