"""The JSON HTTP API: lobby, create, join, start, play, replay, export, staff."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games import engines
from games.models import ModerationLog, Table
from ludo.accounts import GUEST_NAME_KEY

pytestmark = pytest.mark.django_db


def guest_client(name: str | None, **kwargs) -> Client:
    client = Client(**kwargs)
    session = client.session
    if name:
        session[GUEST_NAME_KEY] = name
    session.save()
    return client


def post(client: Client, url: str, data: dict | None = None, **extra):
    return client.post(url, json.dumps(data or {}), content_type="application/json", **extra)


@pytest.fixture
def zoe():
    return guest_client("Zoé")


@pytest.fixture
def max_():
    return guest_client("Max")


def create(client: Client, **data) -> dict:
    response = post(client, "/api/tables/", {"game": "drumlin", **data})
    assert response.status_code == 201, response.json()
    return response.json()


def test_it_lists_the_games_and_sets_a_csrf_cookie(zoe):
    response = zoe.get("/api/games/")
    assert response.status_code == 200 and "csrftoken" in response.cookies
    slugs = [g["slug"] for g in response.json()["games"]]
    assert slugs == engines.slugs() and response.json()["bot_levels"] == ["easy", "medium", "hard"]


def test_a_guest_creates_a_table_another_joins_and_the_host_starts(zoe, max_):
    table = create(zoe, clock={"kind": "game", "base": 300, "increment": 3})
    assert table["status"] == "open" and table["seat"] == 0 and table["clock"]["kind"] == "game"
    listed = zoe.get("/api/tables/").json()["tables"]
    assert [t["id"] for t in listed] == [table["table"]]
    joined = post(max_, f"/api/tables/{table['table']}/join/")
    assert joined.status_code == 200 and joined.json()["result"] == 1
    refused = post(max_, f"/api/tables/{table['table']}/start/")
    assert refused.status_code == 403 and refused.json()["code"] == "not_host"
    started = post(zoe, f"/api/tables/{table['table']}/start/").json()["table"]
    assert started["status"] == "running"
    rules = engines.get("drumlin")
    state = rules.load(Table.objects.get(pk=table["table"]).state)
    assert started["view"] == rules.view(state, 0)


def test_errors_are_json_with_a_code_a_message_and_a_status(zoe, max_):
    response = post(zoe, "/api/tables/", {"game": "chess"})
    assert response.status_code == 400 and response.json()["code"] == "unknown_game"
    assert response.json()["message"]
    response = zoe.post("/api/tables/", "{not json", content_type="application/json")
    assert response.json()["code"] == "bad_json"
    response = post(zoe, "/api/tables/", {"game": 7})
    assert response.json()["code"] == "bad_message" and response.json()["field"] == "game"
    assert zoe.get("/api/tables/424242/").status_code == 404
    nameless = guest_client(None)
    assert post(nameless, "/api/tables/", {"game": "drumlin"}).json()["code"] == "name_required"
    english = post(zoe, "/en/api/tables/", {"game": "chess"}).json()["message"]
    assert english == "This game cannot be played online."
    assert zoe.delete("/api/tables/").status_code == 405
    assert not Table.objects.exists()


def test_post_needs_the_csrf_token():
    client = guest_client("Zoé", enforce_csrf_checks=True)
    assert post(client, "/api/tables/", {"game": "drumlin"}).status_code == 403
    token = client.get("/api/games/").cookies["csrftoken"].value
    assert post(client, "/api/tables/", {"game": "drumlin"}, HTTP_X_CSRFTOKEN=token).status_code == 201


def test_a_private_table_needs_its_link(zoe, max_):
    table = create(zoe, private=True)
    token = table["invite"]
    assert max_.get("/api/tables/").json()["tables"] == []
    assert max_.get(f"/api/tables/{table['table']}/").status_code == 403
    assert post(max_, f"/api/tables/{table['table']}/join/").json()["code"] == "private_table"
    assert max_.get(f"/api/tables/{table['table']}/?invite={token}").status_code == 200
    assert post(max_, f"/api/tables/{table['table']}/join/", {"invite": token}).json()["result"] == 1


def test_play_against_a_bot_now_in_one_request(zoe):
    response = post(zoe, "/api/tables/quick/", {"game": "drekki", "level": "medium", "seats": 4})
    assert response.status_code == 201
    table = response.json()
    assert table["status"] == "running" and table["seat"] == 0
    assert [s["bot"] for s in table["seats"]] == [None, "medium", "medium", "medium"]
    assert post(zoe, "/api/tables/quick/", {"game": "drekki", "level": "boss"}).json()["code"] == "bad_level"


def test_an_external_client_plays_moves_over_http(zoe, max_):
    table = create(zoe, game="eclaircissement")
    post(max_, f"/api/tables/{table['table']}/join/")
    post(zoe, f"/api/tables/{table['table']}/start/")
    clients = {0: zoe, 1: max_}
    rules = engines.get("eclaircissement")
    for _ in range(4):
        current = Table.objects.get(pk=table["table"])
        seat = rules.to_act(rules.load(current.state))[0]
        mine = clients[seat].get(f"/api/tables/{table['table']}/").json()
        assert mine["seat"] == seat and mine["legal"]
        stale = post(clients[seat], f"/api/tables/{table['table']}/move/", {"move": mine["legal"][0], "v": mine["v"] - 1})
        assert stale.status_code == 409 and stale.json()["v"] == mine["v"]
        played = post(clients[seat], f"/api/tables/{table['table']}/move/", {"move": mine["legal"][0], "v": mine["v"]})
        assert played.json()["result"] == mine["v"] + 1
    events = zoe.get(f"/api/tables/{table['table']}/?since={mine['v']}").json()["events"]
    assert [e["kind"] for e in events] == ["move"]


def test_draw_resign_rematch_and_replay_over_http(zoe, max_):
    table = create(zoe)
    post(max_, f"/api/tables/{table['table']}/join/")
    post(zoe, f"/api/tables/{table['table']}/start/")
    base = f"/api/tables/{table['table']}"
    assert post(zoe, f"{base}/draw/", {"action": "maybe"}).json()["code"] == "bad_message"
    assert post(zoe, f"{base}/draw/", {"action": "offer"}).json()["table"]["draw_offers"] == [0]
    assert post(max_, f"{base}/draw/", {"action": "decline"}).status_code == 200
    assert post(max_, f"{base}/resign/").json()["table"]["outcome"]["reason"] == "resign"
    assert post(zoe, f"{base}/rematch/").json()["result"] is None
    new_id = post(max_, f"{base}/rematch/").json()["result"]
    assert Table.objects.get(pk=new_id).status == "running"
    replay = zoe.get(f"{base}/replay/").json()
    assert replay["status"] == "finished" and [s["kind"] for s in replay["steps"]] == ["start"]
    export = zoe.get(f"{base}/export/")
    assert export["Content-Disposition"] == f'attachment; filename="ludo-table-{table["table"]}.json"'
    data = export.json()
    assert data["format"] == "ludo-table/1" and data["outcome"]["reason"] == "resign"
    seed = str(Table.objects.get(pk=table["table"]).seed)
    assert seed not in export.content.decode()


def test_staff_see_everything_and_their_acts_are_logged(zoe, max_):
    User = get_user_model()
    host = Client()
    host.force_login(User.objects.create_user("hote", "h@example.org", "pw-hote-12345", is_staff=True))
    private = create(zoe, private=True)
    assert max_.get("/api/tables/?all=1").json()["tables"] == []
    assert [t["id"] for t in host.get("/api/tables/?all=1").json()["tables"]] == [private["table"]]
    assert host.get(f"/api/tables/{private['table']}/replay/").status_code == 200
    message = post(zoe, f"/api/tables/{private['table']}/chat/", {"text": "coucou"}).json()["result"]
    assert post(max_, f"/api/chat/{message['id']}/hide/").status_code == 403
    assert post(host, f"/api/chat/{message['id']}/hide/").json()["message"]["hidden"] is True
    assert post(zoe, f"/api/tables/{private['table']}/end/").status_code == 403
    assert post(host, f"/api/tables/{private['table']}/remove/", {"seat": 0}).status_code == 200
    ended = post(host, f"/api/tables/{private['table']}/end/", {"reason": "abandoned"}).json()
    assert ended["table"]["status"] == "aborted"
    assert sorted(ModerationLog.objects.values_list("kind", flat=True)) == ["end", "hide_chat", "remove"]
