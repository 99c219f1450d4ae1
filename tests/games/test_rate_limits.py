"""Issue 18, finding 5: the HTTP API and the forms are rate-limited per person and
per address, by the sockets' limiter; a person has few waiting tables; an
anonymous visitor gets no fresh budget by opening another socket."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from games.models import ChatMessage, Table
from games.sockets import db
from tests.games.tables_helpers import ORIGIN, Sock, guest_session, move_connections  # noqa: F401

pytestmark = pytest.mark.django_db(transaction=True)
HOUSE = "203.0.113.5"


def guest_client(name: str, address: str = HOUSE) -> Client:
    """A browser whose guest chose a name on the guest page."""
    client = Client(REMOTE_ADDR=address)
    assert client.post(reverse("guest"), {"name": name}).status_code == 302
    return client


def post(client: Client, path: str, body: dict | None = None):
    return client.post(path, json.dumps(body or {}), content_type="application/json")


def test_chat_posts_over_http_stop_at_the_persons_budget_with_a_429_and_retry_after():
    zoe = guest_client("Zoé")
    table = post(zoe, "/api/tables/", {"game": "drumlin"}).json()["table"]
    answers = [post(zoe, f"/api/tables/{table}/chat/", {"text": f"coucou {i}"}) for i in range(150)]
    accepted = [a for a in answers if a.status_code == 200]
    refused = [a for a in answers if a.status_code == 429]
    assert len(accepted) == 20 and len(refused) == 130
    assert ChatMessage.objects.count() == 20
    body = refused[0].json()
    assert body["code"] == "rate_limited" and body["message"].startswith("Trop de demandes")
    assert 1 <= int(refused[0]["Retry-After"]) <= 60 and body["retry_after"] == int(refused[0]["Retry-After"])


def test_a_person_has_at_most_three_waiting_tables_and_a_clear_error_for_the_fourth():
    zoe = guest_client("Zoé")
    for _ in range(3):
        assert post(zoe, "/api/tables/", {"game": "drumlin"}).status_code == 201
    fourth = post(zoe, "/api/tables/", {"game": "drumlin"})
    assert fourth.status_code == 409
    assert fourth.json()["code"] == "too_many_tables" and fourth.json()["max"] == 3
    assert "lancez-en une ou quittez-en une" in fourth.json()["message"]
    assert Table.objects.filter(status=Table.Status.OPEN).count() == 3
    # A game against a bot starts at once: it waits for nobody, and is not refused.
    assert post(zoe, "/api/tables/quick/", {"game": "drumlin"}).status_code == 201
    # The lobby's form says it too, on the lobby.
    page = zoe.post(reverse("games:create"), {"game": "drumlin", "clock": "none"}, follow=True)
    assert "autant de tables en attente" in page.content.decode()


def test_sixty_tables_in_a_burst_from_one_address_do_not_flood_the_lobby():
    """Twenty guests behind one address try three tables each, at once."""
    created = refused = 0
    for i in range(20):
        client = guest_client(f"Joueur {i}")
        for _ in range(3):
            answer = post(client, "/api/tables/", {"game": "drumlin"})
            if answer.status_code == 201:
                created += 1
            else:
                assert answer.status_code == 429 and answer["Retry-After"]
                refused += 1
    assert created == 20 and refused == 40
    lobby = Client(REMOTE_ADDR="198.51.100.7").get("/api/tables/").json()["tables"]
    assert len(lobby) == 20
    # Another address is counted on its own.
    assert post(guest_client("Max", "198.51.100.7"), "/api/tables/", {"game": "drumlin"}).status_code == 201


def test_the_guest_page_is_limited_per_address_with_a_page_that_says_so():
    answers = [Client(REMOTE_ADDR=HOUSE).post(reverse("guest"), {"name": f"Invité {i}"}) for i in range(31)]
    assert [a.status_code for a in answers[:30]] == [302] * 30
    assert answers[30].status_code == 429 and answers[30]["Retry-After"]
    assert "Trop de demandes" in answers[30].content.decode()


def test_limits_can_be_lifted_for_a_benchmark(settings):
    settings.LUDO_RATE_LIMITS_ENABLED = False
    settings.LUDO_MAX_OPEN_TABLES = 1000
    zoe = guest_client("Zoé")
    assert all(post(zoe, "/api/tables/", {"game": "drumlin"}).status_code == 201 for _ in range(25))


def _socket(path: str, session_key: str | None, address: str) -> Sock:
    sock = Sock(path, session_key)
    sock.comm.scope["client"] = (address, 50000)
    return sock


async def test_an_anonymous_visitor_gets_no_fresh_budget_from_another_socket(settings):
    settings.LUDO_TABLE_POLL_SECONDS = 0
    settings.LUDO_WS_PERSON_RATE_LIMIT = (5, 60.0)
    first = await _socket("/ws/lobby/", None, HOUSE).connect()
    await first.until("lobby")
    for i in range(5):
        await first.send(t="ping", id=i)
        assert (await first.answer())["t"] == "pong"
    second = await _socket("/ws/lobby/", None, HOUSE).connect()
    await second.until("lobby")
    await second.send(t="ping", id="again")
    answer = await second.answer()
    assert answer["code"] == "rate_limited" and answer["id"] == "again" and answer["retry_after"] > 0
    # Somebody else, elsewhere, is not held back.
    other = await _socket("/ws/lobby/", None, "198.51.100.7").connect()
    await other.until("lobby")
    await other.send(t="ping", id="other")
    assert (await other.answer())["t"] == "pong"
    for sock in (first, second, other):
        await sock.close()


async def test_chat_on_the_socket_and_over_http_share_one_budget(settings):
    settings.LUDO_TABLE_POLL_SECONDS = 0
    settings.LUDO_RATE_LIMITS = {"chat": {"person": (4, 60.0)}}
    key = await db(guest_session)("Zoé")
    from tests.games.tables_helpers import who_of

    from games import services

    zoe = await db(who_of)(key)
    table = await db(services.create_table)(zoe, "drumlin")
    client = Client(REMOTE_ADDR=HOUSE)
    client.cookies["sessionid"] = key
    for i in range(3):
        assert (await db(post)(client, f"/api/tables/{table.pk}/chat/", {"text": f"http {i}"})).status_code == 200
    sock = await _socket(f"/ws/tables/{table.pk}/", key, HOUSE).connect()
    await sock.open()
    await sock.send(t="chat", text="socket 1", id="a")
    assert (await sock.answer())["t"] == "ack"
    await sock.send(t="chat", text="socket 2", id="b")
    refused = await sock.answer()
    assert refused["code"] == "rate_limited" and refused["id"] == "b"
    assert await db(ChatMessage.objects.count)() == 4
    await sock.close()
