"""Every visible text in the page's language (issue 24): the demo box's contents and the
standard rights notice are stored in English and shown translated (a host's own words
stay as written), and the reader says nothing of a text that is simply ready."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.utils import translation

from catalog import demo
from catalog.shelves import services
from catalog.models import Document


def test_the_box_contents_follow_the_page_language(client, make_game):
    game = make_game("Drumlin", engine_slug="drumlin")
    contents = dict((spec["slug"], spec["copy"][1]) for spec in demo.BOXES)["drumlin"]
    services.add_copy(game, "D5", contents=contents + "\nUne règle manuscrite")
    french = client.get(game.get_absolute_url()).content.decode()
    assert "1 plateau de 8 × 10 cases" in french and "12 pions roses" in french
    assert "board of" not in french and "Une règle manuscrite" in french
    with translation.override("en"):
        english = client.get(game.get_absolute_url()).content.decode()
    assert "1 board of 8 × 10 squares" in english and "Une règle manuscrite" in english


def test_the_reader_shows_the_rights_notice_in_its_language_and_no_ready_line(client, make_game, text_document):
    game = make_game("Drekki", engine_slug="drekki")
    document = text_document(game, "Règle du jeu.\n\nChaque mage pose une carte.", licence_note=demo.LICENCE,
                             visibility=Document.Visibility.PUBLIC)
    document.refresh_from_db()
    assert document.has_text
    french = client.get(document.get_absolute_url(), follow=True).content.decode()
    assert "les droits restent aux auteurs et aux éditeurs" in french
    assert "texte prêt" not in french
    with translation.override("en"):
        english = client.get(document.get_absolute_url(), follow=True).content.decode()  # /en/... path
    assert "the rights stay with the authors and publishers" in english and "Règle partagée" not in english
    assert "text ready" not in english
    # The hosts still see the text's state.
    host = get_user_model().objects.create_user("hote", "h@example.org", "x" * 12, is_staff=True)
    client.force_login(host)
    assert "texte prêt" in client.get(document.get_absolute_url(), follow=True).content.decode()
