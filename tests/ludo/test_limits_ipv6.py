"""Every per-address budget counts an IPv6 subscriber's whole /64 as one address.

One home or phone gets a /64 and can pick a fresh address in it for every
request: counted apart, five addresses of one /64 made 100 living-room code
lookups and got 12 guest tokens (budgets 20 and 10). Each test below spends a
budget from many addresses of one /64 and checks the next address of that /64
is refused while another /64 is not.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client, RequestFactory
from django.urls import reverse

from ludo import limits
from ludo.account import mail_limits
from ludo import client_ip
from tests.conftest import PASSWORD

NET = "2001:db8:1:2"  # one subscriber's /64


def neighbour(n: int) -> str:
    """The n-th address of the subscriber's /64 (what a privacy-extension host picks)."""
    return f"{NET}:{n:x}:{n * 7 % 65536:x}:{n * 13 % 65536:x}:{n + 1:x}"


ELSEWHERE = "2001:db8:1:3::5"  # the next /64: another subscriber


def test_an_ipv6_address_counts_as_its_slash_64_and_ipv4_as_itself(settings):
    assert client_ip.budget_key(neighbour(1)) == client_ip.budget_key(neighbour(999)) == f"{NET}::"
    assert client_ip.budget_key(ELSEWHERE) == "2001:db8:1:3::"
    assert client_ip.budget_key("203.0.113.9") == "203.0.113.9"
    # IPv4-mapped IPv6 (a dual-stack socket) is the IPv4 address, never a /64 of them.
    assert client_ip.budget_key("::ffff:203.0.113.9") == "203.0.113.9"
    assert client_ip.budget_key("::ffff:203.0.113.10") != client_ip.budget_key("::ffff:203.0.113.9")
    assert client_ip.budget_key("") == ""
    settings.LUDO_IPV6_PREFIX = 128
    assert client_ip.budget_key(neighbour(1)) != client_ip.budget_key(neighbour(2))
    settings.LUDO_IPV6_PREFIX = 48
    assert client_ip.budget_key(ELSEWHERE) == client_ip.budget_key(neighbour(1)) == "2001:db8:1::"


def test_requests_and_sockets_are_counted_under_the_group():
    request = RequestFactory().get("/", REMOTE_ADDR=neighbour(5))
    assert limits.client_address(request) == f"{NET}::"
    assert limits.scope_address({"client": (neighbour(6), 50000), "headers": []}) == f"{NET}::"
    assert limits.scope_address({"client": ("::ffff:198.51.100.4", 1), "headers": []}) == "198.51.100.4"


@pytest.mark.django_db
def test_the_limiter_budget_of_a_view_holds_across_a_slash_64():
    # The guest name form: 30 per address in 10 minutes; every client is a new session (person).
    codes = [Client(REMOTE_ADDR=neighbour(n)).post(reverse("guest"), {"name": f"Invité {n}"}).status_code
             for n in range(31)]
    assert codes[:30] == [302] * 30 and codes[30] == 429
    assert Client(REMOTE_ADDR=ELSEWHERE).post(reverse("guest"), {"name": "Voisin"}).status_code == 302


@pytest.mark.django_db
def test_guest_tokens_from_a_slash_64_stop_at_the_budget(settings):
    settings.LUDO_GUEST_TOKEN_RATE_LIMIT = (10, 3600.0)
    codes = [Client().post("/api/guest", {"name": f"Zoé {n}"}, content_type="application/json",
                           REMOTE_ADDR=neighbour(n)).status_code for n in range(12)]
    assert codes == [201] * 10 + [429, 429]
    assert Client().post("/api/guest", {"name": "Voisin"}, content_type="application/json",
                         REMOTE_ADDR=ELSEWHERE).status_code == 201


@pytest.mark.django_db
def test_living_room_code_lookups_from_a_slash_64_stop_at_the_budget():
    codes = [Client(REMOTE_ADDR=neighbour(n)).get(reverse("living:code", args=["ACDEF"])).status_code
             for n in range(21)]
    assert 429 not in codes[:20] and codes[20] == 429
    assert Client(REMOTE_ADDR=ELSEWHERE).get(reverse("living:code", args=["ACDEF"])).status_code != 429


@pytest.mark.django_db
def test_booking_forms_from_a_slash_64_stop_at_the_budget(settings):
    settings.BOOKINGS_FORM_LIMITS = {"address": (3, 600), "email": (100, 600)}
    codes = [Client(REMOTE_ADDR=neighbour(n)).post(reverse("bookings:resend"),
                                                   {"email": f"guest{n}@example.org"}).status_code
             for n in range(4)]
    assert 429 not in codes[:3] and codes[3] == 429
    assert Client(REMOTE_ADDR=ELSEWHERE).post(reverse("bookings:resend"),
                                              {"email": "other@example.org"}).status_code != 429


def test_account_mails_asked_from_a_slash_64_stop_at_the_budget(settings):
    settings.LUDO_ACCOUNT_MAIL_RATE_LIMIT = (1, 3600.0)  # 1 per mailbox, 10 per client address

    def ask(n: int, address: str) -> bool:
        return mail_limits.allow(f"victim{n}@example.org", RequestFactory().post("/", REMOTE_ADDR=address))

    assert [ask(n, neighbour(n)) for n in range(11)] == [True] * 10 + [False]
    assert ask(99, ELSEWHERE)


@pytest.mark.django_db
def test_login_failures_from_a_slash_64_lock_its_next_address(settings):
    settings.LUDO_ADDRESS_FAILURE_LIMIT = 8
    users = get_user_model()
    for n in range(10):
        users.objects.create_user(f"player{n}", password=PASSWORD)
    login = "/compte/connexion/"
    for n in range(8):  # each username fails once, each from its own address of the /64
        Client().post(login, {"username": f"player{n}", "password": "wrong"}, REMOTE_ADDR=neighbour(n))
    # The /64 is locked, even with a right password from a fresh address in it; the next /64 is not.
    assert Client().post(login, {"username": "player9", "password": PASSWORD},
                         REMOTE_ADDR=neighbour(77)).status_code == 429
    assert Client().post(login, {"username": "player9", "password": PASSWORD},
                         REMOTE_ADDR=ELSEWHERE).status_code == 302


@pytest.mark.django_db
def test_a_wider_prefix_setting_groups_more_and_128_counts_each_address(settings):
    settings.LUDO_IPV6_PREFIX = 128
    codes = [Client(REMOTE_ADDR=neighbour(n)).get(reverse("living:code", args=["ACDEF"])).status_code
             for n in range(21)]
    assert 429 not in codes
