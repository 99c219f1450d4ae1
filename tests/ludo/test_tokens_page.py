"""The account page of personal API tokens (/compte/jetons/, /en/account/tokens/),
and the hosts' admin of tokens."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from ludo.tokens import services
from ludo.tokens.models import GuestToken, PersonalToken

pytestmark = pytest.mark.django_db

TOKEN = re.compile(r"ludo_pat_[A-Za-z0-9]{40}")


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return client


def test_it_needs_an_account():
    response = Client().get("/compte/jetons/")
    assert response.status_code == 302 and response["Location"].startswith("/compte/connexion/")
    assert Client().post("/compte/jetons/", {"name": "bot"}).status_code == 302
    assert not PersonalToken.objects.exists()


def test_it_creates_a_token_and_shows_it_once(bob):
    client = logged_in(bob)
    response = client.post("/compte/jetons/", {"name": "  mon   robot "})
    assert response.status_code == 200 and "no-store" in response["Cache-Control"]
    shown = TOKEN.findall(response.content.decode())
    assert len(shown) == 1
    row = PersonalToken.objects.get()
    assert row.user == bob and row.name == "mon robot" and services.authenticate(shown[0]).user == bob
    again = client.get("/compte/jetons/").content.decode()
    assert not TOKEN.search(again) and "mon robot" in again and row.shown in again


def test_it_lists_name_prefix_and_dates_only(bob):
    row, token = services.create_personal_token(bob, "laptop")
    services.authenticate(token)
    html = logged_in(bob).get("/en/account/tokens/").content.decode()
    assert "laptop" in html and row.shown in html and "Last used" in html and "Created" in html
    assert token not in html and token[17:] not in html


def test_it_revokes_a_token(bob):
    row, token = services.create_personal_token(bob, "laptop")
    client = logged_in(bob)
    response = client.post(f"/compte/jetons/{row.pk}/revoquer/", follow=True)
    assert response.status_code == 200 and "révoqué" in response.content.decode()
    assert PersonalToken.objects.get().revoked_at is not None and services.authenticate(token) is None
    assert "laptop" not in client.get("/compte/jetons/").content.decode().split("<h2>")[-1]
    assert client.get(f"/compte/jetons/{row.pk}/revoquer/").status_code == 405


def test_another_account_cannot_revoke_yours(bob, alice):
    row, token = services.create_personal_token(bob, "laptop")
    assert logged_in(alice).post(f"/compte/jetons/{row.pk}/revoquer/").status_code == 404
    assert logged_in(alice).post("/compte/jetons/99999/revoquer/").status_code == 404
    assert PersonalToken.objects.get().revoked_at is None and services.authenticate(token).user == bob
    assert "laptop" not in logged_in(alice).get("/compte/jetons/").content.decode()


@pytest.mark.parametrize("name", ["", "   ", "a" * 61, "bad\x07name"])
def test_it_refuses_a_bad_name_and_creates_nothing(bob, name):
    response = logged_in(bob).post("/compte/jetons/", {"name": name})
    assert response.status_code == 200 and "errorlist" in response.content.decode()
    assert not TOKEN.search(response.content.decode()) and not PersonalToken.objects.exists()


def test_it_caps_the_tokens_of_an_account(bob, settings):
    settings.LUDO_MAX_PERSONAL_TOKENS = 2
    client = logged_in(bob)
    for name in ("one", "two"):
        assert TOKEN.search(client.post("/compte/jetons/", {"name": name}).content.decode())
    refused = client.post("/en/account/tokens/", {"name": "three"}).content.decode()
    assert "You already have 2 tokens: revoke one first." in refused and not TOKEN.search(refused)
    assert PersonalToken.objects.count() == 2


def test_the_account_page_links_to_it_in_both_languages(bob):
    client = logged_in(bob)
    assert 'href="/compte/jetons/">Jetons d’API</a>' in client.get("/compte/").content.decode()
    assert 'href="/en/account/tokens/">API tokens</a>' in client.get("/en/account/").content.decode()
    assert "Jetons d’API" in client.get("/compte/jetons/").content.decode()
    assert "<h1>API tokens</h1>" in client.get("/en/account/tokens/").content.decode()


def test_the_admin_shows_tokens_without_their_text_and_revokes_them(bob):
    from ludo.accounts import create_staff_account

    root = create_staff_account("root", "root@example.org", "x" * 20, superuser=True)
    row, token = services.create_personal_token(bob, "laptop")
    guest, guest_token = services.create_guest_token("Odile", "203.0.113.5")
    admin = logged_in(root)
    for path, shown in (("/admin/tokens/personaltoken/", row.shown), ("/admin/tokens/guesttoken/", guest.shown)):
        html = admin.get(path).content.decode()
        assert shown in html and token not in html and guest_token not in html and row.digest not in html
    detail = admin.get(f"/admin/tokens/personaltoken/{row.pk}/change/").content.decode()
    assert row.shown in detail and row.digest not in detail and token not in detail
    response = admin.post("/admin/tokens/personaltoken/", {"action": "revoke_tokens", "_selected_action": [row.pk]})
    assert response.status_code == 302
    admin.post("/admin/tokens/guesttoken/", {"action": "revoke_tokens", "_selected_action": [guest.pk]})
    assert services.authenticate(token) is None and services.authenticate(guest_token) is None
    assert admin.get("/admin/tokens/personaltoken/add/").status_code == 403
    assert logged_in(bob).get("/admin/tokens/personaltoken/").status_code == 302
    assert GuestToken.objects.get().revoked_at is not None
