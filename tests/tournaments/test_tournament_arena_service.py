"""The arena in the database: whoever finishes is paired again at once with
someone free, two players alone who just met wait for the rematch delay,
scoring with streaks, the end after its time."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from games import services as tables
from games.models import Table
from tests.tournaments.helpers import guests, host, tournament_with, who_of
from tournaments import history, jobs, services
from tournaments.errors import TournamentError
from tournaments.models import PairingSeat, Tournament
from tournaments.services.arena import REMATCH_AFTER

pytestmark = pytest.mark.django_db


def arena(alice, people, minutes=10):
    return tournament_with(alice, people, format=Tournament.Format.ARENA, duration=minutes)


def running_seats(t):
    return list(PairingSeat.objects.filter(round__tournament=t, pairing__recorded_at__isnull=True)
                .select_related("pairing", "entrant"))


def test_an_arena_needs_a_duration(alice):
    with pytest.raises(TournamentError) as info:
        services.create_tournament(host(alice), name="Arène", game="drumlin", format="arena", duration=0)
    assert info.value.code == "bad_duration"
    with pytest.raises(TournamentError):
        services.create_tournament(host(alice), name="Arène", game="drekki", format="arena", duration=5,
                                   table_size=4)


def test_finished_players_are_paired_again_at_once(alice):
    people = guests(6)
    t = arena(alice, people)
    services.start(t.pk, host(alice))
    t.refresh_from_db()
    assert t.ends_at is not None and len(running_seats(t)) == 6  # three tables at once
    rng = random.Random(5)
    for _ in range(12):
        seats = running_seats(t)
        by_table: dict[int, list] = {}
        for s in seats:
            by_table.setdefault(s.pairing.table_id, []).append(s)
        table, pair = rng.choice(sorted(by_table.items()))
        tables.resign(table, who_of(rng.choice(pair), people))
        jobs.run()
        free = {e.pk for e in t.entrants.all()} - {s.entrant_id for s in running_seats(t)}
        # At most the two who just met wait (no immediate rematch while others play).
        assert len(free) in (0, 2)
        if free:
            assert free == {s.entrant_id for s in pair}
            # After the rematch delay they meet again rather than wait on.
            later = timezone.now() + timedelta(seconds=REMATCH_AFTER + 1)
            assert services.pair_arena(t.pk, later) == 1
    assert Table.objects.filter(tournament_pairing__round__tournament=t, status=Table.Status.RUNNING).count() == 3


def test_streaks_double_the_points_and_the_arena_ends_after_its_time(alice):
    people = guests(2)
    t = arena(alice, people)
    services.start(t.pk, host(alice))
    winner = people[0]
    for _ in range(3):  # the same player wins three in a row: 2 + 2 + 4
        (seat,) = [s for s in running_seats(t) if s.entrant.guest_key != winner.guest_key]
        tables.resign(seat.pairing.table_id, who_of(seat, people))
        jobs.run()
        services.pair_arena(t.pk, timezone.now() + timedelta(seconds=REMATCH_AFTER + 1))
    t.refresh_from_db()
    rows = history.standings(t)
    assert [(r.entrant.name, r.score) for r in rows] == [(winner.name, 8), (people[1].name, 0)]
    assert rows[0].performance == 1500 + 500 and rows[1].performance == 1500 - 500
    Tournament.objects.filter(pk=t.pk).update(ends_at=timezone.now() - timedelta(seconds=1))
    jobs.run()
    assert Tournament.objects.get(pk=t.pk).status == Tournament.Status.RUNNING  # a game is still on
    (seat, _other) = running_seats(t)
    tables.resign(seat.pairing.table_id, who_of(seat, people))
    jobs.run()
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED and not running_seats(t)


def test_hosts_cannot_press_next_round_in_an_arena(alice):
    people = guests(2)
    t = arena(alice, people)
    services.start(t.pk, host(alice))
    with pytest.raises(TournamentError) as info:
        services.next_round(t.pk, host(alice))
    assert info.value.code == "bad_format"


def test_a_phone_follows_its_latest_arena_game(alice):
    people = guests(2)
    t = arena(alice, people)
    services.start(t.pk, host(alice))
    t.refresh_from_db()
    first = services.current_table(t, people[0])["table"]
    seat = running_seats(t)[0]
    tables.resign(seat.pairing.table_id, who_of(seat, people))
    jobs.run()
    services.pair_arena(t.pk, timezone.now() + timedelta(seconds=REMATCH_AFTER + 1))
    t.refresh_from_db()
    again = services.current_table(t, people[0])
    assert again["table"] != first and not again["done"]
