"""The hosts' admin pages for tables: they see every table and act through the service."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client

from games import services
from games.models import ChatMessage, ModerationLog, Seat, Table
from ludo.accounts import create_staff_account
from tests.games.tables_helpers import guest

pytestmark = pytest.mark.django_db


@pytest.fixture
def host_client():
    client = Client()
    client.force_login(create_staff_account("hote", "hote@example.org", "pw-hote-123456"))
    return client


def running_table(private: bool = False) -> Table:
    table = services.create_table(guest("Zoé"), "drumlin", private=private)
    services.join_table(table.pk, guest("Max"), invite=table.invite_token)
    services.start_table(table.pk, guest("Zoé"))
    return table


def test_hosts_see_private_tables_and_their_log(host_client):
    table = running_table(private=True)
    page = host_client.get("/admin/games/table/")
    assert page.status_code == 200 and f">{table.pk}<" in page.content.decode()
    detail = host_client.get(f"/admin/games/table/{table.pk}/change/")
    assert detail.status_code == 200 and "start" in detail.content.decode()
    assert str(table.seed) not in detail.content.decode()


def test_hosts_end_tables_remove_players_and_hide_chat_from_the_admin(host_client):
    table = running_table()
    said = services.post_chat(table.pk, guest("Max"), "gros mot")
    response = host_client.post(
        "/admin/games/chatmessage/", {"action": "hide_messages", "_selected_action": [said["id"]]}
    )
    assert response.status_code == 302 and ChatMessage.objects.get(pk=said["id"]).hidden
    seat = Seat.objects.get(table=table, index=1)
    host_client.post("/admin/games/seat/", {"action": "remove_players", "_selected_action": [seat.pk]})
    assert Seat.objects.get(pk=seat.pk).bot_level == "easy"
    host_client.post("/admin/games/table/", {"action": "end_tables", "_selected_action": [table.pk]})
    assert Table.objects.get(pk=table.pk).status == "aborted"
    assert sorted(ModerationLog.objects.values_list("kind", flat=True)) == ["end", "hide_chat", "remove"]


def test_players_cannot_reach_the_admin():
    client = Client()
    assert client.get("/admin/games/table/").status_code == 302


def test_saving_a_tables_admin_page_writes_nothing(host_client):
    # The page shows the table read-only. Sent back (its form as rendered: the
    # hidden fields and the inline forms' counts), it must write nothing: the
    # admin reads the row again and wrote all of it, without the table's lock,
    # so a move committed between that read and the write was undone.
    table = running_table()
    url = f"/admin/games/table/{table.pk}/change/"
    page = host_client.get(url).content.decode()
    form = re.search(r'<form[^>]*id="table_form".*?</form>', page, re.S).group(0)
    data = {name: html.unescape(value) for name, value in re.findall(r'<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"',
                                                                       form)}
    data["_save"] = "Save"
    assert any(name.endswith("-TOTAL_FORMS") for name in data)  # the inline forms are sent back too
    row = Table.objects.filter(pk=table.pk).values().get()
    response = host_client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:2000]  # accepted: nothing on it to change
    assert Table.objects.filter(pk=table.pk).values().get() == row  # updated_at included
