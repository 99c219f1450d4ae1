"""Pass-and-play tables (games.living) stay out of the public lobby: nobody can join
them, and the names of the people sharing one device are nobody else's business. The
lobby's list, its page, the API's list and the lobby socket's updates all leave them
out; the hosts' list of every table keeps them."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.living.services import create_pass_table
from games.models import Table
from games.services.lobby import lobby_entry
from tests.games.tables_helpers import guest

pytestmark = pytest.mark.django_db


@pytest.fixture
def tables():
    passed = create_pass_table(guest("Zoé"), "quatre-en-ligne", ["Zoé", "Bérénice"])
    public = services.create_table(guest("Max"), "drumlin", 2)
    return Table.objects.get(pk=passed.table_id), public


def test_a_pass_and_play_table_is_not_in_the_lobby_list_nor_its_updates(tables):
    passed, public = tables
    assert passed.pass_and_play and passed.status == Table.Status.RUNNING
    assert [entry["id"] for entry in services.lobby_tables()] == [public.pk]
    # What the lobby socket is sent when the table changes: "no longer listed".
    assert lobby_entry(passed, list(passed.seats.all())) is None
    assert lobby_entry(public, list(public.seats.all())) is not None


def test_the_lobby_page_and_the_api_list_name_nobody_of_a_pass_and_play_table(tables):
    passed, public = tables
    visitor = Client()
    page = visitor.get(reverse("games:play")).content.decode()
    assert "Bérénice" not in page
    assert reverse("games:table", args=[passed.pk]) not in page
    listed = visitor.get(reverse("games:api-tables")).json()["tables"]
    assert [entry["id"] for entry in listed] == [public.pk]
    assert "Bérénice" not in str(listed)


def test_the_hosts_list_of_every_table_keeps_it(tables):
    passed, public = tables
    staff = {entry["id"]: entry for entry in services.tables_for_staff()}
    assert set(staff) == {passed.pk, public.pk}
    assert [seat["name"] for seat in staff[passed.pk]["seats"]] == ["Zoé", "Bérénice"]
    # Reading it for the hosts leaves the table as it was.
    passed.refresh_from_db()
    assert passed.pass_and_play
