"""How fast the engines play, as a ratio of python-chess measured in the same process.

    .venv/bin/python bench/engines.py [--rounds 12] [--slice 0.25] [--engine SLUG]
                                      [--workload playouts|perft] [--markdown] [--python-moves]

Two workloads, each run by every engine (through the protocol only) and by
python-chess (``import chess``), with fixed seeds:

- ``playouts``: random playouts. An engine's ply asks ``outcome``, ``to_act`` and
  ``legal_moves`` and plays a random legal move (``play`` returns a new state); a
  chess ply is ``list(board.legal_moves)``, ``push`` of a random move and
  ``is_game_over``. A node is a ply. An engine's playout still going after
  ``--max-plies`` plies is cut and a new game starts (random Drumlin rarely ends);
  Drekki plays at 3 and at 6 players, the others at 2. This is the workload of the
  3x goal (issue 28) and of the earlier figures in docs/performance.md.
- ``perft``: a depth-first walk of the move tree from the start position (depth 3
  for the engines, 4 for chess), every legal move of every interior node played:
  move generation, play, and undo (``pop`` for chess; for an engine, whose states
  are immutable, dropping the child). A node is a move played. Not for Drekki,
  whose bids are simultaneous and whose deck is shuffled. The walk starts again
  when it is finished.

Every workload is a generator that yields once per node and keeps its place, so
it can be stopped and resumed. The measurement alternates: in each round, for each
engine and workload, python-chess and the engine run one slice of ``--slice``
seconds of CPU time each (``time.process_time``; the order flips every round), a
garbage collection before each slice and outside it. A round's ratio is the
engine's nodes per CPU second over chess's in the adjacent slice, so a load change
on the machine hits both sides of a ratio alike; the table gives the median over
the rounds (the first round is a warm-up and not counted) and the spread (lowest
and highest round). Not a test: numbers depend on the machine.

Quatre en ligne and Drumlin generate their moves in C when the extensions are built
(setup.py); ``--python-moves`` adds a row for each with its Python generator, in the
same rounds, so that the two can be compared.
"""

from __future__ import annotations

import argparse
import gc
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    # Run as a script, the folder on sys.path is bench/: measure this checkout's engines.
    sys.path.insert(0, str(ROOT))

from games import engines  # noqa: E402
from games.engines.base import Outcome, Rules  # noqa: E402
from games.engines.drumlin import moves as drumlin_moves  # noqa: E402
from games.engines.drumlin import rules as drumlin_rules  # noqa: E402
from games.engines.karo import quatre_en_ligne  # noqa: E402

PLAYER_COUNTS = {"drekki": (3, 6)}
NO_PERFT = {"drekki"}
WORKLOADS = ("playouts", "perft")
ENGINE_PERFT_DEPTH = 3
CHESS_PERFT_DEPTH = 4
CHECK_EVERY = 16  # nodes between two looks at the CPU clock

Nodes = Iterator[None]


@dataclass
class Tally:
    """Finished and cut games of a playout workload."""

    games: int = 0
    cut: int = 0


# -- workloads: generators yielding once per node --------------------------------------------


def engine_playouts(rules: Rules, players: int, seed: int, max_plies: int, tally: Tally) -> Nodes:
    rng = random.Random(seed)
    game = 0
    while True:
        state = rules.new_game(players, seed=seed + game)
        game += 1
        for _ in range(max_plies):
            if rules.outcome(state) is not None:
                tally.games += 1
                break
            acting = rules.to_act(state)
            seat = acting[0] if len(acting) == 1 else rng.choice(acting)
            state = rules.play(state, seat, rng.choice(rules.legal_moves(state, seat)))
            yield
        else:
            tally.cut += 1


def chess_playouts(seed: int, tally: Tally) -> Nodes:
    import chess

    rng = random.Random(seed)
    while True:
        board = chess.Board()
        while not board.is_game_over():
            board.push(rng.choice(list(board.legal_moves)))
            yield
        tally.games += 1


def _engine_tree(rules: Rules, state: object, depth: int) -> Nodes:
    if rules.outcome(state) is not None:
        return
    for seat in rules.to_act(state):
        for move in rules.legal_moves(state, seat):
            child = rules.play(state, seat, move)
            yield
            if depth > 1:
                yield from _engine_tree(rules, child, depth - 1)


def engine_perft(rules: Rules, players: int, seed: int) -> Nodes:
    start = rules.new_game(players, seed=seed)
    while True:
        yield from _engine_tree(rules, start, ENGINE_PERFT_DEPTH)


def _chess_tree(board, depth: int) -> Nodes:  # noqa: ANN001 - chess.Board, imported lazily
    for move in list(board.legal_moves):
        board.push(move)
        yield
        if depth > 1:
            yield from _chess_tree(board, depth - 1)
        board.pop()


def chess_perft() -> Nodes:
    import chess

    board = chess.Board()
    while True:
        yield from _chess_tree(board, CHESS_PERFT_DEPTH)


# -- slices and rounds ----------------------------------------------------------------------


def run_slice(nodes: Nodes, seconds: float, collect: bool = True) -> tuple[int, float]:
    """Advance ``nodes`` for about ``seconds`` of CPU time: (nodes, CPU seconds spent).

    ``collect`` first collects the garbage (outside the measured time), so that a
    slice does not pay for the garbage of the slice before it."""
    if collect:
        gc.collect()
    clock = time.process_time
    start = clock()
    deadline = start + seconds
    count = 0
    while True:
        for _ in range(CHECK_EVERY):
            next(nodes)
        count += CHECK_EVERY
        now = clock()
        if now >= deadline:
            return count, now - start


@dataclass
class Pair:
    """One engine on one workload, and python-chess on the same workload, side by side."""

    engine: str
    players: int
    workload: str
    engine_nodes: Nodes
    chess_nodes: Nodes
    engine_tally: Tally | None = None
    chess_tally: Tally | None = None
    engine_rates: list[float] = field(default_factory=list)
    chess_rates: list[float] = field(default_factory=list)
    cpu_seconds: float = 0.0

    @property
    def ratios(self) -> list[float]:
        return [e / c for e, c in zip(self.engine_rates, self.chess_rates)]


class _PythonQuatre(quatre_en_ligne.QuatreEnLigne):
    """Quatre en ligne with its Python move generator, whatever is built."""

    def _generate(self, state: quatre_en_ligne.QuatreState, seat: int) -> dict[str, object]:
        if state.placing:
            return quatre_en_ligne.generate(state, seat)
        return quatre_en_ligne.generate_movement(state.board, state.layout, seat)


class _PythonDrumlin(drumlin_rules.DrumlinRules):
    """Drumlin with its Python move generator, whatever is built: the rules' memo of
    the moves is filled by ``turn_moves`` before the rules ask for it."""

    def _moves(self, state: drumlin_rules.State) -> None:
        if state.result is None and state.step == drumlin_rules.TURN and "_moves" not in state.__dict__:
            state.__dict__["_moves"] = drumlin_moves.turn_moves(state.board, state.side, state.clou, state.fives)

    def outcome(self, state: drumlin_rules.State) -> Outcome | None:
        self._moves(state)
        return super().outcome(state)

    def to_act(self, state: drumlin_rules.State) -> tuple[int, ...]:
        self._moves(state)
        return super().to_act(state)


def with_python_moves(chosen: list[Rules]) -> list[tuple[str, Rules]]:
    """The engines whose moves are generated in C when it is built (Quatre en ligne,
    Drumlin), again with their Python reference generator: what the C part is worth."""
    slugs = {r.slug for r in chosen}
    out: list[tuple[str, Rules]] = []
    if quatre_en_ligne.native is not None and quatre_en_ligne.RULES.slug in slugs:
        out.append((f"{quatre_en_ligne.RULES.slug} (Python moves)", _PythonQuatre()))
    if drumlin_moves.native is not None and drumlin_rules.RULES.slug in slugs:
        out.append((f"{drumlin_rules.RULES.slug} (Python moves)", _PythonDrumlin()))
    return out


def make_pairs(chosen: list[Rules], workloads: tuple[str, ...], seed: int, max_plies: int,
               python_moves: bool = False) -> list[Pair]:
    pairs = []
    labelled = [(rules.slug, rules) for rules in chosen]
    if python_moves:
        labelled += with_python_moves(chosen)
    for label, rules in labelled:
        for players in PLAYER_COUNTS.get(rules.slug, (2,)):
            if "playouts" in workloads:
                mine, theirs = Tally(), Tally()
                pairs.append(Pair(
                    label, players, "playouts",
                    engine_playouts(rules, players, seed, max_plies, mine), chess_playouts(seed, theirs),
                    mine, theirs,
                ))
            if "perft" in workloads and rules.slug not in NO_PERFT:
                nodes = engine_perft(rules, players, seed)
                pairs.append(Pair(label, players, "perft", nodes, chess_perft()))
    return pairs


def measure(pairs: list[Pair], rounds: int, seconds: float, warmup: int = 1,
            progress: Callable[[str], None] | None = None, collect: bool = True) -> None:
    """Run ``warmup + rounds`` rounds of alternated slices, keeping the rates of the last ``rounds``."""
    for number in range(warmup + rounds):
        for pair in pairs:
            sides = [("engine", pair.engine_nodes), ("chess", pair.chess_nodes)]
            if number % 2:
                sides.reverse()
            rates = {}
            for side, nodes in sides:
                count, spent = run_slice(nodes, seconds, collect)
                rates[side] = count / spent
                pair.cpu_seconds += spent
            if number >= warmup:
                pair.engine_rates.append(rates["engine"])
                pair.chess_rates.append(rates["chess"])
        if progress:
            label = "warm-up" if number < warmup else f"{number - warmup + 1}/{rounds}"
            progress(f"round {label} done")


# -- the table ------------------------------------------------------------------------------

HEADER = ["engine", "players", "workload", "nodes/CPU s", "chess nodes/CPU s",
          "ratio (median)", "ratio spread", "games", "cut"]


def rows(pairs: list[Pair]) -> list[list[str]]:
    out = []
    for pair in pairs:
        ratios = pair.ratios
        tally = pair.engine_tally
        out.append([
            pair.engine,
            str(pair.players),
            pair.workload,
            f"{statistics.median(pair.engine_rates):,.0f}",
            f"{statistics.median(pair.chess_rates):,.0f}",
            f"{statistics.median(ratios):.2f}x",
            f"{min(ratios):.2f}-{max(ratios):.2f}x",
            "-" if tally is None else str(tally.games),
            "-" if tally is None else str(tally.cut),
        ])
    return out


def table(lines: list[list[str]], markdown: bool) -> str:
    if markdown:
        out = ["| " + " | ".join(HEADER) + " |", "|" + "|".join("---" for _ in HEADER) + "|"]
        out += ["| " + " | ".join(line) + " |" for line in lines]
        return "\n".join(out)
    widths = [max(len(x) for x in column) for column in zip(HEADER, *lines)]
    fmt = "  ".join(f"{{:{'<' if i < 3 else '>'}{w}}}" for i, w in enumerate(widths))
    out = [fmt.format(*HEADER), fmt.format(*("-" * w for w in widths))]
    out += [fmt.format(*line) for line in lines]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=12, help="measured rounds (after one warm-up round)")
    parser.add_argument("--slice", type=float, default=0.25, help="CPU seconds of each slice")
    parser.add_argument("--engine", action="append", help="only this engine (repeatable)")
    parser.add_argument("--workload", action="append", choices=WORKLOADS,
                        help="only this workload (repeatable)")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--max-plies", type=int, default=2000,
                        help="cut a random playout after this many plies")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    parser.add_argument("--python-moves", action="store_true",
                        help="also run Quatre en ligne and Drumlin with their Python move generators")
    args = parser.parse_args(argv)
    if args.rounds < 1 or args.slice <= 0:
        parser.error("--rounds must be at least 1 and --slice above 0")

    try:
        import chess
    except ImportError:
        parser.error("python-chess is not installed: `make bench` installs it (the [bench] extra)")
    chosen = engines.all() if not args.engine else [engines.get(slug) for slug in args.engine]
    pairs = make_pairs(chosen, tuple(args.workload or WORKLOADS), args.seed, args.max_plies, args.python_moves)
    started = time.perf_counter()
    measure(pairs, args.rounds, args.slice, progress=lambda text: print(text, file=sys.stderr))
    print(
        f"Python {platform.python_version()} on {platform.machine()}, python-chess {chess.__version__}, "
        f"{args.rounds} rounds (+1 warm-up) of {args.slice:g} CPU s per side, seed {args.seed}, "
        f"playouts cut at {args.max_plies} plies; {time.perf_counter() - started:.0f} s wall"
    )
    print()
    print(table(rows(pairs), args.markdown))
    return 0


if __name__ == "__main__":
    sys.exit(main())
