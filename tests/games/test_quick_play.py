"""Quick play in one click: no name step (a generated guest name, changeable later),
and Drekki asks how many players (3 to 6, 4 by default)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import translation

from games.models import Table
from ludo.accounts import GUEST_NAME_KEY

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def french_by_default():
    with translation.override("fr"):
        yield


def test_one_click_starts_a_game_for_a_visitor_without_a_name(client):
    response = client.post(reverse("games:quick"), {"game": "drumlin", "level": "easy"})
    table = Table.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("games:table", args=[table.pk])
    assert table.status == Table.Status.RUNNING
    seats = list(table.seats.order_by("index"))
    name = client.session[GUEST_NAME_KEY]
    assert re.fullmatch(r"Invité \d{4}", name) and seats[0].name == name and seats[1].bot_level == "easy"
    # The name is the guest's to change, and a second game keeps it.
    page = client.get(response["Location"], follow=True).content.decode()
    assert "Vous jouez sous le nom" in page
    client.post(reverse("guest"), {"name": "Zoé"})
    client.post(reverse("games:quick"), {"game": "drumlin", "level": "easy"})
    assert Table.objects.latest("pk").seats.get(index=0).name == "Zoé"


def test_the_generated_name_follows_the_pages_language(client):
    with translation.override("en"):
        url = reverse("games:quick")
    client.post(url, {"game": "eclaircissement", "level": "easy"})
    assert re.fullmatch(r"Guest \d{4}", client.session[GUEST_NAME_KEY])


def test_the_lobby_quick_form_needs_no_name_and_asks_drekki_for_a_player_count(client):
    html = client.get(reverse("games:play")).content.decode()
    form = html.split("data-quick-form", 1)[1].split("</form>", 1)[0]
    assert "disabled" not in form
    seats = form.split('name="seats-drekki"', 1)[1].split("</select>", 1)[0]
    assert re.findall(r'value="(\d)"', seats) == ["3", "4", "5", "6"]
    assert '<option value="4" selected>' in seats
    assert 'name="seats-drumlin"' not in form


@pytest.mark.parametrize("posted, expected", [({}, 4), ({"seats-drekki": "3"}, 3), ({"seats-drekki": "6"}, 6)])
def test_drekki_quick_play_seats_the_chosen_number(client, posted, expected):
    client.post(reverse("games:quick"), {"game": "drekki", "level": "easy", **posted})
    table = Table.objects.get()
    assert table.seat_count == expected and table.status == Table.Status.RUNNING
    assert sum(1 for s in table.seats.all() if s.bot_level == "easy") == expected - 1


@pytest.mark.parametrize("count", ["2", "7", "four"])
def test_a_bad_player_count_is_refused_and_creates_nothing(client, count):
    response = client.post(reverse("games:quick"), {"game": "drekki", "level": "easy", "seats-drekki": count})
    assert response.status_code == 302 and response["Location"].startswith(reverse("games:play"))
    assert not Table.objects.exists()
