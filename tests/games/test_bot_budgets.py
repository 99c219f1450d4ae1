"""Bots on time: every level's cap, its floor, and the order of the levels.

The clock is the bot's own (``clock=``): these tests give it one that moves only
when read, or one already past any deadline (a machine so loaded that nothing
but the floor fits), so that no result depends on how fast the machine is.
Strength (each level beating the one below) is measured by bench/bots.py.
"""

from __future__ import annotations

import json
import math
import random
from typing import Any

import pytest

from games import bots, engines
from games.bots.base import Budget
from games.bots.drekki import DrekkiSearchBot
from games.bots.greedy import GreedyBot
from games.bots.mcts import MctsBot
from games.engines.base import Rules
from tests.games.toy_engines import Goofspiel, TicTacToe

SEARCHING = {"mcts", "ismcts", "greedy"}
# Kinds that do not search: their work per move is fixed and small.
FIXED_WORK = {"random", "heuristic"}


class StepClock:
    """A clock that moves ``step`` seconds each time it is read."""

    def __init__(self, step: float) -> None:
        self.step = step
        self.now = 0.0
        self.reads = 0

    def __call__(self) -> float:
        self.now += self.step
        self.reads += 1
        return self.now


class StuckClock:
    """A machine so loaded that every deadline has passed by the time the clock is read again."""

    def __init__(self) -> None:
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        return 0.0 if self.reads == 1 else math.inf


def frozen() -> float:
    """A machine infinitely fast: the cap never comes."""
    return 0.0


def seat_view(rules: Rules, state: Any, seat: int) -> dict[str, Any]:
    return json.loads(json.dumps(rules.view(state, seat)))


def midgame(rules: Rules, players: int = 2, plies: int = 12, seed: int = 4) -> tuple[Any, int]:
    """A position after ``plies`` random moves, and a seat with a choice to make there."""
    rng = random.Random(seed)
    state = rules.new_game(players, seed=f"budget-{seed}")
    for _ in range(plies):
        seat = min(rules.to_act(state))
        state = rules.play(state, seat, rng.choice(rules.legal_moves(state, seat)))
    while True:
        seat = min(rules.to_act(state))
        moves = rules.legal_moves(state, seat)
        if len(moves) > 1:
            return state, seat
        state = rules.play(state, seat, moves[0])


# -- the budget itself ------------------------------------------------------------------------


def test_the_floor_is_searched_whatever_the_clock_says() -> None:
    budget = Budget(nodes=100, seconds=1.0, floor=7, clock=StuckClock())
    budget.start()
    done = 0
    while budget.more(done):
        done += 1
    assert done == 7


def test_the_cap_stops_the_search_at_the_first_check_past_it() -> None:
    clock = StepClock(0.125)  # exact in binary: no rounding at the boundary
    budget = Budget(nodes=None, seconds=1.0, floor=2, clock=clock)
    budget.start()  # 0.125
    done = 0
    while budget.more(done):
        done += 1
    # Nodes 0 and 1 are the floor (no read); before node k >= 2 the clock reads
    # e = 0.125 * (k - 1) past the start, and the search goes on while e plus one node
    # at the pace so far (e / k) ends before 1.0: k = 8 (0.875 + 0.109), not k = 9 (1.0).
    assert done == 9
    assert clock.reads == 1 + 8


def test_a_long_step_that_would_end_past_the_cap_is_not_started() -> None:
    clock = StepClock(0.25)
    budget = Budget(nodes=None, seconds=1.0, floor=1, clock=clock)
    budget.start()  # 0.25
    # The clock moves 0.25 s at each read. First check: 1 node in 0.25 s, 2 more at
    # that pace end at 0.75 s: go on. Second check: 1 node in 0.5 s, 3 more end at 2.0 s.
    assert budget.more(1, step=2)
    assert not budget.more(1, step=3)
    # A whole-node floor is still met first, however slow the pace.
    assert Budget(nodes=None, seconds=1.0, floor=4, clock=StuckClock()).more(3, step=9)


def test_the_node_count_stops_the_search_before_the_cap() -> None:
    budget = Budget(nodes=5, seconds=1.0, floor=1, clock=frozen)
    budget.start()
    assert [budget.more(d) for d in range(7)] == [True] * 5 + [False] * 2
    assert budget.more(3, step=2) and not budget.more(3, step=3)


@pytest.mark.parametrize(
    ("budget", "message"),
    [
        ({"iterations": 10, "floor": 11}, "must not exceed"),
        ({"iterations": 10, "floor": 0}, "floor must be at least 1"),
        ({"iterations": None, "seconds": None}, "budget"),
        ({"iterations": None, "seconds": -1.0}, "positive"),
    ],
)
def test_a_bad_budget_is_refused(budget: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        MctsBot(TicTacToe(), 0, **budget)
    with pytest.raises(ValueError, match=message):
        DrekkiSearchBot(engines.get("drekki"), 0, **budget)


# -- the searches under a clock of the test's own ---------------------------------------------------


def test_mcts_stops_at_its_cap_and_plays_what_that_many_iterations_give() -> None:
    rules = TicTacToe()
    view = seat_view(rules, rules.new_game(2), 0)
    clock = StepClock(0.125)
    bot = MctsBot(rules, 3, iterations=10_000, seconds=1.0, floor=2, clock=clock)
    move = bot.choose(view, 0)
    assert bot.last_iterations == 9
    assert bot.last_seconds == pytest.approx(1.125)  # the clock read once more, after the search
    # The same seed and node count, without a clock, make the same choice.
    assert MctsBot(rules, 3, iterations=9, seconds=None).choose(view, 0) == move


def test_an_overloaded_machine_still_gets_the_floor_and_the_same_move_as_the_node_count() -> None:
    rules = engines.get("quatre-en-ligne")
    state, seat = midgame(rules)
    view = seat_view(rules, state, seat)
    settings = bots.level_spec("medium", rules)[1]
    loaded = bots.make("medium", rules, 5, clock=StuckClock())
    counted = bots.make("medium", rules, 5, iterations=settings["floor"], seconds=None)
    assert loaded.choose(view, seat) == counted.choose(view, seat)
    assert loaded.last_iterations == counted.last_iterations == settings["floor"]


def test_the_greedy_bot_takes_one_draw_past_its_cap_and_every_draw_before_it() -> None:
    rules = Goofspiel()
    state = rules.new_game(3, seed=2)
    view = seat_view(rules, state, 1)
    loaded = GreedyBot(rules, 1, samples=6, seconds=0.5, clock=StuckClock())
    assert loaded.choose(view, 1) in rules.legal_moves(state, 1)
    assert loaded.last_iterations == 1
    quiet = GreedyBot(rules, 1, samples=6, seconds=0.5, clock=frozen)
    quiet.choose(view, 1)
    assert quiet.last_iterations == 6


def test_the_drekki_search_plays_whole_rounds_up_to_its_floor_when_the_clock_has_run_out() -> None:
    rules = engines.get("drekki")
    for seed in range(40):  # a position where the search has several candidates to race
        state, seat = midgame(rules, players=4, plies=seed % 7, seed=seed)
        view = seat_view(rules, state, seat)
        bot = DrekkiSearchBot(rules, 1, iterations=500, seconds=1.0, floor=25, min_rounds=100,
                              clock=StuckClock())
        if len(bot.candidates(view, seat, list(view["legal_moves"]))) > 2:
            break
    else:
        pytest.fail("no position with several candidates")
    candidates = len(bot.candidates(view, seat, list(view["legal_moves"])))
    move = bot.choose(view, seat)
    assert move in rules.legal_moves(state, seat)
    # Whole rounds (one playout per candidate, none dropped before 100 rounds) up to the floor.
    assert bot.last_iterations == candidates * math.ceil(25 / candidates)
    quiet = DrekkiSearchBot(rules, 1, iterations=500, seconds=1.0, floor=25, min_rounds=100, clock=frozen)
    quiet.choose(view, seat)
    assert quiet.last_iterations == candidates * (500 // candidates)


# -- every level of every game ------------------------------------------------------------------------


GAMES = [pytest.param(rules, id=rules.slug) for rules in engines.all()]


@pytest.mark.parametrize("rules", GAMES)
def test_every_level_has_a_cap_below_the_tables_limit_and_a_floor(rules: Rules) -> None:
    limit = bots.TABLE_SECONDS - bots.APPLY_MARGIN
    for level in bots.LEVELS:
        kind, params = bots.level_spec(level, rules)
        if kind in FIXED_WORK:
            continue
        assert kind in SEARCHING, f"{rules.slug} {level}: {kind} is neither a search nor fixed work"
        assert 0 < params["seconds"] <= limit, (rules.slug, level, params)
        if kind != "greedy":  # the greedy bot's floor is one look at every move, always
            assert 1 <= params["floor"] <= params["iterations"], (rules.slug, level, params)
        bot = bots.make(level, rules, 0)
        assert bot.seconds == params["seconds"]


@pytest.mark.parametrize("rules", GAMES)
def test_each_level_always_searches_at_least_the_most_the_level_below_it_searches(rules: Rules) -> None:
    # Levels of one searching kind compare by nodes. (Drekki's levels are three kinds:
    # its hard search races the medium heuristic's own move against others, with the
    # heuristic playing every seat in its playouts; bench/bots.py measures the order.)
    compared = 0
    for lower, upper in zip(bots.LEVELS, bots.LEVELS[1:]):
        low_kind, low = bots.level_spec(lower, rules)
        up_kind, up = bots.level_spec(upper, rules)
        if low_kind == up_kind:
            assert up["floor"] >= low["iterations"], (rules.slug, lower, upper)
            assert up["seconds"] > low["seconds"], (rules.slug, lower, upper)
            compared += 1
    assert compared or rules.slug == "drekki", f"{rules.slug}: no two levels of one kind"


@pytest.mark.parametrize("rules", [pytest.param(r, id=r.slug) for r in engines.all() if r.max_players == 2])
def test_hard_too_loaded_for_its_cap_searches_more_than_medium_on_a_quiet_machine(rules: Rules) -> None:
    state, seat = midgame(rules)
    view = seat_view(rules, state, seat)
    medium = bots.make("medium", rules, 2, clock=frozen)
    hard = bots.make("hard", rules, 2, clock=StuckClock())
    medium.choose(view, seat)
    hard.choose(view, seat)
    assert hard.last_iterations >= medium.last_iterations > 0
    assert hard.last_iterations == bots.level_spec("hard", rules)[1]["floor"]


@pytest.mark.parametrize(
    "rules",
    [pytest.param(engines.get(slug), id=slug) for slug, kinds in bots.GAME_SETTINGS.items()
     if kinds.get("mcts", {}).get("constant_sum")],
)
def test_constant_sum_is_only_claimed_where_the_two_evaluations_add_up_to_one(rules: Rules) -> None:
    rng = random.Random(rules.slug)
    checked = 0
    for game in range(4):
        state = rules.new_game(2, seed=f"sum-{game}")
        for _ in range(60):
            if rules.is_over(state):
                break
            assert rules.evaluate(state, 0) + rules.evaluate(state, 1) == pytest.approx(1.0)
            checked += 1
            seat = min(rules.to_act(state))
            state = rules.play(state, seat, rng.choice(rules.legal_moves(state, seat)))
        if rules.is_over(state):
            assert rules.evaluate(state, 0) + rules.evaluate(state, 1) == pytest.approx(1.0)
    assert checked > 100
