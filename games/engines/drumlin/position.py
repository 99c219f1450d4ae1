"""Reading a whole position text back into a state, with plain-words errors; board views."""

from __future__ import annotations

from functools import lru_cache

from games.engines.base import JSON, Outcome, PositionError

from . import board as B
from . import notation as N
from .board import EGG_OWNER, HERD, LONE, OVERFULL, PIECE_COUNT, VALUE, Board
from .state import CHAIN, PLACE, TURN, WON, Key, State

MAX_PIECES = 12  # each herd starts with 12 pieces and never gains one


def _check_board(board: Board, where: str) -> int:
    """Check what every reachable board satisfies; return the Drumlin's square or -1."""
    drumlin = -1
    pieces = [0, 0]
    for sq, stack in enumerate(board):
        if stack == B.EMPTY:
            continue
        name = B.SQUARE_NAMES[sq]
        if stack == LONE or EGG_OWNER[stack] >= 0:
            if drumlin >= 0:
                first = B.SQUARE_NAMES[drumlin]
                raise PositionError(f"{where}: there is only one Drumlin, found on {first} and {name}")
            drumlin = sq
        if EGG_OWNER[stack] >= 0 and VALUE[stack] > 3:
            raise PositionError(
                f"{where}: the egg on {name} stands on a square worth {VALUE[stack]}; "
                "an egg's square is worth 3 at most"
            )
        if VALUE[stack] == OVERFULL and not (B.DRAGONS[0][stack] or B.DRAGONS[1][stack]):
            raise PositionError(
                f"{where}: {name} is worth 5 without a dragon; a 5 comes from a forced departure"
            )
        counts = B.counts_of(stack)
        pieces[0] += sum(counts[:3])
        pieces[1] += sum(counts[3:])
    for seat in (0, 1):
        if pieces[seat] > MAX_PIECES:
            raise PositionError(f"{where}: {B.SEAT_NAMES[seat]} has {pieces[seat]} pieces; a herd has 12")
    return drumlin


@lru_cache(maxsize=4096)
def _history_board(text: str) -> Board:
    """A board of the repetition record. Views carry the record on every move and bots
    rebuild states from views, so the same boards are read again and again: keep them.
    """
    board = N.parse_board(text)
    _check_board(board, "board")
    return board


def _herd(board: Board) -> tuple[int, int]:
    return (sum(HERD[0][s] for s in board), sum(HERD[1][s] for s in board))


def parse_position(text: str) -> State:
    if not isinstance(text, str):
        raise PositionError("a Drumlin position is a text")
    fields = text.split(" ")
    if len(fields) != 5:
        raise PositionError(
            "a Drumlin position has 5 fields separated by single spaces "
            f"(board side step rules history), not {len(fields)}"
        )
    board_text, side_text, step_text, rules_text, history_text = fields
    board = N.parse_board(board_text)
    side = N.parse_side(side_text)
    if step_text not in N.STEP_WORDS:
        raise PositionError(f"the step is one of {', '.join(N.STEP_WORDS)}, not {step_text!r}")
    step = N.STEP_WORDS.index(step_text)
    if rules_text not in N.RULES_WORDS:
        raise PositionError(f"the rules are 'std' or 'clou', not {rules_text!r}")
    clou = rules_text == "clou"
    drumlin = _check_board(board, "board")
    herd = _herd(board)
    fives = tuple(sq for sq in range(B.NUM_SQUARES) if VALUE[board[sq]] == OVERFULL)
    over = herd[0] == 0 or herd[1] == 0

    if step != TURN and history_text != "-":
        raise PositionError(f"a position at step {step_text!r} has no history ('-')")
    if step == PLACE and drumlin >= 0:
        raise PositionError(
            f"the Drumlin is already on {B.SQUARE_NAMES[drumlin]}; it cannot wait to be placed"
        )
    if step == WON and drumlin >= 0 and not (
        # Clou 1986: a departure that makes an egg on the opponent's first row wins
        # at once, and the Drumlin stays in that egg.
        clou and EGG_OWNER[board[drumlin]] == side and B.rank_of(drumlin) == B.target_row(side)
    ):
        raise PositionError(f"the Drumlin is on {B.SQUARE_NAMES[drumlin]}, not on a base line")
    if step == TURN and drumlin < 0 and not over:
        raise PositionError(
            "the Drumlin is not on the board; step '-' needs it unless a herd has no elephant"
        )
    if step == CHAIN:
        if clou:
            raise PositionError("the Clou 1986 rules have no chained departure")
        row = B.target_row(side)
        if drumlin < 0 or EGG_OWNER[board[drumlin]] != side or B.rank_of(drumlin) != row:
            raise PositionError(f"a chained departure needs an egg of {B.SEAT_NAMES[side]} on rank {row + 1}")
    if step in (PLACE, CHAIN) and over:
        raise PositionError("a herd has no elephant: the game is over, nothing is pending")

    current: Key = (side, board)
    seen: tuple[Key, ...] = ()
    result: Outcome | None = None
    if step == TURN:
        earlier: list[Key] = []
        if history_text != "-":
            boards = history_text.split(";")
            for i, entry in enumerate(boards):
                try:
                    past = _history_board(entry)
                except PositionError as error:
                    raise PositionError(f"history entry {i + 1}: {error}") from None
                # The seat to move alternates back from the current position.
                earlier.append(((side + len(boards) - i) % 2, past))
        seen = tuple(earlier) + (current,)
        if seen.count(current) > 3:
            raise PositionError("the position has already occurred three times: the game ended before")
    if step == WON:
        result = Outcome.win(side, 2, "base-line")
    elif over:
        if herd[0] == 0 and herd[1] == 0:
            result = Outcome.draw(2, "no-elephant")
        else:
            result = Outcome.win(0 if herd[1] == 0 else 1, 2, "no-elephant")
    elif seen.count(current) == 3:
        result = Outcome.draw(2, "repetition")
    return State(board, side, step, clou, seen, fives, herd, result, None)


def board_view(board: Board) -> dict[str, JSON]:
    """The board for the front end: occupied squares only, with what to draw on each."""
    squares: dict[str, JSON] = {}
    drumlin: str | None = None
    for sq, stack in enumerate(board):
        if stack == B.EMPTY:
            continue
        name = B.SQUARE_NAMES[sq]
        if stack == LONE or EGG_OWNER[stack] >= 0:
            drumlin = name
        squares[name] = {
            "stack": [{"seat": seat, "kind": B.KIND_NAMES[kind]} for seat, kind in B.stack_pieces(stack)],
            "text": B.STACK_TEXT[stack],
            "value": VALUE[stack],
            "points": [B.POINTS[0][stack], B.POINTS[1][stack]],
            "lone_drumlin": stack == LONE,
            "pieces": PIECE_COUNT[stack],
            "five": VALUE[stack] == OVERFULL,
        }
    return {
        "files": B.NUM_FILES,
        "ranks": B.NUM_RANKS,
        "squares": squares,
        "drumlin": drumlin,
        "fives": [B.SQUARE_NAMES[sq] for sq in range(B.NUM_SQUARES) if VALUE[board[sq]] == OVERFULL],
        "first_rows": {"0": 1, "1": 10},
    }
