"""A heuristic Drekki player: it reckons the hidden total and the dragon's path.

It reads only its seat's view. The cards it cannot see are drawn at random
from what each mage may still play (3-6 players: the mage's public holding; the
duel: the colour's cards not yet revealed since its pile was rebuilt), which
gives it a spread of possible tables to reason over:

- Cards: it lays the card that makes the dragon least likely to stop on its own
  mages, given the tile's movement table, while keeping some colours in hand
  to steer with later.
- Bids: it bids when winning is worth it: a tear and immunity when the charm
  holds, against the tile's burns when it breaks. It opens as high as it dares,
  raises by the least step (by as much as it dares in a unique auction), and
  withdraws beyond that.
- Tied colours (it won the auction): it sends the dragon onto the opponent
  doing best, else as far from itself as it can.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.engines.base import Rules, Seat

from .base import Bot

COLOURS = ("yellow", "red", "black")


class Table:
    """The parts of a view the heuristics need, read once."""

    def __init__(self, view: Mapping[str, Any], seat: Seat) -> None:
        self.view = view
        self.seat = seat
        self.mages: list[Mapping[str, Any]] = view["mages"]
        self.count = len(self.mages)
        self.mine = [m["mage"] for m in self.mages if m["owner"] == seat]
        self.tile: Mapping[str, Any] = view["tile"]
        self.facing: int = view["facing"]
        self.double = view["players"] >= 5

    def stops(self, colour: str) -> tuple[int, ...]:
        first = (self.facing + self.tile["moves"][colour]) % self.count
        if not self.double:
            return (first,)
        return (first, (first + self.tile["moves_5_6"][colour]) % self.count)

    def harm_to(self, owner: Seat, colour: str, immune: Seat | None) -> float:
        """Burns ``owner`` takes if ``colour`` moves the dragon and ``immune`` won."""
        if owner == immune:
            return 0.0
        return float(sum(self.tile["burns"] for m in self.stops(colour) if self.mages[m]["owner"] == owner))

    def possible_cards(self, mage: int) -> list[int]:
        """What another mage may have laid (or may lay), as far as this seat knows."""
        info = self.mages[mage]
        if self.view.get("revealed") is not None:
            return [self.view["revealed"][mage]]
        if "holding" in info:
            return list(info["holding"])
        # The duel: a laid card, a drawn pair and the pile are among the cards not
        # revealed since the pile was last rebuilt.
        unseen = [c for c in range(6) if c not in info["shown"]]
        if info["laid"] or info["drawing"] or info["pile"] >= 2:
            return unseen
        # A pile of one card or none is rebuilt, from all the mage's discards (the
        # revealed ones too), before its next card or its next pair is drawn: any
        # card may come. Reading only the unrevealed ones left nothing to choose
        # from once all six had been revealed.
        return list(range(6))

    def score(self, seat: Seat) -> float:
        info = self.view["seats"][seat]
        return float(info["score"] if info["score"] is not None else info["burns"] - info["tears"])


def majority(cards: Sequence[int]) -> list[str]:
    counts = [0, 0, 0]
    for card in cards:
        counts[card // 2] += 1
    top = max(counts)
    return [COLOURS[c] for c in range(3) if counts[c] == top]


class DrekkiHeuristicBot(Bot):
    kind = "heuristic"

    def __init__(self, rules: Rules, seed: Any = 0, samples: int = 60, caution: float = 1.2) -> None:
        super().__init__(rules, seed)
        self.samples = samples
        self.caution = caution

    def choose(self, view: Mapping[str, Any], seat: Seat) -> str:
        moves: list[str] = list(view["legal_moves"])
        if not moves:
            raise ValueError(f"seat {seat} has no move to make now")
        if len(moves) == 1:
            return moves[0]
        table = Table(view, seat)
        if view["phase"] == "bidding":
            return self._bid(table, moves)
        if view["phase"] == "colour":
            return self._colour(table, moves)
        if moves[0].startswith("top "):
            return self.rng.choice(moves)
        return self._card(table, moves)

    # -- sampling ----------------------------------------------------------------------

    def _tables(self, table: Table, known: Mapping[int, int]) -> list[list[int]]:
        """Possible sets of laid cards, one card per mage, ``known`` ones fixed."""
        options = [
            [known[m]] if m in known else table.possible_cards(m) for m in range(table.count)
        ]
        return [[self.rng.choice(opts) for opts in options] for _ in range(self.samples)]

    def _danger(self, table: Table, tables: list[list[int]], winner: Seat | None) -> float:
        """Average burns to this seat from the dragon's moves over ``tables``."""
        total = 0.0
        for cards in tables:
            tied = majority(cards)
            total += sum(table.harm_to(table.seat, c, winner) for c in tied) / len(tied)
        return total / len(tables)

    def _own_cards(self, table: Table) -> dict[int, int]:
        return {m: table.mages[m]["card"] for m in table.mine if table.mages[m].get("card") is not None}

    # -- the invocation ---------------------------------------------------------------------

    def _card(self, table: Table, moves: list[str]) -> str:
        known = self._own_cards(table)
        mage = next(m for m in table.mine if m not in known)
        hand = table.mages[mage].get("hand")
        best: tuple[float, str] | None = None
        for move in moves:
            card = int(move.split()[1])
            tables = self._tables(table, {**known, mage: card})
            cost = self._danger(table, tables, None)
            if hand is not None:
                cost += 0.2 * _missing_colours([c for c in hand if c != card])
            cost += self.rng.random() * 0.01
            if best is None or cost < best[0]:
                best = (cost, move)
        assert best is not None
        return best[1]

    # -- the auction ---------------------------------------------------------------------

    def _bid(self, table: Table, moves: list[str]) -> str:
        tables = self._tables(table, self._own_cards(table))
        totals = sorted(sum(cards) for cards in tables)
        danger = self._danger(table, tables, None)
        burns = table.tile["burns"]

        def worth(bid: int) -> float:
            held = sum(1 for t in totals if t >= bid) / len(totals)
            return held * (1.0 + danger) - (1.0 - held) * burns * self.caution

        bids = [int(m.split()[1]) for m in moves if m.startswith("bid ")]
        good = [b for b in bids if worth(b) >= 0.25]
        if "withdraw" not in moves:
            return f"bid {max(good) if good else bids[0]}"
        if not good:
            return "withdraw"
        if table.view["auction"]["type"] == "unique":
            return f"bid {max(good)}"
        return f"bid {min(good)}"

    # -- tied colours --------------------------------------------------------------------

    def _colour(self, table: Table, moves: list[str]) -> str:
        others = [s for s in range(len(table.view["seats"])) if s != table.seat]
        leading = min(others, key=table.score)

        def value(move: str) -> tuple[float, int]:
            colour = move.split()[1]
            harm = sum(
                table.harm_to(s, colour, table.seat) * (1.5 if s == leading else 1.0) for s in others
            )
            last = table.stops(colour)[-1]
            away = min(min((last - m) % table.count, (m - last) % table.count) for m in table.mine)
            return (harm, away)

        return max(moves, key=value)


def _missing_colours(hand: list[int]) -> int:
    if len(hand) <= 1:
        return 0
    return 3 - len({c // 2 for c in hand})
