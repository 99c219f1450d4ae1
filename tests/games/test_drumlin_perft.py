"""Golden move counts for Drumlin (tests/games/perft/drumlin.perft)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest

from games.engines.drumlin import RULES

PERFT_FILE = Path(__file__).parent / "perft" / "drumlin.perft"


@dataclass
class PerftCase:
    name: str
    position: str
    counts: dict[int, int] = field(default_factory=dict)


def load_perft(path: Path) -> list[PerftCase]:
    """Read a perft file: "name", "position" and "depth N COUNT" lines, "#" comments."""
    cases: list[PerftCase] = []
    name = ""
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        word, _, rest = line.partition(" ")
        if word == "name":
            name = rest
        elif word == "position":
            cases.append(PerftCase(name or f"line-{number}", rest))
            name = ""
        elif word == "depth" and cases:
            depth, count = rest.split()
            cases[-1].counts[int(depth)] = int(count)
        else:
            raise ValueError(f"{path.name}:{number}: cannot read {raw!r}")
    return cases


def perft(state, depth: int) -> int:
    """Number of sequences of ``depth`` legal actions from ``state``."""
    if RULES.outcome(state) is not None:
        return 0
    (seat,) = RULES.to_act(state)
    moves = RULES.legal_moves(state, seat)
    if depth == 1:
        return len(moves)
    return sum(perft(RULES.play(state, seat, move), depth - 1) for move in moves)


CASES = load_perft(PERFT_FILE)


def test_the_file_holds_enough_positions():
    assert len(CASES) >= 5
    assert all(set(case.counts) == {1, 2, 3} for case in CASES)


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_it_counts_the_golden_move_sequences(case: PerftCase):
    state = RULES.parse_position(case.position)
    assert RULES.format_position(state) == case.position
    assert {depth: perft(state, depth) for depth in case.counts} == case.counts
