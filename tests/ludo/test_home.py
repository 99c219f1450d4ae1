"""The home page and the base layout, in French at / and English at /en/."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.django_db


def test_it_serves_the_home_page_in_french(client):
    response = client.get("/")
    assert response.status_code == 200
    html = response.content.decode()
    assert '<html lang="fr">' in html
    assert "Venez jouer" in html
    for label in ("Catalogue", "Jouer", "Sessions", "Connexion"):
        assert f">{label}</a>" in html
    assert 'href="/compte/connexion/"' in html


def test_it_serves_the_home_page_in_english(client):
    response = client.get("/en/")
    assert response.status_code == 200
    html = response.content.decode()
    assert '<html lang="en">' in html
    assert "Come and play" in html
    for label in ("Catalogue", "Play", "Sessions", "Log in"):
        assert f">{label}</a>" in html
    assert 'href="/en/account/login/"' in html


def test_it_says_what_the_site_offers(client):
    html = client.get("/").content.decode()
    assert "9\u202f000" in html and "règles" in html and "réserver" in html and "robots" in html


@pytest.mark.parametrize(
    "french, english",
    [("/", "/en/"), ("/compte/connexion/", "/en/account/login/"), ("/catalogue/", "/en/catalogue/"), ("/invite/", "/en/guest/")],
)
def test_it_switches_language_and_translates_the_current_path(client, french, english):
    response = client.post("/i18n/setlang/", {"language": "en", "next": french})
    assert response.status_code == 302
    assert response["Location"] == english
    assert response.cookies["django_language"].value == "en"
    response = client.post("/i18n/setlang/", {"language": "fr", "next": english})
    assert response["Location"] == french
    assert response.cookies["django_language"].value == "fr"


def test_it_refuses_to_switch_language_on_a_get(client):
    assert client.get("/i18n/setlang/?language=en&next=/").status_code == 405


@pytest.mark.parametrize(
    "path", ["/", "/compte/connexion/", "/compte/inscription/", "/invite/", "/en/account/password/"]
)
def test_it_has_a_csrf_token_in_every_form(client, bob, path):
    if "password" in path:
        client.force_login(bob)
    html = client.get(path).content.decode()
    posts = [f for f in re.findall(r"<form\b.*?</form>", html, flags=re.S) if 'method="post"' in f.lower()]
    assert posts  # the language switch at least
    for form in posts:
        assert 'name="csrfmiddlewaretoken"' in form


def test_it_sends_a_strict_content_security_policy(client):
    response = client.get("/")
    csp = response["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "style-src 'self'" in csp and "default-src 'self'" in csp
    assert "unsafe-inline" not in csp
    html = response.content.decode()
    assert "<script>" not in html and " style=" not in html and "<style" not in html


@pytest.mark.parametrize("path", ["/", "/en/", "/catalogue/", "/jouer/", "/sessions/", "/compte/connexion/", "/invite/"])
def test_it_renders_every_base_page_without_inline_code(client, path):
    response = client.get(path)
    assert response.status_code == 200
    html = response.content.decode()
    # Data blocks (json_script) are not code: CSP lets them be.
    assert not re.search(r"<script(?![^>]*\b(?:src=|type=\"application/json\"))", html), "inline script"
    assert not re.search(r"\son\w+=", html), "inline event handler"
    assert " style=" not in html


def test_it_serves_its_stylesheet(client):
    from django.contrib.staticfiles import finders

    assert finders.find("css/site.css")
    assert finders.find("img/favicon.svg")


def test_it_sends_browsers_asking_for_favicon_ico_to_its_icon(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 301
    assert response["Location"] == "/static/img/favicon.svg"
