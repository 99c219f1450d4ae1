"""The lesson page and its move check: the right move, a wrong one explained (in
the page's language), a retry, bad requests; links from the lobby."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse
from django.utils import translation

from games import lessons
from ludo.typography import french as typeset

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def french_by_default():
    with translation.override("fr"):
        yield


def steps_of(html: str) -> list[dict]:
    return json.loads(html.split('<script id="lesson-steps" type="application/json">', 1)[1].split("</script>", 1)[0])


@pytest.mark.parametrize("slug", lessons.available())
def test_each_lesson_page_carries_its_steps_in_french_and_english(client, slug):
    lesson = lessons.get(slug)
    response = client.get(reverse("games:lesson", args=[slug]))
    assert response.status_code == 200
    html = response.content.decode()
    steps = steps_of(html)
    assert [s["prompt"] for s in steps] == [s.prompt["fr"] for s in lesson.steps]
    assert all(s["legal"] and s["view"] for s in steps)
    assert "Apprendre" in html and 'name="level" value="easy"' in html
    with translation.override("en"):
        url = reverse("games:lesson", args=[slug])
    assert url == f"/en/play/learn/{slug}/"
    english = steps_of(client.get(url).content.decode())
    assert [s["prompt"] for s in english] == [s.prompt["en"] for s in lesson.steps]


def try_move(client, slug, number, move, language="fr"):
    with translation.override(language):
        url = reverse("games:lesson-try", args=[slug, number])
    return client.get(url, {"move": move})


def test_the_right_move_passes_and_shows_the_position_after_it(client):
    answer = try_move(client, "drumlin", 1, "Dd3-d8").json()
    assert answer["ok"] and answer["text"].startswith("L'œuf est devenu un dragon rose")
    assert answer["view"]["last_move"] == "Dd3-d8" and answer["last"] is False
    assert try_move(client, "drumlin", 9, "Og10-base").json()["last"] is True


def test_a_wrong_move_is_explained_and_can_be_tried_again(client):
    wrong = try_move(client, "drumlin", 1, "Dd3-d7").json()
    assert not wrong["ok"] and wrong["legal"]
    assert wrong["text"] == typeset(
        "Pas celui-ci. Le dragon s'arrête devant l'œuf : la case d8 reste à 2 et Rosa garde le Drumlin. Allez jusqu'à d8.")
    english = try_move(client, "drumlin", 1, "Dd3-d7", "en").json()
    assert english["text"].startswith("Not this one. The dragon stops in front of the egg")
    # Any other legal move gets the step's hint; the retry is just another attempt.
    other = try_move(client, "drumlin", 1, "Eb1-b2").json()
    assert not other["ok"] and "dragon de d3" in other["text"]
    assert try_move(client, "drumlin", 1, "Dd3-d8").json()["ok"]


def test_an_illegal_move_says_the_rules_refuse_it(client):
    answer = try_move(client, "drumlin", 4, "Oc10-base").json()
    assert not answer["ok"] and not answer["legal"]
    assert answer["text"].startswith("Les règles n’autorisent pas ce coup ici.")
    assert "majorité stricte" in answer["text"]
    nonsense = try_move(client, "drekki", 2, "bid lots", "en").json()
    assert not nonsense["ok"] and nonsense["text"].startswith("The rules do not allow this move here.")


@pytest.mark.parametrize("slug, number, query, status", [
    ("chess", 1, {"move": "e4"}, 404),
    ("drumlin", 0, {"move": "Dd3-d8"}, 404),
    ("drumlin", 99, {"move": "Dd3-d8"}, 404),
    ("drumlin", 1, {}, 400),
    ("drumlin", 1, {"move": "x" * 500}, 400),
])
def test_bad_requests_get_a_clear_error(client, slug, number, query, status):
    response = client.get(reverse("games:lesson-try", args=[slug, number]), query)
    assert response.status_code == status and response.json()["error"]


def test_a_post_is_refused_and_an_unknown_lesson_is_not_found(client):
    assert client.post(reverse("games:lesson-try", args=["drumlin", 1]), {"move": "Dd3-d8"}).status_code == 405
    assert client.get(reverse("games:lesson", args=["chess"])).status_code == 404


def test_the_lobby_links_every_lesson(client):
    html = client.get(reverse("games:play")).content.decode()
    assert "Apprendre à jouer" in html
    for slug in lessons.available():
        assert f'href="{reverse("games:lesson", args=[slug])}"' in html
