"""The game page: the name in the page's language with the original beside it, the
other names, "read the rules" only where there are rules, the BoardGameGeek number
as a link, a description and a cover (a same-size placeholder without one); the
staff edit names in the admin."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from boxes import counting
from catalog.collection import names
from catalog.collection.models import Game, GameName, refresh_titles
from games.bookings import forms as booking_forms
from ludo.language import english_url
from ludo.typography import french as typeset

pytestmark = pytest.mark.django_db


@pytest.fixture
def ttr(make_game):
    game = make_game("Ticket to Ride", bgg_id=9209, description="Des trains à travers l'Amérique.")
    for language, name, primary in (("fr", "Les Aventuriers du Rail", True), ("de", "Zug um Zug", True),
                                    ("fr", "Aventuriers du Rail", False)):
        GameName.objects.create(game=game, language=language, name=name, primary=primary)
    refresh_titles([game])
    game.refresh_from_db()
    return game


def test_the_french_page_shows_the_french_name_and_the_original_beside_it(client, ttr):
    html = client.get(ttr.get_absolute_url()).content.decode()
    assert "<h1>Les Aventuriers du Rail" in html
    assert typeset("Titre original :") in html and "Ticket to Ride" in html
    assert "Zug um Zug" in html and "Aventuriers du Rail <small" in html
    assert 'href="https://boardgamegeek.com/boardgame/9209"' in html
    assert "Des trains à travers l&#x27;Amérique." in html
    assert 'class="cover cover-large"' in html and "cover-initials" in html


def test_a_french_name_keeps_its_marks_on_its_line_and_still_finds_its_game(client, make_game):
    game = make_game("Whoowasit?", bgg_id=33643)
    GameName.objects.create(game=game, language="fr", name="Qui l'a vu ?", primary=True)
    refresh_titles([game])
    game.refresh_from_db()
    assert game.title_fr == "Qui l'a vu ?"  # the data keeps the space that was typed
    html = client.get(game.get_absolute_url()).content.decode()
    assert "<h1>Qui l&#x27;a vu\u202f?" in html and "Qui l&#x27;a vu ?" not in html
    # A French page that falls back to the original title typesets it too.
    plain = make_game("Arena: For the Gods !", bgg_id=207753)
    assert "<h1>Arena: For the Gods\u202f!" in client.get(plain.get_absolute_url()).content.decode()
    english = client.get(english_url(game.get_absolute_url())).content.decode()
    assert "<h1>Whoowasit?" in english
    # A title copied from the page (no-break space and all) still names the game.
    assert booking_forms.find_game("Qui l'a vu\u202f?") == game
    assert counting.find_game("qui l'a vu\u202f?") == game


def test_the_english_page_shows_the_english_name(client, ttr):
    html = client.get(english_url(ttr.get_absolute_url())).content.decode()
    assert "<h1>Ticket to Ride" in html and "Original title" not in html
    assert "Les Aventuriers du Rail" in html  # among the other names


def test_read_the_rules_only_where_there_are_rules(client, ttr, text_document, make_game):
    assert "Lire les règles" not in client.get(ttr.get_absolute_url()).content.decode()
    text_document(ttr, "Chaque joueur pose des wagons.")
    assert "Lire les règles" in client.get(ttr.get_absolute_url()).content.decode()
    online = make_game("Drumlin", engine_slug="drumlin")
    assert "Lire les règles" in client.get(online.get_absolute_url()).content.decode()


def test_a_cover_picture_replaces_the_placeholder(client, ttr, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    gif = b"GIF89a\x01\x00\x01\x00\x80\x00\x00\x00\x00\x00\xff\xff\xff!\xf9\x04\x01\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;"
    ttr.cover = SimpleUploadedFile("boite.gif", gif, "image/gif")
    ttr.save()
    html = client.get(ttr.get_absolute_url()).content.decode()
    assert "cover-initials" not in html and "/media/covers/" in html


def test_staff_edit_the_names_in_the_admin_and_search_follows(client, alice, ttr):
    from catalog.collection import search

    client.force_login(alice)
    url = f"/admin/catalog/game/{ttr.pk}/change/"
    assert client.get(url).status_code == 200
    data = {"title": "Ticket to Ride", "other_names": "", "kind": "standalone", "description": ttr.description}
    rows = list(ttr.names.order_by("id"))
    data.update({
        "names-TOTAL_FORMS": str(len(rows) + 1), "names-INITIAL_FORMS": str(len(rows)),
        "names-MIN_NUM_FORMS": "0", "names-MAX_NUM_FORMS": "1000",
        "editions-TOTAL_FORMS": "0", "editions-INITIAL_FORMS": "0", "editions-MIN_NUM_FORMS": "0", "editions-MAX_NUM_FORMS": "1000",
        "copies-TOTAL_FORMS": "0", "copies-INITIAL_FORMS": "0", "copies-MIN_NUM_FORMS": "0", "copies-MAX_NUM_FORMS": "1000",
    })
    for i, row in enumerate(rows):
        data.update({f"names-{i}-id": str(row.pk), f"names-{i}-game": str(ttr.pk), f"names-{i}-language": row.language,
                     f"names-{i}-name": row.name, f"names-{i}-primary": "on" if row.primary else "",
                     f"names-{i}-kind": row.kind, f"names-{i}-source": row.source})
        if row.name == "Zug um Zug":
            data[f"names-{i}-DELETE"] = "on"
    n = len(rows)
    data.update({f"names-{n}-language": "it", f"names-{n}-name": "Ticket to Ride Italia", f"names-{n}-game": str(ttr.pk),
                 f"names-{n}-kind": "current", f"names-{n}-source": ""})
    response = client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:3000]
    ttr.refresh_from_db()
    assert ttr.title_de == "" and ttr.title_fr == "Les Aventuriers du Rail"
    assert search.search_games("ticket to ride italia")[0] == ttr.pk
    assert search.search_games("zug um zug") == []


def test_two_primary_names_in_one_language_are_refused(ttr):
    from django.db import IntegrityError, transaction

    with pytest.raises(IntegrityError), transaction.atomic():
        GameName.objects.create(game=ttr, language="fr", name="Autre", primary=True)
    assert Game.objects.get(pk=ttr.pk).title_fr == "Les Aventuriers du Rail"
