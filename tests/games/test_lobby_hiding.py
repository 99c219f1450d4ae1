"""The lobby leaves out open tables whose creator left more than ten minutes ago."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from games import lobby_filter, services
from games.models import Seat, Table

pytestmark = pytest.mark.django_db
ANNA = services.Who(guest_key="anna-session", name="Anna")
BEN = services.Who(guest_key="ben-session", name="Ben")


def aged(table: Table, minutes: int) -> None:
    Table.objects.filter(pk=table.pk).update(updated_at=timezone.now() - timedelta(minutes=minutes))


def listed(client) -> set[int]:
    with translation.override("fr"):
        html = client.get(reverse("games:play")).content.decode()
    return {t.pk for t in Table.objects.all() if f'data-table-id="{t.pk}"' in html}


def test_an_open_table_whose_creator_left_long_ago_is_hidden(client):
    fresh = services.create_table(ANNA, "drumlin")
    old = services.create_table(ANNA, "drumlin")
    aged(old, 11)
    just_under = services.create_table(BEN, "drumlin")
    aged(just_under, 9)
    assert listed(client) == {fresh.pk, just_under.pk}


def test_a_creator_still_connected_keeps_the_table_listed(client):
    table = services.create_table(ANNA, "drumlin")
    services.connect(table.pk, "chan-anna", ANNA, 0)
    aged(table, 60)
    assert table.pk in listed(client)
    # Another person's socket is not the creator's.
    other = services.create_table(BEN, "drumlin")
    services.connect(other.pk, "chan-anna-2", ANNA, None)
    aged(other, 60)
    assert other.pk not in listed(client)


def test_the_time_the_creator_left_counts_when_it_is_known():
    table = services.create_table(ANNA, "drumlin")
    now = timezone.now()
    Seat.objects.filter(table=table, index=0).update(absent_since=now - timedelta(minutes=3))
    aged(table, 60)
    assert lobby_filter.abandoned_ids([table.pk], now) == set()
    assert lobby_filter.abandoned_ids([table.pk], now + timedelta(minutes=8)) == {table.pk}


def test_games_in_play_stay_listed_whoever_left(client):
    table = services.quick_game(ANNA, "drumlin", "easy")
    aged(table, 120)
    entries = services.lobby_tables()
    assert [e["id"] for e in lobby_filter.visible(entries)] == [e["id"] for e in entries] == [table.pk]
    assert table.pk in listed(client)


def test_the_lobby_list_of_sockets_and_api_hides_them_too_but_not_the_hosts_list():
    kept = services.create_table(ANNA, "drumlin")
    gone = services.create_table(BEN, "drumlin")
    aged(gone, 11)
    assert [e["id"] for e in services.lobby_tables()] == [kept.pk]
    assert {e["id"] for e in services.tables_for_staff()} == {kept.pk, gone.pk}


def test_the_creator_leaving_an_open_table_is_recorded_when_the_last_socket_closes():
    table = services.create_table(ANNA, "drumlin")
    services.connect(table.pk, "chan-anna", ANNA, 0)
    services.disconnect("chan-anna")
    assert Seat.objects.get(table=table, index=0).absent_since is not None
