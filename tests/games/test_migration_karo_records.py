"""The migration to the Karo games' compact record, and replays of converted games.

The older stored form listed every recorded position as text; the migration
(games/migrations/0005_karo_records.py) converts it with the engines' own
reading, and leaves alone, and logs, a row it cannot convert.
"""

from __future__ import annotations

import importlib
import logging
from typing import Any

import pytest

from games import engines
from games.engines.base import Outcome, play_sequence
from games.engines.karo.common import KaroRules
from games.models import Table
from games.services.replays import _same_state
from tests.games.karo_records import long_game, recorded

QUATRE = engines.get("quatre-en-ligne")
migration = importlib.import_module("games.migrations.0005_karo_records")


def test_a_replay_of_a_converted_game_matches_its_record_in_another_order():
    rules = engines.get("rampants-sauteurs")
    state = long_game(rules, 40, seed=2)[-1]
    data = rules.dump(state)
    shuffled = {**data, "record": " ".join(sorted(data["record"].split(" ")))}
    assert shuffled != data and _same_state(rules, state, shuffled)
    assert not _same_state(rules, state, {**data, "record": data["record"].split(" ")[0]})
    assert not _same_state(rules, state, {"position": "garbage"})



# -- the migration --------------------------------------------------------------------------------------


def old_form(rules: KaroRules, states: list[Any]) -> dict[str, Any]:
    """The last of ``states`` stored as before: every recorded position as text, with its count."""
    state = states[-1]
    seen: dict[str, int] = {}
    start = max(i for i, s in enumerate(states) if s.seen.size == 1 or s.seen.size == 0)
    for s in states[start:]:
        if rules._between_turns(s) and s.seen.size:
            text = rules.format_position(s)
            if rules.slug == "quatre-en-ligne":
                text = QUATRE.format_position(QUATRE.parse_position("0,0 " + text.split(" ", 1)[1]))
            seen[text] = seen.get(text, 0) + 1
    last = None if state.last is None else {"seat": state.last[0], "move": state.last[1]}
    return {"position": rules.format_position(state), "seen": dict(sorted(seen.items())), "last": last,
            "outcome": None}


@pytest.mark.django_db
def test_the_migration_converts_stored_games_and_leaves_a_row_it_cannot_convert_as_it_was(caplog):
    from django.apps import apps

    rules = engines.get("rampants-sauteurs")
    # A game that went round a loop twice: converted, it is one move from a draw by repetition.
    loop = "ccc/.../cc./.c./.C./CC./.../CCC 0"
    loop_moves = [
        (0, "a3-a4"), (1, "a6-a5"), (0, "a4-c4"), (1, "a5-c5"),
        (0, "c4-c3"), (1, "c5-c6"), (0, "c3-a3"), (1, "c6-a6"),
    ]  # fmt: skip
    states = [rules.parse_position(loop)]
    for seat, move in loop_moves:
        states.append(rules.play(states[-1], seat, move))
    assert rules.outcome(states[-1]) is None
    old = old_form(rules, states)
    assert old["seen"][loop] == 2
    good = Table.objects.create(game="rampants-sauteurs", seat_count=2, state=old)
    quatre_states = long_game(QUATRE, 80, seed=4)
    quatre = Table.objects.create(game="quatre-en-ligne", seat_count=2, state=old_form(QUATRE, quatre_states))
    bad_rows = [
        {**old, "seen": {"not a position": 1}},
        {**old, "seen": {loop: 7}},
        {**old, "position": 12},
        {**old, "last": "a3-a4"},
        ["not", "a", "mapping"],
        {"seen": {loop: 1}},
    ]
    bad = [Table.objects.create(game="eclaircissement" if i == 0 else "rampants-sauteurs", seat_count=2, state=s)
           for i, s in enumerate(bad_rows)]
    other = Table.objects.create(game="drumlin", seat_count=2, state={"position": "anything", "seen": {}})
    empty = Table.objects.create(game="quatre-en-ligne", seat_count=2, state=None)

    with caplog.at_level(logging.WARNING, logger="games.migrations"):
        done, failed = migration.convert_tables(apps)
    assert done == 2 and failed == [t.pk for t in bad]
    for table in bad:
        assert f"table {table.pk} " in caplog.text
    # Left exactly as they were, to be read and mended by hand.
    assert [Table.objects.get(pk=t.pk).state for t in bad] == bad_rows
    assert Table.objects.get(pk=other.pk).state == {"position": "anything", "seen": {}}
    assert Table.objects.get(pk=empty.pk).state is None

    converted = Table.objects.get(pk=good.pk).state
    assert set(converted) == {"position", "record", "last", "outcome"}
    loaded = rules.load(converted)
    assert recorded(rules, loaded) == recorded(rules, states[-1])
    after = play_sequence(rules, loaded, loop_moves[:-1])
    assert rules.outcome(after) is None
    assert rules.outcome(rules.play(after, *loop_moves[-1])) == Outcome.draw(2, "repetition")
    assert QUATRE.load(Table.objects.get(pk=quatre.pk).state) == quatre_states[-1]

    # Run again, it changes nothing (and still reports the rows it cannot convert).
    assert migration.convert_tables(apps) == (0, [t.pk for t in bad])
    assert Table.objects.get(pk=good.pk).state == converted
