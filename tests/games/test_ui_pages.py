"""The pages of live play with Django's test client: the lobby (games, options and
their explanations, my games with whose turn it is), its two forms (create a table,
play against a bot now), the table page and the replay page (access, links, the
data the scripts read), in French and English."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from catalog.collection.models import Game
from games import engines, pages, services
from games.models import Seat, Table
from tests.games.tables_helpers import guest

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def french_by_default():
    """reverse() follows the thread's language, which a request under /en/ leaves active."""
    with translation.override("fr"):
        yield


@pytest.fixture
def zoe_client(client):
    """A browser whose session holds the guest name Zoé."""
    session = client.session
    session["guest_name"] = "Zoé"
    session["guest_id"] = "g:" + "5a" * 16
    session.save()
    return client


def zoe_of(client) -> services.Who:
    return services.Who(guest_key=client.session["guest_id"], name="Zoé")


def main_of(response) -> str:
    return response.content.decode().split("<main", 1)[1].split("</main>", 1)[0]


def test_it_lists_every_playable_game_with_its_options_explained(client):
    html = main_of(client.get(reverse("games:play")))
    for rules in engines.all():
        assert f'value="{rules.slug}"' in html
        for option in rules.options:
            assert f'name="opt-{rules.slug}-{option.name}"' in html
    # The option of Drumlin, in French, with its explanation tied to the field.
    assert "Règles Clou 1986" in html
    assert 'aria-describedby="opt-drumlin-clou_1986-help"' in html
    assert "Départ libre sur un de ses éléphants" in html
    assert 'style="' not in html and "<script>" not in html


def test_it_speaks_english_under_en(client):
    with translation.override("en"):
        url = reverse("games:play")
    assert url == "/en/play/"
    html = main_of(client.get(url))
    assert "Play against a bot now" in html and "Clou 1986 rules" in html


def test_every_engine_option_and_choice_is_translated():
    with translation.override("fr"):
        for game in pages.games_info():
            for option in game["options"]:
                rules_option = next(o for o in engines.get(game["slug"]).options if o.name == option["name"])
                assert option["label"] != rules_option.label, (game["slug"], option["name"])
                if rules_option.help:
                    assert option["help"] != rules_option.help, (game["slug"], option["name"])
                for choice in option["choices"]:
                    assert not choice["label"].isdigit() and choice["label"] != "random", choice


def test_a_visitor_without_a_name_is_asked_for_one_and_cannot_create(client):
    html = main_of(client.get(reverse("games:play")))
    assert reverse("guest") + "?next=" in html
    assert html.count("disabled") >= 1  # the create form (quick play needs no name: tests/games/test_quick_play.py)
    response = client.post(reverse("games:create"), {"game": "drumlin", "seats-drumlin": "2"})
    assert response.status_code == 302 and response["Location"].startswith(reverse("games:play"))
    assert not Table.objects.exists()


def test_play_against_a_bot_now_starts_a_table_with_me_on_the_first_seat(zoe_client):
    response = zoe_client.post(reverse("games:quick"), {"game": "drumlin", "level": "medium"})
    table = Table.objects.get()
    assert response["Location"] == reverse("games:table", args=[table.pk])
    assert table.status == Table.Status.RUNNING
    seats = list(table.seats.order_by("index"))
    assert seats[0].name == "Zoé" and seats[1].bot_level == "medium"


def test_create_a_table_with_options_clock_bots_and_privacy(zoe_client):
    response = zoe_client.post(reverse("games:create"), {
        "game": "drekki", "seats-drekki": "4", "opt-drekki-live_countdown": "30",
        "seat-1": "hard", "seat-2": "", "seat-3": "easy", "seat-4": "hard",  # seat 4 does not exist: ignored
        "clock": "10+5", "private": "on",
    })
    table = Table.objects.get()
    assert response["Location"] == reverse("games:table", args=[table.pk])
    assert (table.game, table.seat_count, table.private) == ("drekki", 4, True)
    assert table.options == {"live_countdown": 30}
    assert table.clock == {"kind": "game", "base": 600, "increment": 5}
    levels = [s.bot_level for s in table.seats.order_by("index")]
    assert levels == ["", "hard", "", "easy"]
    assert table.status == Table.Status.OPEN


def test_a_bool_option_is_off_unless_ticked(zoe_client):
    zoe_client.post(reverse("games:create"), {"game": "drumlin", "seats-drumlin": "2", "clock": "none"})
    zoe_client.post(reverse("games:create"), {"game": "drumlin", "seats-drumlin": "2", "clock": "none",
                                              "opt-drumlin-clou_1986": "on"})
    assert [t.options for t in Table.objects.order_by("pk")] == [{"clou_1986": False}, {"clou_1986": True}]


@pytest.mark.parametrize("form, code_words", [
    ({"game": "chess"}, "Ce jeu n"),
    ({"game": "drumlin", "seats-drumlin": "5"}, ""),
    ({"game": "drekki", "seats-drekki": "3", "opt-drekki-live_countdown": "1"}, ""),
    ({"game": "drumlin", "clock": "forever"}, ""),
])
def test_a_refused_table_goes_back_to_the_lobby_with_the_reason(zoe_client, form, code_words):
    response = zoe_client.post(reverse("games:create"), form, follow=True)
    assert not Table.objects.exists()
    assert response.redirect_chain[-1][0].startswith(reverse("games:play"))
    messages = [str(m) for m in response.context["messages"]]
    assert len(messages) == 1 and messages[0]
    assert code_words in messages[0]


def test_my_games_say_whose_turn_it_is(zoe_client):
    me = zoe_of(zoe_client)
    mine = services.quick_game(me, "drumlin", "easy")  # pink, a bot, places first
    waiting = services.create_table(me, "drumlin")
    theirs = services.create_table(guest("Léo"), "drumlin")
    html = main_of(zoe_client.get(reverse("games:play")))
    section = html.split('id="mine-title"', 1)[1].split("</section>", 1)[0]
    assert reverse("games:table", args=[mine.pk]) in section
    assert reverse("games:table", args=[waiting.pk]) in section
    assert reverse("games:table", args=[theirs.pk]) not in section
    assert "à Praline (robot, facile) de jouer" in section
    assert "en attente de joueurs" in section
    # Once the bot has placed the Drumlin, it is my turn.
    services.bot_move(mine.pk, 1, "*e5", Table.objects.get(pk=mine.pk).version)
    section = main_of(zoe_client.get(reverse("games:play"))).split('id="mine-title"', 1)[1]
    assert "à vous de jouer" in section


def test_the_lobby_lists_public_tables_only(zoe_client):
    public = services.create_table(guest("Léo"), "drumlin")
    private = services.create_table(guest("Léo"), "drumlin", private=True)
    html = main_of(zoe_client.get(reverse("games:play")))
    listed = html.split("data-lobby-list", 1)[1].split("</ul>", 1)[0]
    assert f'data-table-id="{public.pk}"' in listed and f'data-table-id="{private.pk}"' not in listed
    assert "1 place libre" in listed


def test_the_table_page_gives_its_scripts_what_they_need_and_links_to_the_rules(zoe_client):
    Game.objects.create(title="Drumlin", engine_slug="drumlin", min_players=2, max_players=2)
    game = Game.objects.get()
    table = services.quick_game(zoe_of(zoe_client), "drumlin", "easy")
    response = zoe_client.get(reverse("games:table", args=[table.pk]))
    html = response.content.decode()
    assert response.status_code == 200
    assert f'data-table="{table.pk}"' in html and 'data-game="drumlin"' in html
    assert 'data-static="/static/"' in html
    assert f'href="{game.rules_url()}"' in html
    assert reverse("games:replay", args=[table.pk]) in html
    assert reverse("javascript-catalog") in html and "js/table/main.js" in html
    assert 'style="' not in html and not re.search(r"<script>(?!</script>)", html)
    assert 'class="board-host"' not in html  # the shell makes the host, empty, for the board
    assert 'data-board-css="/static/css/boards-drumlin.css"' in html
    assert "data-account" not in html  # a guest's page: its sockets claim no account


def test_a_signed_in_accounts_table_page_tells_its_socket_so(client, django_user_model):
    # The page's hello then says ``account: true`` (static/js/table/socket.js): a socket
    # that is no account's by then (signed out in another tab) is closed, not opened.
    bob = django_user_model.objects.create_user("bob", password="a long enough password")
    client.force_login(bob)
    table = services.quick_game(services.Who(user_id=bob.pk, name="bob"), "drumlin", "easy")
    html = client.get(reverse("games:table", args=[table.pk])).content.decode()
    assert 'data-account="1"' in html
    client.logout()
    assert "data-account" not in client.get(reverse("games:table", args=[table.pk])).content.decode()


def test_a_missing_table_is_404_and_a_private_one_needs_its_invitation(client, zoe_client):
    assert client.get(reverse("games:table", args=[999])).status_code == 404
    assert client.get(reverse("games:replay", args=[999])).status_code == 404
    table = services.create_table(guest("Léo"), "drumlin", private=True)
    for name in ("games:table", "games:replay"):
        url = reverse(name, args=[table.pk])
        assert zoe_client.get(url).status_code == 403
        assert zoe_client.get(url + "?invite=nope").status_code == 403
        response = zoe_client.get(f"{url}?invite={table.invite_token}")
        assert response.status_code == 200
        assert f'data-invite="{table.invite_token}"' in response.content.decode()


def test_the_replay_page_links_the_table_and_the_export(client):
    table = services.create_table(guest("Léo"), "drumlin")
    html = client.get(reverse("games:replay", args=[table.pk])).content.decode()
    assert reverse("games:api-export", args=[table.pk]) in html
    assert reverse("games:api-replay", args=[table.pk]) in html
    assert reverse("games:table", args=[table.pk]) in html
    assert "js/replay.js" in html
    assert 'data-board-css="/static/css/boards-drumlin.css"' in html


@pytest.mark.parametrize("rules", engines.all(), ids=lambda rules: rules.slug)
def test_every_board_has_its_stylesheet_by_the_convention(rules):
    assert pages.board_stylesheets(rules.slug) == [f"/static/css/boards-{rules.slug}.css"]
    assert (Path(settings.BASE_DIR) / "static" / "css" / f"boards-{rules.slug}.css").is_file()


def test_a_board_without_a_stylesheet_lists_none(client, monkeypatch):
    # No file, no URL: the page never asks for a stylesheet that is not there.
    assert pages.board_stylesheets("no-such-board") == []
    table = services.create_table(guest("Léo"), "drumlin")
    monkeypatch.setattr(pages, "board_stylesheets", lambda slug: [])
    html = client.get(reverse("games:table", args=[table.pk])).content.decode()
    assert 'data-board-css=""' in html


def test_the_rules_page_of_a_playable_game_leads_to_the_lobby_and_the_table_back_to_it(client):
    game = Game.objects.create(title="Drumlin", engine_slug="drumlin", min_players=2, max_players=2)
    assert f'href="{reverse("games:play")}' in client.get(game.rules_url()).content.decode()
    table = services.create_table(guest("Léo"), "drumlin")
    assert game.rules_url() in client.get(reverse("games:table", args=[table.pk])).content.decode()


def test_the_seat_rows_cover_the_largest_game(client):
    html = main_of(client.get(reverse("games:play")))
    largest = max(rules.max_players for rules in engines.all())
    assert html.count("data-seat-row=") == largest - 1
    assert Seat.objects.count() == 0


def test_the_lobby_reads_a_bounded_number_of_queries_whatever_my_games(zoe_client, settings,
                                                                       django_assert_max_num_queries):
    settings.LUDO_MAX_OPEN_TABLES = 10  # six tables waiting: more than one guest may have by default
    me = zoe_of(zoe_client)
    zoe_client.get(reverse("games:play"))
    for _ in range(6):
        services.quick_game(me, "drumlin", "easy")
        services.create_table(me, "drekki", 4)
    with django_assert_max_num_queries(12):
        html = main_of(zoe_client.get(reverse("games:play")))
    assert html.count("table-row") >= 24  # 12 of mine, 12 in the public list
