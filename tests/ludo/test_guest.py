"""Guests play without an account under a display name kept in their session."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def test_it_keeps_a_guest_display_name_in_the_session(client):
    response = client.post("/invite/", {"name": "  Tante   Odile "})
    assert response.status_code == 302
    assert client.session["guest_name"] == "Tante Odile"
    html = client.get("/").content.decode()
    assert "Tante Odile" in html


def test_it_goes_back_to_a_safe_next_page(client):
    response = client.post("/invite/", {"name": "Odile", "next": "/jouer/"})
    assert response["Location"] == "/jouer/"
    response = client.post("/invite/", {"name": "Odile", "next": "https://evil.example/"})
    assert response["Location"] == "/"


@pytest.mark.parametrize("name", ["", "x", "a" * 41, "bad\x00name"])
def test_it_refuses_a_bad_name_and_changes_nothing(client, name):
    client.post("/invite/", {"name": "Odile"})
    response = client.post("/invite/", {"name": name})
    assert response.status_code == 200
    assert "errorlist" in response.content.decode()
    assert client.session["guest_name"] == "Odile"


def test_it_forgets_a_guest_name(client):
    client.post("/invite/", {"name": "Odile"})
    assert client.post("/invite/oublier/").status_code == 302
    assert "guest_name" not in client.session


def test_it_drops_the_guest_name_when_the_guest_signs_up(client):
    from tests.conftest import PASSWORD

    client.post("/invite/", {"name": "Odile"})
    client.post("/compte/inscription/", {"username": "odile", "password1": PASSWORD, "password2": PASSWORD})
    assert "guest_name" not in client.session
    assert client.get("/").context["display_name"] == "odile"


def test_it_shows_the_guest_page_in_english(client):
    response = client.get("/en/guest/")
    assert response.status_code == 200
    assert "Choose the name the other players will see" in response.content.decode()
