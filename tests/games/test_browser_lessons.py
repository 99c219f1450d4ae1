"""The lessons in a real Chromium against a live daphne: every lesson's first step
drawn at phone and desktop sizes (screenshots), and a lesson completed by clicking,
with a wrong move explained in view and retried, ending in a game against the easy bot."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from games import lessons
from ludo.typography import french as typeset
from tests.games.module_site import live_site, module_live_site, shared_live_site  # noqa: F401  (fixtures)
from tests.games.ui_server import DESKTOP, PHONE, new_page  # noqa: F401  (fixture)

pytestmark = [pytest.mark.browser, pytest.mark.one_stack]
SCREENS = Path("/work/artifacts/screens/h17-learn")
SIZES = {"phone": PHONE, "desktop": DESKTOP}


def shoot(probe, name: str) -> None:
    if SCREENS.parent.exists():
        SCREENS.mkdir(parents=True, exist_ok=True)
        probe.page.screenshot(path=str(SCREENS / f"{name}.png"))
    probe.screenshot(name, full_page=False)


def in_viewport(page, selector: str) -> bool:
    return page.evaluate(
        """(selector) => { const r = document.querySelector(selector).getBoundingClientRect();
             return r.top >= 0 && r.bottom <= window.innerHeight && r.height > 0; }""", selector)


@pytest.mark.parametrize("size", SIZES)
def test_every_lesson_draws_its_first_step(live_site, chromium, size):
    probe = new_page(chromium, live_site, f"test_browser_lessons-{size}", viewport=SIZES[size])
    for slug in lessons.available():
        for prefix, lang in (("/jouer/apprendre", "fr"), ("/en/play/learn", "en")):
            probe.page.goto(live_site.url(f"{prefix}/{slug}/"))
            expect(probe.page.locator("[data-board-slot] svg").first).to_be_visible()
            expect(probe.page.locator("[data-prompt]")).to_have_text(lessons.get(slug).steps[0].prompt[lang])
            # The board's top is in view without scrolling, under the prompt.
            top = probe.page.locator("[data-board-slot]").bounding_box()["y"]
            assert top < SIZES[size]["height"] * 0.75, (slug, size, top)
            if lang == "fr" or slug == "drumlin":
                shoot(probe, f"lesson-{slug}-{lang}-{size}")
    probe.assert_no_console_errors()


def click_move(page, origin: str, target: str) -> None:
    page.locator(f"[data-board-slot] [data-square='{origin}']").click()
    page.locator(f"[data-board-slot] [data-square='{target}']").click()


@pytest.mark.parametrize("size", SIZES)
def test_a_lesson_is_completed_by_clicking_with_a_wrong_move_explained(live_site, chromium, size):
    probe = new_page(chromium, live_site, f"test_browser_lessons-play-{size}", viewport=SIZES[size])
    page = probe.page
    page.goto(live_site.url("/jouer/"))
    page.locator("[data-lesson-link='eclaircissement']").click()
    page.wait_for_url(re.compile(r"/jouer/apprendre/eclaircissement/$"))
    expect(page.locator("[data-progress]")).to_have_text("Étape 1 sur 3")

    # A wrong (legal) move: explained in words, next to the board, in view; the position comes back.
    click_move(page, "a1", "b2")
    feedback = page.locator("[data-feedback]")
    expect(feedback).to_have_text(
        re.compile(typeset(r"^Pas celui-ci\. C'est un simple pas : il termine le tour\.")))
    expect(feedback).to_have_attribute("data-kind", "wrong")
    assert in_viewport(page, "[data-feedback]")
    shoot(probe, f"lesson-wrong-move-{size}")

    # Retried: the jump asked.
    click_move(page, "a1", "a3")
    expect(feedback).to_have_attribute("data-kind", "right")
    expect(feedback).to_contain_text("le même pion peut continuer à sauter")
    page.locator("[data-next]").click()
    expect(page.locator("[data-progress]")).to_have_text("Étape 2 sur 3")
    click_move(page, "a3", "c3")
    expect(feedback).to_contain_text("Votre pion est éclairé")
    page.locator("[data-next]").click()
    expect(page.locator("[data-progress]")).to_have_text("Étape 3 sur 3")
    click_move(page, "b3", "d3")
    expect(feedback).to_contain_text("Deux pions éclairés")
    end = page.locator("[data-end]")
    expect(end).to_be_visible()
    shoot(probe, f"lesson-complete-{size}")

    # The short game against the easy bot: a real table, no name asked first.
    end.get_by_role("button", name="Jouer une courte partie contre le robot facile").click()
    page.wait_for_url(re.compile(r"/jouer/table/\d+/$"))
    expect(page.locator("[data-players]")).to_contain_text("facile", timeout=15_000)
    probe.assert_no_console_errors()


DRUMLIN_CLICKS = [  # the rulebook's examples A and B, as a learner clicks them
    ["d3", "d8"], ["c10"], ["c6", "c10"], ["c4", "c10"], ["c10", "base"],
    ["e3", "e8"], ["b4", "g10"], ["e8", "g10"], ["move:Og10-base"],
]


def drumlin_click(page, target: str) -> None:
    slot = page.locator("[data-board-slot]")
    if target == "base":
        slot.locator("[data-base='1']").click()
    elif target.startswith("move:"):
        slot.locator(f"button[data-move='{target[5:]}']").click()
    else:
        slot.locator(f"[data-square='{target}']").click()


def test_the_drumlin_lesson_replays_the_rulebooks_examples_by_clicking(live_site, chromium):
    probe = new_page(chromium, live_site, "test_browser_lessons-drumlin", viewport=DESKTOP)
    page = probe.page
    page.goto(live_site.url("/en/play/learn/drumlin/"))
    feedback = page.locator("[data-feedback]")
    # One wrong move first: the dragon stops short of the egg.
    drumlin_click(page, "d3")
    drumlin_click(page, "d7")
    expect(feedback).to_have_text(re.compile(r"^Not this one\. The dragon stops in front of the egg"))
    for number, clicks in enumerate(DRUMLIN_CLICKS, 1):
        expect(page.locator("[data-progress]")).to_have_text(f"Step {number} of {len(DRUMLIN_CLICKS)}")
        for target in clicks:
            drumlin_click(page, target)
        expect(feedback).to_have_attribute("data-kind", "right")
        if number < len(DRUMLIN_CLICKS):
            page.locator("[data-next]").click()
    expect(page.locator("[data-end]")).to_be_visible()
    expect(feedback).to_have_text("Won a second time!")
    probe.assert_no_console_errors()


OTHER_LESSONS = {  # each step as a learner clicks it: squares, or "move:<move>" for a button
    "rampants-sauteurs": [["a2", "a3"], ["a1", "c3"], ["c6", "c7"]],
    "quatre-en-ligne": [["1,1"], ["0,1", "2,3"], ["4,3", "2,-1", "2,1", "2,-1"], ["3,2", "3,0"]],
    "drekki": [["move:play 4"], ["move:bid 6"], ["move:bid 8"], ["move:colour red"]],
}


@pytest.mark.parametrize("slug", OTHER_LESSONS)
def test_the_other_lessons_are_completed_by_clicking(live_site, chromium, slug):
    probe = new_page(chromium, live_site, f"test_browser_lessons-{slug}", viewport=DESKTOP)
    page = probe.page
    page.goto(live_site.url(f"/jouer/apprendre/{slug}/"))
    steps = OTHER_LESSONS[slug]
    for number, clicks in enumerate(steps, 1):
        expect(page.locator("[data-progress]")).to_have_text(f"Étape {number} sur {len(steps)}")
        for target in clicks:
            slot = page.locator("[data-board-slot]")
            if target.startswith("move:"):
                slot.locator(f"button[data-move='{target[5:]}']").click()
            else:
                slot.locator(f"[data-square='{target}']").click()
        expect(page.locator("[data-feedback]")).to_have_attribute("data-kind", "right")
        if number < len(steps):
            page.locator("[data-next]").click()
    expect(page.locator("[data-end]")).to_be_visible()
    probe.assert_no_console_errors()
