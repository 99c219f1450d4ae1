"""Golden move counts (perft) for the Karo box: the file reader and the counter.

The files (tests/games/perft/karo-*.perft) use the format of drumlin.perft: a line
``name <word>`` names the next position, ``position <text>`` gives it in the game's
notation (docs/notation.md), and each ``depth N COUNT`` line says how many
sequences of N actions start there. Lines starting with ``#`` are comments.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from games.engines.base import Rules

PERFT_DIR = Path(__file__).parent / "perft"


@dataclass
class PerftCase:
    name: str
    position: str
    counts: dict[int, int] = field(default_factory=dict)


def load_perft(filename: str) -> list[PerftCase]:
    path = PERFT_DIR / filename
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


def perft(rules: Rules, state: Any, depth: int) -> int:
    """Sequences of ``depth`` actions from ``state``: each (seat, move) of a seat to act is one.

    When several seats are to act (the secret setup), any of them may act first.
    A finished game has no actions.
    """
    if rules.outcome(state) is not None:
        return 0
    total = 0
    for seat in rules.to_act(state):
        moves = rules.legal_moves(state, seat)
        if depth == 1:
            total += len(moves)
        else:
            total += sum(perft(rules, rules.play(state, seat, move), depth - 1) for move in moves)
    return total
