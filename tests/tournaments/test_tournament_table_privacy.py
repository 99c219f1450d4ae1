"""A tournament's tables are the tournament's (issue #27: its guests' privacy).

Before, each game was a public table of the site: listed in the lobby and its
API with the players' names while it ran, open to anyone who typed its number
(the page, its JSON, the spectators' chat, and the replay and export kept for
ever), although the tournament's own pages show strangers initials only. Now
they are private tables: the people the tournament's pages name (the hosts, the
entrants, a phone that opened the code) get the tables' links with their key
from the screen and watch any table as spectators; a stranger is told the table
is private; nobody but the seated players plays at a table, whoever they are."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from games import services as tables
from games.models import ChatMessage, Table
from games.services.who import Who
from tests.tournaments.helpers import host
from tournaments import services
from tournaments.models import Entrant, Pairing, Tournament

pytestmark = pytest.mark.django_db

NAMES = ("Anaïs", "Bérénice", "Capucine", "Dorothée")


def phone_joining(t: Tournament, name: str) -> Client:
    phone = Client()
    assert phone.post(reverse("tournaments:code", args=[t.code]), {"name": name}).status_code == 302
    return phone


def named_stranger() -> Client:
    """Someone with a guest name on the site (may sit and chat at public tables)."""
    client = Client()
    client.post(reverse("guest"), {"name": "Curieux"})
    return client


@pytest.fixture
def night(alice):
    t = services.create_tournament(host(alice), name="Soirée", game="quatre-en-ligne", rounds=2, round_pause=0)
    phones = {name: phone_joining(t, name) for name in NAMES}
    services.start(t.pk, host(alice))
    t.refresh_from_db()
    tables_of = {name: phone.get(reverse("tournaments:me", args=[t.pk])).json()["table"]
                 for name, phone in phones.items()}
    assert all(tables_of.values()) and len(set(tables_of.values())) == 2
    return t, phones, tables_of


def post_json(client: Client, url: str, data: dict) -> object:
    return client.post(url, json.dumps(data), content_type="application/json")


def api(name: str, table_id: int) -> str:
    return reverse(f"games:{name}", args=[table_id])


def other_table(tables_of: dict, name: str) -> int:
    return next(t for who, t in tables_of.items() if t != tables_of[name])


def test_the_tables_are_private_and_out_of_the_lobby(night):
    t, _phones, tables_of = night
    assert Table.objects.filter(pk__in=tables_of.values(), private=True).count() == 2
    for client in (Client(), named_stranger()):
        lobby = client.get(reverse("games:play")).content.decode()
        listed = client.get(reverse("games:api-tables")).json()["tables"]
        assert not set(tables_of.values()) & {entry["id"] for entry in listed}
        assert not any(name in lobby or name in json.dumps(listed) for name in NAMES)


def test_a_stranger_cannot_watch_a_tournament_table(night):
    t, _phones, tables_of = night
    table_id = tables_of["Anaïs"]
    for client in (Client(), named_stranger()):
        answers = [client.get(reverse("games:table", args=[table_id])),
                   client.get(api("api-table", table_id)),
                   client.get(reverse("games:replay", args=[table_id])),
                   client.get(api("api-replay", table_id)),
                   client.get(api("api-export", table_id)),
                   client.get(api("api-table", table_id), {"invite": "guessed-key"})]
        for answer in answers:
            assert answer.status_code == 403, (answer.request["PATH_INFO"], answer.status_code)
            assert not any(name.encode() in answer.content for name in NAMES)
        said = post_json(client, api("api-chat", table_id), {"text": "coucou"})
        assert said.status_code in (400, 403)
    assert not ChatMessage.objects.exists()
    with pytest.raises(tables.TableError) as refused:
        tables.open_table(table_id, Who(guest_key="someone-else", name="Curieux"))
    assert refused.value.code == "private_table"


def test_a_stranger_cannot_sit_or_act_at_a_tournament_table(night):
    t, _phones, tables_of = night
    table_id = tables_of["Anaïs"]
    before = Table.objects.get(pk=table_id)
    client = named_stranger()
    for name, data in (("api-join", {}), ("api-join", {"seat": 0}), ("api-move", {"move": "3,0", "v": before.version}),
                       ("api-resign", {}), ("api-draw", {"action": "offer"}), ("api-kick", {"seat": 0}),
                       ("api-abort", {}), ("api-rematch", {}), ("api-leave", {}), ("api-start", {}),
                       ("api-bots", {"level": "easy"}), ("api-end", {}), ("api-remove", {"seat": 0})):
        answer = post_json(client, api(name, table_id), data)
        assert answer.status_code >= 400, (name, answer.status_code)
        assert not any(n.encode() in answer.content for n in NAMES), name
    after = Table.objects.get(pk=table_id)
    assert (after.version, after.status) == (before.version, Table.Status.RUNNING)


def test_the_tournaments_guests_watch_every_table_from_the_screen(night):
    """A player of another table (an entrant) and a phone that opened the code read
    the tables' links, with their key, on the screen, and watch as spectators."""
    t, phones, tables_of = night
    room = Client()
    room.get(reverse("tournaments:code", args=[t.code]))  # scanned the QR: entries are closed
    theirs = other_table(tables_of, "Anaïs")
    seated_there = {name for name, table in tables_of.items() if table == theirs}
    for client in (phones["Anaïs"], room):
        screen = client.get(reverse("tournaments:screen", args=[t.pk])).content.decode()
        token = Table.objects.get(pk=theirs).invite_token
        link = f'{reverse("games:table", args=[theirs])}?invite={token}'
        assert link in screen
        assert f'{reverse("games:api-table", args=[theirs])}?invite={token}' in screen
        assert client.get(link).status_code == 200
        snapshot = client.get(api("api-table", theirs), {"invite": token}).json()
        assert snapshot["seat"] is None and not snapshot["legal"]  # a spectator
        assert {seat["name"] for seat in snapshot["seats"]} == seated_there
        assert client.get(api("api-table", theirs)).status_code == 403  # the key is needed
    # The keys are the screen's: a stranger's screen has none.
    stranger = Client().get(reverse("tournaments:screen", args=[t.pk])).content.decode()
    assert not any(table.invite_token in stranger for table in Table.objects.filter(pk__in=tables_of.values()))


def test_a_player_of_another_table_plays_nowhere_but_at_their_own(night):
    t, phones, tables_of = night
    theirs = other_table(tables_of, "Anaïs")
    table = Table.objects.get(pk=theirs)
    ana = phones["Anaïs"]
    token = f"?invite={table.invite_token}"
    for name, data in (("api-join", {"invite": table.invite_token}), ("api-move", {"move": "3,0", "v": table.version}),
                       ("api-resign", {}), ("api-draw", {"action": "offer"}), ("api-kick", {"seat": 0}),
                       ("api-abort", {}), ("api-rematch", {}), ("api-end", {})):
        answer = post_json(ana, api(name, theirs) + token, data)
        assert answer.status_code >= 400, (name, answer.status_code)
    after = Table.objects.get(pk=theirs)
    assert (after.version, after.status) == (table.version, Table.Status.RUNNING)
    # At their own table, whoever is to move plays.
    played = set()
    for name, phone in phones.items():
        mine = phone.get(api("api-table", tables_of[name])).json()
        assert mine["seat"] is not None
        if mine["legal"] and tables_of[name] not in played:
            moved = post_json(phone, api("api-move", tables_of[name]), {"move": mine["legal"][0], "v": mine["v"]})
            assert moved.status_code == 200, moved.content
            played.add(tables_of[name])
    assert played == set(tables_of.values())


def test_the_hosts_watch_every_table_without_a_key(night, alice):
    t, _phones, tables_of = night
    from ludo.accounts import create_staff_account

    other_host = Client()
    other_host.force_login(create_staff_account("hote2", "hote2@example.org", "pw-hote2-2026-tournoi"))
    for table_id in set(tables_of.values()):
        assert other_host.get(reverse("games:table", args=[table_id])).status_code == 200
        assert other_host.get(api("api-table", table_id)).status_code == 200


def test_a_finished_tournaments_games_stay_private(night):
    t, phones, tables_of = night
    for name in ("Anaïs", "Capucine"):
        ana_table = tables_of[name]
        seat = phones[name].get(reverse("tournaments:me", args=[t.pk])).json()["seat"]
        assert seat is not None
        post_json(phones[name], api("api-resign", ana_table), {})
    table = Table.objects.get(pk=tables_of["Anaïs"])
    assert table.is_over
    assert Client().get(api("api-replay", table.pk)).status_code == 403
    assert Client().get(reverse("games:replay", args=[table.pk])).status_code == 403
    assert phones["Anaïs"].get(api("api-replay", table.pk)).status_code == 200  # her own game


def test_a_bye_against_a_bot_is_private_too(alice):
    t = services.create_tournament(host(alice), name="Impair", game="quatre-en-ligne", rounds=1, round_pause=0,
                                   bye_bot="easy")
    for name in NAMES[:3]:
        phone_joining(t, name)
    services.start(t.pk, host(alice))
    bye = Pairing.objects.get(round__tournament=t, bye=True)
    assert bye.table is not None and bye.table.private
    assert Entrant.objects.filter(tournament=t).count() == 3


def test_the_tables_of_earlier_tournaments_become_private(night):
    """Migration 0004: tables of tournaments played while they were public."""
    from importlib import import_module

    from django.apps import apps

    t, _phones, tables_of = night
    Table.objects.filter(pk__in=tables_of.values()).update(private=False)
    casual = Table.objects.create(game="quatre-en-ligne", seat_count=2)
    import_module("tournaments.migrations.0004_private_tables").hide_tables(apps, None)
    assert Table.objects.filter(pk__in=tables_of.values(), private=True).count() == 2
    assert not Table.objects.get(pk=casual.pk).private  # a table of no tournament is left as it was
