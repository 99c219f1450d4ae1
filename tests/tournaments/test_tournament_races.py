"""Races on a tournament, from real threads with their own connections: two
hosts pressing "next round" at once make one round; one person joining
twice at once gets one entry; the worker recording a result while a host
adjudicates it keeps one result."""

from __future__ import annotations

import pytest

from games import services as tables
from tests.races import race
from tests.tournaments.helpers import guests, host, play_round, seats_of_round, tournament_with, who_of
from tournaments import services
from tournaments.errors import TournamentError
from tournaments.models import Entrant, Pairing, PairingSeat, Round

pytestmark = pytest.mark.django_db(transaction=True)


def test_hosts_pressing_next_round_at_once_make_one_round(alice):
    people = guests(4)
    t = tournament_with(alice, people, round_pause=600)
    services.start(t.pk, host(alice))
    play_round(t, people)
    results = race([lambda: services.next_round(t.pk, host(alice), 1)] * 4, TournamentError)
    assert sorted(r[0] for r in results) == ["ok", "refused", "refused", "refused"]
    assert {r[1] for r in results if r[0] == "refused"} == {"already_paired"}
    assert Round.objects.filter(tournament=t).count() == 2
    assert PairingSeat.objects.filter(round__tournament=t, round__number=2).count() == 4


def test_one_person_joining_twice_at_once_gets_one_entry(alice):
    t = tournament_with(alice, [])
    who = guests(1)[0]
    results = race([lambda: services.join(t.pk, who)] * 3, TournamentError)
    assert sorted(r[0] for r in results) == ["ok", "refused", "refused"]
    assert Entrant.objects.filter(tournament=t).count() == 1


def test_a_result_recorded_while_a_host_adjudicates_stays_one(alice):
    people = guests(2)
    t = tournament_with(alice, people, rounds=2, round_pause=600)
    services.start(t.pk, host(alice))
    seat = seats_of_round(t, 1)[0]
    tables.resign(seat.pairing.table_id, who_of(seat, people))
    results = race([lambda: services.record_result(seat.pairing_id),
                    lambda: services.adjudicate(t.pk, host(alice), seat.pairing_id, [0.5, 0.5])],
                   TournamentError)
    assert all(r[0] == "ok" for r in results)
    points = sorted(PairingSeat.objects.filter(pairing=seat.pairing).values_list("points", flat=True))
    # Whichever came last wins, whole: never one seat from each.
    assert points in ([0.0, 1.0], [0.5, 0.5])
    assert Pairing.objects.get(pk=seat.pairing_id).recorded_at is not None
