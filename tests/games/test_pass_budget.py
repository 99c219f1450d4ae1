"""Pass-and-play tables go by the table budget like any other table: the living
room's new-table form counts against the ``table-create`` rate limit (per person
and per address), a person's live pass-and-play tables count toward the
open-tables cap (LUDO_MAX_OPEN_TABLES), the cap holds under parallel creations
(PostgreSQL too), and creating one does not make another table's action wait
for the database (SQLite's lock order).

As an attacker: one guest, then many guests from one address, asking for
pass-and-play tables full of hard bots as fast as they can; ten creations at
the same moment. Real services, real threads with their own connections,
Django's test client; no mocks."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection, connections
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import services
from games.living.services import create_pass_table, create_screen_table
from games.models import Table
from games.protocol import TableError
from games.services.living import AsSeat
from tests.games.tables_helpers import guest, race

FIVE_BOTS = {"mode": "pass", "game": "drekki", "seats": "6", "seat-0": "person", "name-0": "Zoé",
             **{f"seat-{i}": "hard" for i in range(1, 6)}}


@pytest.fixture(autouse=True)
def no_bot_delay(settings):
    settings.LUDO_BOT_THINK_SECONDS = 0
    settings.LUDO_TABLE_POLL_SECONDS = 0


def named_client(name: str, address: str = "203.0.113.20") -> Client:
    client = Client(REMOTE_ADDR=address)
    session = client.session
    session["guest_name"] = name
    session.save()
    return client


# -- the rate limit ---------------------------------------------------------------------------------

@pytest.mark.django_db
def test_the_living_room_form_counts_against_the_table_create_budget_of_a_person(settings):
    settings.LUDO_MAX_OPEN_TABLES = 100  # the rate limit alone here
    zoe = named_client("Zoé")
    for _ in range(10):
        assert zoe.post(reverse("living:new"), FIVE_BOTS).status_code == 302
    refused = zoe.post(reverse("living:new"), FIVE_BOTS)
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    screen = zoe.post(reverse("living:new"), {"mode": "screen", "game": "drekki", "seats": "3"})
    assert screen.status_code == 429  # a screen table is a table too
    assert Table.objects.count() == 10
    # The lobby's form shares the budget: it is spent.
    assert zoe.post(reverse("games:create"), {"game": "drekki"}).status_code == 429


@pytest.mark.django_db
def test_many_guests_from_one_address_share_its_table_create_budget(settings):
    settings.LUDO_MAX_OPEN_TABLES = 100
    answers = [named_client(f"Guest {i}", "198.51.100.7").post(reverse("living:new"), FIVE_BOTS).status_code
               for i in range(21)]
    assert answers == [302] * 20 + [429]
    assert Table.objects.count() == 20
    # Another address is not affected.
    assert named_client("Léa", "198.51.100.8").post(reverse("living:new"), FIVE_BOTS).status_code == 302


# -- the open-tables cap ----------------------------------------------------------------------------

@pytest.mark.django_db
def test_live_pass_and_play_tables_count_toward_the_open_tables_cap():
    zoe = guest("Zoé")
    rooms = [create_pass_table(zoe, "drekki", ["Zoé", None, None, None, None, None], "hard") for _ in range(3)]
    assert all(Table.objects.get(pk=r.table_id).status == "running" for r in rooms)
    for attempt in (lambda: create_pass_table(zoe, "drekki", ["Zoé", None], "hard"),
                    lambda: services.create_table(zoe, "drekki", 4),
                    lambda: create_screen_table(zoe, "drekki", 3)):
        with pytest.raises(TableError) as refused:
            attempt()
        assert refused.value.code == "too_many_tables" and refused.value.data == {"max": 3}
    assert Table.objects.count() == 3
    # Ending one (here: resigning at a two-seat table) gives its place back.
    two = create_pass_table(guest("Ben"), "quatre-en-ligne", ["Ben", "Léa"])
    services.resign(two.table_id, AsSeat.of(guest("Ben"), 0))
    Table.objects.filter(pk=rooms[0].table_id).update(status=Table.Status.FINISHED)
    create_pass_table(zoe, "drekki", ["Zoé", None], "hard")
    # A table nobody has played at for hours no longer counts (its bots wait for a move).
    Table.objects.filter(pk=rooms[1].table_id).update(updated_at=timezone.now() - timedelta(hours=7))
    create_pass_table(zoe, "drekki", ["Zoé", None], "hard")
    with pytest.raises(TableError):
        create_pass_table(zoe, "drekki", ["Zoé", None], "hard")


@pytest.mark.django_db
def test_the_form_says_too_many_tables_and_creates_nothing():
    zoe = named_client("Zoé")
    for _ in range(3):
        assert zoe.post(reverse("living:new"), FIVE_BOTS).status_code == 302
    fourth = zoe.post(reverse("living:new"), FIVE_BOTS)
    assert fourth.status_code == 400 and Table.objects.count() == 3
    assert "tables" in fourth.content.decode()


@pytest.mark.django_db(transaction=True)
def test_parallel_creations_by_one_person_leave_exactly_the_cap_open():
    max_ = guest("Max")
    results = race([lambda: services.create_table(max_, "drekki", 4) for _ in range(10)])
    assert sorted(r[0] for r in results) == ["ok"] * 3 + ["refused"] * 7, results
    assert {r[1] for r in results if r[0] == "refused"} == {"too_many_tables"}
    assert Table.objects.filter(status="open", creator_key=max_.guest_key).count() == 3


@pytest.mark.django_db(transaction=True)
def test_parallel_pass_and_play_creations_leave_exactly_the_cap_in_play():
    zoe = guest("Zoé")
    results = race([lambda: create_pass_table(zoe, "drekki", ["Zoé", None, None, None], "hard") for _ in range(10)])
    assert sorted(r[0] for r in results) == ["ok"] * 3 + ["refused"] * 7, results
    assert Table.objects.filter(status="running", pass_and_play=True, creator_key=zoe.guest_key).count() == 3
    assert Table.objects.count() == 3


# -- SQLite's lock order ----------------------------------------------------------------------------

@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("make", [
    lambda who: create_pass_table(who, "drekki", ["Zoé", "Ben", None], "easy"),
    lambda who: create_screen_table(who, "drekki", 3, {2: "easy"}),
], ids=["pass-and-play", "screen"])
def test_another_tables_action_goes_through_while_a_living_room_table_is_created(make):
    # The creation stops inside its transaction (just after it began) until the other
    # action has sent its first statement, or for two seconds if that action waits its
    # turn first, as it must. Taken the wrong way round, the creation held the database
    # while the other action held the process's writer turn: that one failed
    # ("database is locked", after 20 s on a file database).
    other = services.create_table(guest("Léa"), "drekki", 4)
    begun, other_ran = threading.Event(), threading.Event()
    results: dict = {}

    def pause_once_inside(execute, sql, params, many, context):
        result = execute(sql, params, many, context)
        if not begun.is_set() and (sql.startswith("BEGIN") or context["connection"].in_atomic_block):
            begun.set()
            other_ran.wait(2)
        return result

    def note_first(execute, sql, params, many, context):
        other_ran.set()
        return execute(sql, params, many, context)

    def create():
        try:
            with connection.execute_wrapper(pause_once_inside):
                results["create"] = make(guest("Zoé"))
        except Exception as exc:
            results["create"] = exc
        finally:
            connections.close_all()

    def sit():
        begun.wait(30)
        try:
            with connection.execute_wrapper(note_first):
                results["sit"] = services.join_table(other.pk, guest("Max"))
        except Exception as exc:
            results["sit"] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=create), threading.Thread(target=sit)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert begun.is_set()
    assert results["sit"] == 1, results
    assert not isinstance(results["create"], Exception), results
    assert Table.objects.get(pk=results["create"].table_id).status in ("open", "running")
