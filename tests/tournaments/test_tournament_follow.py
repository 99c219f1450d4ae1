"""Where a player's phone goes between games: their next table, by itself, from their
tournament page or from a table they sat at; never away from someone else's table that
they chose to watch (the banner there links to their own)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import require
from tests.tournaments.helpers import guests, host, play_round, seats_of_round, tournament_with
from tournaments import services

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.django_db
def test_the_answer_lists_the_tables_the_player_sat_at_and_only_theirs(alice):
    people = guests(4)
    t = tournament_with(alice, people, format="swiss", rounds=2)
    services.start(t.pk, host(alice))
    t.refresh_from_db()
    first = services.current_table(t, people[0])
    assert first["tables"] == [first["table"]]
    others = {s.pairing.table_id for s in seats_of_round(t, 1)} - {first["table"]}
    assert len(others) == 1 and not others & set(first["tables"])
    play_round(t, people)
    second = services.current_table(t, people[0])
    assert second["round"] == 2 and second["tables"] == [first["table"], second["table"]]
    stranger = services.current_table(t, guests(5)[4])
    assert "tables" not in stranger and stranger["table"] is None


CASES = [
    # (answer, the page's table ("" on the player's page)), expected
    ({"table": 8, "table_url": "/t/8/", "tables": [3, 8], "done": False}, "3", True),  # their game here is over
    ({"table": 8, "table_url": "/t/8/", "tables": [3, 8], "done": False}, "", True),  # their tournament page
    ({"table": 8, "table_url": "/t/8/", "tables": [3, 8], "done": False}, "5", False),  # watching table 5
    ({"table": 8, "table_url": "/t/8/", "tables": [3, 8], "done": False}, "8", False),  # already there
    ({"table": 8, "table_url": "/t/8/", "tables": [3, 8], "done": True}, "3", False),  # their last game is over
    ({"table": None, "tables": [3]}, "3", False),  # no table this round (a bye)
]


def test_a_table_page_leaves_for_the_next_table_only_when_it_was_the_players():
    node = shutil.which("node")
    require(node is not None, "node is not installed (apt-get install nodejs)")
    script = f"""
      globalThis.document = {{ querySelector: () => null }};
      const {{ leavesFor }} = await import({json.dumps((ROOT / 'static/tournaments/follow.js').as_uri())});
      const cases = {json.dumps([[answer, page] for answer, page, _ in CASES])};
      process.stdout.write(JSON.stringify(cases.map(([me, page]) => leavesFor(me, page))));
    """
    done = subprocess.run([node, "--input-type=module", "-e", script], capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [expected for _, _, expected in CASES]
