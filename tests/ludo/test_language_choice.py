"""Which language a visitor gets: Accept-Language on the first visit (French when
nothing matches), then the remembered choice (cookie, account), English paths, and
old English addresses redirecting."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils import translation

from ludo.language import from_accept_language
from ludo.models import Profile

pytestmark = pytest.mark.django_db
COOKIE = settings.LANGUAGE_COOKIE_NAME


@pytest.fixture(autouse=True)
def french_by_default():
    with translation.override("fr"):
        yield


@pytest.mark.parametrize("header, language", [
    ("", "fr"), ("en-US,en;q=0.9", "en"), ("fr-FR,fr;q=0.9,en;q=0.8", "fr"), ("de-DE,en;q=0.5", "en"),
    ("de-DE,es;q=0.8", "fr"), ("en-GB;q=0.3,fr;q=0.9", "fr"), ("*", "fr"), ("EN", "en"),
])
def test_accept_language_picks_the_first_language_we_have(header, language):
    assert from_accept_language(header) == language


def test_an_english_browser_is_sent_to_the_english_page_and_that_is_remembered(client):
    response = client.get("/jouer/?game=drekki", HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9")
    assert response.status_code == 302 and response["Location"] == "/en/play/?game=drekki"
    assert response.cookies[COOKIE].value == "en"
    assert "Accept-Language" in response["Vary"]
    page = client.get(response["Location"])
    assert page.status_code == 200 and 'lang="en"' in page.content.decode()
    # Remembered: the next French address goes to English even with no header.
    assert client.get("/catalogue/")["Location"] == "/en/catalogue/"


def test_a_french_or_unknown_browser_stays_in_french(client):
    for header in ("fr-FR,fr;q=0.9", "de-DE", ""):
        client.cookies.clear()
        response = client.get("/", HTTP_ACCEPT_LANGUAGE=header)
        assert response.status_code == 200 and 'lang="fr"' in response.content.decode()
        assert response.cookies[COOKIE].value == "fr"


def test_the_cookie_wins_over_the_browser(client):
    client.cookies[COOKIE] = "fr"
    response = client.get("/jouer/", HTTP_ACCEPT_LANGUAGE="en-US")
    assert response.status_code == 200 and 'lang="fr"' in response.content.decode()
    assert COOKIE not in response.cookies


def test_an_english_address_is_always_served_in_english(client):
    client.cookies[COOKIE] = "fr"
    response = client.get("/en/play/", HTTP_ACCEPT_LANGUAGE="fr")
    assert response.status_code == 200 and 'lang="en"' in response.content.decode()


def test_the_switch_sets_the_cookie_and_the_accounts_preference(client):
    user = get_user_model().objects.create_user("carol", password="x-12345-y")
    client.force_login(user)
    response = client.post("/i18n/setlang/", {"language": "en", "next": "/jouer/table/5/"})
    assert response["Location"] == "/en/play/table/5/" and response.cookies[COOKIE].value == "en"
    assert Profile.objects.get(user=user).language == "en"
    response = client.post("/i18n/setlang/", {"language": "fr", "next": "/en/play/"})
    assert response["Location"] == "/jouer/" and Profile.objects.get(user=user).language == "fr"


def test_the_accounts_preference_follows_the_person_to_a_new_browser(client):
    user = get_user_model().objects.create_user("dan", password="x-12345-y")
    Profile.objects.create(user=user, language="en")
    client.force_login(user)
    client.cookies[COOKIE] = "fr"  # another browser's old choice
    assert client.get("/catalogue/", HTTP_ACCEPT_LANGUAGE="fr")["Location"] == "/en/catalogue/"


@pytest.mark.parametrize("old, new", [
    ("/en/jouer/", "/en/play/"),
    ("/en/jouer/table/12/", "/en/play/table/12/"),
    ("/en/jouer/table/12/revoir/", "/en/play/table/12/replay/"),
    ("/en/jouer/apprendre/drumlin/", "/en/play/learn/drumlin/"),
    ("/en/compte/connexion/", "/en/account/login/"),
    ("/en/catalogue/quoi-jouer/", "/en/catalogue/what-to-play/"),
    ("/en/catalogue/jeu/drumlin/regles/", "/en/catalogue/game/drumlin/rules/"),
    ("/en/sessions/proposer/", "/en/sessions/propose/"),
    ("/en/sessions/hotes/3/annuler/", "/en/sessions/hosts/3/cancel/"),
])
def test_old_english_addresses_redirect_for_good(client, old, new):
    response = client.get(old + "?x=1")
    assert response.status_code == 301 and response["Location"] == new + "?x=1"


@pytest.mark.parametrize("french, english", [
    ("/jouer/", "/en/play/"), ("/jouer/apprendre/drekki/", "/en/play/learn/drekki/"), ("/", "/en/"),
    ("/catalogue/", "/en/catalogue/"), ("/sessions/", "/en/sessions/"), ("/compte/connexion/", "/en/account/login/"),
    ("/catalogue/quoi-jouer/", "/en/catalogue/what-to-play/"), ("/sessions/proposer/", "/en/sessions/propose/"),
])
def test_every_french_address_works_and_has_its_english_twin(client, french, english):
    assert client.get(french).status_code == 200
    assert client.get(english).status_code == 200


def test_non_pages_are_never_redirected(client):
    assert client.get("/healthz", HTTP_ACCEPT_LANGUAGE="en").status_code in (200, 503)
    assert client.get("/api/games/", HTTP_ACCEPT_LANGUAGE="en").status_code == 200
    assert client.get("/en/healthz").status_code == 404
