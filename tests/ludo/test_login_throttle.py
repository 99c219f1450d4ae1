"""Login throttling cannot be bypassed with X-Forwarded-For, nor by trying many usernames."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

LOGIN = "/compte/connexion/"


def test_twelve_wrong_passwords_with_invented_forwarded_addresses_lock(client, bob, settings):
    """The README's setup once took the client-written leftmost entry as the address."""
    settings.TRUSTED_PROXIES = ["127.0.0.1"]
    codes = []
    for n in range(12):
        codes.append(client.post(
            LOGIN, {"username": "bob", "password": "wrong"},
            # An untrusted peer: its header is not believed at all.
            REMOTE_ADDR="203.0.113.7", HTTP_X_FORWARDED_FOR=f"198.51.100.{n}",
        ).status_code)
    assert 429 in codes
    assert codes.index(429) == settings.LUDO_USERNAME_FAILURE_LIMIT - 1
    # Locked for that username from anywhere, even behind the trusted proxy, even with the right password.
    response = client.post(LOGIN, {"username": "bob", "password": PASSWORD},
                           REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="192.0.2.44")
    assert response.status_code == 429


def test_twelve_wrong_passwords_from_twelve_addresses_lock_the_username(client, bob, settings):
    """What daphne --proxy-headers made of invented X-Forwarded-For entries: a new address each time."""
    codes = [
        client.post(LOGIN, {"username": "bob", "password": "wrong"}, REMOTE_ADDR=f"198.51.100.{n}").status_code
        for n in range(12)
    ]
    assert codes.index(429) == settings.LUDO_USERNAME_FAILURE_LIMIT - 1
    assert codes[codes.index(429):] == [429] * (12 - codes.index(429))


def test_forwarded_addresses_behind_the_trusted_proxy_do_not_help_either(client, bob, settings):
    settings.TRUSTED_PROXIES = ["127.0.0.1"]
    codes = [
        client.post(LOGIN, {"username": "bob", "password": "wrong"}, REMOTE_ADDR="127.0.0.1",
                    HTTP_X_FORWARDED_FOR=f"198.51.100.{n}, 203.0.113.7").status_code
        for n in range(12)
    ]
    assert codes.count(429) == 12 - settings.LUDO_USERNAME_FAILURE_LIMIT + 1


def test_one_address_trying_many_usernames_locks(client, settings):
    settings.LUDO_ADDRESS_FAILURE_LIMIT = 8
    users = get_user_model()
    for n in range(12):
        users.objects.create_user(f"player{n}", password=PASSWORD)
    codes = [
        client.post(LOGIN, {"username": f"player{n}", "password": "wrong"}, REMOTE_ADDR="203.0.113.7").status_code
        for n in range(10)
    ]
    assert codes[:7] == [200] * 7 and codes[7:] == [429] * 3
    # That address cannot log in to a fresh username; another address can.
    assert client.post(LOGIN, {"username": "player11", "password": PASSWORD},
                       REMOTE_ADDR="203.0.113.7").status_code == 429
    assert client.post(LOGIN, {"username": "player11", "password": PASSWORD},
                       REMOTE_ADDR="203.0.113.8").status_code == 302
