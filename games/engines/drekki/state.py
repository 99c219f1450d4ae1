"""The Drekki game state, its helpers, and its exact JSON form.

Seating and directions, fixed once for the whole engine:

- Mages sit round the table in mage order 0, 1, 2, ...; "to the left" of mage
  ``m`` is mage ``m + 1`` (modulo the number of mages). The auction goes round
  that way (clockwise) and a positive tile move sends the dragon that way.
- From 3 to 6 players, seat ``s`` runs mage ``s``.
- In the duel (2 players), four mages sit A1, B1, A2, B2 (mages 0, 1, 2, 3):
  seat 0 runs mages 0 and 2, seat 1 runs mages 1 and 3.
- Bidders are the seats (players), never the mages.

Cards are the values 0..5; a card's power colour is ``card // 2`` (0 yellow,
1 red, 2 black). A hand, or a set of discarded cards, is a 6-bit mask.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from ..base import PositionError
from .tiles import COLOURS, TILES, TILESET

CARDS = "cards"
BIDDING = "bidding"
COLOUR = "colour"
BURN = "burn"
OVER = "over"
PHASES = (CARDS, BIDDING, COLOUR, BURN, OVER)
# Phases in which the laid cards are face up: the charm is being worked out.
REVEALED = (COLOUR, BURN)

NO_CARD = -1
CARD_VALUES = tuple(range(6))
FULL_HAND = 0b111111
MAX_CARD = 5
# The horde: how many tiles of each burn value, in the order they come.
HORDE_PLAN = ((2, 4), (3, 4), (4, 4), (5, 1))
ROUNDS = sum(n for _, n in HORDE_PLAN)
DUEL_MAGES = 4
DEFAULT_COUNTDOWN = 15


def power_colour(card: int) -> int:
    return card // 2


_MASK_CARDS = tuple(tuple(v for v in CARD_VALUES if mask >> v & 1) for mask in range(1 << 6))


def mask_cards(mask: int) -> tuple[int, ...]:
    """The cards of a 6-bit mask, in rising order."""
    return _MASK_CARDS[mask]


def cards_mask(cards: Any) -> int:
    mask = 0
    for v in cards:
        mask |= 1 << v
    return mask


def level_of_round(round_index: int) -> int:
    """The burn value of the tile met in round ``round_index`` (0-based)."""
    for burns, count in HORDE_PLAN:
        if round_index < count:
            return burns
        round_index -= count
    raise ValueError("no such round")


@dataclass(frozen=True, slots=True)
class Round:
    """A finished round, as everybody saw it.

    ``leader`` is the seat that won the auction with ``bid``. ``colour`` is the
    power colour that moved the dragon, -1 when the charm broke. ``stops`` lists
    the mages the dragon stopped at; when the charm broke the dragon did not
    move, and ``stops`` holds the winner's mage that was burned (the next
    dragon faces it: it is the "last targeted").
    """

    tile: int
    facing: int
    cards: tuple[int, ...]
    leader: int
    bid: int
    colour: int
    stops: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class DrekkiState:
    players: int
    seed: int | str
    countdown: int
    phase: str
    horde: tuple[int, ...]  # tiles still to meet, the current one first
    facing: int  # the mage the dragon faces
    chosen: tuple[int, ...]  # per mage: the card laid face down this round, or NO_CARD
    hands: tuple[int, ...]  # 3-6 players, per mage: cards in hand (mask); () in the duel
    piles: tuple[tuple[int, ...], ...]  # duel, per mage: the face-down pile, top first
    shown: tuple[int, ...]  # duel, per mage: discarded cards that were revealed (mask)
    hidden: tuple[int, ...]  # duel, per mage: cards discarded face down unseen by others (mask)
    offers: tuple[tuple[int, ...], ...]  # duel, per mage: the two drawn cards to choose from
    tear_pool: tuple[int, ...]  # duel: face-down tear token values, top first
    high: int  # the standing bid, -1 before the opening
    leader: int  # the seat holding it, -1
    out: int  # seats that withdrew (mask)
    turn: int  # the seat to speak; -1 once a live auction is open
    tiles: tuple[tuple[int, ...], ...]  # per mage: tiles taken (burns)
    markers: tuple[tuple[int, ...], ...]  # per mage: burn markers (5-6 players)
    tears: tuple[tuple[int, ...], ...]  # per seat: values of the tear tokens taken
    dropped: tuple[int, ...]  # tiles discarded because the dragon met an immune mage
    history: tuple[Round, ...]
    # The last move played, (seat, move), None before the first: the views show it
    # (a laid card only to its seat) and reveal the laid cards with the round's end.
    last: tuple[int, str] | None = None
    memo: dict[Any, Any] = field(default_factory=dict, init=False, repr=False, compare=False, hash=False)

    # -- seating -----------------------------------------------------------------

    @property
    def duel(self) -> bool:
        return self.players == 2

    @property
    def mage_count(self) -> int:
        return DUEL_MAGES if self.players == 2 else self.players

    def owner(self, mage: int) -> int:
        return mage_owner(self.players, mage)

    def mages_of(self, seat: int) -> tuple[int, ...]:
        return seat_mages(self.players, seat)

    # -- the round -----------------------------------------------------------------

    @property
    def tile(self) -> int:
        return self.horde[0]

    @property
    def round_index(self) -> int:
        return len(self.history)

    @property
    def max_total(self) -> int:
        return MAX_CARD * self.mage_count

    @property
    def opener(self) -> int:
        return self.owner(self.facing)

    def still_in(self) -> tuple[int, ...]:
        return tuple(s for s in range(self.players) if not self.out >> s & 1)


_FIELDS = tuple(f.name for f in fields(DrekkiState) if f.init)


def _make_evolve() -> Any:
    """``evolve``, written out field by field (a loop over the fields costs twice as much).

    Each field is set through its slot, which a frozen dataclass's ``__setattr__``
    would refuse; the copy gets an empty memo of its own.
    """
    slots = {f"_set_{name}": DrekkiState.__dict__[name].__set__ for name in (*_FIELDS, "memo")}
    lines = ["def evolve(state, **changes):", "    new = _new(DrekkiState)"]
    lines += [f"    _set_{n}(new, changes[{n!r}] if {n!r} in changes else state.{n})" for n in _FIELDS]
    lines += ["    _set_memo(new, {})", "    return new"]
    namespace: dict[str, Any] = {"_new": object.__new__, "DrekkiState": DrekkiState, **slots}
    exec("\n".join(lines), namespace)  # noqa: S102 - the source is built above from the field names only
    return namespace["evolve"]


evolve = _make_evolve()
evolve.__doc__ = """A copy of ``state`` with some fields changed (``dataclasses.replace``, without its checks).

Playouts copy states all the time; this skips ``__init__`` and gives the copy
an empty memo of its own."""


def mage_owner(players: int, mage: int) -> int:
    """The seat a mage plays for: in the duel each seat has two mages (0 and 2, 1 and 3)."""
    return mage % 2 if players == 2 else mage


def seat_mages(players: int, seat: int) -> tuple[int, ...]:
    """The mages a seat plays (mage_owner's inverse)."""
    return (seat, seat + 2) if players == 2 else (seat,)


def mage_label(players: int, mage: int) -> str:
    """A mage's name in notation: the seat number, or A1 B1 A2 B2 in the duel."""
    if players == 2:
        return "AB"[mage % 2] + str(mage // 2 + 1)
    return str(mage)


TILE_BURNS = tuple(t.burns for t in TILES)


def seat_burns(state: DrekkiState, seat: int) -> int:
    burns = state.memo.get("burns")
    if burns is None:
        mages = [sum([TILE_BURNS[t] for t in won]) + sum(m) for won, m in zip(state.tiles, state.markers)]
        if state.players == 2:
            burns = (mages[0] + mages[2], mages[1] + mages[3])
        else:
            burns = tuple(mages)
        state.memo["burns"] = burns
    return burns[seat]


def seat_score(state: DrekkiState, seat: int) -> int:
    """Burns minus tears: lower is better."""
    return seat_burns(state, seat) - sum(state.tears[seat])


def seat_pieces(state: DrekkiState, seat: int) -> int:
    """Tiles and markers in front of the seat's mages (the second tie-break)."""
    return sum(len(state.tiles[m]) + len(state.markers[m]) for m in state.mages_of(seat))


def ranking_key(state: DrekkiState, seat: int) -> tuple[int, int, int]:
    """Smaller is better: score, then most tear tokens, then fewest tiles and markers."""
    return (seat_score(state, seat), -len(state.tears[seat]), seat_pieces(state, seat))


# -- the JSON form (dump / load) ----------------------------------------------------


def to_dict(state: DrekkiState) -> dict[str, Any]:
    ids = [t.id for t in TILES]
    data: dict[str, Any] = {
        "game": "drekki",
        "players": state.players,
        "seed": state.seed,
        "countdown": state.countdown,
        "phase": state.phase,
        "facing": state.facing,
        "horde": [ids[t] for t in state.horde],
        "chosen": [None if c == NO_CARD else c for c in state.chosen],
    }
    if state.duel:
        data["piles"] = [list(p) for p in state.piles]
        data["shown"] = [list(mask_cards(m)) for m in state.shown]
        data["hidden"] = [list(mask_cards(m)) for m in state.hidden]
        data["offers"] = [list(o) for o in state.offers]
        data["tear_pool"] = list(state.tear_pool)
    else:
        data["hands"] = [list(mask_cards(h)) for h in state.hands]
    data["auction"] = {
        "high": None if state.high < 0 else state.high,
        "leader": None if state.leader < 0 else state.leader,
        "out": [s for s in range(state.players) if state.out >> s & 1],
        "turn": None if state.turn < 0 else state.turn,
    }
    data["tiles"] = [[ids[t] for t in won] for won in state.tiles]
    data["markers"] = [list(m) for m in state.markers]
    data["tears"] = [list(t) for t in state.tears]
    data["dropped"] = [ids[t] for t in state.dropped]
    if state.last is not None:
        data["last"] = {"seat": state.last[0], "move": state.last[1]}
    data["history"] = [
        {
            "tile": ids[r.tile],
            "facing": r.facing,
            "cards": list(r.cards),
            "leader": r.leader,
            "bid": r.bid,
            "colour": None if r.colour < 0 else COLOURS[r.colour],
            "stops": list(r.stops),
        }
        for r in state.history
    ]
    return data


class _Reader:
    """Checks the JSON form piece by piece; every complaint is a PositionError."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        if not isinstance(data, Mapping):
            raise PositionError("a Drekki position must be an object")
        self.data = data

    def get(self, key: str) -> Any:
        if key not in self.data:
            raise PositionError(f"the position has no {key!r}")
        return self.data[key]

    @staticmethod
    def whole(value: Any, what: str, low: int, high: int) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise PositionError(f"{what} must be a whole number from {low} to {high}, not {value!r}")
        return value

    @staticmethod
    def listing(value: Any, what: str, length: int | None = None) -> list[Any]:
        if not isinstance(value, list):
            raise PositionError(f"{what} must be a list, not {value!r}")
        if length is not None and len(value) != length:
            raise PositionError(f"{what} must have {length} entries, not {len(value)}")
        return value

    def cards(self, value: Any, what: str, limit: int = 6) -> tuple[int, ...]:
        cards = tuple(self.whole(v, f"a card in {what}", 0, MAX_CARD) for v in self.listing(value, what))
        if len(cards) > limit:
            raise PositionError(f"{what} holds {len(cards)} cards, at most {limit} fit")
        return cards

    def card_set(self, value: Any, what: str) -> int:
        cards = self.cards(value, what)
        if list(cards) != sorted(set(cards)):
            raise PositionError(f"{what} must list distinct cards in rising order")
        return cards_mask(cards)

    @staticmethod
    def tile(value: Any, what: str) -> int:
        if not isinstance(value, str) or value not in TILESET.by_id:
            raise PositionError(f"{what}: unknown dragon tile {value!r}")
        return TILESET.by_id[value]

    def optional(self, value: Any, what: str, low: int, high: int) -> int:
        return -1 if value is None else self.whole(value, what, low, high)


def from_dict(data: Mapping[str, Any]) -> DrekkiState:
    """Build a state from its JSON form; PositionError says what is wrong."""
    r = _Reader(data)
    if r.get("game") != "drekki":
        raise PositionError(f"not a Drekki position: game is {r.get('game')!r}")
    players = r.whole(r.get("players"), "players", 2, 6)
    seed = r.get("seed")
    if isinstance(seed, bool) or not isinstance(seed, (int, str)):
        raise PositionError(f"the seed must be a whole number or a text, not {seed!r}")
    countdown = r.whole(r.get("countdown"), "countdown", 5, 120)
    phase = r.get("phase")
    if phase not in PHASES:
        raise PositionError(f"unknown phase {phase!r} (phases: {', '.join(PHASES)})")
    mages = DUEL_MAGES if players == 2 else players
    facing = r.whole(r.get("facing"), "facing", 0, mages - 1)
    horde = tuple(r.tile(t, "horde") for t in r.listing(r.get("horde"), "horde"))
    chosen = tuple(
        NO_CARD if c is None else r.whole(c, "a chosen card", 0, MAX_CARD)
        for c in r.listing(r.get("chosen"), "chosen", mages)
    )
    hands: tuple[int, ...] = ()
    piles: tuple[tuple[int, ...], ...] = ()
    shown: tuple[int, ...] = ()
    hidden: tuple[int, ...] = ()
    offers: tuple[tuple[int, ...], ...] = ()
    tear_pool: tuple[int, ...] = ()
    if players == 2:
        piles = tuple(r.cards(p, "a pile") for p in r.listing(r.get("piles"), "piles", mages))
        shown = tuple(r.card_set(s, "shown discards") for s in r.listing(r.get("shown"), "shown", mages))
        hidden = tuple(r.card_set(s, "hidden discards") for s in r.listing(r.get("hidden"), "hidden", mages))
        offers = tuple(r.cards(o, "an offer", 2) for o in r.listing(r.get("offers"), "offers", mages))
        tear_pool = tuple(
            r.whole(v, "a tear token", 1, 99) for v in r.listing(r.get("tear_pool"), "tear_pool")
        )
    else:
        hands = tuple(r.card_set(h, "a hand") for h in r.listing(r.get("hands"), "hands", mages))
    auction = r.get("auction")
    if not isinstance(auction, Mapping):
        raise PositionError("'auction' must be an object")
    high = r.optional(auction.get("high"), "the high bid", 0, MAX_CARD * mages)
    leader = r.optional(auction.get("leader"), "the auction leader", 0, players - 1)
    out = cards_mask(r.whole(s, "a withdrawn seat", 0, players - 1) for s in r.listing(auction.get("out"), "out"))
    turn = r.optional(auction.get("turn"), "the auction turn", 0, players - 1)
    tiles = tuple(
        tuple(r.tile(t, "tiles taken") for t in r.listing(won, "tiles taken"))
        for won in r.listing(r.get("tiles"), "tiles", mages)
    )
    markers = tuple(
        tuple(r.whole(v, "a marker", 2, 5) for v in r.listing(m, "markers"))
        for m in r.listing(r.get("markers"), "markers", mages)
    )
    tears = tuple(
        tuple(r.whole(v, "a tear token", 1, 99) for v in r.listing(t, "tears"))
        for t in r.listing(r.get("tears"), "tears", players)
    )
    dropped = tuple(r.tile(t, "dropped") for t in r.listing(r.get("dropped"), "dropped"))
    last = _read_last(r, data.get("last"), players)
    history = tuple(_read_round(r, raw, mages, players) for raw in r.listing(r.get("history"), "history"))
    state = DrekkiState(
        players=players,
        seed=seed,
        countdown=countdown,
        phase=phase,
        horde=horde,
        facing=facing,
        chosen=chosen,
        hands=hands,
        piles=piles,
        shown=shown,
        hidden=hidden,
        offers=offers,
        tear_pool=tear_pool,
        high=high,
        leader=leader,
        out=out,
        turn=turn,
        tiles=tiles,
        markers=markers,
        tears=tears,
        dropped=dropped,
        history=history,
        last=last,
    )
    check_consistency(state)
    return state


def _read_last(r: _Reader, raw: Any, players: int) -> tuple[int, str] | None:
    """The last move (positions stored before it was kept have none)."""
    if raw is None:
        return None
    if not isinstance(raw, Mapping) or set(raw) != {"seat", "move"}:
        raise PositionError(f"'last' must be an object with 'seat' and 'move', not {raw!r}")
    move = raw["move"]
    if not isinstance(move, str) or not move.strip() or move != " ".join(move.split()):
        raise PositionError(f"the last move must be a move in the notation, not {move!r}")
    return (r.whole(raw["seat"], "the last move's seat", 0, players - 1), move)


def _read_round(r: _Reader, raw: Any, mages: int, players: int) -> Round:
    if not isinstance(raw, Mapping):
        raise PositionError("a past round must be an object")
    for key in ("tile", "facing", "cards", "leader", "bid", "colour", "stops"):
        if key not in raw:
            raise PositionError(f"a past round has no {key!r}")
    colour = raw["colour"]
    if colour is not None and colour not in COLOURS:
        raise PositionError(f"a past round names an unknown colour {colour!r}")
    stops = tuple(r.whole(m, "a stop", 0, mages - 1) for m in r.listing(raw["stops"], "stops"))
    if not 1 <= len(stops) <= 2:
        raise PositionError("a past round has one or two stops")
    return Round(
        tile=r.tile(raw["tile"], "a past round"),
        facing=r.whole(raw["facing"], "a past round's facing", 0, mages - 1),
        cards=tuple(r.whole(c, "a played card", 0, MAX_CARD) for c in r.listing(raw["cards"], "cards", mages)),
        leader=r.whole(raw["leader"], "a past round's leader", 0, players - 1),
        bid=r.whole(raw["bid"], "a past round's bid", 0, MAX_CARD * mages),
        colour=-1 if colour is None else COLOURS.index(colour),
        stops=stops,
    )


def check_consistency(state: DrekkiState) -> None:
    """The cross-field checks a hand-written position most often gets wrong."""
    every = list(state.horde) + list(state.dropped) + [t for won in state.tiles for t in won]
    if len(every) != len(set(every)):
        raise PositionError("a dragon tile appears twice")
    if len(state.horde) + len(state.history) != ROUNDS:
        raise PositionError(
            f"the horde ({len(state.horde)} tiles) and the past rounds ({len(state.history)}) "
            f"must add up to {ROUNDS}"
        )
    for k, t in enumerate(state.horde):
        if TILES[t].burns != level_of_round(len(state.history) + k):
            raise PositionError(f"tile {TILES[t].id} is out of the horde's rising order")
    if (state.phase == OVER) != (not state.horde):
        raise PositionError("the game is over exactly when the horde is empty")
    if state.duel:
        for m in range(DUEL_MAGES):
            parts = [
                state.piles[m],
                mask_cards(state.shown[m]),
                mask_cards(state.hidden[m]),
                state.offers[m],
                () if state.chosen[m] == NO_CARD else (state.chosen[m],),
            ]
            cards = [c for part in parts for c in part]
            if sorted(cards) != list(CARD_VALUES):
                raise PositionError(f"mage {mage_label(2, m)} does not hold each of its six cards exactly once")
        taken = sum(len(t) for t in state.tears)
        if taken + len(state.tear_pool) != len(TILESET.tear_tokens):
            raise PositionError("the tear tokens taken and left do not add up")
    else:
        for m, hand in enumerate(state.hands):
            card = state.chosen[m]
            if card != NO_CARD and hand >> card & 1:
                raise PositionError(f"mage {m} has its chosen card {card} still in hand")
    if state.phase == CARDS and (state.high >= 0 or state.leader >= 0):
        raise PositionError("no bid stands while the cards are being chosen")
    if state.phase in (BIDDING, COLOUR, BURN) and NO_CARD in state.chosen:
        raise PositionError("the auction starts only once every mage has laid a card")
    if state.phase in REVEALED and state.leader < 0:
        raise PositionError(f"the {state.phase} phase needs the auction's winner")
    if state.phase == BURN:
        if not state.duel:
            raise PositionError("only the two-player variant has a burn phase")
        if state.high <= sum(state.chosen):
            raise PositionError("the burn phase follows a broken charm: the bid must exceed the revealed total")
        if state.owner(state.facing) == state.leader:
            raise PositionError("the winner runs the faced mage: that mage is burned, there is nothing to choose")
