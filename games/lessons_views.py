""""Learn to play": the lesson page of a game and the check of one attempt.

The page carries every step (the prompt in the page's language, the learner's view
of the position and their legal moves); the board module of the game draws it and
takes the clicks. Each attempted move goes to ``attempt``, which judges it with the
lesson's data (games.lessons) and the engine: right, or wrong with the reason in
words. Nothing is stored: a lesson is a private exercise. The last step offers a
short game against the easy bot (the quick-play form, a real table).
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from games import engines, lessons, pages
from games.lessons import Lesson, Step

MAX_MOVE_CHARS = 200


def _language() -> str:
    language = (get_language() or "fr")[:2]
    return language if language in lessons.LANGUAGES else "fr"


def _lesson(slug: str) -> Lesson:
    try:
        return lessons.get(slug)
    except KeyError:
        raise Http404(_("This game has no lesson.")) from None


def _players(rules: engines.Rules, step: Step) -> list[dict[str, Any]]:
    count = rules.num_players(step.state)
    players = []
    for seat in range(count):
        if seat == step.seat:
            name = _("Learner")
        elif count == 2:
            name = _("Opponent")
        else:  # Drekki: the lessons speak of mage 0 (the learner), 1, 2...
            name = _("Mage %(number)s") % {"number": seat}
        players.append({"seat": seat, "name": name, "isBot": seat != step.seat, "connected": True})
    return players


def _step_data(rules: engines.Rules, step: Step, language: str) -> dict[str, Any]:
    return {
        "number": step.number,
        "seat": step.seat,
        "prompt": step.prompt[language],
        "view": rules.view(step.state, step.seat),
        "legal": list(step.legal),
        "toAct": list(rules.to_act(step.state)),
        "players": _players(rules, step),
    }


def lesson_info(slug: str) -> dict[str, Any] | None:
    """What a page needs to link to ``slug``'s lesson (its title), or None without one."""
    if slug not in lessons.available():
        return None
    return {"slug": slug, "title": lessons.get(slug).title[_language()]}


@require_GET
def lesson(request: HttpRequest, slug: str) -> HttpResponse:
    found = _lesson(slug)
    rules = engines.get(found.game)
    language = _language()
    game = next((g for g in pages.games_info() if g["slug"] == slug), {"slug": slug, "title": rules.title,
                                                                         "rules_url": ""})
    return render(request, "games/lesson.html", {
        "lesson": found,
        "title": found.title[language],
        "intro": found.intro[language],
        "outro": found.outro[language],
        "game": game,
        "steps": [_step_data(rules, step, language) for step in found.steps],
        "board_css": pages.board_stylesheets(slug),
        "quick_seats": 4 if slug == "drekki" else "",
    })


def _error(message: str, status: int = 400) -> JsonResponse:
    return JsonResponse({"error": message}, status=status)


@require_GET
def attempt(request: HttpRequest, slug: str, number: int) -> JsonResponse:
    """Judge ``?move=`` at step ``number`` (from 1): {ok, legal, text}, and the position
    after the move when it is the one asked. Changes nothing, so a GET."""
    try:
        found = lessons.get(slug)
    except KeyError:
        return _error(_("This game has no lesson."), 404)
    if not 1 <= number <= len(found.steps):
        return _error(_("This lesson has no step %(number)s.") % {"number": number}, 404)
    move = request.GET.get("move", "")
    if not move or len(move) > MAX_MOVE_CHARS:
        return _error(_("Say which move to try (?move=...)."))
    step = found.steps[number - 1]
    verdict = lessons.judge(step, move)
    language = _language()
    answer: dict[str, Any] = {"ok": verdict.ok, "legal": verdict.legal, "move": move, "text": verdict.text[language]}
    if verdict.ok:
        rules = engines.get(found.game)
        after = rules.play(step.state, step.seat, move)
        answer["view"] = rules.view(after, step.seat)
        answer["last"] = number == len(found.steps)
    elif not verdict.legal:
        answer["text"] = _("The rules do not allow this move here.") + " " + verdict.text[language]
    else:
        answer["text"] = _("Not this one.") + " " + verdict.text[language]
    return JsonResponse(answer)
