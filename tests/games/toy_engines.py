"""Three small but complete games implementing the engine protocol.

They let the bots and the conformance suite be tested on their own, without
depending on the real engines, and between them they cover the shapes the real
games have:

- ``TicTacToe``: two seats, perfect information, no ``evaluate`` (the greedy bot
  falls back on wins and threats), a random starting player as an option.
- ``Goofspiel``: two to four seats, every seat bids a card secretly and at the same
  time, the order of the prize deck is hidden from everyone; it has ``evaluate``
  and a ``timeout_move``.
- ``ChainNim``: two seats, turns made of several steps (take one stone, then take
  another from the same heap or end the turn), with an exact ``evaluate``.

They are test fixtures, not part of the product: they live under ``tests/`` and the
registry never sees them.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from games.engines.base import (
    IllegalMove,
    Option,
    Outcome,
    PositionError,
    Rules,
    Seat,
    make_rng,
)

# -- tic-tac-toe -------------------------------------------------------------------------

_CELLS = tuple(f"{c}{r}" for r in "123" for c in "abc")  # a1 b1 c1 a2 ... c3
_LINES = (
    (0, 1, 2), (3, 4, 5), (6, 7, 8),
    (0, 3, 6), (1, 4, 7), (2, 5, 8),
    (0, 4, 8), (2, 4, 6),
)
_MARKS = "xo"


@dataclass(frozen=True)
class TicTacToeState:
    board: str  # nine characters among ".xo", a1 first
    turn: Seat  # seat to move; meaningless once the game is over
    starter: Seat  # seat 0 plays x, seat 1 plays o; the starter moves first


class TicTacToe(Rules):
    slug = "toy-tictactoe"
    title = "Tic-tac-toe (test game)"
    min_players = 2
    max_players = 2
    options = (
        Option("starter", "choice", "seat0", "Who starts", choices=("seat0", "seat1", "random")),
    )

    def new_game(self, num_players: int, seed: Any = 0, options: Mapping[str, Any] | None = None):
        self.check_players(num_players)
        opts = self.validate_options(options)
        if opts["starter"] == "random":
            starter = make_rng(seed, "starter").randrange(2)
        else:
            starter = int(opts["starter"][-1])
        return TicTacToeState("." * 9, starter, starter)

    def num_players(self, state: TicTacToeState) -> int:
        return 2

    def _winner(self, board: str) -> Seat | None:
        for a, b, c in _LINES:
            if board[a] != "." and board[a] == board[b] == board[c]:
                return _MARKS.index(board[a])
        return None

    def outcome(self, state: TicTacToeState) -> Outcome | None:
        winner = self._winner(state.board)
        if winner is not None:
            return Outcome.win(winner, 2, "line")
        if "." not in state.board:
            return Outcome.draw(2, "full")
        return None

    def to_act(self, state: TicTacToeState) -> tuple[Seat, ...]:
        return () if self.outcome(state) else (state.turn,)

    def legal_moves(self, state: TicTacToeState, seat: Seat) -> list[str]:
        if seat not in self.to_act(state):
            return []
        return [name for name, mark in zip(_CELLS, state.board) if mark == "."]

    def play(self, state: TicTacToeState, seat: Seat, move: str) -> TicTacToeState:
        if self.outcome(state):
            raise IllegalMove("the game is over")
        if seat != state.turn:
            raise IllegalMove(f"seat {seat} is not to move")
        if move not in _CELLS:
            raise IllegalMove(f"{move!r} is not a square (a1 to c3)")
        index = _CELLS.index(move)
        if state.board[index] != ".":
            raise IllegalMove(f"{move} is already taken")
        board = state.board[:index] + _MARKS[seat] + state.board[index + 1:]
        return replace(state, board=board, turn=1 - seat)

    def view(self, state: TicTacToeState, seat: Seat | None) -> dict[str, Any]:
        outcome = self.outcome(state)
        return {
            "board": state.board,
            "turn": state.turn,
            "starter": state.starter,
            "to_act": list(self.to_act(state)),
            "outcome": outcome.to_dict() if outcome else None,
        }

    def dump(self, state: TicTacToeState) -> dict[str, Any]:
        return {"board": state.board, "turn": state.turn, "starter": state.starter}

    def load(self, data: Mapping[str, Any]) -> TicTacToeState:
        try:
            board, turn, starter = data["board"], data["turn"], data["starter"]
        except (KeyError, TypeError) as exc:
            raise PositionError(f"not a tic-tac-toe dump: {exc}") from None
        if not (isinstance(board, str) and len(board) == 9 and set(board) <= set(".xo")):
            raise PositionError(f"bad board {board!r}")
        if turn not in (0, 1) or starter not in (0, 1):
            raise PositionError("turn and starter must be 0 or 1")
        return TicTacToeState(board, turn, starter)

    def format_position(self, state: TicTacToeState) -> str:
        rows = "/".join(state.board[i:i + 3] for i in (0, 3, 6))
        return f"{rows} {state.turn} {state.starter}"

    def parse_position(self, text: str) -> TicTacToeState:
        parts = text.split(" ")
        if len(parts) != 3 or len(parts[0]) != 11:
            raise PositionError(f"expected 'xxx/xxx/xxx turn starter', got {text!r}")
        rows = parts[0].split("/")
        if len(rows) != 3 or parts[1] not in ("0", "1") or parts[2] not in ("0", "1"):
            raise PositionError(f"bad tic-tac-toe position {text!r}")
        return self.load({"board": "".join(rows), "turn": int(parts[1]), "starter": int(parts[2])})

    def state_from_view(self, view: Mapping[str, Any], seat: Seat | None, rng: random.Random):
        # Nothing is hidden: the view holds the whole state.
        return self.load(view)


# -- goofspiel ---------------------------------------------------------------------------

@dataclass(frozen=True)
class GoofspielState:
    hands: tuple[tuple[int, ...], ...]  # cards each seat still holds, sorted
    deck: tuple[int, ...]  # prizes still to come, next first (secret order)
    prize: int | None  # the prize being bid for; None once the game is over
    bids: tuple[int | None, ...]  # this round's sealed bids (None: not yet)
    points: tuple[int, ...]
    rounds: tuple[tuple[int, tuple[int, ...], Seat | None], ...]  # (prize, bids, taker)


class Goofspiel(Rules):
    """Every round a prize card is turned up and every seat bids one of its own
    cards, secretly and at the same time; the highest bid nobody else made takes
    the prize. Most prize points wins."""

    slug = "toy-goofspiel"
    title = "Goofspiel (test game)"
    min_players = 2
    max_players = 4
    options = (Option("cards", "int", 5, "Cards per suit", minimum=3, maximum=8),)

    def new_game(self, num_players: int, seed: Any = 0, options: Mapping[str, Any] | None = None):
        self.check_players(num_players)
        cards = self.validate_options(options)["cards"]
        deck = list(range(1, cards + 1))
        make_rng(seed, "prizes").shuffle(deck)
        hand = tuple(range(1, cards + 1))
        return GoofspielState(
            hands=(hand,) * num_players,
            deck=tuple(deck[1:]),
            prize=deck[0],
            bids=(None,) * num_players,
            points=(0,) * num_players,
            rounds=(),
        )

    def num_players(self, state: GoofspielState) -> int:
        return len(state.hands)

    def to_act(self, state: GoofspielState) -> tuple[Seat, ...]:
        if state.prize is None:
            return ()
        return tuple(s for s, bid in enumerate(state.bids) if bid is None)

    def legal_moves(self, state: GoofspielState, seat: Seat) -> list[str]:
        if seat not in self.to_act(state):
            return []
        return [f"bid {card}" for card in state.hands[seat]]

    def play(self, state: GoofspielState, seat: Seat, move: str) -> GoofspielState:
        if state.prize is None:
            raise IllegalMove("the game is over")
        if not (isinstance(seat, int) and 0 <= seat < len(state.hands)):
            raise IllegalMove(f"there is no seat {seat!r}")
        if state.bids[seat] is not None:
            raise IllegalMove(f"seat {seat} has already bid this round")
        word, _, number = move.partition(" ")
        if word != "bid" or not number.isdigit():
            raise IllegalMove(f"{move!r} is not a bid (write 'bid N')")
        card = int(number)
        if card not in state.hands[seat]:
            raise IllegalMove(f"seat {seat} does not hold the card {card}")
        bids = state.bids[:seat] + (card,) + state.bids[seat + 1:]
        state = replace(state, bids=bids)
        if None in bids:
            return state
        return self._reveal(state)

    def _reveal(self, state: GoofspielState) -> GoofspielState:
        bids = tuple(b for b in state.bids if b is not None)
        unique = [b for b in bids if bids.count(b) == 1]
        taker = bids.index(max(unique)) if unique else None
        points = list(state.points)
        if taker is not None:
            points[taker] += state.prize
        hands = tuple(tuple(c for c in hand if c != bid) for hand, bid in zip(state.hands, bids))
        return GoofspielState(
            hands=hands,
            deck=state.deck[1:],
            prize=state.deck[0] if state.deck else None,
            bids=(None,) * len(hands),
            points=tuple(points),
            rounds=state.rounds + ((state.prize, bids, taker),),
        )

    def outcome(self, state: GoofspielState) -> Outcome | None:
        if state.prize is not None:
            return None
        best = max(state.points)
        winners = tuple(s for s, p in enumerate(state.points) if p == best)
        scores = tuple(float(p) for p in state.points)
        if len(winners) == len(state.points):
            return Outcome((), scores, "tie")
        return Outcome(winners, scores, "score")

    def evaluate(self, state: GoofspielState, seat: Seat) -> float:
        total = sum(range(1, len(state.hands[0]) + len(state.rounds) + 1))
        mine = state.points[seat]
        best_other = max(p for s, p in enumerate(state.points) if s != seat)
        return min(1.0, max(0.0, 0.5 + (mine - best_other) / (2 * total)))

    def timeout_move(self, state: GoofspielState, seat: Seat) -> str | None:
        moves = self.legal_moves(state, seat)
        return moves[0] if moves else None

    def view(self, state: GoofspielState, seat: Seat | None) -> dict[str, Any]:
        outcome = self.outcome(state)
        return {
            "hands": [list(h) for h in state.hands],
            "prize": state.prize,
            "prizes_left": sorted(state.deck),  # which prizes remain is public, not their order
            "has_bid": [b is not None for b in state.bids],
            "my_bid": state.bids[seat] if seat is not None else None,
            "points": list(state.points),
            "rounds": [[p, list(b), t] for p, b, t in state.rounds],
            "to_act": list(self.to_act(state)),
            "outcome": outcome.to_dict() if outcome else None,
        }

    def state_from_view(self, view: Mapping[str, Any], seat: Seat | None, rng: random.Random):
        hands = tuple(tuple(h) for h in view["hands"])
        deck = list(view["prizes_left"])
        rng.shuffle(deck)
        bids: list[int | None] = []
        for s, has_bid in enumerate(view["has_bid"]):
            if not has_bid:
                bids.append(None)
            elif s == seat:
                bids.append(view["my_bid"])
            else:
                bids.append(rng.choice(hands[s]))
        return GoofspielState(
            hands=hands,
            deck=tuple(deck),
            prize=view["prize"],
            bids=tuple(bids),
            points=tuple(view["points"]),
            rounds=tuple((p, tuple(b), t) for p, b, t in view["rounds"]),
        )

    def dump(self, state: GoofspielState) -> dict[str, Any]:
        return {
            "hands": [list(h) for h in state.hands],
            "deck": list(state.deck),
            "prize": state.prize,
            "bids": list(state.bids),
            "points": list(state.points),
            "rounds": [[p, list(b), t] for p, b, t in state.rounds],
        }

    def load(self, data: Mapping[str, Any]) -> GoofspielState:
        try:
            state = GoofspielState(
                hands=tuple(tuple(int(c) for c in h) for h in data["hands"]),
                deck=tuple(int(c) for c in data["deck"]),
                prize=None if data["prize"] is None else int(data["prize"]),
                bids=tuple(None if b is None else int(b) for b in data["bids"]),
                points=tuple(int(p) for p in data["points"]),
                rounds=tuple((int(p), tuple(int(x) for x in b), t) for p, b, t in data["rounds"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise PositionError(f"not a goofspiel dump: {exc!r}") from None
        if not 2 <= len(state.hands) <= 4 or len(state.bids) != len(state.hands):
            raise PositionError("goofspiel needs 2 to 4 hands and one bid slot per hand")
        return state

    # Position text: "hands|deck|prize|bids|points|rounds", lists joined with "," and
    # seats with ";"; "-" stands for nothing.
    def format_position(self, state: GoofspielState) -> str:
        def cards(values) -> str:
            return ",".join("-" if v is None else str(v) for v in values) or "-"

        rounds = ";".join(
            f"{p}:{cards(b)}:{'-' if t is None else t}" for p, b, t in state.rounds
        ) or "-"
        return "|".join([
            ";".join(cards(h) for h in state.hands),
            cards(state.deck),
            "-" if state.prize is None else str(state.prize),
            cards(state.bids),
            cards(state.points),
            rounds,
        ])

    def parse_position(self, text: str) -> GoofspielState:
        def cards(part: str, allow_none: bool = False) -> list[int | None]:
            if part == "-":
                return []
            out: list[int | None] = []
            for item in part.split(","):
                if item == "-" and allow_none:
                    out.append(None)
                elif item.isdigit():
                    out.append(int(item))
                else:
                    raise PositionError(f"bad number {item!r} in {text!r}")
            return out

        parts = text.split("|")
        if len(parts) != 6:
            raise PositionError(f"expected six '|'-separated fields, got {text!r}")
        hands, deck, prize, bids, points, rounds = parts
        parsed_rounds = []
        if rounds != "-":
            for item in rounds.split(";"):
                fields = item.split(":")
                if len(fields) != 3:
                    raise PositionError(f"bad round {item!r}")
                taker = None if fields[2] == "-" else int(fields[2])
                parsed_rounds.append([int(fields[0]), cards(fields[1]), taker])
        return self.load({
            "hands": [cards(h) for h in hands.split(";")],
            "deck": cards(deck),
            "prize": None if prize == "-" else int(prize),
            "bids": cards(bids, allow_none=True),
            "points": cards(points),
            "rounds": parsed_rounds,
        })


# -- chain nim ---------------------------------------------------------------------------

@dataclass(frozen=True)
class NimState:
    heaps: tuple[int, ...]
    turn: Seat  # the seat to move, or the winner once every heap is empty
    heap: int | None  # the heap being taken from in the current turn (0-based)


class ChainNim(Rules):
    """Nim where a turn is a chain of single steps: ``take N`` removes one stone from
    heap N (counted from 1); after that the same seat may take again from the same
    heap or ``end`` its turn. Whoever takes the last stone wins."""

    slug = "toy-nim"
    title = "Chain Nim (test game)"
    min_players = 2
    max_players = 2
    options = (Option("heaps", "choice", "3-4-5", "Starting heaps", choices=("3-4-5", "1-3-5-7", "2-2")),)

    def new_game(self, num_players: int, seed: Any = 0, options: Mapping[str, Any] | None = None):
        self.check_players(num_players)
        heaps = tuple(int(h) for h in self.validate_options(options)["heaps"].split("-"))
        return NimState(heaps, 0, None)

    def num_players(self, state: NimState) -> int:
        return 2

    def outcome(self, state: NimState) -> Outcome | None:
        if any(state.heaps):
            return None
        return Outcome.win(state.turn, 2, "last-stone")

    def to_act(self, state: NimState) -> tuple[Seat, ...]:
        return () if self.outcome(state) else (state.turn,)

    def legal_moves(self, state: NimState, seat: Seat) -> list[str]:
        if seat not in self.to_act(state):
            return []
        if state.heap is None:
            return [f"take {i + 1}" for i, h in enumerate(state.heaps) if h]
        moves = [f"take {state.heap + 1}"] if state.heaps[state.heap] else []
        return moves + ["end"]

    def play(self, state: NimState, seat: Seat, move: str) -> NimState:
        if move not in self.legal_moves(state, seat):
            if self.outcome(state):
                raise IllegalMove("the game is over")
            if seat != state.turn:
                raise IllegalMove(f"seat {seat} is not to move")
            raise IllegalMove(f"{move!r} is not allowed now ({', '.join(self.legal_moves(state, seat))})")
        if move == "end":
            return NimState(state.heaps, 1 - seat, None)
        index = int(move.split()[1]) - 1
        heaps = state.heaps[:index] + (state.heaps[index] - 1,) + state.heaps[index + 1:]
        # Taking the last stone ends the game with the taker as ``turn``: the winner.
        return NimState(heaps, seat, index if any(heaps) else None)

    def evaluate(self, state: NimState, seat: Seat) -> float:
        outcome = self.outcome(state)
        if outcome:
            return self.utility(outcome, seat)
        xor = 0
        for h in state.heaps:
            xor ^= h
        if state.heap is None:
            mover_wins = xor != 0
        else:
            # Mid-turn the mover may still lower the open heap to any smaller size.
            rest = xor ^ state.heaps[state.heap]
            mover_wins = rest <= state.heaps[state.heap]
        return 0.9 if mover_wins == (seat == state.turn) else 0.1

    def view(self, state: NimState, seat: Seat | None) -> dict[str, Any]:
        outcome = self.outcome(state)
        return {
            **self.dump(state),
            "to_act": list(self.to_act(state)),
            "outcome": outcome.to_dict() if outcome else None,
        }

    def state_from_view(self, view: Mapping[str, Any], seat: Seat | None, rng: random.Random):
        return self.load(view)

    def dump(self, state: NimState) -> dict[str, Any]:
        return {"heaps": list(state.heaps), "turn": state.turn, "heap": state.heap}

    def load(self, data: Mapping[str, Any]) -> NimState:
        try:
            heaps = tuple(int(h) for h in data["heaps"])
            turn, heap = data["turn"], data["heap"]
        except (KeyError, TypeError, ValueError) as exc:
            raise PositionError(f"not a nim dump: {exc!r}") from None
        if not heaps or min(heaps) < 0 or turn not in (0, 1):
            raise PositionError("bad heaps or turn")
        if heap is not None and not (isinstance(heap, int) and 0 <= heap < len(heaps)):
            raise PositionError(f"bad open heap {heap!r}")
        return NimState(heaps, turn, heap)

    # Position text: "3.4.5 0 -": heaps, seat to move (the winner when all heaps are
    # empty), the open heap counted from 1 or "-".
    def format_position(self, state: NimState) -> str:
        heap = "-" if state.heap is None else str(state.heap + 1)
        return f"{'.'.join(map(str, state.heaps))} {state.turn} {heap}"

    def parse_position(self, text: str) -> NimState:
        parts = text.split(" ")
        if len(parts) != 3 or not all(p.isdigit() for p in parts[0].split(".")):
            raise PositionError(f"expected 'h.h.h seat open-heap', got {text!r}")
        if parts[1] not in ("0", "1") or not (parts[2] == "-" or parts[2].isdigit()):
            raise PositionError(f"bad nim position {text!r}")
        heap = None if parts[2] == "-" else int(parts[2]) - 1
        return self.load({"heaps": parts[0].split("."), "turn": int(parts[1]), "heap": heap})


TOY_ENGINES: tuple[Rules, ...] = (TicTacToe(), Goofspiel(), ChainNim())
