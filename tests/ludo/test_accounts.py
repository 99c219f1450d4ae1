"""Player accounts: sign up, log in, log out, change password; login throttling."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def test_it_signs_up_a_player_and_logs_them_in(client):
    response = client.post(
        "/compte/inscription/",
        {"username": "carol", "email": "carol@example.org", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response.status_code == 302
    carol = get_user_model().objects.get(username="carol")
    assert not carol.is_staff
    assert client.get("/").context["user"] == carol


def test_it_refuses_a_weak_password_and_creates_nobody(client):
    response = client.post("/en/account/signup/", {"username": "carol", "password1": "123456", "password2": "123456"})
    assert response.status_code == 200
    assert "This password is too short" in response.content.decode()
    assert not get_user_model().objects.filter(username="carol").exists()


def test_it_logs_a_player_in_and_out(client, bob):
    response = client.post("/compte/connexion/", {"username": "bob", "password": PASSWORD})
    assert response.status_code == 302
    assert client.get("/").context["user"] == bob
    assert "Déconnexion" in client.get("/").content.decode()
    response = client.post("/compte/deconnexion/")
    assert response.status_code == 302
    assert not client.get("/").context["user"].is_authenticated


def test_it_does_not_log_out_on_a_get(client, bob):
    client.force_login(bob)
    assert client.get("/compte/deconnexion/").status_code == 405
    assert client.get("/").context["user"] == bob


def test_it_changes_a_password(client, bob):
    client.force_login(bob)
    new = "another long passphrase 42"
    response = client.post(
        "/compte/mot-de-passe/", {"old_password": PASSWORD, "new_password1": new, "new_password2": new}
    )
    assert response.status_code == 302
    bob.refresh_from_db()
    assert bob.check_password(new)


def test_it_asks_for_login_before_changing_a_password(client):
    response = client.get("/compte/mot-de-passe/")
    assert response.status_code == 302
    assert response["Location"].startswith("/compte/connexion/?next=")


def test_it_locks_out_after_too_many_failures_with_a_clear_message(client, bob, settings):
    limit = settings.LUDO_USERNAME_FAILURE_LIMIT
    for _ in range(limit - 1):
        response = client.post("/compte/connexion/", {"username": "bob", "password": "wrong"})
        assert response.status_code == 200
        assert "Saisissez un nom d’utilisateur et un mot de passe valides" in response.content.decode()
    response = client.post("/compte/connexion/", {"username": "bob", "password": "wrong"})
    assert response.status_code == 429
    html = response.content.decode()
    assert "Trop de tentatives" in html and "Merci d’attendre 15 minutes" in html
    # Even the right password is refused while locked out, with the same page.
    response = client.post("/compte/connexion/", {"username": "bob", "password": PASSWORD})
    assert response.status_code == 429
    assert not client.get("/").context["user"].is_authenticated


def test_it_shows_the_lockout_message_in_english(client, bob, settings):
    for _ in range(settings.LUDO_USERNAME_FAILURE_LIMIT):
        response = client.post("/en/account/login/", {"username": "bob", "password": "wrong"})
    assert response.status_code == 429
    assert "Please wait 15 minutes before trying again" in response.content.decode()


def test_it_locks_only_that_account_from_every_address(client, bob, settings):
    """A username is locked after its failures from any address; others still log in there."""
    get_user_model().objects.create_user("alice", password=PASSWORD)
    for _ in range(settings.LUDO_USERNAME_FAILURE_LIMIT):
        client.post("/compte/connexion/", {"username": "bob", "password": "wrong"}, REMOTE_ADDR="10.0.0.1")
    response = client.post("/compte/connexion/", {"username": "bob", "password": PASSWORD}, REMOTE_ADDR="10.0.0.2")
    assert response.status_code == 429
    response = client.post("/compte/connexion/", {"username": "alice", "password": PASSWORD}, REMOTE_ADDR="10.0.0.1")
    assert response.status_code == 302


def test_sign_ups_are_paced_per_address_and_a_refused_one_creates_nobody(client):
    """A flood of sign-ups from one address (each from a fresh session, so a fresh
    guest identity: only the address binds them): the 31st within the hour gets a 429
    with Retry-After and no account; another address still signs up."""
    users = get_user_model().objects
    for n in range(30):
        response = client.post("/en/account/signup/", {"username": f"flood{n}", "email": "",
                                                        "password1": PASSWORD, "password2": PASSWORD},
                               REMOTE_ADDR="203.0.113.7")
        assert response.status_code == 302
        client.logout()
    refused = client.post("/en/account/signup/", {"username": "flood30", "password1": PASSWORD, "password2": PASSWORD},
                          REMOTE_ADDR="203.0.113.7")
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert not users.filter(username="flood30").exists() and users.filter(username__startswith="flood").count() == 30
    assert client.get("/en/account/signup/", REMOTE_ADDR="203.0.113.7").status_code == 200  # the form still shows
    other = client.post("/en/account/signup/", {"username": "neighbour", "password1": PASSWORD, "password2": PASSWORD},
                        REMOTE_ADDR="198.51.100.9")
    assert other.status_code == 302 and users.filter(username="neighbour").exists()
