"""POST /api/guest: a guest identity of its own and its token, for outside clients."""

from __future__ import annotations

import hashlib
import json

import pytest
from django.test import Client

from games import services
from ludo.tokens.models import GuestToken

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_limits(settings):
    settings.LUDO_GUEST_TOKEN_RATE_LIMIT = (3, 3600.0)


def ask(client: Client, body, address: str = "203.0.113.5", path: str = "/api/guest", **extra):
    data = body if isinstance(body, (bytes, str)) else json.dumps(body)
    return client.post(path, data, content_type="application/json", REMOTE_ADDR=address, **extra)


def test_it_gives_a_token_for_a_fresh_guest_identity_without_csrf():
    client = Client(enforce_csrf_checks=True)
    response = ask(client, {"name": "  Tante   Odile "})
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["token"].startswith("ludo_gst_") and len(body["token"]) == 49
    assert body["token_type"] == "Bearer" and body["name"] == "Tante Odile" and body["idle_days"] == 30
    row = GuestToken.objects.get()
    assert row.display_name == "Tante Odile" and str(row.address) == "203.0.113.5"
    assert body["prefix"] == row.shown == body["token"][:17] + "…"
    # A key of its own, that no session key (32 lowercase letters and digits) can be.
    assert row.guest_key.startswith("t:") and len(row.guest_key) == 34
    assert "sessionid" not in response.cookies


def test_it_stores_only_a_digest_of_the_token():
    token = ask(Client(), {"name": "Odile"}).json()["token"]
    row = GuestToken.objects.get()
    assert row.digest == hashlib.sha256(token.encode()).hexdigest()
    stored = [str(getattr(row, f.attname)) for f in GuestToken._meta.fields]
    assert not any(token in value or token[9:] in value for value in stored)


def test_each_token_is_another_guest():
    first = ask(Client(), {"name": "Odile"}).json()["token"]
    second = ask(Client(), {"name": "Odile"}).json()["token"]
    assert first != second
    keys = set(GuestToken.objects.values_list("guest_key", flat=True))
    assert len(keys) == 2


def test_the_token_says_who_you_are():
    token = ask(Client(), {"name": "Odile"}).json()["token"]
    me = Client().get("/api/me", HTTP_AUTHORIZATION=f"Bearer {token}").json()
    assert me == {"kind": "guest", "name": "Odile", "staff": False, "can_sit": True,
                  "token": {"kind": "guest", "prefix": GuestToken.objects.get().shown}}
    assert Client().get("/api/me").json()["kind"] == "anonymous"


@pytest.mark.parametrize(
    ("body", "code", "status"),
    [
        ({"name": ""}, "bad_name", 400),
        ({"name": "x"}, "bad_name", 400),
        ({"name": "a" * 41}, "bad_name", 400),
        ({"name": "bad\x00name"}, "bad_name", 400),
        ({"name": "tab\u200ename"}, "bad_name", 400),
        ({"name": 42}, "bad_name", 400),
        ({}, "bad_name", 400),
        ("not json", "bad_json", 400),
        (b"\xff\xfe", "bad_json", 400),
        ("[1, 2]", "bad_message", 400),
        ("", "bad_message", 400),
        ({"name": "Odile", "pad": "x" * 5000}, "frame_too_large", 413),
    ],
)
def test_it_refuses_bad_input_clearly_and_creates_nothing(body, code, status):
    response = ask(Client(), body)
    assert response.status_code == status
    assert response.json()["t"] == "error" and response.json()["code"] == code and response.json()["message"]
    assert not GuestToken.objects.exists()


def test_it_answers_only_post():
    response = Client().get("/api/guest")
    assert response.status_code == 405 and response["Allow"] == "POST" and response.json()["code"] == "method_not_allowed"


def test_it_limits_tokens_per_address_with_a_clear_429():
    client = Client()
    for _ in range(3):
        assert ask(client, {"name": "Odile"}).status_code == 201
    refused = ask(client, {"name": "Odile"})
    assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"
    assert 3500 <= int(refused["Retry-After"]) <= 3600
    assert GuestToken.objects.count() == 3
    # Another address is counted on its own; requests without a name do not count at all
    # (a name is checked after the budget: the check reads the accounts, tests/ludo/test_limits_before_work.py).
    assert ask(client, {"name": 5}, address="198.51.100.7").status_code == 400
    assert ask(client, {}, address="198.51.100.7").status_code == 400
    for _ in range(3):
        assert ask(client, {"name": "Max"}, address="198.51.100.7").status_code == 201


def test_errors_are_in_the_readers_language():
    english = ask(Client(), {"name": ""}, path="/en/api/guest").json()["message"]
    french = ask(Client(), {"name": ""}).json()["message"]
    assert english == "A display name needs 2 to 40 printable characters."
    assert french != english and "caractères" in french


def test_a_guest_token_idle_too_long_stops_working(settings):
    from datetime import timedelta

    from django.utils import timezone

    from ludo.tokens.services import clear_idle_guest_tokens

    token = ask(Client(), {"name": "Odile"}).json()["token"]
    GuestToken.objects.update(created_at=timezone.now() - timedelta(days=31))
    response = Client().get("/api/me", HTTP_AUTHORIZATION=f"Bearer {token}")
    assert response.status_code == 401 and response.json()["code"] == "invalid_token"
    assert clear_idle_guest_tokens() == 1 and not GuestToken.objects.exists()


def test_a_token_guest_is_the_same_who_as_a_session_guest_would_be():
    from ludo.tokens.services import authenticate

    token = ask(Client(), {"name": "Odile"}).json()["token"]
    row = GuestToken.objects.get()
    assert authenticate(token).who() == services.Who(guest_key=row.guest_key, name="Odile")


def test_the_daily_command_deletes_only_idle_guest_tokens():
    from datetime import timedelta
    from io import StringIO

    from django.core.management import call_command
    from django.utils import timezone

    from ludo.tokens.services import authenticate, create_guest_token

    idle, _ = create_guest_token("Odile")
    _, kept = create_guest_token("Max")
    GuestToken.objects.filter(pk=idle.pk).update(created_at=timezone.now() - timedelta(days=40))
    out = StringIO()
    call_command("clear_guest_tokens", stdout=out)
    assert "1 guest tokens" in out.getvalue()
    assert list(GuestToken.objects.values_list("display_name", flat=True)) == ["Max"] and authenticate(kept)
