"""Wording a newcomer meets (issue 24): each count with its own plural, the rating called
a rating ("Cote"), no "choose a name" right above "no need to choose a name", "Mes
parties" for online games only and the account page's link to the play log, a rules QR
code only where the rules page has rules, the lobby named apart from the living room."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import translation

from catalog.models import Game
from games import services
from ludo.typography import french as typeset
from tests.games.tables_helpers import confirm, guest
from tests.games.test_ratings_pages import finished_rated_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def players(db):
    User = get_user_model()
    return [confirm(User.objects.create_user(n, f"{n}@example.org", f"pw-{n}-12345")) for n in ("ana", "ben")]


def test_the_profile_gives_each_count_its_plural_and_calls_the_rating_cote(client, players):
    ana, ben = players
    table = finished_rated_game(ana, ben)
    winner = "ana" if table.seats.get(index=table.outcome["winners"][0]).user_id == ana.pk else "ben"
    client.force_login(ana)
    html = client.get(reverse("player_profile", args=["ana"])).content.decode()
    record = "1 gagnée, 0 perdue, 0 nulle." if winner == "ana" else "0 gagnée, 1 perdue, 0 nulle."
    assert typeset(f"1 partie jouée : {record}") in html
    assert "(s)" not in html
    assert "<span>Cote</span>" in html and "Classement<" not in html
    with translation.override("en"):
        html = client.get(reverse("player_profile", args=["ana"])).content.decode()
    record = "1 won, 0 lost, 0 drawn." if winner == "ana" else "0 won, 1 lost, 0 drawn."
    assert f"1 game played: {record}" in html
    assert "<span>Rating</span>" in html


def test_no_page_asks_for_a_name_right_above_saying_none_is_needed(client):
    home = client.get(reverse("home")).content.decode()
    assert "contre un robot, lancez-vous" in home
    assert "choisissez un nom affiché et asseyez-vous" not in home
    lobby = client.get(reverse("games:play")).content.decode()
    notice = lobby[lobby.index('class="card notice"'):lobby.index("</p>", lobby.index('class="card notice"'))]
    assert "table ouverte par quelqu’un d’autre" in notice and "jouer tout de suite contre un robot" in notice


def test_online_games_and_logged_plays_have_two_names_and_the_account_links_the_play_log(client, players):
    ana, _ben = players
    client.force_login(ana)
    account = client.get(reverse("account:home")).content.decode()
    assert "Mes parties en ligne" in account
    assert f'href="{reverse("playlog:mine")}" data-playlog-link>Mon carnet de parties<' in account
    assert "Mon carnet de parties" in client.get(reverse("playlog:mine")).content.decode()


def test_the_rules_qr_code_only_where_the_rules_page_has_rules(client):
    plain = Game.objects.create(title="Une boîte sans règles")
    drumlin = Game.objects.create(title="Drumlin", engine_slug="drumlin")
    assert "data-rules-qr" not in client.get(plain.get_absolute_url()).content.decode()
    assert "data-rules-qr" in client.get(drumlin.get_absolute_url()).content.decode()


def test_the_lobby_is_not_called_salon_on_a_table_page(client):
    table = services.create_table(guest("Zoé"), "drumlin", 2)
    html = client.get(reverse("games:table", args=[table.pk])).content.decode()
    link = html[html.index("data-lobby-link"):html.index("</a>", html.index("data-lobby-link"))]
    assert "Toutes les tables" in link and "Salon" not in link
