"""Issue 18, finding 8: a guest is named by a random identity of its own, kept in
its session; no row stores a session key and the admin shows none; rows stored
before are migrated."""

from __future__ import annotations

import json

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.test import Client
from django.urls import reverse

from games import services
from games.models import ChatMessage, Connection, Seat, Table
from games.sockets import db
from tests.games.tables_helpers import Sock, move_connections  # noqa: F401


def guest_client(name: str) -> Client:
    client = Client()
    assert client.post(reverse("guest"), {"name": name}).status_code == 302
    return client


def post(client: Client, path: str, body: dict | None = None):
    return client.post(path, json.dumps(body or {}), content_type="application/json")


def stored_keys() -> set[str]:
    keys = set(Seat.objects.values_list("guest_key", flat=True))
    keys |= set(ChatMessage.objects.values_list("guest_key", flat=True))
    keys |= set(Connection.objects.values_list("guest_key", flat=True))
    keys |= set(Table.objects.values_list("creator_key", flat=True))
    return keys - {""}


@pytest.mark.django_db
def test_seats_tables_and_chat_name_a_guest_by_its_identity_never_its_session_key():
    zoe = guest_client("Zoé")
    table = post(zoe, "/api/tables/", {"game": "drumlin"}).json()["table"]
    assert post(zoe, f"/api/tables/{table}/chat/", {"text": "bonjour"}).status_code == 200
    session_key = zoe.session.session_key
    identity = zoe.session["guest_id"]
    assert identity.startswith("g:") and len(identity) == 34 and session_key not in identity
    assert stored_keys() == {identity}
    # The identity is the guest's for the session's life: a new session key keeps the seat.
    session = SessionStore(session_key)
    session.cycle_key()
    zoe.cookies["sessionid"] = session.session_key
    assert zoe.get(f"/api/tables/{table}/").json()["seat"] == 0


@pytest.mark.django_db
def test_a_guest_named_before_identities_existed_gets_one_on_first_need():
    client = Client()
    session = client.session
    session["guest_name"] = "Zoé"
    session.save()
    assert post(client, "/api/tables/", {"game": "drumlin"}).status_code == 201
    assert stored_keys() == {client.session["guest_id"]}


@pytest.mark.django_db(transaction=True)
async def test_a_guests_socket_holds_its_seat_by_its_identity():
    zoe = await db(guest_client)("Zoé")
    table = (await db(post)(zoe, "/api/tables/", {"game": "drumlin"})).json()["table"]
    sock = await Sock(f"/ws/tables/{table}/", zoe.cookies["sessionid"].value).connect()
    state = await sock.open()
    assert state["seat"] == 0
    assert await db(stored_keys)() == {(await db(lambda: zoe.session["guest_id"])())}
    await sock.close()


@pytest.mark.django_db
def test_the_admin_shows_no_guest_identity_nor_session_key(alice):
    zoe = guest_client("Zoé")
    table = post(zoe, "/api/tables/", {"game": "drumlin"}).json()["table"]
    post(zoe, f"/api/tables/{table}/chat/", {"text": "bonjour"})
    secrets = {zoe.session.session_key, zoe.session["guest_id"]}
    host = Client()
    host.force_login(alice)
    pages = [reverse("admin:games_table_change", args=[table]),
             reverse("admin:games_seat_change", args=[Seat.objects.get(table_id=table, index=0).pk]),
             reverse("admin:games_chatmessage_change", args=[ChatMessage.objects.get().pk]),
             reverse("admin:games_seat_changelist"), reverse("admin:games_chatmessage_changelist")]
    for page in pages:
        html = host.get(page).content.decode()
        assert "Zoé" in html or "bonjour" in html, page
        assert not any(secret in html for secret in secrets), page


@pytest.mark.django_db(transaction=True)
def test_the_migration_gives_stored_session_keys_new_identities_and_tells_living_sessions():
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    before = [("games", "0002_fewer_table_indexes")]
    after = [("games", "0003_guest_identity_chat_staff_limits")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    try:
        old = executor.loader.project_state(before).apps
        living = SessionStore()
        living["guest_name"] = "Zoé"
        living.create()
        gone = "z" * 32  # a session that expired: no row any more
        table = old.get_model("games", "Table").objects.create(
            game="drumlin", seat_count=2, creator_key=living.session_key, creator_name="Zoé")
        seat = old.get_model("games", "Seat")
        seat.objects.create(table=table, index=0, guest_key=living.session_key, name="Zoé")
        seat.objects.create(table=table, index=1, guest_key=gone, name="Max")
        old.get_model("games", "ChatMessage").objects.create(
            table=table, channel="players", seat=1, guest_key=gone, name="Max", text="salut")
        old.get_model("games", "Connection").objects.create(
            channel_name="x", table=table, seat=0, guest_key=living.session_key, name="Zoé", last_seen=table.created_at)
        token_seat = old.get_model("games", "Table").objects.create(game="drumlin", seat_count=2, creator_key="t:" + "1" * 32)
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(after)
        # Then on to the latest migrations, which today's models need.
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
    zoe = SessionStore(living.session_key)["guest_id"]
    assert zoe.startswith("g:") and len(zoe) == 34
    assert Table.objects.get(pk=table.pk).creator_key == zoe
    assert Seat.objects.get(table_id=table.pk, index=0).guest_key == zoe
    assert Connection.objects.get().guest_key == zoe
    max_key = Seat.objects.get(table_id=table.pk, index=1).guest_key
    assert max_key.startswith("g:") and max_key != zoe and ChatMessage.objects.get().guest_key == max_key
    assert Table.objects.get(pk=token_seat.pk).creator_key == "t:" + "1" * 32  # token guests keep theirs
    assert not stored_keys() & {living.session_key, gone}
    # Zoé, whose session lives on, still holds her seat.
    who = services.Who.from_user_and_session(None, SessionStore(living.session_key))
    assert services.open_table(table.pk, who)[1] == 0
