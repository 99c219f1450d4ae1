"""A table's game move by move (replay) and as one JSON document (export)."""

from __future__ import annotations

import logging
from typing import Any

from games.models import Action, Seat, Table
from games.protocol import TableError
from games.ratings.privacy import outcome_for, rated_players
from games.services.lobby import seat_public
from games.services.store import _get, _seats
from games.services.tables import _can_watch, _state, rules_for
from games.services.who import Who

log = logging.getLogger(__name__)
# Kinds of Action rows that change the engine state (a replay plays exactly these).
MOVE_KINDS = ("move", "timeout", "countdown")


def _check_replay_access(table: Table, seats: list[Seat], who: Who, invite: str | None) -> None:
    if not _can_watch(table, seats, who, invite):
        raise TableError("private_table")


def replay(table_id: Any, who: Who, invite: str | None = None) -> dict[str, Any]:
    """The game move by move from its log: after each step, the spectator view.

    Moves themselves are listed only once the game is over (while it runs, a
    move may be a secret, such as a card chosen face down).
    """
    table = _get(table_id)
    seats = _seats(table)
    _check_replay_access(table, seats, who, invite)
    rules = rules_for(table)
    over = table.is_over
    steps: list[dict[str, Any]] = []
    state = None
    # Up to the version of the table row read above: actions committed since
    # belong to a later state than the one compared with (or exported) below.
    for action in Action.objects.filter(table=table, version__lte=table.version).order_by("version"):
        if action.kind == "start":
            state = rules.new_game(table.seat_count, seed=table.seed, options=table.options)
        elif action.kind in MOVE_KINDS and state is not None:
            state = rules.play(state, action.seat, action.move)
        else:
            continue
        step = {"v": action.version, "kind": action.kind, "seat": action.seat,
                "at": action.created_at.isoformat(), "view": rules.view(state, None)}
        if over and action.kind in MOVE_KINDS:
            step["move"] = action.move
        steps.append(step)
    if state is not None and table.state is not None and not _same_state(rules, state, table.state):
        log.error("table %s: the log does not replay to the stored state", table.pk)
    return {
        "table": table.pk,
        "game": table.game,
        "status": table.status,
        "v": table.version,
        "options": table.options,
        "seats": [seat_public(s) for s in seats],
        "outcome": outcome_for(table.outcome, who, rated_players(table.pk, table.outcome)),
        "steps": steps,
    }


def _same_state(rules: Any, state: Any, stored: Any) -> bool:
    """Whether the state the log replays to is the one stored. Compared as
    dumps, or else as states: a stored form may list the same things in
    another order (a Karo record converted from its older form)."""
    if rules.dump(state) == stored:
        return True
    try:
        return rules.load(stored) == state
    except ValueError:
        return False


def export(table_id: Any, who: Who, invite: str | None = None) -> dict[str, Any]:
    """The table as one JSON document: settings, players, the whole action log
    (moves only once the game is over) and the final spectator view."""
    table = _get(table_id)
    seats = _seats(table)
    _check_replay_access(table, seats, who, invite)
    over = table.is_over
    players = rated_players(table.pk, table.outcome)
    actions = []
    # Up to the version of the table row read above: actions committed since
    # belong to a later state than the one compared with (or exported) below.
    for action in Action.objects.filter(table=table, version__lte=table.version).order_by("version"):
        item = {"v": action.version, "kind": action.kind, "seat": action.seat,
                "at": action.created_at.isoformat()}
        if action.payload:
            item["data"] = action.payload
            if action.kind == "rated":
                item["data"] = outcome_for(action.payload, who, players)
        if over and action.move:
            item["move"] = action.move
        actions.append(item)
    view = None
    if table.state is not None:
        rules = rules_for(table)
        view = rules.view(_state(table, rules), None)
    return {
        "format": "ludo-table/1",
        "table": table.pk,
        "game": table.game,
        "options": table.options,
        "seat_count": table.seat_count,
        "rated": table.rated,
        "clock": table.clock or {"kind": "none"},
        "status": table.status,
        "created_at": table.created_at.isoformat(),
        "started_at": table.started_at.isoformat() if table.started_at else None,
        "finished_at": table.finished_at.isoformat() if table.finished_at else None,
        "seats": [seat_public(s) for s in seats],
        "outcome": outcome_for(table.outcome, who, players),
        "actions": actions,
        "final_view": view,
    }
