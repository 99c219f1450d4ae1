"""The living room (games.living): join codes, the shared screen, phones joining
by the code and coming back to their seat, pass-and-play tables whose one socket
plays every seat (the `as` message), and the booked session's one-click table.

Through the real services, the real ASGI socket (WebsocketCommunicator) and
Django's test client; no mocks."""

from __future__ import annotations

import random
import re

import pytest
from channels.db import database_sync_to_async as db
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games import engines, services
from games.living import codes
from games.living.models import Room
from games.living.services import create_pass_table, create_screen_table, find_room, join_by_code
from games.models import Action, Seat, Table
from games.protocol import TableError
from ludo.guests import GUEST_ID_KEY
from tests.games.tables_helpers import Sock, guest, guest_session, move_connections, who_of  # noqa: F401

GAMES = [r.slug for r in engines.all()]


@pytest.fixture(autouse=True)
def french_and_a_clean_cache(settings):
    settings.LUDO_BOT_THINK_SECONDS = 0
    settings.LUDO_TABLE_POLL_SECONDS = 0
    cache.clear()
    with translation.override("fr"):
        yield
    cache.clear()


def named_client(name: str) -> Client:
    client = Client()
    session = client.session
    session["guest_name"] = name
    session.save()
    return client


# -- codes ---------------------------------------------------------------------------------------

def test_codes_are_short_letters_without_look_alikes():
    assert not set(codes.ALPHABET) & set("ILOQUVBSZG0123456789")
    drawn = {codes.new_code() for _ in range(200)}
    assert all(codes.is_well_formed(c) and len(c) == 5 for c in drawn)
    assert len(drawn) > 190
    assert codes.normalise(" ac-df h ") == "ACDFH"
    assert not codes.is_well_formed("ACDF") and not codes.is_well_formed("ACDFI")


# -- the shared screen and the phones -------------------------------------------------------------

@pytest.mark.django_db
def test_a_screen_table_is_hosted_by_the_screen_without_a_seat_and_phones_take_seats_by_code():
    screen = guest("Salon")
    room = create_screen_table(screen, "drekki", 3, {2: "easy"})
    table = room.table
    assert room.mode == "screen" and codes.is_well_formed(room.code)
    assert services.open_table(table.pk, screen)[1] is None  # the screen watches
    zoe, ben = guest("Zoé"), guest("Ben")
    assert join_by_code(room.code.lower(), zoe)[1] == 0
    assert join_by_code(room.code, ben)[1] == 1
    # A phone that comes back (same guest session) finds its seat; nothing is logged again.
    version = Table.objects.get(pk=table.pk).version
    assert join_by_code(room.code, zoe)[1] == 0
    assert Table.objects.get(pk=table.pk).version == version
    services.start_table(table.pk, screen)
    with pytest.raises(TableError) as refused:
        join_by_code(room.code, guest("Léa"))
    assert refused.value.code == "not_open"
    services.abort(table.pk, zoe)
    with pytest.raises(TableError) as gone:
        find_room(room.code)  # the code expires with its table
    assert gone.value.code == "not_found"


@pytest.mark.django_db
def test_the_pages_create_a_screen_table_show_its_code_and_seat_two_phones(client):
    screen = named_client("Salon")
    response = screen.post(reverse("living:new"), {"mode": "screen", "game": "drekki", "seats": "3",
                                                    "seat-0": "person", "seat-1": "person", "seat-2": "medium"})
    assert response.status_code == 302
    table = Table.objects.latest("pk")
    room = Room.objects.get(table=table)
    assert response["Location"] == reverse("living:screen", args=[table.pk])
    assert response["Location"].startswith("/jouer/table/") and response["Location"].endswith("/ecran/")
    page = screen.get(response["Location"]).content.decode()
    assert room.code in page and 'src="data:image/svg+xml' in page and "data-screen" in page
    assert [s.bot_level for s in table.seats.order_by("index")] == ["", "", "medium"]

    phone = Client()
    form = phone.get(f"/salon/{room.code.lower()}/")
    assert form.status_code == 200 and "join-name" in form.content.decode()
    joined = phone.post(f"/salon/{room.code}/", {"name": "  Zoé  "})
    assert joined.status_code == 302
    assert joined["Location"] == reverse("games:table", args=[table.pk]) + f"?invite={table.invite_token}"
    assert table.private and not services.lobby_tables()  # the code is the invitation
    seat = Seat.objects.get(table=table, index=0)
    assert seat.name == "Zoé" and seat.guest_key == phone.session[GUEST_ID_KEY]  # its own identity
    assert seat.guest_key.startswith("g:") and seat.guest_key != phone.session.session_key
    # Back on the code later: straight to the seat.
    again = phone.get(f"/salon/{room.code}/")
    assert again.status_code == 302 and again["Location"] == joined["Location"]
    other = Client()
    assert other.post(f"/salon/{room.code}/", {"name": ""}).status_code == 400  # a name is needed
    assert other.post(f"/salon/{room.code}/", {"name": "L'Hôte"}).status_code == 400  # the house's name
    assert Seat.objects.get(table=table, index=1).is_empty
    assert other.post(f"/salon/{room.code}/", {"name": "Ben"}).status_code == 302
    assert Seat.objects.get(table=table, index=1).name == "Ben"
    # The table page of a screen table links to its screen.
    assert reverse("living:screen", args=[table.pk]) in phone.get(joined["Location"]).content.decode()
    assert Client().get(reverse("living:screen", args=[table.pk])).status_code == 403  # not without the code
    # English paths too; the lobby leads here.
    assert Client().get(f"/en/living-room/{room.code}/").status_code == 200
    lobby = Client().get(reverse("games:play")).content.decode()
    assert reverse("living:new") in lobby and reverse("living:join") in lobby


@pytest.mark.django_db
def test_code_guessing_is_limited_per_address_and_bad_codes_change_nothing():
    room = create_screen_table(guest("Salon"), "quatre-en-ligne")
    prober = Client(REMOTE_ADDR="203.0.113.9")
    for _ in range(codes.TRIES):
        assert prober.get("/salon/AAAAA/").status_code == 404
    limited = prober.get(f"/salon/{room.code}/")  # even the right code, now
    assert limited.status_code == 429 and int(limited["Retry-After"]) > 0
    assert prober.post(f"/salon/{room.code}/", {"name": "Max"}).status_code == 429
    assert all(s.is_empty for s in room.table.seats.all())
    # Another address is not affected.
    assert Client(REMOTE_ADDR="203.0.113.10").get(f"/salon/{room.code}/").status_code == 200
    # A phone spends one lookup on its code: its name form and its returns are not counted.
    phone = Client(REMOTE_ADDR="203.0.113.11")
    for _ in range(codes.TRIES - 1):
        assert phone.get("/salon/AAAAA/").status_code == 404
    assert phone.get(f"/salon/{room.code}/").status_code == 200  # the last lookup allowed
    assert phone.post(f"/salon/{room.code}/", {"name": "Max"}).status_code == 302
    assert phone.get(f"/salon/{room.code}/").status_code == 302  # back to its seat
    assert phone.get("/salon/AAAAA/").status_code == 429  # a new code is counted again
    # The typed-code form leads to the code's page.
    typed = Client().post("/salon/", {"code": f" {room.code.lower()} "})
    assert typed.status_code == 302 and typed["Location"].endswith(f"/salon/{room.code}/")


# -- pass-and-play --------------------------------------------------------------------------------

@pytest.mark.django_db
def test_pass_and_play_seats_every_name_on_one_device_and_starts():
    zoe = guest("Zoé")
    room = create_pass_table(zoe, "drekki", ["Zoé", "Ben", None], "easy")
    table = Table.objects.get(pk=room.table_id)
    seats = list(table.seats.order_by("index"))
    assert table.status == "running" and room.mode == "pass"
    assert [s.name for s in seats[:2]] == ["Zoé", "Ben"] and seats[2].is_bot
    assert all(s.guest_key == zoe.guest_key for s in seats[:2])
    with pytest.raises(TableError):
        create_pass_table(zoe, "drumlin", ["  ", "Ben"])
    with pytest.raises(TableError):
        create_pass_table(zoe, "drumlin", [None, None])
    assert Table.objects.count() == 1


@pytest.mark.django_db
def test_the_new_table_form_makes_a_pass_and_play_table_and_its_page_says_so():
    zoe = named_client("Zoé")
    response = zoe.post(reverse("living:new"), {"mode": "pass", "game": "rampants-sauteurs", "seats": "2",
                                                "seat-0": "person", "name-0": "Zoé",
                                                "seat-1": "person", "name-1": "Ben"})
    table = Table.objects.latest("pk")
    assert response["Location"] == reverse("games:table", args=[table.pk])
    assert 'data-pass-play="1"' in zoe.get(response["Location"]).content.decode()
    bad = zoe.post(reverse("living:new"), {"mode": "pass", "game": "drumlin", "seats": "9"})
    assert bad.status_code == 400 and Table.objects.count() == 1


def _eager(rules, state, seat, rng):
    moves = rules.legal_moves(state, seat)
    return rng.choice(moves[:3])


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("slug", GAMES)
async def test_one_socket_plays_every_seat_and_only_ever_gets_the_seat_it_is_as(slug):
    rules = engines.get(slug)
    key = await db(guest_session)("Zoé")
    zoe = await db(who_of)(key)
    names = ["Zoé", "Ben"]  # no bot: no worker runs here to play it
    room = await db(create_pass_table)(zoe, slug, names, "easy")
    sock = await Sock(f"/ws/tables/{room.table_id}/", key).connect()
    await sock.send(t="hello", id="h", **{"as": -1})
    frame = await sock.until("state")
    assert frame["seat"] is None and frame["hands"] == [0, 1] and frame["legal"] == []
    # A seat not held: refused, nothing changes.
    await sock.send(t="as", seat=5, id="x")
    refused = await sock.answer()
    assert refused["t"] == "error" and refused["code"] in ("not_your_seat", "bad_seat") and refused["id"] == "x"
    rng = random.Random(7)
    seen_seats = set()
    for step in range(40):
        table = await db(Table.objects.get)(pk=room.table_id)
        if table.status != "running":
            break
        state = rules.load(table.state)
        acting = [s for s in rules.to_act(state) if s in (0, 1)]
        if not acting:
            await sock.until("update")
            continue
        seat = acting[0]
        await sock.send(t="as", seat=seat, id=f"a{step}")
        frame = await sock.until("state", id=f"a{step}")
        assert frame["seat"] == seat and frame["full"] is True
        assert frame["view"] == rules.view(state, seat)  # its own view, nothing else
        assert frame["legal"] == rules.legal_moves(state, seat)
        seen_seats.add(seat)
        if acting[1:]:
            # The other hand may not play through this socket while it is `as` this one.
            other = acting[1]
            await sock.send(t="move", move=rules.legal_moves(state, other)[0], v=table.version, seat=other, id="o")
            assert (await sock.answer())["code"] == "not_your_seat"
        move = _eager(rules, state, seat, rng)
        await sock.send(t="move", move=move, v=table.version, id=f"m{step}")
        ack = await sock.answer()
        assert ack["t"] in ("ack", "error"), ack
        if ack["t"] == "error":
            assert ack["code"] == "stale_version"  # a bot moved meanwhile
    assert seen_seats == {0, 1}
    # Every view this socket received was the view of the seat it was `as` at that version.
    for got in sock.frames:
        if got.get("t") in ("state", "update") and got.get("view") is not None:
            assert got["hands"] == [0, 1]
            for event in got.get("events") or ():
                if "move" in event:
                    assert event["seat"] == got["seat"]
    await sock.close()


@pytest.mark.django_db(transaction=True)
async def test_secret_says_when_a_turn_must_be_hidden_and_hello_keeps_the_seat():
    key = await db(guest_session)("Zoé")
    zoe = await db(who_of)(key)
    room = await db(create_pass_table)(zoe, "rampants-sauteurs", ["Zoé", "Ben"])
    sock = await Sock(f"/ws/tables/{room.table_id}/", key).connect()
    await sock.send(t="hello", **{"as": 0})
    frame = await sock.until("state")
    assert frame["seat"] == 0 and frame["secret"] == [0, 1]  # both lay out at once, face down
    layout = frame["legal"][0]
    await sock.send(t="move", move=layout, v=frame["v"], id="m")
    assert (await sock.answer())["t"] == "ack"
    update = await sock.until("update")
    assert update["seat"] == 0 and update["to_act"] == [1] and update["secret"] == [0, 1]
    await sock.send(t="as", seat=1, id="b")
    ben = await sock.until("state", id="b")
    assert ben["seat"] == 1
    assert update["view"]["setup"][0]["layout"] == layout  # Zoé sees her layout...
    assert ben["view"]["setup"][0] == {"seat": 0, "chosen": True, "layout": None}  # ...Ben does not
    assert "???" in ben["view"]["position"] and ben["events"] is None
    await sock.send(t="move", move=ben["legal"][0], v=ben["v"], id="m2")
    assert (await sock.answer())["t"] == "ack"
    after = await sock.until("update")
    assert after["secret"] == []  # both layouts are out: nothing hidden any more
    await sock.close()
    # A new socket that says `as` in its hello gets that seat at once.
    again = await Sock(f"/ws/tables/{room.table_id}/", key).connect()
    await again.send(t="hello", **{"as": 1})
    assert (await again.until("state"))["seat"] == 1
    await again.send(t="hello", **{"as": 7})
    await again.close()
    intruder_key = await db(guest_session)("Max")
    intruder = await Sock(f"/ws/tables/{room.table_id}/", intruder_key).connect()
    await intruder.send(t="hello", id="h", **{"as": 0})
    refused = await intruder.answer()
    assert refused["t"] == "error" and refused["code"] == "not_your_seat"
    await intruder.close()


# -- the booked session ---------------------------------------------------------------------------

@pytest.mark.django_db
def test_the_session_page_opens_a_living_room_table_for_the_people_booked_in_one_click():
    from datetime import timedelta

    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Permission
    from django.utils import timezone

    from catalog.collection.models import Game
    from games.bookings.models import Booking, Session

    host = get_user_model().objects.create_user("hote", password="x", is_staff=True)
    host.user_permissions.add(Permission.objects.get(codename="change_session", content_type__app_label="bookings"))
    game = Game.objects.create(title="Drekki", engine_slug="drekki", min_players=2, max_players=6)
    start = timezone.now() + timedelta(hours=2)
    session = Session.objects.create(title="Soirée", starts_at=start, ends_at=start + timedelta(hours=3),
                                     capacity=8, remind_at=start - timedelta(hours=24))
    session.games.add(game)
    for name in ("Zoé", "Ben", "Léa"):
        Booking.objects.create(session=session, name=name, email=f"{name}@example.org".lower(), seats=1,
                               status=Booking.Status.CONFIRMED)
    client = Client()
    client.force_login(host)
    page = client.get(reverse("bookings:session", args=[session.pk])).content.decode()
    assert reverse("living:session", args=[session.pk]) in page
    response = client.post(reverse("living:session", args=[session.pk]))
    session.refresh_from_db()
    assert session.table is not None and session.table.seat_count == 3
    room = Room.objects.get(table=session.table)
    assert response["Location"] == reverse("living:screen", args=[session.table_id])
    screen = client.get(response["Location"]).content.decode()
    assert room.code in screen
    # A second click shows the same table.
    assert client.post(reverse("living:session", args=[session.pk]))["Location"] == response["Location"]
    assert Room.objects.count() == 1
    # Phones of the people booked join the private table by its code.
    phone = named_client("Zoé")
    joined = phone.post(f"/salon/{room.code}/", {"name": "Zoé"})
    assert re.search(r"\?invite=", joined["Location"])
    # Nobody else may open it.
    assert Client().post(reverse("living:session", args=[session.pk])).status_code == 403
    assert Action.objects.filter(table=session.table, kind="join").count() == 1
