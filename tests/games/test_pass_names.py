"""Pass-and-play seat names go by the guests' name rules (ludo.accounts.clean_guest_name):
no house's name, no account's name, no control or text-direction characters, 2 to
40 characters. The device's own person may give their own name. A refused name
creates nothing."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games.living.services import create_pass_table
from games.models import Table
from games.protocol import TableError
from tests.games.tables_helpers import guest, member

pytestmark = pytest.mark.django_db


@pytest.fixture
def carol(db):
    return get_user_model().objects.create_user("carol", "carol@example.org", "x" * 12)


@pytest.mark.parametrize("name, code", [
    ("Hôte", "name_taken"),
    ("L'hôte 2", "name_taken"),
    ("h0te", "name_taken"),
    ("ADMIN", "name_taken"),
    ("Carol", "name_taken"),  # another account's username
    ("\u202eetoH", "bad_name"),  # right-to-left override: would show "Hote"
    ("Zo\u200fé", "bad_name"),  # right-to-left mark
    ("Ben\u0000", "bad_name"),
    ("B", "bad_name"),
])
def test_a_reserved_or_unprintable_seat_name_is_refused_and_creates_nothing(carol, name, code):
    with pytest.raises(TableError) as refused:
        create_pass_table(guest("Zoé"), "drekki", ["Zoé", name, None])
    assert refused.value.code == code
    assert not Table.objects.exists()


def test_the_devices_own_person_may_give_their_own_name(carol):
    room = create_pass_table(member(carol), "quatre-en-ligne", ["Carol", "Ben"])
    assert [s.name for s in Table.objects.get(pk=room.table_id).seats.order_by("index")] == ["Carol", "Ben"]
    with pytest.raises(TableError):  # but not another account's
        create_pass_table(guest("Zoé"), "quatre-en-ligne", ["Zoé", "carol"])


def test_the_form_says_why_a_seat_name_is_refused(carol):
    client = Client()
    session = client.session
    session["guest_name"] = "Zoé"
    session.save()
    form = {"mode": "pass", "game": "quatre-en-ligne", "seats": "2", "seat-0": "person", "name-0": "Zoé",
            "seat-1": "person", "name-1": "Hôte"}
    with translation.override("en"):
        answer = client.post(reverse("living:new"), form)
    assert answer.status_code == 400 and "belongs to an account or to the house" in answer.content.decode()
    answer = client.post(reverse("living:new"), {**form, "name-1": "\u202eetoH"})
    assert answer.status_code == 400 and not Table.objects.exists()
