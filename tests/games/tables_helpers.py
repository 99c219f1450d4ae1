"""Helpers shared by the live-table tests (services, consumers, worker, API).

Not a test module: plain functions to make people, find short games and
replay a table's log.
"""

from __future__ import annotations

import random
from typing import Any

from games import engines
from games.models import Action, Table
from games.services import MOVE_KINDS, Who


def guest(name: str, key: str | None = None) -> Who:
    """A guest with a display name (the session key stands for their session)."""
    return Who(guest_key=key or f"session-{name.lower()}", name=name)


def member(user: Any) -> Who:
    return Who(user_id=user.pk, name=user.get_username(), is_staff=bool(user.is_staff))


def _eager_move(rules: Any, state: Any, seat: int, rng: random.Random) -> str:
    """Mostly the move that looks best one ply ahead, sometimes a random one:
    games end in tens of moves instead of thousands."""
    moves = rules.legal_moves(state, seat)
    if rng.random() < 0.3:
        return rng.choice(moves)
    best: tuple[float, str] | None = None
    for move in moves:
        after = rules.play(state, seat, move)
        outcome = rules.outcome(after)
        value = rules.utility(outcome, seat) if outcome else (rules.evaluate(after, seat) or 0.5)
        if best is None or value > best[0]:
            best = (value, move)
    return best[1]


def short_game(slug: str, seats: int, seed: int, tries: int = 3, limit: int = 400) -> list[tuple[int, str]]:
    """A sequence of (seat, move) that takes a game from its start to its end,
    the shortest of a few eager playouts."""
    rules = engines.get(slug)
    best: list[tuple[int, str]] | None = None
    for attempt in range(tries):
        rng = random.Random(attempt)
        state = rules.new_game(seats, seed=seed)
        moves: list[tuple[int, str]] = []
        while rules.outcome(state) is None and len(moves) < limit:
            seat = rng.choice(rules.to_act(state))
            move = _eager_move(rules, state, seat, rng)
            moves.append((seat, move))
            state = rules.play(state, seat, move)
        if rules.outcome(state) is not None and (best is None or len(moves) < len(best)):
            best = moves
    assert best is not None, f"no random {slug} game ended within {limit} moves"
    return best


def replayed_state(table: Table, upto: int | None = None) -> Any:
    """The engine state rebuilt from the table's seed and its log (up to a version)."""
    rules = engines.get(table.game)
    state = rules.new_game(table.seat_count, seed=table.seed, options=table.options)
    actions = Action.objects.filter(table=table, kind__in=MOVE_KINDS).order_by("version")
    if upto is not None:
        actions = actions.filter(version__lte=upto)
    for action in actions:
        state = rules.play(state, action.seat, action.move)
    return state
