"""Monte Carlo tree search that sees only its seat's view.

The bot runs information-set MCTS by determinisation: every iteration draws a
full state consistent with its view (``rules.state_from_view``), walks the tree
with UCT on that state, finishes with a playout and backs the result up.

- Any number of seats: a tree edge holds the statistics of the seat that plays it,
  rewarded with ``rules.utility`` for that seat (or ``rules.evaluate`` when a
  playout is cut short).
- Simultaneous moves: when several seats are to act, the tree plays them in a
  fixed order, the bot's own seat first and then by seat number, and all of them
  choose from the statistics of the node where the step began, so no seat's
  choice in the tree depends on what another chose in the same step.
- Hidden information: the tree is built over what the bot's seat observes. After
  another seat's move, the child is chosen by the bot's view of the new state, so
  two moves the bot cannot tell apart (two secret cards) lead to the same node and
  the bot's later choices in the tree never depend on a secret it would not know.
  With nothing hidden, this is plain UCT keyed by moves.
- Multi-step turns need nothing special: the same seat simply acts again.
- At the root every move of the bot is tried once (unless ``priors``, below).
  Deeper, a move not tried yet counts as tried once with its MAST average
  (below) as value, so a seat with twenty raises and one withdrawal need not
  try every raise first.
- Playouts are cut after ``playout_depth`` plies (0: the tree's leaf itself) and
  scored with ``rules.evaluate`` when the game has one; a game without it is
  played on to ``max_playout`` plies and scored as even if still going then.
- Playout moves: with probability ``playout_greed`` the move with the best
  average reward for that seat so far in this search, wherever it was played (the
  "move-average sampling technique", MAST); otherwise a random move, the kind of
  move drawn first where the notation starts with a word ("bid 7", "withdraw").
  Uniform playouts model other players badly where one kind of move has many
  variants: with 30 raises against one withdrawal, random seats raise to absurd
  bids in a Drekki auction.

Options for games with a good ``evaluate`` and many moves, all off by default
(games.bots.GAME_SETTINGS turns them on per game):

- ``priors``: the ``priors``-th time the search goes on from a node (the root: at
  once), every move of the seat acting there is played and the result scored,
  by ``rules.utility`` when the game is over, else ``rules.evaluate``. A move not
  tried yet then counts as tried once with that score instead of its MAST
  average, and the root no longer tries every move first: the search starts
  from the moves a one-ply look likes, and sees an answer that wins or refutes
  without drawing it by luck among a hundred. Scoring a node costs one ``play``
  and one evaluation per move, hence the threshold.
- ``minimax_weight`` (implicit minimax backups, Lanctot et al. 2014): every node
  keeps a heuristic value per seat, its own evaluation when it is made, then the
  best of its moves' values for the seat acting there (a move's value being the
  value of the node it leads to, or its prior). In UCT a tried move's mean reward
  is mixed with that value: (1 - w) * mean + w * value. Averages dilute a
  refutation among many weak answers; the minimax value does not. The values go
  up only through steps where one seat makes one move (the game's own
  simultaneous steps keep plain averages): meant for games of perfect
  information, where the tree is keyed by moves.
- ``keep_states``: when the view fixes the state (perfect information), each
  node keeps its state, so the tree walk reuses it (and the moves the engine
  worked out for it) instead of playing the moves again at every iteration.

- ``constant_sum``: for two-seat games whose ``evaluate`` gives the two seats
  values that add up to 1 (every two-player engine here; a test checks each
  game that turns it on), the evaluation is asked for seat 0 only, the other
  seat's being 1 minus it: half the evaluations.

Budgets (``base.Budget``): ``iterations`` (the most; reproducible for a seed),
``seconds`` (a cap on the wall clock, checked before every iteration; bots may
read a clock, engines may not) and ``floor`` (iterations always run, whatever
the clock says). Which settings suit which game was measured against the greedy
bot: see ``games.bots.GAME_SETTINGS`` and docs/performance.md.
"""

from __future__ import annotations

import json
import math
import random
import time
from collections.abc import Mapping
from typing import Any

from games.engines.base import Rules, Seat

from .base import Bot, Budget, Clock, check_budget


class Determinisations:
    """Draws full states consistent with what ``seat`` sees in ``view``.

    When two draws come out identical (a game of perfect information), the view
    fixes the state: the first draw is reused and ``exact`` is set, which saves
    rebuilding the state at every iteration.
    """

    def __init__(self, rules: Rules, view: Mapping[str, Any], seat: Seat, rng: random.Random) -> None:
        self.rules = rules
        self.view = view
        self.seat = seat
        self.rng = rng
        self.first = rules.state_from_view(view, seat, rng)
        second = rules.state_from_view(view, seat, rng)
        self.exact = rules.dump(self.first) == rules.dump(second)

    def sample(self) -> Any:
        if self.exact:
            return self.first
        return self.rules.state_from_view(self.view, self.seat, self.rng)


def random_move(moves: list[str], rng: random.Random) -> str:
    """A random move, drawing the kind of move first where the notation names it.

    Moves whose notation starts with a word ("bid 7", "withdraw") are grouped by
    that word, a group is drawn uniformly, then a move within it: thirty possible
    raises then weigh as much as one withdrawal, as they do in a player's mind.
    Notations without words (Drumlin's "Eb1-b4") keep a plain uniform draw.
    """
    if " " not in moves[0] and " " not in moves[-1]:
        return rng.choice(moves)
    groups: dict[str, list[str]] = {}
    for move in moves:
        groups.setdefault(move.split(" ", 1)[0], []).append(move)
    return rng.choice(rng.choice(list(groups.values())))


def tree_actor(acting: tuple[Seat, ...], me: Seat) -> Seat:
    """Which of the seats to act the tree lets move first: ``me``, else the lowest."""
    return me if me in acting else min(acting)


class _Edge:
    __slots__ = ("visits", "total", "available", "value")

    def __init__(self) -> None:
        self.visits = 0
        self.total = 0.0
        self.available = 0
        # Heuristic value per seat of where the move leads (a prior, then the
        # minimax backup); None until known. Only with priors or minimax_weight.
        self.value: list[float] | None = None


class _Node:
    __slots__ = ("edges", "children", "visits", "state", "value", "actor", "scored")

    def __init__(self, state: Any = None, value: list[float] | None = None) -> None:
        self.visits = 0
        # (actor, move) -> statistics of that choice, for the actor.
        self.edges: dict[tuple[Seat, str], _Edge] = {}
        # (the bot's own moves, its view when another seat moved) -> the node reached.
        self.children: dict[tuple[tuple[str, ...], str], _Node] = {}
        # The node's state, kept only with keep_states in an exact search.
        self.state = state
        # Heuristic minimax value per seat: the node's own evaluation, then the best
        # of its edges' values for the seat that acts here.
        self.value = value
        self.actor: Seat | None = None
        self.scored = False


class MctsBot(Bot):
    kind = "mcts"

    def __init__(
        self,
        rules: Rules,
        seed: Any = 0,
        *,
        iterations: int | None = 1000,
        seconds: float | None = None,
        floor: int = 1,
        exploration: float = 0.7,
        playout_depth: int = 20,
        max_playout: int = 400,
        playout_greed: float = 0.5,
        priors: int = 0,
        minimax_weight: float = 0.0,
        keep_states: bool = False,
        constant_sum: bool = False,
        clock: Clock = time.monotonic,
    ) -> None:
        super().__init__(rules, seed, clock=clock)
        check_budget(iterations, seconds, "an MCTS bot", floor)
        self.iterations = iterations
        self.seconds = seconds
        self.floor = floor
        self.constant_sum = constant_sum
        self.exploration = exploration
        self.playout_depth = playout_depth
        self.max_playout = max_playout
        if not 0.0 <= playout_greed <= 1.0:
            raise ValueError(f"playout_greed must be between 0 and 1, not {playout_greed}")
        self.playout_greed = playout_greed
        if priors < 0:
            raise ValueError(f"priors must be 0 (off) or a number of visits, not {priors}")
        if not 0.0 <= minimax_weight <= 1.0:
            raise ValueError(f"minimax_weight must be between 0 and 1, not {minimax_weight}")
        self.priors = priors
        self.minimax_weight = minimax_weight
        self.keep_states = keep_states
        # (seat, move) -> [times played, total reward]: the MAST averages of a search.
        self._averages: dict[tuple[Seat, str], list[float]] = {}
        # What the last search did, for benchmarks and logs.
        self.last_iterations = 0
        self.last_seconds = 0.0
        self._leaf_static = False

    def choose(self, view: Mapping[str, Any], seat: Seat) -> str:
        # The clock starts before the view is read: drawing states is part of the move.
        budget = Budget(self.iterations, self.seconds, self.floor, self.clock)
        budget.start()
        sampler = Determinisations(self.rules, view, seat, self.rng)
        moves = self.rules.legal_moves(sampler.first, seat)
        if not moves:
            raise ValueError(f"seat {seat} has no move to play in this view")
        self.last_iterations = 0
        if len(moves) == 1:
            self.last_seconds = budget.elapsed()
            return moves[0]
        keep = self.keep_states and sampler.exact
        root = _Node(sampler.first if keep else None)
        self._averages = {}
        done = 0
        while budget.more(done):
            self._iterate(root, sampler.sample(), seat, sampler.exact)
            done += 1
        self.last_iterations = done
        self.last_seconds = budget.elapsed()
        return self._best(root, seat, moves)

    def _best(self, root: _Node, seat: Seat, moves: list[str]) -> str:
        def rank(move: str) -> tuple[int, float]:
            edge = root.edges.get((seat, move))
            if edge is None or not edge.visits:
                return (0, 0.0)
            return (edge.visits, edge.total / edge.visits)

        return max(moves, key=rank)

    def _iterate(self, root: _Node, state: Any, me: Seat, exact: bool) -> None:
        rules = self.rules
        keep = self.keep_states and exact
        node = root
        path: list[tuple[_Edge, Seat]] = []
        played: list[tuple[Seat, str]] = []
        # For the minimax backup, each step: (node, edge, node reached) where one
        # seat made one move, None where several did.
        steps: list[tuple[_Node, _Edge, _Node] | None] = []
        # Selection and expansion, one step at a time, until a new node is made or
        # the game ends. A step is one seat's move, or the moves of every seat that
        # acts at the same time: all of them pick from the statistics of the node the
        # step starts at, so no seat's choice in the tree depends on another's.
        while True:
            acting = rules.to_act(state)
            if not acting:
                break
            pending = set(acting)
            mine: list[str] = []
            others_moved = False
            first = len(path)
            while True:
                actor = tree_actor(acting, me)
                move, edge = self._select(node, state, actor, node is root, actor == me)
                known = None
                if keep and len(pending) == 1:
                    # One seat acts alone in an exact search: the node reached may
                    # be known, with its state.
                    known = node.children.get(((move if actor == me else f"{actor}:{move}",), ""))
                state = known.state if known is not None else rules.play(state, actor, move)
                path.append((edge, actor))
                played.append((actor, move))
                pending.discard(actor)
                if actor == me or exact:
                    mine.append(move if actor == me else f"{actor}:{move}")
                else:
                    others_moved = True
                acting = rules.to_act(state)
                if not pending or not acting or not set(acting) <= pending:
                    break
            # The child is what the bot's seat can tell apart: its own moves and,
            # when another seat moved, its view of the result.
            seen = json.dumps(rules.view(state, me), sort_keys=True) if others_moved else ""
            key = (tuple(mine), seen)
            child = node.children.get(key)
            new = child is None
            if child is None:
                child = node.children[key] = _Node(state if keep else None)
            if self.minimax_weight:
                steps.append((node, edge, child) if len(path) - first == 1 else None)
            if new:
                break
            node = child
        rewards = self._playout(state, played)
        for edge, actor in path:
            edge.visits += 1
            edge.total += rewards[actor]
        averages = self._averages
        for key in played:
            found = averages.get(key)
            if found is None:
                averages[key] = [1.0, rewards[key[0]]]
            else:
                found[0] += 1.0
                found[1] += rewards[key[0]]
        if steps and steps[-1] is not None:
            self._back_up(steps, state, rewards)

    def _back_up(self, steps: list[tuple[_Node, _Edge, _Node] | None], leaf: Any, rewards: list[float]) -> None:
        """Implicit minimax: the leaf's heuristic value goes up the path, each node
        taking the best of its edges' values for the seat acting there, as far up
        as the steps are one seat's single move."""
        last = steps[-1][2]  # type: ignore[index]
        if last.value is None:
            last.value = rewards if self._leaf_static else self._static(leaf)
        for step in reversed(steps):
            if step is None:
                return
            node, edge, child = step
            if child.value is None:
                return
            edge.value = child.value
            actor = node.actor
            best: list[float] | None = None
            for (seat, _), other in node.edges.items():
                if seat == actor and other.value is not None and (best is None or other.value[actor] > best[actor]):
                    best = other.value
            node.value = best

    def _static(self, state: Any) -> list[float] | None:
        """Utilities of a finished game, else the evaluation (None without one)."""
        outcome = self.rules.outcome(state)
        if outcome is not None:
            return [self.rules.utility(outcome, s) for s in range(self.rules.num_players(state))]
        return self._evaluate(state)

    def _score_children(self, node: _Node, state: Any, actor: Seat, moves: list[str]) -> None:
        """Priors: every move of ``actor`` here is played and its result scored."""
        node.scored = True
        for move in moves:
            value = self._static(self.rules.play(state, actor, move))
            if value is None:
                return
            edge = node.edges.get((actor, move))
            if edge is None:
                edge = node.edges[(actor, move)] = _Edge()
            if edge.value is None:
                edge.value = value

    def _select(self, node: _Node, state: Any, actor: Seat, at_root: bool, mine: bool) -> tuple[str, _Edge]:
        """UCT over ``actor``'s legal moves here.

        Without priors, the bot's own moves at the root are all tried once first.
        Otherwise a move not tried yet here scores as if tried once, with its prior
        (with priors) or else its MAST average as its value.
        """
        moves = self.rules.legal_moves(state, actor)
        node.visits += 1
        node.actor = actor
        try_all = at_root and mine and not self.priors
        if self.priors and not node.scored and (at_root or node.visits >= self.priors):
            self._score_children(node, state, actor, moves)
        untried_bonus = self.exploration * math.sqrt(math.log(node.visits))
        averages = self._averages
        weight = self.minimax_weight
        untried: list[str] = []
        best_move = ""
        best_score = -math.inf
        # Scanning from a random place breaks ties at random.
        start = self.rng.randrange(len(moves))
        for move in moves[start:] + moves[:start]:
            edge = node.edges.get((actor, move))
            if edge is not None:
                edge.available += 1
            if edge is None or not edge.visits:
                if try_all:
                    untried.append(move)
                    continue
                if edge is not None and edge.value is not None:
                    score = edge.value[actor] + untried_bonus
                else:
                    found = averages.get((actor, move))
                    score = (found[1] / found[0] if found is not None else 0.5) + untried_bonus
            elif untried:
                continue
            else:
                mean = edge.total / edge.visits
                if weight and edge.value is not None:
                    mean += weight * (edge.value[actor] - mean)
                score = mean + self.exploration * math.sqrt(math.log(edge.available) / edge.visits)
            if score > best_score:
                best_score, best_move = score, move
        if untried:
            best_move = self.rng.choice(untried)
        best_edge = node.edges.get((actor, best_move))
        if best_edge is None:
            best_edge = node.edges[(actor, best_move)] = _Edge()
            best_edge.available = 1
        return best_move, best_edge

    def _playout(self, state: Any, played: list[tuple[Seat, str]]) -> list[float]:
        """Moves to the end, or to the depth limit; a reward per seat."""
        rules = self.rules
        rng = self.rng
        plies = 0
        # Whether the rewards are the leaf's own utilities or evaluation.
        self._leaf_static = True
        while True:
            outcome = rules.outcome(state)
            if outcome is not None:
                return [rules.utility(outcome, s) for s in range(rules.num_players(state))]
            if plies == self.playout_depth:
                values = self._evaluate(state)
                if values is not None:
                    return values
            self._leaf_static = False
            if plies >= self.max_playout:
                return [0.5] * rules.num_players(state)
            acting = rules.to_act(state)
            actor = acting[0] if len(acting) == 1 else rng.choice(acting)
            move = self._playout_move(actor, rules.legal_moves(state, actor))
            played.append((actor, move))
            state = rules.play(state, actor, move)
            plies += 1

    def _playout_move(self, actor: Seat, moves: list[str]) -> str:
        rng = self.rng
        if len(moves) == 1:
            return moves[0]
        if rng.random() >= self.playout_greed:
            return random_move(moves, rng)
        # The best average so far; a move never played counts as even. Scanning from
        # a random place breaks ties at random without a draw per move.
        averages = self._averages
        start = rng.randrange(len(moves))
        best = moves[start]
        best_value = -1.0
        for move in moves[start:] + moves[:start]:
            found = averages.get((actor, move))
            value = found[1] / found[0] if found is not None else 0.5
            if value > best_value:
                best, best_value = move, value
        return best

    def _evaluate(self, state: Any) -> list[float] | None:
        if self.constant_sum and self.rules.num_players(state) == 2:
            value = self.rules.evaluate(state, 0)
            return None if value is None else [value, 1.0 - value]
        values = []
        for s in range(self.rules.num_players(state)):
            value = self.rules.evaluate(state, s)
            if value is None:
                return None
            values.append(value)
        return values
