"""Every engine keeps the protocol, at every player count it allows.

Seeded random playouts run each registered engine (and the toy engines of
tests/games/toy_engines.py) to the end and check, at every step, the promises
games/engines/base.py makes: exact dump/load, position text round trip, ``play``
leaving its input alone and refusing bad moves with a reason, views that are JSON
and leak no seed, determinisations that a seat cannot tell from the real state,
and a proper outcome at the end. A few playouts per engine and player count run
by default; many more under ``-m slow``.

The playouts are seeded and half random: at each ply the move is drawn uniformly,
or, one time in two for a game that has ``evaluate``, is the move that
``evaluate`` likes best for the seat playing it. Pure random play almost never
finishes a game of Drumlin (thousands of plies of shuffling); the greedy half
makes every playout end in a few hundred plies while still wandering widely.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from games import engines
from games.engines.base import Countdown, IllegalMove, Option, OptionError, Outcome, PositionError, Rules
from tests.conftest import soak
from tests.games.toy_engines import TOY_ENGINES

ALL_RULES: list[Rules] = [*engines.all(), *TOY_ENGINES]

# Plies after which a random playout is declared endless.
MAX_PLIES = 2000
GARBAGE_MOVES = ("", " ", "garbage", "zz99-zz98", "take 99", "bid -1", "\x00", "a1-a1-a1-a1-a1", "9" * 40)
FAST_PLAYOUTS = 2
SLOW_PLAYOUTS = 10


def cases(playouts: range) -> list[Any]:
    return [
        pytest.param(rules, n, k, id=f"{rules.slug}-{n}p-{k}")
        for rules in ALL_RULES
        for n in range(rules.min_players, rules.max_players + 1)
        for k in playouts
    ]


def random_options(rules: Rules, rng: random.Random) -> dict[str, Any]:
    """A valid value for every option the game declares, drawn at random."""
    chosen = {}
    for option in rules.options:
        if option.kind == "bool":
            chosen[option.name] = rng.choice([False, True])
        elif option.kind == "choice":
            chosen[option.name] = rng.choice(option.choices)
        elif option.kind == "int" and option.minimum is not None and option.maximum is not None:
            chosen[option.name] = rng.randint(option.minimum, option.maximum)
    return chosen


def as_json(value: Any) -> Any:
    """``value`` as the server and the browsers get it: through json text."""
    return json.loads(json.dumps(value))


def has_seed_key(value: Any) -> bool:
    if isinstance(value, dict):
        return any("seed" in str(k).lower() or has_seed_key(v) for k, v in value.items())
    if isinstance(value, list):
        return any(has_seed_key(v) for v in value)
    return False


def check_dump(rules: Rules, state: Any, n: int) -> None:
    data = rules.dump(state)
    assert as_json(data) == data, "dump() is not an exact JSON value"
    loaded = rules.load(as_json(data))
    assert rules.dump(loaded) == data, "dump(load(dump(s))) differs from dump(s)"
    assert rules.dump(rules.load(rules.dump(loaded))) == data
    assert rules.to_act(loaded) == rules.to_act(state), "the loaded state has other seats to act"
    assert rules.outcome(loaded) == rules.outcome(state), "the loaded state has another outcome"
    assert rules.num_players(loaded) == n
    for seat in range(n):
        assert rules.legal_moves(loaded, seat) == rules.legal_moves(state, seat), (
            f"the loaded state gives seat {seat} other legal moves"
        )


def check_position_text(rules: Rules, state: Any) -> None:
    text = rules.format_position(state)
    assert isinstance(text, str) and text
    assert rules.format_position(rules.parse_position(text)) == text, f"position text does not round-trip: {text!r}"


def check_views(rules: Rules, state: Any, n: int, seed: str, rng: random.Random) -> None:
    for seat in [None, *range(n)]:
        view = rules.view(state, seat)
        assert isinstance(view, dict), f"view for seat {seat} is not a dict"
        text = json.dumps(view)  # no default=: anything not plain JSON fails here
        assert seed not in text, f"the seed shows in the view for seat {seat}"
        assert not has_seed_key(view), f"a 'seed' key shows in the view for seat {seat}"
        seen = as_json(view)
        if seat is None:
            continue
        # What a bot at this seat gets: a state it cannot tell from the real one.
        sample = rules.state_from_view(seen, seat, rng)
        assert as_json(rules.view(sample, seat)) == seen, f"a determinisation for seat {seat} shows another view"
        assert rules.legal_moves(sample, seat) == rules.legal_moves(state, seat), (
            f"a determinisation for seat {seat} gives it other legal moves"
        )
        assert rules.is_over(sample) == rules.is_over(state)
        assert as_json(rules.dump(sample)) == rules.dump(sample), "a determinisation does not dump to JSON"
    # A spectator sees nothing hidden: two draws that differ only in the hidden
    # parts look the same to it, and the same as the real state.
    spectator = as_json(rules.view(state, None))
    first = rules.state_from_view(spectator, None, rng)
    second = rules.state_from_view(spectator, None, rng)
    assert as_json(rules.view(first, None)) == spectator
    assert as_json(rules.view(second, None)) == spectator


def check_moves(rules: Rules, state: Any, n: int) -> dict[int, list[tuple[str, Any]]]:
    """Checks every seat's moves; the states after each legal move, by seat."""
    before = rules.dump(state)
    after: dict[int, list[tuple[str, Any]]] = {}
    acting = rules.to_act(state)
    assert len(set(acting)) == len(acting) and all(0 <= s < n for s in acting), f"bad seats to act: {acting}"
    for seat in range(n):
        moves = rules.legal_moves(state, seat)
        assert isinstance(moves, list) and all(isinstance(m, str) for m in moves)
        if seat not in acting:
            assert moves == [], f"seat {seat} is not to act but has legal moves"
            continue
        assert moves, f"seat {seat} is to act but has no legal move"
        assert len(set(moves)) == len(moves), f"duplicate legal moves for seat {seat}"
        after[seat] = [(move, rules.play(state, seat, move)) for move in moves]
        assert rules.dump(state) == before, f"play() changed the state it was given (seat {seat})"
        for move in GARBAGE_MOVES:
            if move not in moves:
                check_refused(rules, state, seat, move, before)
        value = rules.timeout_move(state, seat)
        assert value is None or value in moves, f"timeout move {value!r} is not legal for seat {seat}"
    for seat in [*(s for s in range(n) if s not in acting), n]:
        assert rules.legal_moves(state, seat) == []
        for other in acting:
            check_refused(rules, state, seat, rules.legal_moves(state, other)[0], before)
    countdown = rules.countdown(state)
    if countdown is not None:
        # The clock's move need not be a listed legal move (Drekki's "close" is not),
        # but the rules must accept it for the seat the countdown names.
        assert isinstance(countdown, Countdown)
        assert 0 <= countdown.seat < n and countdown.seconds > 0
        rules.play(state, countdown.seat, countdown.move)
        assert rules.dump(state) == before
    for seat in range(n):
        value = rules.evaluate(state, seat)
        assert value is None or 0.0 <= value <= 1.0, f"evaluate() gave {value!r} for seat {seat}"
    return after


def check_refused(rules: Rules, state: Any, seat: int, move: str, before: dict) -> None:
    with pytest.raises(IllegalMove) as refused:
        rules.play(state, seat, move)
    assert str(refused.value).strip(), f"IllegalMove for {move!r} by seat {seat} gives no reason"
    assert rules.dump(state) == before, f"a refused move ({move!r} by seat {seat}) changed the state"


def check_finished(rules: Rules, state: Any, n: int) -> None:
    outcome = rules.outcome(state)
    assert isinstance(outcome, Outcome)
    assert rules.to_act(state) == () or list(rules.to_act(state)) == []
    assert all(rules.legal_moves(state, seat) == [] for seat in range(n))
    assert len(set(outcome.winners)) == len(outcome.winners)
    assert all(isinstance(s, int) and 0 <= s < n for s in outcome.winners), f"bad winners {outcome.winners}"
    assert len(outcome.scores) == n, f"{len(outcome.scores)} scores for {n} seats"
    assert all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in outcome.scores)
    assert isinstance(outcome.reason, str) and outcome.reason
    assert Outcome.from_dict(as_json(outcome.to_dict())) == outcome
    for seat in range(n):
        assert 0.0 <= rules.utility(outcome, seat) <= 1.0
    check_refused(rules, state, 0, "garbage", rules.dump(state))


def greedy_move(rules: Rules, seat: int, successors: list[tuple[str, Any]], rng: random.Random) -> str:
    """The move whose result ``evaluate`` (or the outcome) likes best for ``seat``."""

    def value(after: Any) -> float:
        outcome = rules.outcome(after)
        if outcome is not None:
            return 2 * rules.utility(outcome, seat) - 0.5
        found = rules.evaluate(after, seat)
        return 0.5 if found is None else found

    return max(successors, key=lambda pair: (value(pair[1]), rng.random()))[0]


def random_playout(rules: Rules, n: int, k: int) -> None:
    rng = random.Random(f"{rules.slug}/{n}/{k}")
    seed = f"conformance-seed-{rules.slug}-{n}-{k}"
    options = random_options(rules, rng) if k else None
    state = rules.new_game(n, seed=seed, options=options)
    assert rules.dump(rules.new_game(n, seed=seed, options=options)) == rules.dump(state), (
        "new_game is not reproducible from its seed"
    )
    history = []
    for _ply in range(MAX_PLIES):
        check_dump(rules, state, n)
        check_position_text(rules, state)
        check_views(rules, state, n, seed, rng)
        if rules.is_over(state):
            check_finished(rules, state, n)
            break
        assert rules.outcome(state) is None
        successors = check_moves(rules, state, n)
        countdown = rules.countdown(state)
        seat = rng.choice(rules.to_act(state))
        if countdown is not None and rng.random() < 0.2:
            seat, move = countdown.seat, countdown.move  # the server's move when time runs out
        elif rng.random() < 0.05:
            move = rules.timeout_move(state, seat) or rng.choice(rules.legal_moves(state, seat))
        elif rng.random() < 0.5 and rules.evaluate(state, seat) is not None:
            move = greedy_move(rules, seat, successors[seat], rng)
        else:
            move = rng.choice(rules.legal_moves(state, seat))
        history.append((seat, move))
        state = rules.play(state, seat, move)
    else:
        pytest.fail(f"{rules.slug} with {n} players did not end within {MAX_PLIES} random plies")
    replay = rules.new_game(n, seed=seed, options=options)
    for seat, move in history:
        replay = rules.play(replay, seat, move)
    assert rules.dump(replay) == rules.dump(state), "replaying the moves from the seed gives another state"


@pytest.mark.parametrize(("rules", "n", "k"), cases(range(FAST_PLAYOUTS)))
def test_it_keeps_the_protocol_in_random_playouts(rules: Rules, n: int, k: int) -> None:
    random_playout(rules, n, k)


SLOW_CASES = cases(range(FAST_PLAYOUTS, FAST_PLAYOUTS + SLOW_PLAYOUTS))
# The slow playouts that reach lines (engines and this test) the fast ones do not, measured
# per playout with sys.monitoring (docs/performance.md, "CI"): the suite plays these,
# `make soak` (LUDO_SOAK=full) all of them.
REACHING_PLAYOUTS = {"eclaircissement-2p-3", "drumlin-2p-2"}


@pytest.mark.slow
@pytest.mark.parametrize(("rules", "n", "k"), soak(SLOW_CASES, [c for c in SLOW_CASES if c.id in REACHING_PLAYOUTS]))
def test_it_keeps_the_protocol_in_many_random_playouts(rules: Rules, n: int, k: int) -> None:
    random_playout(rules, n, k)


def bad_values(option: Option) -> list[Any]:
    if option.kind == "bool":
        return ["yes", 1, None]
    if option.kind == "int":
        values: list[Any] = ["3", True, 2.5, None]
        if option.minimum is not None:
            values.append(option.minimum - 1)
        if option.maximum is not None:
            values.append(option.maximum + 1)
        return values
    return ["no-such-choice-xyz", None, ["list"]]


def good_values(option: Option) -> list[Any]:
    if option.kind == "bool":
        return [False, True]
    if option.kind == "int":
        return [v for v in (option.minimum, option.default, option.maximum) if v is not None]
    return list(option.choices)


@pytest.mark.parametrize("rules", ALL_RULES, ids=lambda r: r.slug)
def test_it_validates_options_and_player_counts(rules: Rules) -> None:
    n = rules.min_players
    with pytest.raises(OptionError):
        rules.new_game(n, seed=1, options={"no_such_option_xyz": True})
    for option in rules.options:
        assert option.validate(option.default) == option.default
        for value in bad_values(option):
            with pytest.raises(OptionError):
                rules.new_game(n, seed=1, options={option.name: value})
        for value in good_values(option):
            state = rules.new_game(n, seed=1, options={option.name: value})
            assert rules.to_act(state), f"no seat to act with {option.name}={value!r}"
    for count in (rules.min_players - 1, rules.max_players + 1, 0, -1, "2", 2.0, True, None):
        with pytest.raises(OptionError):
            rules.new_game(count, seed=1)


@pytest.mark.parametrize("rules", ALL_RULES, ids=lambda r: r.slug)
def test_it_refuses_bad_dumps_and_positions(rules: Rules) -> None:
    for data in ({}, {"garbage": 1}):
        with pytest.raises(PositionError):
            rules.load(data)
    for text in ("", "garbage", "\x00\x01"):
        with pytest.raises(PositionError):
            rules.parse_position(text)


def test_the_registry_lists_each_engine_once_under_its_slug() -> None:
    slugs = [r.slug for r in engines.all()]
    assert slugs == sorted(set(slugs))
    for rules in engines.all():
        assert engines.get(rules.slug) is rules
        assert 1 <= rules.min_players <= rules.max_players
        assert as_json(rules.describe()) == rules.describe()
    with pytest.raises(KeyError):
        engines.get("no-such-game")
