"""Bots' names: each level has a small cast (games/bots/names.py), a bot is called by its
level's cast and its seat, so two bots at one table never share a name, and the page
shows the level beside it; a seat handed to a bot keeps the person's name with a
"(robot)" mark, in the players list and in the result (static/js/table/format.js)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from games.bots import LEVELS
from games.bots.names import CASTS, bot_name, is_cast_name

RUNNER = Path(__file__).with_name("seat_names.mjs")


def page_names(seats: list[dict]) -> dict:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    done = subprocess.run([node, str(RUNNER), json.dumps(seats)], capture_output=True, text=True, check=False, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def seat(index: int, name: str = "", bot: str | None = None) -> dict:
    return {"index": index, "name": name, "bot": bot, "empty": False, "account": False, "resigned": False}


def test_every_level_has_its_own_cast_of_six():
    assert set(CASTS) == set(LEVELS)
    every = [name for cast in CASTS.values() for name in cast]
    assert len(every) == len(set(every)) == 6 * len(LEVELS)


def test_bots_at_one_table_have_distinct_names_that_tell_the_level():
    for level in LEVELS:
        names = [bot_name(level, index) for index in range(6)]
        assert len(set(names)) == 6
        assert all(name in CASTS[level] and is_cast_name(name) for name in names)
    # Two easy bots, as on a Drekki table of three with the guest on seat 0.
    assert bot_name("easy", 1) != bot_name("easy", 2)
    assert not is_cast_name("Zoé")


def test_bad_level_or_seat_is_refused():
    with pytest.raises(ValueError, match="no names"):
        bot_name("expert", 0)
    with pytest.raises(ValueError, match="no seat"):
        bot_name("easy", -1)


def test_the_page_uses_the_same_casts():
    shown = page_names([])
    assert shown["casts"] == {level: list(cast) for level, cast in CASTS.items()}


def test_the_page_names_bots_and_handed_over_seats():
    page = page_names([
        seat(0, "Zoé"),
        seat(1, "", "easy"),             # a bot added to the table (no name stored)
        seat(2, "", "easy"),             # another one: another name
        seat(3, "Zoé-Lou", "medium"),    # a person's seat handed to a bot keeps the name
        seat(4, bot_name("hard", 4), "hard"),  # a bot whose cast name the server stored
    ])
    assert page["names"] == [
        "Zoé",
        f"{bot_name('easy', 1)} (robot, easy)",
        f"{bot_name('easy', 2)} (robot, easy)",
        "Zoé-Lou (robot)",
        f"{bot_name('hard', 4)} (robot, hard)",
    ]
    # The result names the person whose seat a bot finished.
    assert page["results"][3] == "Winner, Zoé-Lou (robot): a player resigned."
