"""What a seat may see of a Drekki game, and states rebuilt from that.

Public to everybody: the current dragon tile, the tiles taken and discarded,
markers, bids, who has laid a card, pile sizes, the cards revealed in past
rounds, and, from 3 to 6 players, which cards each mage may still hold. The
last is no secret: a hand is the six cards minus those revealed since the hand
came back, so anyone who watched the reveals knows it. A mage's hand is shown
as it was at the start of the round (its laid card included), so it tells
nothing about the card laid this round.

Private to a seat: its hand and its laid card; in the duel, the contents of
its piles (not their order), the cards it discarded face down, the two cards
it drew, and the values of its own tear tokens (shown to all at the end).

Never shown: another seat's laid card before the reveal, the order of the
horde (only its size per burn level), a pile's order, another seat's
face-down discards, the tear pool, the seed.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ..base import PositionError
from .play import burn_choices, majority_colours
from .state import (
    BIDDING,
    BURN,
    CARD_VALUES,
    CARDS,
    COLOUR,
    DUEL_MAGES,
    HORDE_PLAN,
    NO_CARD,
    OVER,
    REVEALED,
    ROUNDS,
    DrekkiState,
    Round,
    from_dict,
    level_of_round,
    mage_label,
    mage_owner,
    mask_cards,
    seat_burns,
    seat_mages,
)
from .tiles import COLOURS, TILES, TILESET

# Views are built for every seat after every move: what does not depend on the
# state is worked out once here.
TILE_IDS = tuple(t.id for t in TILES)
# Per colour index (-1: the charm broke): the round's "charm" and "colour" entries.
_CHARM = {-1: ("broken", None), **{c: ("held", name) for c, name in enumerate(COLOURS)}}
# Per round index (0-based, the finished game's included): tiles still to come after
# the current one, by burn value.
_HORDE_LEFT = tuple(
    tuple((str(burns), sum(1 for k in range(index + 1, ROUNDS) if level_of_round(k) == burns)) for burns, _ in HORDE_PLAN)
    for index in range(ROUNDS + 1)
)
# Per player count: (mage, label, owner) of every mage.
_MAGES = {
    players: tuple(
        (m, mage_label(players, m), mage_owner(players, m)) for m in range(DUEL_MAGES if players == 2 else players)
    )
    for players in range(2, 7)
}


def _round_dict(r: Round) -> dict[str, Any]:
    charm, colour = _CHARM[r.colour]
    return {
        "tile": TILE_IDS[r.tile],
        "facing": r.facing,
        "cards": list(r.cards),
        "total": sum(r.cards),
        "leader": r.leader,
        "bid": r.bid,
        "charm": charm,
        "colour": colour,
        "stops": list(r.stops),
    }


def _horde_left(state: DrekkiState) -> dict[str, int]:
    """Tiles still to come after the current one, by burn value."""
    return dict(_HORDE_LEFT[min(state.round_index, ROUNDS)])


def _mage_dict(state: DrekkiState, mage: int, label: str, owner: int, viewer: int | None) -> dict[str, Any]:
    mine = owner == viewer
    card = state.chosen[mage]
    info: dict[str, Any] = {
        "mage": mage,
        "label": label,
        "owner": owner,
        "laid": card != NO_CARD,
        "tiles": [TILE_IDS[t] for t in state.tiles[mage]],
        "markers": list(state.markers[mage]),
    }
    if state.players == 2:
        info["pile"] = len(state.piles[mage])
        info["shown"] = list(mask_cards(state.shown[mage]))
        info["face_down"] = state.hidden[mage].bit_count()
        info["drawing"] = bool(state.offers[mage])
        if mine:
            info["contents"] = sorted(state.piles[mage])
            info["discarded"] = list(mask_cards(state.hidden[mage]))
            info["offer"] = list(state.offers[mage])
    else:
        holding = state.hands[mage] | (0 if card == NO_CARD else 1 << card)
        info["holding"] = list(mask_cards(holding))
        if mine:
            info["hand"] = list(mask_cards(state.hands[mage]))
    if mine:
        info["card"] = None if card == NO_CARD else card
    return info


def _seat_dicts(state: DrekkiState, viewer: int | None) -> list[dict[str, Any]]:
    seats = []
    # Tear tokens are taken face down: their values, and so the score (burns minus
    # tears), are the seat's own until the end, at every player count.
    public = state.phase == OVER
    for seat, tears in enumerate(state.tears):
        burns = seat_burns(state, seat)
        known = public or seat == viewer
        seats.append(
            {
                "seat": seat,
                "mages": list(seat_mages(state.players, seat)),
                "burns": burns,
                "tears": len(tears),
                "tear_values": list(tears) if known else None,
                "score": burns - sum(tears) if known else None,  # seat_score, burns worked out once
            }
        )
    return seats


def _auction_dict(state: DrekkiState) -> dict[str, Any] | None:
    if state.phase not in (BIDDING, COLOUR, BURN):
        return None
    return {
        "type": TILES[state.tile].auction,
        "opener": state.opener,
        "high": None if state.high < 0 else state.high,
        "leader": None if state.leader < 0 else state.leader,
        "out": [s for s in range(state.players) if state.out >> s & 1],
        "turn": None if state.turn < 0 else state.turn,
        "max": state.max_total,
    }


def build_view(
    state: DrekkiState,
    seat: int | None,
    to_act: tuple[int, ...],
    legal: list[str],
    countdown: dict[str, Any] | None,
    outcome: dict[str, Any] | None,
) -> dict[str, Any]:
    over = state.phase == OVER
    view: dict[str, Any] = {
        "game": "drekki",
        "players": state.players,
        "seat": seat,
        "options": {"live_countdown": state.countdown},
        "phase": state.phase,
        "round": state.round_index if over else state.round_index + 1,
        "rounds": ROUNDS,
        "tile": None if over else TILES[state.tile].to_dict(),
        "horde_left": _horde_left(state),
        "facing": state.facing,
        "mages": [_mage_dict(state, m, label, owner, seat) for m, label, owner in _MAGES[state.players]],
        "seats": _seat_dicts(state, seat),
        "auction": _auction_dict(state),
        "revealed": list(state.chosen) if state.phase in REVEALED else None,
        "colours": _tied_colours(state),
        "burn": _burn_choices(state),
        "dropped": [TILES[t].id for t in state.dropped],
        "history": [_round_dict(r) for r in state.history],
        "last_move": _last_move(state, seat),
        "revealed_moves": _revealed_moves(state),
        "to_act": list(to_act),
        "legal_moves": legal,
        "countdown": countdown,
        "outcome": outcome,
    }
    if state.duel:
        view["tear_pool"] = len(state.tear_pool)
    return view


# Moves that lay a card face down: only their seat sees them before the reveal.
SECRET_MOVES = ("play", "keep")
# Moves that can end an auction (and reveal the cards).
_AUCTION_MOVES = ("bid", "withdraw", "close")


def _last_move(state: DrekkiState, viewer: int | None) -> dict[str, Any] | None:
    if state.last is None:
        return None
    seat, move = state.last
    secret = seat != viewer and move.split(" ", 1)[0] in SECRET_MOVES
    return {"seat": seat, "move": None if secret else move}


def _revealed_moves(state: DrekkiState) -> list[dict[str, Any]]:
    """The cards laid face down this round, as moves, in the version that reveals them.

    The reveal comes with the move that ends the auction: the cards stay up while
    the winner picks among tied colours (or, in the duel, its burned mage), else
    the round is over at once. (The
    table's move list shows each in place of that seat's latest hidden move.) In
    the duel a laid card may come from the top of a pile ("top A1", public) or from
    the drawn pair ("keep 4"); which mage drew is not kept, so the duel reveals
    nothing here.
    """
    if state.duel or state.last is None:
        return []
    if state.phase in REVEALED:
        cards = state.chosen
    elif state.phase in (CARDS, OVER) and state.history and state.last[1].split(" ", 1)[0] in _AUCTION_MOVES:
        cards = state.history[-1].cards
    else:
        return []
    return [{"seat": mage, "move": f"play {card}"} for mage, card in enumerate(cards)]


def _tied_colours(state: DrekkiState) -> list[str] | None:
    if state.phase != COLOUR:
        return None
    return [COLOURS[c] for c in majority_colours(state.chosen)]


def _burn_choices(state: DrekkiState) -> list[int] | None:
    """Duel, broken charm: the winner's mages, one of which it must burn (public: the
    cards are up and everybody knows who runs which mage)."""
    if state.phase != BURN:
        return None
    return list(burn_choices(state))


# -- determinisation ---------------------------------------------------------------------


def _unseen_tiles(view: Mapping[str, Any]) -> dict[int, list[int]]:
    """Per burn value, the tiles nobody has seen yet (any of them may be in the horde)."""
    seen = {h["tile"] for h in view["history"]}
    if view["tile"] is not None:
        seen.add(view["tile"]["id"])
    return {
        burns: [t for t in TILESET.by_burns[burns] if TILES[t].id not in seen] for burns, _ in HORDE_PLAN
    }


def _sample_horde(view: Mapping[str, Any], rng: random.Random) -> list[str]:
    if view["tile"] is None:
        return []
    unseen = _unseen_tiles(view)
    for pool in unseen.values():
        rng.shuffle(pool)
    horde = [view["tile"]["id"]]
    for k in range(view["round"], ROUNDS):
        horde.append(TILES[unseen[level_of_round(k)].pop()].id)
    return horde


def _sample_table(view: Mapping[str, Any], rng: random.Random, data: dict[str, Any]) -> None:
    """3-6 players: another mage's laid card is any card it may hold."""
    chosen: list[int | None] = []
    hands: list[list[int]] = []
    for info in view["mages"]:
        holding = list(info["holding"])
        if view["revealed"] is not None:
            card = view["revealed"][info["mage"]]
            chosen.append(card)
            hands.append([c for c in holding if c != card])
        elif "hand" in info:
            chosen.append(info["card"])
            hands.append(list(info["hand"]))
        elif info["laid"]:
            card = rng.choice(holding)
            chosen.append(card)
            hands.append([c for c in holding if c != card])
        else:
            chosen.append(None)
            hands.append(holding)
    data["chosen"] = chosen
    data["hands"] = hands


def _sample_duel(view: Mapping[str, Any], rng: random.Random, data: dict[str, Any]) -> None:
    """Duel: unknown cards are dealt among laid card, drawn pair, face-down discards and pile."""
    chosen: list[int | None] = []
    piles, shown, hidden, offers = [], [], [], []
    for info in view["mages"]:
        shown.append(list(info["shown"]))
        if "contents" in info:
            pile = list(info["contents"])
            rng.shuffle(pile)
            piles.append(pile)
            hidden.append(list(info["discarded"]))
            offers.append(list(info["offer"]))
            chosen.append(info["card"])
            continue
        unknown = [c for c in CARD_VALUES if c not in info["shown"]]
        rng.shuffle(unknown)
        if view["revealed"] is not None:
            card = view["revealed"][info["mage"]]
            unknown.remove(card)
        else:
            card = unknown.pop() if info["laid"] else None
        offer = sorted(unknown.pop() for _ in range(2)) if info["drawing"] else []
        face_down = sorted(unknown.pop() for _ in range(info["face_down"]))
        if len(unknown) != info["pile"]:
            raise PositionError("the view's card counts for a mage do not add up to six")
        chosen.append(card)
        offers.append(offer)
        hidden.append(face_down)
        piles.append(unknown)
    data.update(chosen=chosen, piles=piles, shown=shown, hidden=hidden, offers=offers)


def _sample_tears(view: Mapping[str, Any], rng: random.Random, data: dict[str, Any]) -> None:
    """Tear values nobody showed this seat: in the duel, drawn from the tokens not
    accounted for; at 3-6 players every tear is worth 1 (the engine takes no pool)."""
    if view["players"] > 2:
        data["tears"] = [list(s["tear_values"]) if s["tear_values"] is not None else [1] * s["tears"]
                         for s in view["seats"]]
        return
    unknown = list(TILESET.tear_tokens)
    for info in view["seats"]:
        for value in info["tear_values"] or ():
            unknown.remove(value)
    rng.shuffle(unknown)
    tears = []
    for info in view["seats"]:
        if info["tear_values"] is not None:
            tears.append(list(info["tear_values"]))
        else:
            tears.append([unknown.pop() for _ in range(info["tears"])])
    data["tears"] = tears
    data["tear_pool"] = unknown


def sample_state(view: Mapping[str, Any], seat: int | None, rng: random.Random) -> DrekkiState:
    """A full state that ``seat`` could not tell apart from the one it saw."""
    if view.get("game") != "drekki":
        raise PositionError("not a Drekki view")
    players = view["players"]
    auction = view["auction"] or {"high": None, "leader": None, "out": [], "turn": None}
    data: dict[str, Any] = {
        "game": "drekki",
        "players": players,
        "seed": rng.getrandbits(62),
        "countdown": view["options"]["live_countdown"],
        "phase": view["phase"],
        "facing": view["facing"],
        "horde": _sample_horde(view, rng),
        "auction": {k: auction[k] for k in ("high", "leader", "out", "turn")},
        "tiles": [list(m["tiles"]) for m in view["mages"]],
        "markers": [list(m["markers"]) for m in view["mages"]],
        "dropped": list(view["dropped"]),
        "history": [
            {k: h[k] for k in ("tile", "facing", "cards", "leader", "bid", "colour", "stops")}
            for h in view["history"]
        ],
    }
    # Whatever this seat may see is in the view already: only the rest is drawn.
    if players == 2:
        _sample_duel(view, rng, data)
    else:
        _sample_table(view, rng, data)
    _sample_tears(view, rng, data)
    last = view.get("last_move")
    if last is not None:
        data["last"] = {"seat": last["seat"], "move": last["move"] or _hidden_move(view, data, last["seat"])}
    return from_dict(data)


def _hidden_move(view: Mapping[str, Any], data: Mapping[str, Any], seat: int) -> str:
    """A last move the view hides: a card the seat laid, as drawn for it."""
    laid = [data["chosen"][m] for m in range(len(data["chosen"])) if view["mages"][m]["owner"] == seat]
    card = next(c for c in reversed(laid) if c is not None)
    return f"{'keep' if view['players'] == 2 else 'play'} {card}"

