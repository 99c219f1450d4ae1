"""Bots: legal, reproducible, fed only their seat's view, and stronger than chance.

Every bot kind and level is run on every registered engine and player count (and
on the toy engines), always given ``json.loads(json.dumps(view))`` for its own
seat, never the state. Searches use iteration budgets here, never time budgets,
so that a seed fixes every choice.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from games import bots, engines
from games.bots.mcts import MctsBot
from games.engines.base import Rules
from tests.conftest import soak
from tests.games.toy_engines import TOY_ENGINES, ChainNim, Goofspiel, TicTacToe

ALL_RULES: list[Rules] = [*engines.all(), *TOY_ENGINES]
TABLES = [(rules, n) for rules in ALL_RULES for n in range(rules.min_players, rules.max_players + 1)]
# Small budgets keep the suite fast; strength is measured in bench/bots.py.
TEST_BUDGET = {"iterations": 24, "seconds": None, "floor": 1, "playout_depth": 8}
# Game-specific searches (games/bots/<game>.py) take the same iteration budget.
SEARCHES = {"ismcts"}
SEARCH_BUDGET = {"iterations": 24, "seconds": None, "floor": 1}
# Plies (of a game otherwise played at random) at which the bot is asked to move.
ASK_AT = {0, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144}
MAX_ASKS = 7


def build(kind_or_level: str, rules: Rules, seed: Any) -> bots.Bot:
    kind = bots.level_spec(kind_or_level, rules)[0] if kind_or_level in bots.LEVELS else kind_or_level
    budget = TEST_BUDGET if kind == "mcts" else SEARCH_BUDGET if kind in SEARCHES else {}
    return bots.make(kind_or_level, rules, seed, **budget)


def seat_view(rules: Rules, state: Any, seat: int) -> dict[str, Any]:
    """What a bot gets: its seat's view, as JSON text would carry it."""
    return json.loads(json.dumps(rules.view(state, seat)))


def bot_names(rules: Rules) -> list[str]:
    return [*bots.kinds(rules), *bots.LEVELS]


BOT_CASES = [
    pytest.param(rules, n, name, id=f"{rules.slug}-{n}p-{name}")
    for rules, n in TABLES
    for name in bot_names(rules)
]


@pytest.mark.parametrize(("rules", "n", "name"), BOT_CASES)
def test_it_plays_legal_reproducible_moves_from_the_view_alone(rules: Rules, n: int, name: str) -> None:
    rng = random.Random(f"bots/{rules.slug}/{n}/{name}")
    state = rules.new_game(n, seed=f"bot-test-{n}")
    # Two bots per seat built with the same seed must make the same choices.
    first = [build(name, rules, ("seed", seat)) for seat in range(n)]
    twin = [build(name, rules, ("seed", seat)) for seat in range(n)]
    asks = 0
    for ply in range(5000):
        if rules.is_over(state) or asks >= MAX_ASKS:
            break
        seat = rng.choice(rules.to_act(state))
        if ply in ASK_AT:
            view = seat_view(rules, state, seat)
            untouched = copy.deepcopy(view)
            move = first[seat].choose(view, seat)
            assert view == untouched, "the bot changed the view it was given"
            assert move in rules.legal_moves(state, seat), f"{name} chose {move!r}, not a legal move"
            assert twin[seat].choose(seat_view(rules, state, seat), seat) == move, "same seed, other move"
            asks += 1
        else:
            move = rng.choice(rules.legal_moves(state, seat))
        state = rules.play(state, seat, move)
    assert asks, "the bot was never asked to move"


WHOLE_GAME_TABLES = [pytest.param(r, n, id=f"{r.slug}-{n}p") for r, n in TABLES]
# The whole games that reach lines (games/, this test) the test above does not, measured
# per game with sys.monitoring (docs/performance.md, "CI"): the suite plays these,
# `make soak` (LUDO_SOAK=full) six at every table.
REACHING_WHOLE_GAMES = {
    "drekki-2p": [1], "drekki-3p": [3], "drekki-4p": [1], "drumlin-2p": [0],
    "eclaircissement-2p": [0, 1], "quatre-en-ligne-2p": [4],
}


@pytest.mark.slow
@pytest.mark.parametrize(("rules", "n"), soak(WHOLE_GAME_TABLES,
                                              [t for t in WHOLE_GAME_TABLES if t.id in REACHING_WHOLE_GAMES]))
def test_mixed_bots_play_whole_games(rules: Rules, n: int) -> None:
    names = bot_names(rules)
    for game in soak(range(6), REACHING_WHOLE_GAMES.get(f"{rules.slug}-{n}p", [])):
        state = rules.new_game(n, seed=f"whole-{game}")
        players = [build(names[(seat + game) % len(names)], rules, (game, seat)) for seat in range(n)]
        for _ply in range(1500):  # legality, not termination: random seats may wander
            if rules.is_over(state):
                break
            seat = min(rules.to_act(state))
            move = players[seat].choose(seat_view(rules, state, seat), seat)
            assert move in rules.legal_moves(state, seat), f"{players[seat].kind} chose {move!r}"
            state = rules.play(state, seat, move)


def play_match(rules: Rules, players: list[bots.Bot], seed: Any) -> Any:
    """A whole game between bots; the outcome."""
    state = rules.new_game(len(players), seed=seed)
    while not rules.is_over(state):
        seat = min(rules.to_act(state))
        state = rules.play(state, seat, players[seat].choose(seat_view(rules, state, seat), seat))
    return rules.outcome(state)


def results(rules: Rules, kind: str, params: dict[str, Any], games: int) -> tuple[int, int, int]:
    """(wins, draws, losses) of ``kind`` against the random bot, alternating seats."""
    wins = draws = losses = 0
    for game in range(games):
        me = game % 2
        players = [bots.make("random", rules, ("rival", game)) for _ in range(2)]
        players[me] = bots.make(kind, rules, ("strong", game), **params)
        outcome = play_match(rules, players, seed=game)
        if outcome.is_draw:
            draws += 1
        elif me in outcome.winners:
            wins += 1
        else:
            losses += 1
    return wins, draws, losses


def test_mcts_beats_random_at_tic_tac_toe() -> None:
    wins, draws, losses = results(TicTacToe(), "mcts", {"iterations": 200}, games=40)
    assert wins >= 30 and losses <= 2, (wins, draws, losses)


def test_mcts_beats_random_at_a_sealed_bid_game() -> None:
    wins, draws, losses = results(Goofspiel(), "mcts", {"iterations": 200}, games=40)
    assert wins >= 26 and losses <= 10, (wins, draws, losses)


def test_greedy_beats_random_at_tic_tac_toe() -> None:
    wins, draws, losses = results(TicTacToe(), "greedy", {}, games=40)
    assert wins >= 24 and losses <= 6, (wins, draws, losses)


@pytest.mark.parametrize("kind", ["greedy", "mcts"])
@pytest.mark.parametrize(
    ("position", "best"),
    [
        ("xx./oo./... 0 0", "c1"),  # x to move completes the bottom row
        ("x../oo./x.. 0 0", "c2"),  # x must block o's middle row
    ],
)
def test_it_takes_a_win_and_blocks_a_loss_at_tic_tac_toe(kind: str, position: str, best: str) -> None:
    rules = TicTacToe()
    state = rules.parse_position(position)
    for seed in range(5):
        bot = bots.make(kind, rules, seed, **({"iterations": 300} if kind == "mcts" else {}))
        assert bot.choose(seat_view(rules, state, 0), 0) == best


@pytest.mark.parametrize("kind", ["greedy", "mcts"])
def test_it_plays_through_a_turn_of_several_steps(kind: str) -> None:
    # Heaps 2 and 5: the only winning turn brings the second heap down to 2, three
    # steps of one stone, then ends the turn.
    rules = ChainNim()
    state = rules.parse_position("2.5 0 -")
    bot = bots.make(kind, rules, 1, **({"iterations": 600} if kind == "mcts" else {}))
    steps = []
    while 0 in rules.to_act(state):
        move = bot.choose(seat_view(rules, state, 0), 0)
        steps.append(move)
        state = rules.play(state, 0, move)
    assert steps == ["take 2"] * 3 + ["end"]


def test_the_mcts_time_budget_still_gives_a_legal_move() -> None:
    rules = Goofspiel()
    state = rules.new_game(3, seed=5)
    bot = bots.make("mcts", rules, 0, iterations=None, seconds=0.05)
    move = bot.choose(seat_view(rules, state, 2), 2)
    assert move in rules.legal_moves(state, 2)
    assert bot.last_iterations >= 1


def test_the_mcts_bot_needs_a_budget() -> None:
    with pytest.raises(ValueError, match="budget"):
        MctsBot(TicTacToe(), 0, iterations=None, seconds=None)


def test_a_bot_refuses_to_move_for_a_seat_not_to_act() -> None:
    rules = TicTacToe()
    state = rules.new_game(2)
    for kind in ("random", "greedy", "mcts"):
        with pytest.raises(ValueError):
            bots.make(kind, rules, 0).choose(seat_view(rules, state, 1), 1)


def test_levels_map_to_kinds_with_the_documented_budgets() -> None:
    rules = TicTacToe()
    assert bots.level_spec("easy", rules) == ("greedy", {"randomness": 0.3, "seconds": 0.5})
    kind, medium = bots.level_spec("medium", rules)
    assert kind == "mcts" and 0 < medium["floor"] <= medium["iterations"] and 0 < medium["seconds"] < 2
    kind, hard = bots.level_spec("hard", rules)
    assert kind == "mcts" and 0 < hard["seconds"] < 2 and hard["floor"] >= medium["iterations"]
    assert isinstance(bots.make("easy", rules, 0), bots.GreedyBot)
    assert isinstance(bots.make("hard", rules, 0), bots.MctsBot)


@pytest.mark.parametrize("slug", sorted(set(bots.GAME_SETTINGS) & set(engines.slugs())))
def test_a_games_own_settings_apply_to_its_bots_unless_overridden(slug: str) -> None:
    for kind, settings in bots.GAME_SETTINGS[slug].items():
        bot = bots.make(kind, slug, 0)
        assert all(getattr(bot, name) == value for name, value in settings.items())
        name, value = next(iter(settings.items()))
        assert getattr(bots.make(kind, slug, 0, **{name: value + 1}), name) == value + 1
        for level in bots.LEVELS:
            level_kind, params = bots.level_spec(level, slug)
            if level_kind == kind:
                # A level's own settings for this game (LEVEL_SETTINGS) come last.
                own = bots.LEVEL_SETTINGS.get(slug, {}).get(level, {})
                assert {**settings, **own}.items() <= params.items()


@pytest.mark.skipif("drekki" not in engines.slugs(), reason="the Drekki engine is not registered")
def test_drekki_medium_is_its_heuristic_bot() -> None:
    assert "heuristic" in bots.kinds("drekki")
    assert bots.level_spec("medium", "drekki") == ("heuristic", {})
    assert bots.make("medium", "drekki", 0).kind == "heuristic"
    assert "heuristic" not in bots.kinds(TicTacToe())


def test_it_names_the_choices_when_a_kind_or_level_is_unknown() -> None:
    with pytest.raises(bots.UnknownBot, match="levels: easy, medium, hard; kinds: greedy, mcts, random"):
        bots.make("grandmaster", TicTacToe(), 0)
    with pytest.raises(ValueError, match="unknown bot level"):
        bots.level_spec("impossible", TicTacToe())
    assert bots.kinds() == ("greedy", "mcts", "random")


# Violet holds the Drumlin on a1 (an egg alone: the majority) and can move the
# elephant of c9 or of f9 up to row 10; either one would let the Drumlin leave the
# egg for it and go on to pink's base line next turn, and both results look alike
# to the evaluation. Pink's elephant on c5 can run up the c file and spoil c10;
# nothing of pink's can reach f10 or a1, so only Ef9-f10 wins by force.
DRUMLIN_WIN_IN_TWO = "8/2E2E2/8/8/8/2e4e/8/8/8/O7 v - std -"


def drumlin() -> Rules:
    return engines.get("drumlin")


@pytest.mark.skipif("drumlin" not in engines.slugs(), reason="the Drumlin engine is not registered")
def test_one_ply_evaluation_cannot_tell_the_two_threats_apart() -> None:
    rules = drumlin()
    state = rules.parse_position(DRUMLIN_WIN_IN_TWO)
    values = {move: rules.evaluate(rules.play(state, 0, move), 0) for move in ("Ec9-c10", "Ef9-f10")}
    assert values["Ec9-c10"] == pytest.approx(values["Ef9-f10"])
    # The spoiling answer exists: after it, violet has no winning departure left.
    spoiled = rules.play(rules.play(state, 0, "Ec9-c10"), 1, "Ec5-c10")
    assert not any(move.startswith("Oa1-c10") for move in rules.legal_moves(spoiled, 0))


@pytest.mark.skipif("drumlin" not in engines.slugs(), reason="the Drumlin engine is not registered")
@pytest.mark.parametrize(
    "search",
    [
        pytest.param({"minimax_weight": 0.5}, id="minimax"),
        pytest.param({"minimax_weight": 0.5, "priors": 1}, id="minimax-priors"),
        pytest.param({"minimax_weight": 0.5, "priors": 1, "keep_states": True}, id="minimax-priors-states"),
    ],
)
def test_mcts_with_minimax_backups_finds_the_threat_that_cannot_be_parried(search: dict[str, Any]) -> None:
    rules = drumlin()
    state = rules.parse_position(DRUMLIN_WIN_IN_TWO)
    view = seat_view(rules, state, 0)
    for seed in range(4):
        bot = MctsBot(rules, seed, iterations=300, playout_depth=0, exploration=0.12, **search)
        assert bot.choose(view, 0) == "Ef9-f10", seed


@pytest.mark.skipif("drumlin" not in engines.slugs(), reason="the Drumlin engine is not registered")
def test_mcts_with_priors_finishes_a_won_drumlin_turn() -> None:
    # The egg on a1 may leave for c10 (violet's lone elephant, the majority there)
    # and go on to the base line at once: a win in one turn of two steps.
    rules = drumlin()
    state = rules.parse_position("2E5/8/8/8/8/2e4e/8/8/8/O7 v - std -")
    bot = bots.make("mcts", rules, 0, iterations=200)
    steps = []
    while 0 in rules.to_act(state):
        move = bot.choose(seat_view(rules, state, 0), 0)
        steps.append(move)
        state = rules.play(state, 0, move)
    assert steps == ["Oa1-c10", "Oc10-base"]
    assert rules.outcome(state).winners == (0,)


@pytest.mark.parametrize("keep_states", [False, True])
def test_priors_and_minimax_keep_the_search_reproducible_and_legal(keep_states: bool) -> None:
    # Priors need an evaluation: in Chain Nim (which has one) they must not break a
    # turn of several steps, and the same seed must give the same choices.
    rules = ChainNim()
    state = rules.parse_position("2.5 0 -")
    search = {"iterations": 600, "priors": 1, "minimax_weight": 0.5, "keep_states": keep_states}
    steps = []
    while 0 in rules.to_act(state):
        move = bots.make("mcts", rules, 1, **search).choose(seat_view(rules, state, 0), 0)
        assert move == bots.make("mcts", rules, 1, **search).choose(seat_view(rules, state, 0), 0)
        steps.append(move)
        state = rules.play(state, 0, move)
    assert steps == ["take 2"] * 3 + ["end"]


def test_the_new_mcts_settings_are_checked() -> None:
    with pytest.raises(ValueError, match="minimax_weight"):
        MctsBot(TicTacToe(), 0, minimax_weight=1.5)
    with pytest.raises(ValueError, match="priors"):
        MctsBot(TicTacToe(), 0, priors=-1)
