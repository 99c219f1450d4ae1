"""The "learn to play" lessons: every step of every lesson replayed through the engine,
and bad lesson data refused by the checker with a message naming the fault."""

from __future__ import annotations

import copy
import json

import pytest

from games import engines, lessons
from games.lessons import LessonError

pytestmark = pytest.mark.engine
GAMES = ("drekki", "drumlin", "eclaircissement", "quatre-en-ligne", "rampants-sauteurs")


def raw(slug: str) -> dict:
    return json.loads((lessons.HERE / f"{slug}.json").read_text(encoding="utf-8"))


def test_every_game_has_a_lesson():
    assert set(lessons.available()) == set(GAMES) == set(engines.slugs())


@pytest.mark.parametrize("slug", GAMES)
def test_every_step_replays_through_the_engine(slug):
    """Independently of the checker: rebuild each step's position from the file, play
    its answer(s), and hold every wrong-move entry to what it says."""
    data = raw(slug)
    rules = engines.get(slug)
    state, seat, previous_answer = None, None, None
    for number, step in enumerate(data["steps"], 1):
        if "position" in step:
            state = rules.parse_position(step["position"])
            assert rules.format_position(state) == step["position"], (slug, number)
        else:
            state = rules.play(state, seat, previous_answer)
            for other_seat, move in step["then"]:
                state = rules.play(state, other_seat, move)
        assert rules.outcome(state) is None, (slug, number)
        seat = step.get("seat", rules.to_act(state)[0])
        assert seat in rules.to_act(state)
        legal = rules.legal_moves(state, seat)
        for move in step["answer"]:
            assert move in legal, (slug, number, move)
            rules.play(state, seat, move)  # the engine takes it
        for entry in step.get("wrong", []):
            for move in entry["moves"]:
                assert move not in step["answer"]
                assert (move in legal) is entry["legal"], (slug, number, move)
                if not entry["legal"]:
                    with pytest.raises(engines.IllegalMove):
                        rules.play(state, seat, move)
            assert entry["why"]["fr"] != entry["why"]["en"]
        for key in ("prompt", "success", "hint"):
            assert step[key]["fr"].strip() and step[key]["en"].strip() and step[key]["fr"] != step[key]["en"]
        previous_answer = step["answer"][0]
    # The lesson's last answer is legal: the learner finishes it.
    assert previous_answer in rules.legal_moves(state, seat)


def test_the_drumlin_lesson_replays_the_rulebooks_examples_a_and_b():
    lesson = lessons.get("drumlin")
    starts = [step.number for step in lesson.steps if step.number == 1 or "Example B" in step.prompt["en"]]
    assert len(starts) == 2
    rules = engines.get("drumlin")
    # Example A ends with the Drumlin on Rosa's base line, example B too.
    for step in (lesson.steps[4], lesson.steps[-1]):
        outcome = rules.outcome(rules.play(step.state, step.seat, step.answer[0]))
        assert outcome is not None and outcome.winners == (0,) and outcome.reason == "base-line"


def test_the_checker_judges_right_wrong_and_other_moves():
    step = lessons.get("drumlin").steps[0]
    assert lessons.judge(step, "Dd3-d8").ok
    wrong = lessons.judge(step, "Dd3-d7")
    assert not wrong.ok and wrong.legal and "d8" in wrong.text["en"] and "d8" in wrong.text["fr"]
    other = lessons.judge(step, "Eb1-b2")
    assert not other.ok and other.legal and other.text == step.hint
    illegal = lessons.judge(step, "Ea1-a9")
    assert not illegal.ok and not illegal.legal


def broken(slug: str, change) -> dict:
    data = copy.deepcopy(raw(slug))
    change(data)
    return data


@pytest.mark.parametrize("change, message", [
    (lambda d: d["steps"][0].update(position="not a position"), "step 1: the position does not parse"),
    (lambda d: d["steps"][0].update(answer=["Dd3-d9"]), "step 1: the answer 'Dd3-d9' is not legal here"),
    (lambda d: d["steps"][0]["wrong"][0].update(legal=False), "step 1, wrong #1: 'Dd3-d7' is said to be illegal but it is legal here"),
    (lambda d: d["steps"][3]["wrong"][0].update(legal=True), "step 4, wrong #1: 'Oc10-base' is said to be legal but the rules refuse it"),
    (lambda d: d["steps"][0]["wrong"][0].update(moves=["Dd3-d8"]), "'Dd3-d8' is the answer, not a wrong move"),
    (lambda d: d["steps"][2].update(then=[[1, "Dd8-h9"]]), "step 3, then #1: 'Dd8-h9' is illegal for seat 1"),
    (lambda d: d["steps"][2].update(then=[[0, "Ec6-c10"]]), "step 3, then #1: seat 0 is not to act"),
    (lambda d: d["steps"][0]["prompt"].pop("en"), "step 1, prompt: the text has no en version"),
    (lambda d: d["steps"][0]["success"].update(de="Gut"), "step 1, success: unknown language(s) de"),
    (lambda d: d["steps"][0].update(seat=1), "step 1: seat 1 is not to act here"),
    (lambda d: d["steps"][0].update(position="e7/8/3(Eo)1E2/8/2E5/8/2E5/3D3e/6e1/1E6 v - std -", then=[]), "give either a position or"),
    (lambda d: d["steps"][0].update(colour="red"), "step 1: unknown field(s) colour"),
    (lambda d: d["steps"][1].update(answer=["*c10", "*d5"]), "step 3: step 2 accepts several answers"),
    (lambda d: d.update(game="chess"), "unknown game 'chess'"),
    (lambda d: d.update(steps=[]), "no steps"),
    (lambda d: d["steps"][4].update(answer=["Oc10-base", "Ea1-a2"]), "step 5: the answer 'Ea1-a2' is not legal here"),
])
def test_bad_lesson_data_is_refused_with_a_clear_message(change, message):
    with pytest.raises(LessonError) as error:
        lessons.check(broken("drumlin", change), "drumlin")
    assert message in str(error.value)


def test_a_step_in_a_finished_game_is_refused():
    def finished(data):
        data["steps"] = [{**data["steps"][-1]}]
        data["steps"][0].pop("then")
        data["steps"][0]["position"] = "2eE2D1/8/4(Eo)3/8/8/8/1(EE)6/4E3/d7/E6e v - std -"
        data["steps"][0]["answer"] = ["Ee3-e8"]
        data["steps"][0]["wrong"] = []
    lessons.check(broken("drumlin", finished), "ok")  # a sound step passes
    rules = engines.get("rampants-sauteurs")
    won = rules.play(rules.parse_position("JCJ/CJ./..C/.../.../jcj/cjc/... 0"), 0, "c6-c7")
    data = broken("rampants-sauteurs", lambda d: d["steps"][2].update(position=rules.format_position(won)))
    with pytest.raises(LessonError, match="step 3: the game is already over"):
        lessons.check(data, "rampants-sauteurs")
