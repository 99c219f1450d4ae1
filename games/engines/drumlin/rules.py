"""Drumlin (Thomas Kotulla; FX Schmid 1987, Clou 1986) as read in docs RULES.md.

Two herds of elephants fight over one magic stone, the Drumlin. An elephant that
picks it up becomes an egg; when the Drumlin leaves an egg, the egg hatches into a
dragon. A player wins by sending the Drumlin from an egg onto the opponent's base
line, and loses with no elephant left, or with no legal action.

Everything a turn may do is generated once per state (moves.py) and memoised on it;
``play`` checks the move against that list and then applies the action it names.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from functools import lru_cache

from games.engines.base import JSON, IllegalMove, Option, Outcome, PositionError, Rules, Seat

from . import board as B
from . import notation as N
from .board import (
    ARRIVE,
    CAPTURE,
    DRAGON,
    EGG_OWNER,
    ELEPHANT,
    EMPTY,
    HATCH,
    HERD,
    LEAVE,
    LONE,
    MAKE_EGG,
    OVERFULL,
    STRIP,
    VALUE,
    Board,
)
from .evaluate import evaluate as _evaluate
from .explain import why_illegal
from .moves import chain_moves, generate_turn, place_moves
from .position import board_view, parse_position
from .state import CHAIN, PLACE, TURN, WON, Key, State

CLOU_OPTION = "clou_1986"

_NO_ELEPHANT = (
    Outcome.draw(2, "no-elephant"),  # neither herd has an elephant
    Outcome.win(1, 2, "no-elephant"),  # violet has none
    Outcome.win(0, 2, "no-elephant"),  # pink has none
)
_BASE_LINE = (Outcome.win(0, 2, "base-line"), Outcome.win(1, 2, "base-line"))
_STALEMATE = (Outcome.win(1, 2, "stalemate"), Outcome.win(0, 2, "stalemate"))
_REPETITION = Outcome.draw(2, "repetition")

_TARGET_ROW = (B.target_row(0), B.target_row(1))
# State(...) without the Python-level __new__ of a named tuple: every turn makes one.
_new_state = tuple.__new__


def _no_elephant(herd: tuple[int, int]) -> Outcome | None:
    if herd[0] and herd[1]:
        return None
    if not herd[0] and not herd[1]:
        return _NO_ELEPHANT[0]
    return _NO_ELEPHANT[1] if not herd[0] else _NO_ELEPHANT[2]


# -- move generation (moves.py) ------------------------------------------------------------


def _legal(state: State) -> list[str]:
    """The memoised legal moves of the seat to act ([] when the game is over)."""
    memo = state.__dict__.get("_moves")
    if memo is not None:
        return memo
    if state.result is not None:
        moves: list[str] = []
    elif state.step == TURN:
        moves = generate_turn(state.board, state.side, state.clou, state.fives)
    elif state.step == PLACE:
        moves = place_moves(state.board)
    elif state.step == CHAIN:
        moves = chain_moves(state.board, state.side)
    else:
        moves = []
    state.__dict__["_moves"] = moves
    return moves


# -- applying an action -----------------------------------------------------------------------


def _same_seat(
    state: State, board: Board, step: int, fives: tuple[int, ...], herd: tuple[int, int], move: str
) -> State:
    """The same seat acts again (a placement or a chained choice), or has won (WON).

    Each of these follows a change that can never be undone, so the repetition
    record is empty until the turn ends.
    """
    result = _BASE_LINE[state.side] if step == WON else None
    return State(board, state.side, step, state.clou, (), fives, herd, result, move)


# The repetition record can hold hundreds of positions in a long game, and counting
# a new position in it on every turn was a good part of the time of ``play``. A state
# keeps in its memo a filter of the hashes of its record: one bit, chosen by the low
# bits of the hash, per recorded position. A position whose bit is not set in the
# filter of the record before it has never been seen, so it cannot be the third time,
# and the count is skipped. The filter takes no part in the state's equality or text.
_FILTER_BITS = 13


def _filter(state: State) -> int:
    """The memoised filter of ``state.seen`` (rebuilt once for a state read from text)."""
    found = state.__dict__.get("_filter")
    if found is None:
        found = 0
        for key in state.seen:
            found |= 1 << (hash(key) & ((1 << _FILTER_BITS) - 1))
        state.__dict__["_filter"] = found
    return found


def _end_turn(
    state: State, board: Board, fives: tuple[int, ...], herd: tuple[int, int], fresh: bool, move: str
) -> State:
    """Hand the turn to the other seat, record the position, and check the end of game.

    ``fresh`` says the action changed something that can never be undone, so no
    earlier position can come back and the repetition record starts again.
    """
    nxt = 1 - state.side
    key = (nxt, board)
    h = hash(key)
    bit = 1 << (h & ((1 << _FILTER_BITS) - 1))
    if fresh:
        seen: tuple[Key, ...] = (key,)
        earlier = 0
        known = bit
    else:
        seen = state.seen + (key,)
        known = _filter(state)
        earlier = known & bit
        known |= bit
    result = None if herd[0] and herd[1] else _no_elephant(herd)
    # Without ``earlier``, the position is new: no repetition.
    if result is None and earlier and seen.count(key) >= 3:
        result = _REPETITION
    child = _new_state(State, (board, nxt, TURN, state.clou, seen, fives, herd, result, move))
    child.__dict__["_filter"] = known
    return child


def _without(fives: tuple[int, ...], sq: int, board: bytearray) -> tuple[int, ...]:
    if sq in fives and VALUE[board[sq]] < OVERFULL:
        return tuple(f for f in fives if f != sq)
    return fives


def _apply(state: State, action: tuple[int, ...], move: str) -> State:
    kind = action[0]
    seat = state.side
    if kind == N.MOVE:
        return _apply_piece_move(state, action[1], action[2], action[3], move)
    board = bytearray(state.board)
    herd = list(state.herd)
    if kind == N.SWAP:
        a, d = action[1], action[2]
        leave_e, leave_d = LEAVE[seat][ELEPHANT], LEAVE[seat][DRAGON]
        arrive_e, arrive_d = ARRIVE[seat][ELEPHANT], ARRIVE[seat][DRAGON]
        board[a] = arrive_d[leave_e[leave_e[board[a]]]]
        stack = arrive_e[arrive_e[leave_d[board[d]]]]
        captured = CAPTURE[seat][stack]
        board[d] = captured if captured >= 0 else stack
        return _end_turn(state, bytes(board), state.fives, state.herd, False, move)
    if kind == N.DEPART:
        return _apply_departure(state, board, herd, action[1], action[2], move)
    if kind == N.PLACE_AT:
        board[action[1]] = LONE
        return _end_turn(state, bytes(board), state.fives, state.herd, True, move)
    if kind == N.REMOVE:
        sq = action[1]
        herd[seat] -= HERD[seat][board[sq]]
        board[sq] = STRIP[seat][board[sq]]
        fives = tuple(f for f in state.fives if f != sq)
        return _end_turn(state, bytes(board), fives, (herd[0], herd[1]), True, move)
    # STOP: the chained departure ends here and the new egg stays.
    return _end_turn(state, state.board, state.fives, state.herd, True, move)


def _apply_piece_move(state: State, kind: int, frm: int, to: int, move: str) -> State:
    seat = state.side
    board = bytearray(state.board)
    board[frm] = LEAVE[seat][kind][board[frm]]
    dest = board[to]
    stack = ARRIVE[seat][kind][dest]
    fives = _without(state.fives, frm, board) if state.fives else state.fives
    if dest == LONE:  # the elephant picks up the lone Drumlin
        board[to] = stack
        return _end_turn(state, bytes(board), fives, state.herd, True, move)
    owner = EGG_OWNER[stack]
    if owner < 0:
        board[to] = stack
        return _end_turn(state, bytes(board), fives, state.herd, False, move)
    if VALUE[stack] == B.MAX_VALUE:
        # Forced departure: the egg hatches, the square is now worth 5, and the
        # mover places the Drumlin (unless a herd has just lost its last elephant).
        board[to] = HATCH[stack]
        herd = (state.herd[0] - (owner == 0), state.herd[1] - (owner == 1))
        fives = tuple(sorted(fives + (to,)))
        result = _no_elephant(herd)
        if result is not None:
            return _end_turn(state, bytes(board), fives, herd, True, move)
        return _same_seat(state, bytes(board), PLACE, fives, herd, move)
    captured = CAPTURE[seat][stack]
    board[to] = captured if captured >= 0 else stack
    return _end_turn(state, bytes(board), fives, state.herd, False, move)


def _apply_departure(state: State, board: bytearray, herd: list[int], egg: int, to: int, move: str) -> State:
    seat = state.side
    board[egg] = HATCH[board[egg]]
    herd[seat] -= 1
    herd_t = (herd[0], herd[1])
    if to == N.BASE:
        return _same_seat(state, bytes(board), WON, state.fives, herd_t, move)
    if board[to] == EMPTY:
        board[to] = LONE
        return _end_turn(state, bytes(board), state.fives, herd_t, True, move)
    board[to] = MAKE_EGG[seat][board[to]]
    if B.rank_of(to) == _TARGET_ROW[seat]:
        # Clou 1986: making an egg on that row wins at once; otherwise the mover
        # chooses whether to go on to the base line.
        return _same_seat(state, bytes(board), WON if state.clou else CHAIN, state.fives, herd_t, move)
    return _end_turn(state, bytes(board), state.fives, herd_t, True, move)


@lru_cache(maxsize=4096)
def _history_text(board: Board) -> str:
    """Board text of a repetition-record entry. Every view carries the record, so the
    same boards are written again and again: keep them."""
    return N.format_board(board)


# -- the rules object -------------------------------------------------------------------------

START_BOARD = N.parse_board("e1e1e1e1/8/1e1e1e1e/8/e1e1e1e1/1E1E1E1E/8/E1E1E1E1/8/1E1E1E1E")


class DrumlinRules(Rules):
    slug = "drumlin"
    title = "Drumlin"
    min_players = 2
    max_players = 2
    options = (
        Option(
            name=CLOU_OPTION,
            kind="bool",
            default=False,
            label="Clou 1986 rules",
            help=(
                "Free departure onto an own elephant only where it stands alone, and a free "
                "departure that makes an egg on the opponent's first row wins at once."
            ),
        ),
    )

    # -- protocol ---------------------------------------------------------------------------

    def new_game(self, num_players: int, seed: JSON = 0, options: Mapping[str, JSON] | None = None) -> State:
        # Drumlin has no chance element: the seed changes nothing.
        self.check_players(num_players)
        opts = self.validate_options(options)
        herd = (sum(HERD[0][s] for s in START_BOARD), sum(HERD[1][s] for s in START_BOARD))
        return State(START_BOARD, B.PINK, PLACE, bool(opts[CLOU_OPTION]), (), (), herd, None, None)

    def num_players(self, state: State) -> int:
        return 2

    def to_act(self, state: State) -> tuple[Seat, ...]:
        if state.result is not None:
            return ()
        if state.step == TURN and not _legal(state):
            return ()
        return (state.side,)

    def legal_moves(self, state: State, seat: Seat) -> list[str]:
        if seat != state.side:
            return []
        return list(_legal(state))

    def play(self, state: State, seat: Seat, move: str) -> State:
        if seat == state.side and move in _legal(state):
            return _apply(state, N.DECODE[move], move)
        raise IllegalMove(why_illegal(state, seat, move))

    def outcome(self, state: State) -> Outcome | None:
        if state.result is not None:
            return state.result
        if state.step == TURN and not _legal(state):
            return _STALEMATE[state.side]
        return None

    # -- text and storage ---------------------------------------------------------------------

    def format_position(self, state: State) -> str:
        history = "-"
        if state.step == TURN and len(state.seen) > 1:
            history = ";".join(_history_text(board) for _, board in state.seen[:-1])
        return " ".join(
            (
                N.format_board(state.board),
                N.side_letter(state.side),
                N.STEP_WORDS[state.step],
                N.RULES_WORDS[state.clou],
                history,
            )
        )

    def parse_position(self, text: str) -> State:
        return parse_position(text)

    def dump(self, state: State) -> dict[str, JSON]:
        return {"position": self.format_position(state), "last_move": state.last}

    def load(self, data: Mapping[str, JSON]) -> State:
        if not isinstance(data, Mapping) or not isinstance(data.get("position"), str):
            raise PositionError("a Drumlin dump is a mapping with a 'position' text")
        last = data.get("last_move")
        if last is not None and not isinstance(last, str):
            raise PositionError("'last_move' must be a move text or null")
        return self.parse_position(data["position"])._replace(last=last)

    # -- views ----------------------------------------------------------------------------------

    def view(self, state: State, seat: Seat | None) -> dict[str, JSON]:
        outcome = self.outcome(state)
        acting = self.to_act(state)
        return {
            "game": self.slug,
            "seat": seat,
            "position": self.format_position(state),
            "board": board_view(state.board),
            "to_act": list(acting),
            "step": ("move", "place", "chain", "won")[state.step],
            "options": {CLOU_OPTION: state.clou},
            "last_move": state.last,
            "legal_moves": self.legal_moves(state, seat) if seat is not None and seat in acting else [],
            "outcome": outcome.to_dict() if outcome is not None else None,
        }

    def state_from_view(self, view: Mapping[str, JSON], seat: Seat | None, rng: random.Random) -> State:
        # Perfect information: the position text in the view is the whole state.
        return self.load({"position": view.get("position"), "last_move": view.get("last_move")})

    # -- bots ---------------------------------------------------------------------------------

    def evaluate(self, state: State, seat: Seat) -> float | None:
        outcome = self.outcome(state)
        if outcome is not None:
            return self.utility(outcome, seat)
        return _evaluate(state, seat)


RULES = DrumlinRules()

__all__ = ["RULES", "START_BOARD", "DrumlinRules", "State"]
