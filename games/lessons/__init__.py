""""Learn to play": one short lesson per game, as data checked against the engine.

A lesson is a JSON file beside this module, ``<engine slug>.json``. This module is
pure Python (no Django): it reads a lesson, checks every step against the game's
engine, and judges a learner's attempt. The pages live in ``games.lessons_views``.

The file::

    {
      "game": "drumlin",
      "title": {"fr": "...", "en": "..."},
      "intro": {"fr": "...", "en": "..."},
      "outro": {"fr": "...", "en": "..."},
      "steps": [
        {
          "position": "<the game's position notation (docs/notation.md)>",
          "seat": 0,                        # the learner's seat (default: the one to act)
          "prompt": {"fr": "...", "en": "..."},
          "answer": ["Dd3-d8"],             # the move(s) asked: each legal here
          "success": {"fr": "...", "en": "..."},
          "hint": {"fr": "...", "en": "..."},       # said after any other move
          "wrong": [                         # moves worth a specific explanation
            {"moves": ["Dd3-d7"], "legal": true, "why": {"fr": "...", "en": "..."}},
            {"moves": ["Ec6-c10"], "legal": false, "why": {...}}
          ]
        },
        {
          "then": [[1, "Dd8-h8"]],          # instead of "position": the previous step's
          ...                                # position, its first answer, then these moves
        }
      ]
    }

``legal: true`` says the moves are legal but not the one asked; ``legal: false`` says
the rules refuse them here: the checker holds each explanation to what it states.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from games import engines
from games.engines import IllegalMove, PositionError

LANGUAGES = ("fr", "en")
HERE = Path(__file__).resolve().parent


class LessonError(ValueError):
    """A lesson file that does not hold: the message names the lesson, the step and the fault."""


@dataclass(frozen=True)
class Wrong:
    moves: tuple[str, ...]
    legal: bool
    why: dict[str, str]


@dataclass(frozen=True)
class Step:
    number: int  # from 1
    state: Any
    seat: int
    prompt: dict[str, str]
    answer: tuple[str, ...]
    success: dict[str, str]
    hint: dict[str, str]
    wrong: tuple[Wrong, ...]
    legal: tuple[str, ...]


@dataclass(frozen=True)
class Lesson:
    game: str
    title: dict[str, str]
    intro: dict[str, str]
    outro: dict[str, str]
    steps: tuple[Step, ...]


@dataclass(frozen=True)
class Verdict:
    """What an attempt deserves: ``ok`` with the step's success text, or the reason it is not."""

    ok: bool
    legal: bool
    text: dict[str, str]


def _texts(where: str, value: Any, required: bool = True) -> dict[str, str]:
    if value is None and not required:
        return {lang: "" for lang in LANGUAGES}
    if not isinstance(value, Mapping):
        raise LessonError(f"{where}: expected a text in French and English ({{'fr': ..., 'en': ...}}), got {value!r}")
    missing = [lang for lang in LANGUAGES if not isinstance(value.get(lang), str) or not value[lang].strip()]
    if missing:
        raise LessonError(f"{where}: the text has no {' and no '.join(missing)} version")
    extra = sorted(set(value) - set(LANGUAGES))
    if extra:
        raise LessonError(f"{where}: unknown language(s) {', '.join(extra)}")
    return {lang: value[lang].strip() for lang in LANGUAGES}


def _moves(where: str, value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not value or not all(isinstance(m, str) and m for m in value):
        raise LessonError(f"{where}: expected a non-empty list of moves, got {value!r}")
    return tuple(value)


def _play(rules: engines.Rules, state: Any, seat: Any, move: Any, where: str) -> Any:
    if isinstance(seat, bool) or not isinstance(seat, int) or not isinstance(move, str):
        raise LessonError(f"{where}: expected [seat, move], got {[seat, move]!r}")
    if seat not in rules.to_act(state):
        raise LessonError(f"{where}: seat {seat} is not to act (to act: {list(rules.to_act(state))})")
    try:
        return rules.play(state, seat, move)
    except IllegalMove as exc:
        raise LessonError(f"{where}: {move!r} is illegal for seat {seat}: {exc}") from None


def _step(rules: engines.Rules, name: str, number: int, data: Any, previous: Step | None) -> Step:
    where = f"lesson {name}, step {number}"
    if not isinstance(data, Mapping):
        raise LessonError(f"{where}: a step is an object, got {data!r}")
    unknown = sorted(set(data) - {"position", "then", "seat", "prompt", "answer", "success", "hint", "wrong"})
    if unknown:
        raise LessonError(f"{where}: unknown field(s) {', '.join(unknown)}")
    if ("position" in data) == ("then" in data):
        raise LessonError(f"{where}: give either a position or the moves played since the previous step (then)")
    if "position" in data:
        text = data["position"]
        if not isinstance(text, str):
            raise LessonError(f"{where}: the position is a text, got {text!r}")
        try:
            state = rules.parse_position(text)
        except PositionError as exc:
            raise LessonError(f"{where}: the position does not parse: {exc}") from None
    else:
        if previous is None:
            raise LessonError(f"{where}: the first step needs a position")
        if len(previous.answer) > 1:
            raise LessonError(
                f"{where}: step {previous.number} accepts several answers, so this step cannot follow "
                "from it (then): give its position"
            )
        state = _play(rules, previous.state, previous.seat, previous.answer[0], f"{where}, previous answer")
        then = data["then"]
        if not isinstance(then, list):
            raise LessonError(f"{where}: then is a list of [seat, move], got {then!r}")
        for index, pair in enumerate(then, 1):
            if not isinstance(pair, list) or len(pair) != 2:
                raise LessonError(f"{where}, then #{index}: expected [seat, move], got {pair!r}")
            state = _play(rules, state, pair[0], pair[1], f"{where}, then #{index}")
    if rules.outcome(state) is not None:
        raise LessonError(f"{where}: the game is already over in this position")
    acting = rules.to_act(state)
    seat = data.get("seat", acting[0] if acting else None)
    if seat not in acting:
        raise LessonError(f"{where}: seat {seat!r} is not to act here (to act: {list(acting)})")
    legal = tuple(rules.legal_moves(state, seat))
    answer = _moves(f"{where}, answer", data.get("answer"))
    for move in answer:
        if move not in legal:
            raise LessonError(f"{where}: the answer {move!r} is not legal here")
    wrong = []
    for index, entry in enumerate(data.get("wrong", []), 1):
        spot = f"{where}, wrong #{index}"
        if not isinstance(entry, Mapping) or set(entry) != {"moves", "legal", "why"}:
            raise LessonError(f"{spot}: expected {{moves, legal, why}}, got {entry!r}")
        moves = _moves(f"{spot}, moves", entry["moves"])
        if not isinstance(entry["legal"], bool):
            raise LessonError(f"{spot}: legal is true or false, got {entry['legal']!r}")
        for move in moves:
            if move in answer:
                raise LessonError(f"{spot}: {move!r} is the answer, not a wrong move")
            if entry["legal"] and move not in legal:
                raise LessonError(f"{spot}: {move!r} is said to be legal but the rules refuse it here")
            if not entry["legal"] and move in legal:
                raise LessonError(f"{spot}: {move!r} is said to be illegal but it is legal here")
        wrong.append(Wrong(moves, entry["legal"], _texts(f"{spot}, why", entry["why"])))
    return Step(
        number=number,
        state=state,
        seat=seat,
        prompt=_texts(f"{where}, prompt", data.get("prompt")),
        answer=answer,
        success=_texts(f"{where}, success", data.get("success")),
        hint=_texts(f"{where}, hint", data.get("hint")),
        wrong=tuple(wrong),
        legal=legal,
    )


def check(data: Any, name: str = "?") -> Lesson:
    """The lesson ``data`` (a parsed file) checked step by step; LessonError on any fault."""
    if not isinstance(data, Mapping):
        raise LessonError(f"lesson {name}: expected an object, got {type(data).__name__}")
    try:
        rules = engines.get(data.get("game"))
    except (KeyError, TypeError):
        raise LessonError(f"lesson {name}: unknown game {data.get('game')!r}") from None
    steps_data = data.get("steps")
    if not isinstance(steps_data, list) or not steps_data:
        raise LessonError(f"lesson {name}: no steps")
    steps: list[Step] = []
    for number, step in enumerate(steps_data, 1):
        steps.append(_step(rules, name, number, step, steps[-1] if steps else None))
    return Lesson(
        game=rules.slug,
        title=_texts(f"lesson {name}, title", data.get("title")),
        intro=_texts(f"lesson {name}, intro", data.get("intro")),
        outro=_texts(f"lesson {name}, outro", data.get("outro")),
        steps=tuple(steps),
    )


_cache: dict[str, Lesson] = {}


def available() -> list[str]:
    """The slugs of the games that have a lesson."""
    return sorted(path.stem for path in HERE.glob("*.json"))


def get(slug: str) -> Lesson:
    """The checked lesson of ``slug``; KeyError when the game has none."""
    if slug not in _cache:
        if slug not in available():
            raise KeyError(f"no lesson for {slug!r}")
        path = HERE / f"{slug}.json"
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise LessonError(f"lesson {slug}: not valid JSON: {exc}") from None
        lesson = check(data, slug)
        if lesson.game != slug:
            raise LessonError(f"lesson {slug}: the file is named for {slug} but teaches {lesson.game}")
        _cache[slug] = lesson
    return _cache[slug]


def judge(step: Step, move: str) -> Verdict:
    """The verdict on ``move`` tried at ``step``."""
    if move in step.answer:
        return Verdict(True, True, step.success)
    for wrong in step.wrong:
        if move in wrong.moves:
            return Verdict(False, wrong.legal, wrong.why)
    return Verdict(False, move in step.legal, step.hint)

