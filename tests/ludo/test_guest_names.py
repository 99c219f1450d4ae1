"""Issue 18, finding 9 (names): a guest cannot take an account's name nor pass for
one of the hosts, and the hosts' chat messages are marked as theirs."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.sockets import db
from tests.games.tables_helpers import Sock, guest_session, move_connections, who_of  # noqa: F401

TAKEN = ["hote", "Hôte", "HÔTE", "h0te", "L'hôte", "Hôte 2", "h.o.t.e", "admin", "ADMIN", "Аdmin", "Staff",
         "bob", "BOB", "Bób", "alice", "Alicé"]
FREE = ["Zoé", "Tante Odile", "Chotek", "Ghost", "Invité 4821", "Bobby", "Alicia"]


@pytest.mark.django_db
@pytest.mark.parametrize("name", TAKEN)
def test_the_guest_page_refuses_an_accounts_or_the_houses_name(alice, bob, name):
    client = Client()
    page = client.post(reverse("guest"), {"name": name})
    assert page.status_code == 200
    assert "Ce nom est celui d’un compte ou de la maison" in page.content.decode()
    assert "guest_name" not in client.session


@pytest.mark.django_db
@pytest.mark.parametrize("name", FREE)
def test_the_guest_page_takes_other_names(alice, bob, name):
    client = Client()
    assert client.post(reverse("guest"), {"name": name}).status_code == 302
    assert client.session["guest_name"] == name


@pytest.mark.django_db
def test_a_guest_token_cannot_take_a_taken_name(alice):
    for name in ("Hôte", "ALICE"):
        answer = Client().post("/api/guest", json.dumps({"name": name}), content_type="application/json")
        assert answer.status_code == 409 and answer.json()["code"] == "name_taken"
    answer = Client().post("/api/guest", json.dumps({"name": "Zoé"}), content_type="application/json")
    assert answer.status_code == 201


@pytest.mark.django_db
def test_a_hosts_chat_message_is_marked_and_a_guests_is_not(alice):
    host = Client()
    host.force_login(alice)
    zoe = Client()
    zoe.post(reverse("guest"), {"name": "Zoé"})
    table = zoe.post("/api/tables/", json.dumps({"game": "drumlin"}), content_type="application/json").json()["table"]

    def say(client, text):
        return client.post(f"/api/tables/{table}/chat/", json.dumps({"text": text}),
                           content_type="application/json").json()["result"]

    assert say(host, "Bienvenue !")["staff"] is True
    assert say(zoe, "Merci")["staff"] is False
    backlog = services.chat_backlog(table, "spectators") + services.chat_backlog(table, "players")
    assert sorted((m["name"], m["staff"]) for m in backlog) == [("Zoé", False), ("alice", True)]


@pytest.mark.django_db(transaction=True)
async def test_the_chat_frame_says_staff(alice, settings):
    settings.LUDO_TABLE_POLL_SECONDS = 0
    key = await db(guest_session)("Zoé")
    zoe = await db(who_of)(key)
    table = await db(services.create_table)(zoe, "drumlin")
    # A spectator hears the spectators' chat, where a host who sits nowhere talks.
    sock = await Sock(f"/ws/tables/{table.pk}/", await db(guest_session)("Max")).connect()
    await sock.open()
    host = services.Who(user_id=alice.pk, name="alice", is_staff=True)
    await db(services.post_chat)(table.pk, host, "Bonne partie")
    frame = await sock.until("chat")
    assert frame["message"]["staff"] is True and frame["message"]["name"] == "alice"
    await sock.close()
