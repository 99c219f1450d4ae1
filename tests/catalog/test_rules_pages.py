"""Rules pages of the playable games: French and English, interpretation notes, live
diagrams drawn from the engines' positions, a "play now" link."""

from __future__ import annotations

import pytest
from django.urls import reverse

from catalog.collection.models import Game
from catalog.rulebooks import diagrams
from games import engines
from ludo.language import english_url

pytestmark = pytest.mark.django_db

PLAYABLE = {
    "drumlin": "Drumlin",
    "rampants-sauteurs": "Rampants et Sauteurs",
    "eclaircissement": "Éclaircissement",
    "quatre-en-ligne": "Quatre en ligne",
    "drekki": "Drekki",
}


@pytest.mark.parametrize("slug", PLAYABLE)
@pytest.mark.parametrize("prefix, notes", [("", "Notes d'interprétation"), ("/en", "Interpretation notes")])
def test_each_playable_game_has_a_rules_page_with_notes_and_diagrams(client, make_game, slug, prefix, notes):
    game = make_game(PLAYABLE[slug], engine_slug=slug, min_players=2, max_players=2)
    html = client.get(english_url(game.rules_url()) if prefix else game.rules_url()).content.decode()
    assert notes.replace("'", "&#x27;") in html or notes in html
    assert html.count("<svg") >= 1 and "diagram-missing" not in html
    assert "<script" not in html.split("<main", 1)[1].split("</main>", 1)[0]
    assert 'style="' not in html
    assert f'href="{reverse("games:play")}?game={slug}"' in html


def test_the_drekki_page_says_its_tiles_are_a_reconstruction(client, make_game):
    game = make_game("Drekki", engine_slug="drekki", min_players=2, max_players=6)
    assert "reconstruction" in client.get(game.rules_url()).content.decode()
    assert "reconstruction" in client.get(english_url(game.rules_url())).content.decode()


def test_a_game_without_an_engine_lists_its_rulebooks_only(client, make_game, text_document):
    game = make_game("Karo")
    text_document(game, "Règles des trois jeux.", language="fr", title="Karo, les règles")
    html = client.get(game.rules_url()).content.decode()
    assert "Karo, les règles" in html and "<svg" not in html


def test_diagrams_come_from_the_engine_view(make_game):
    svg = diagrams.render("drumlin", "3O4/8/8/8/8/7e/8/8/8/E7 v - std -")
    assert svg.count("<circle") == 4  # egg (2 circles), pink elephant, violet elephant
    with pytest.raises(diagrams.DiagramError):
        diagrams.render("drumlin", "not a position")
    with pytest.raises(diagrams.DiagramError):
        diagrams.render("no-such-game", "x")


def test_every_engine_start_position_can_be_drawn():
    for rules in engines.all():
        state = rules.new_game(max(rules.min_players, 3) if rules.slug == "drekki" else rules.min_players, seed=1)
        assert diagrams.render(rules.slug, rules.format_position(state)).startswith("<svg")


def test_a_game_page_links_play_now_only_when_playable(client, make_game):
    playable = make_game("Drumlin", engine_slug="drumlin")
    plain = make_game("Catan")
    main = client.get(playable.get_absolute_url()).content.decode().split("<main", 1)[1]
    assert f'href="{reverse("games:play")}?game=drumlin"' in main
    main = client.get(plain.get_absolute_url()).content.decode().split("<main", 1)[1]
    assert reverse("games:play") + "?" not in main and "data-play-now" not in main
    assert Game.objects.count() == 2


@pytest.mark.parametrize("page", ["game", "rules"])
def test_play_now_opens_the_lobby_with_the_game_chosen(client, make_game, page):
    # Not the lobby's first game: without ?game= the lobby would choose another one.
    slug = engines.all()[-1].slug
    assert engines.all()[0].slug != slug
    game = make_game(PLAYABLE[slug], engine_slug=slug, min_players=2, max_players=2)
    url = game.get_absolute_url() if page == "game" else game.rules_url()
    html = client.get(url).content.decode()
    link = html.split("data-play-now", 1)[0].rsplit('href="', 1)[1].split('"', 1)[0]
    assert link == f"{reverse('games:play')}?game={slug}"
    lobby = client.get(link).content.decode()
    quick = lobby.split("data-quick-form", 1)[1].split("</form>", 1)[0]
    assert f'<option value="{slug}" selected>' in quick
    assert quick.split("</select>", 1)[0].count(" selected>") == 1


def test_the_drumlin_page_replays_the_rulebook_examples(client, make_game):
    game = make_game("Drumlin", engine_slug="drumlin")
    html = client.get(game.rules_url()).content.decode()
    assert "Exemple A" in html and "Exemple B" in html
    assert html.count('<figure class="diagram">') >= 10 and "diagram-missing" not in html


def test_a_diagram_can_show_a_position_after_moves():
    start = "e7/8/3(Eo)1E2/8/2E5/8/2E5/3D3e/6e1/1E6 v - std -"
    before = diagrams.render("drumlin", start)
    after = diagrams.render("drumlin", start, moves="Dd3-d8 *c10")
    assert before != after and after.count("<title>Drumlin</title>") == 1
    with pytest.raises(diagrams.DiagramError):
        diagrams.render("drumlin", start, moves="Dd3-d9")
