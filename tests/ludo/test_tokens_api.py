"""Tokens on the JSON API: the token's person and no one else, with the rights
that person has on the pages; refused tokens get a clear 401."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games.bookings.models import VerifiedAddress
from games.models import Table
from ludo.accounts import GUEST_NAME_KEY
from ludo.tokens import services
from ludo.tokens.models import PersonalToken

pytestmark = pytest.mark.django_db


def guest_token(name: str) -> str:
    return services.create_guest_token(name)[1]


def call(method: str, path: str, token: str | None = None, data: dict | None = None, client: Client | None = None,
         **extra):
    client = client or Client(enforce_csrf_checks=True)
    if token is not None:
        extra["HTTP_AUTHORIZATION"] = f"Bearer {token}"
    if method == "get":
        return client.get(path, **extra)
    return client.post(path, json.dumps(data or {}), content_type="application/json", **extra)


def test_a_guest_token_plays_against_a_bot_without_cookies_or_csrf():
    token = guest_token("Zoé")
    created = call("post", "/api/tables/quick/", token, {"game": "quatre-en-ligne", "level": "easy",
                                                         "options": {"first_player": "0"}})
    assert created.status_code == 201, created.json()
    table = created.json()
    assert table["seat"] == 0 and table["seats"][0]["name"] == "Zoé" and table["status"] == "running"
    assert 0 in table["to_act"] and table["legal"]
    moved = call("post", f"/api/tables/{table['table']}/move/", token, {"move": table["legal"][0], "v": table["v"]})
    assert moved.status_code == 200 and moved.json()["result"] == table["v"] + 1
    read = call("get", f"/api/tables/{table['table']}/", token).json()
    assert read["seat"] == 0 and read["v"] >= table["v"] + 1


def test_a_guest_token_cannot_act_for_another_seat():
    zoe, max_ = guest_token("Zoé"), guest_token("Max")
    table = call("post", "/api/tables/", zoe, {"game": "quatre-en-ligne"}).json()
    joined = call("post", f"/api/tables/{table['table']}/join/", max_)
    assert joined.status_code == 200 and joined.json()["result"] == 1
    assert call("post", f"/api/tables/{table['table']}/start/", max_).json()["code"] == "not_host"
    started = call("post", f"/api/tables/{table['table']}/start/", zoe).json()["table"]
    mover = 0 if 0 in started["to_act"] else 1
    owner, other = (zoe, max_) if mover == 0 else (max_, zoe)
    legal = call("get", f"/api/tables/{table['table']}/", owner).json()["legal"]
    refused = call("post", f"/api/tables/{table['table']}/move/", other,
                   {"move": legal[0], "v": started["v"], "seat": mover})
    assert refused.status_code == 403 and refused.json()["code"] == "not_your_seat"
    assert Table.objects.get(pk=table["table"]).version == started["v"]


def test_the_token_wins_over_the_cookies_it_comes_with():
    client = Client(enforce_csrf_checks=True)
    session = client.session
    session[GUEST_NAME_KEY] = "Cookie"
    session.save()
    token = guest_token("Token")
    table = call("post", "/api/tables/", token, {"game": "quatre-en-ligne"}, client=client).json()
    assert table["seats"][0]["name"] == "Token"
    assert call("get", f"/api/tables/{table['table']}/", client=client).json()["seat"] is None


def test_an_account_token_acts_as_the_account(bob):
    VerifiedAddress.objects.create(user=bob, email=bob.email)  # rated tables need a confirmed address
    token = services.create_personal_token(bob, "my bot")[1]
    table = call("post", "/api/tables/", token, {"game": "quatre-en-ligne", "rated": True}).json()
    assert table["seats"][0]["name"] == "bob" and table["seats"][0]["account"] is True and table["rated"] is True
    assert Table.objects.get(pk=table["table"]).seats.get(index=0).user == bob
    me = call("get", "/api/me", token).json()
    assert me["kind"] == "account" and me["name"] == "bob" and me["staff"] is False
    assert PersonalToken.objects.get().last_used_at is not None


def test_a_guest_token_cannot_do_what_needs_an_account():
    refused = call("post", "/api/tables/", guest_token("Zoé"), {"game": "quatre-en-ligne", "rated": True})
    assert refused.status_code == 403 and refused.json()["code"] == "account_required"


def test_a_staff_token_has_staff_rights_on_the_api_but_opens_no_page(alice, bob):
    token = services.create_personal_token(alice, "hosting")[1]
    bob_token = services.create_personal_token(bob, "mine")[1]
    table = call("post", "/api/tables/", bob_token, {"game": "quatre-en-ligne", "private": True}).json()
    listed = call("get", "/api/tables/?all=1", token).json()["tables"]
    assert table["table"] in [t["id"] for t in listed]
    assert call("get", "/api/tables/?all=1", bob_token).json()["tables"] == []
    ended = call("post", f"/api/tables/{table['table']}/end/", token, {"reason": "test"})
    assert ended.status_code == 200
    refused = call("post", f"/api/tables/{table['table']}/end/", bob_token)
    assert refused.json()["code"] in ("staff_only", "not_running")
    header = {"HTTP_AUTHORIZATION": f"Bearer {token}"}
    for page in ("/admin/", "/admin/games/table/", "/admin/tokens/personaltoken/", "/compte/jetons/", "/jouer/"):
        response = Client().get(page, **header)
        assert response.status_code in (200, 302), page
        if response.status_code == 302:
            assert "/connexion/" in response["Location"] or "/login/" in response["Location"], page
        else:
            assert b">alice<" not in response.content and b"logout" not in response.content, page


@pytest.mark.parametrize(
    ("header", "code"),
    [
        ("Bearer ludo_pat_" + "A" * 40, "invalid_token"),
        ("Bearer ludo_gst_" + "A" * 40, "invalid_token"),
        ("Bearer not-a-token", "invalid_token"),
        ("Bearer ", "bad_authorization"),
        ("bearer", "bad_authorization"),
    ],
)
def test_an_unknown_or_malformed_token_gets_a_clear_401(header, code):
    for method, path in (("get", "/api/tables/"), ("post", "/api/tables/"), ("get", "/api/tables/1/export/")):
        response = call(method, path, data={"game": "quatre-en-ligne"}, HTTP_AUTHORIZATION=header)
        assert response.status_code == 401, (method, path)
        assert response.json()["code"] == code and response.json()["message"]
        assert response["WWW-Authenticate"].startswith("Bearer ")
    assert not Table.objects.exists()


def test_another_scheme_is_not_a_token_and_leaves_the_session_in_charge():
    response = Client().get("/api/tables/", HTTP_AUTHORIZATION="Basic dXNlcjpwYXNz")
    assert response.status_code == 200
    refused = call("post", "/api/tables/", data={"game": "quatre-en-ligne"}, HTTP_AUTHORIZATION="Basic dXNlcjpwYXNz")
    assert refused.status_code == 403  # a session POST still needs its CSRF token


def test_a_revoked_token_is_refused_at_once(bob):
    row, token = services.create_personal_token(bob, "my bot")
    assert call("get", "/api/me", token).status_code == 200
    services.revoke_personal_token(bob, row.pk)
    response = call("post", "/api/tables/", token, {"game": "quatre-en-ligne"})
    assert response.status_code == 401 and response.json()["code"] == "invalid_token"
    assert not Table.objects.exists()


def test_the_token_of_a_deactivated_account_is_refused(bob):
    token = services.create_personal_token(bob, "my bot")[1]
    get_user_model().objects.filter(pk=bob.pk).update(is_active=False)
    assert call("get", "/api/me", token).status_code == 401


def test_a_token_is_checked_by_prefix_and_digest(bob):
    row, token = services.create_personal_token(bob, "my bot")
    forged = token[:17] + ("B" if token[17] != "B" else "C") + token[18:]
    assert services.authenticate(forged) is None
    assert services.authenticate(token).token.pk == row.pk
    stored = [str(getattr(row, f.attname)) for f in PersonalToken._meta.fields]
    assert not any(token[9:] in value for value in stored)


def test_401_errors_are_in_the_readers_language():
    english = call("get", "/en/api/tables/", "nope").json()["message"]
    french = call("get", "/api/tables/", "nope").json()["message"]
    assert english == "This token is unknown, revoked or expired." and french != english
