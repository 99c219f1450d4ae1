"""Living-room codes are freed once their table has ended (finished or aborted):
about a million codes, drawn for good, must not run out. A live table's code is
never taken from it; an ended table's code opens nothing, and may be drawn
again for a new table."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.living import codes
from games.living.models import Room
from games.living.services import create_pass_table, create_screen_table, find_room, free_ended_codes
from games.protocol import TableError
from games.services.living import AsSeat
from ludo.guests import GUEST_ID_KEY
from tests.games.tables_helpers import guest

pytestmark = pytest.mark.django_db


def test_the_codes_of_ended_tables_are_freed_and_live_ones_kept():
    open_room = create_screen_table(guest("Salon"), "drekki", 3)
    running = create_pass_table(guest("Zoé"), "quatre-en-ligne", ["Zoé", "Ben"])
    aborted = create_screen_table(guest("Séjour"), "drekki", 3)
    services.abort(aborted.table_id, guest("Séjour"))
    finished = create_pass_table(guest("Max"), "quatre-en-ligne", ["Max", "Léa"])
    services.resign(finished.table_id, AsSeat.of(guest("Max"), 0))
    free_ended_codes()  # (the rooms made after the abort freed its code already)
    codes_now = dict(Room.objects.values_list("pk", "code"))
    assert codes_now[open_room.pk] == open_room.code and codes_now[running.pk] == running.code
    assert codes_now[aborted.pk] is None and codes_now[finished.pk] is None
    for ended in (aborted, finished):
        with pytest.raises(TableError):
            find_room(ended.code)  # an ended table's code opens nothing
        assert Client().get(f"/salon/{ended.code}/").status_code == 404


def test_a_new_room_frees_the_ended_codes_and_may_draw_one_again(monkeypatch):
    first = create_screen_table(guest("Salon"), "drekki", 3)
    services.abort(first.table_id, guest("Salon"))
    # The draw is random: make it fall on the ended table's code, as it will once
    # enough codes have been used.
    drawn = iter([first.code])
    monkeypatch.setattr(codes, "new_code", lambda: next(drawn))
    second = create_screen_table(guest("Séjour"), "drekki", 3)
    assert second.code == first.code
    first.refresh_from_db()
    assert first.code is None and find_room(second.code).pk == second.pk
    # The ended table's screen still shows its game, without a code to join.
    screen = Client()  # the screen's own browser: the table's creator
    session = screen.session
    session.update({"guest_name": "Salon", GUEST_ID_KEY: guest("Salon").guest_key})
    session.save()
    page = screen.get(reverse("living:screen", args=[first.table_id]))
    assert page.status_code == 200 and "data-join-code" not in page.content.decode()


def test_a_live_tables_code_is_not_drawn_again(monkeypatch):
    live = create_screen_table(guest("Salon"), "drekki", 3)
    drawn = iter([live.code, "ACDEF" if live.code != "ACDEF" else "HJKMN"])
    monkeypatch.setattr(codes, "new_code", lambda: next(drawn))
    other = create_screen_table(guest("Séjour"), "drekki", 3)
    assert other.code != live.code and Room.objects.get(pk=live.pk).code == live.code
