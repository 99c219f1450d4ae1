"""Berserk at an arena table: half the player's own clock, one point more for
a win; only before their first move, once, in an arena with a bank of time,
and only for the player themselves."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games import engines
from games import services as tables
from games.models import Seat
from tests.tournaments.helpers import guests, host, tournament_with, who_of
from tournaments import history, jobs, services
from tournaments.errors import TournamentError
from tournaments.models import PairingSeat

pytestmark = pytest.mark.django_db

BANK = {"kind": "game", "base": 300, "increment": 2}


def refused(code, call, *args):
    with pytest.raises(TournamentError) as info:
        call(*args)
    assert info.value.code == code


def arena(alice, people, **options):
    options.setdefault("clock", BANK)
    t = tournament_with(alice, people, format="arena", duration=10, **options)
    services.start(t.pk, host(alice))
    return t


def test_berserk_halves_the_clock_once_before_the_first_move_and_wins_one_more_point(alice):
    people = guests(2)
    t = arena(alice, people)
    pair = list(PairingSeat.objects.filter(round__tournament=t).select_related("pairing", "entrant").order_by("seat"))
    table = pair[0].pairing.table
    rules = engines.get(table.game)
    mover = rules.to_act(rules.load(table.state))[0]  # the engine draws who starts
    waiting = 1 - mover
    # The player who moves second goes berserk (table seats follow the pairing's seats).
    berserker, other = who_of(pair[waiting], people), who_of(pair[mover], people)
    t.refresh_from_db()
    assert services.current_table(t, berserker)["berserk"] == "allowed"
    services.berserk(t.pk, berserker)
    seat = Seat.objects.get(table=table, index=waiting)
    assert seat.clock_ms == 150_000
    assert Seat.objects.get(table=table, index=mover).clock_ms == 300_000
    refused("already_berserk", services.berserk, t.pk, berserker)
    t.refresh_from_db()
    assert services.current_table(t, berserker)["berserk"] == "done"
    # The first mover plays: now too late for them.
    table.refresh_from_db()
    state = rules.load(table.state)
    tables.play_move(table.pk, other, rules.legal_moves(state, mover)[0], table.version)
    refused("game_started", services.berserk, t.pk, other)
    assert "berserk" not in services.current_table(t, other)
    tables.resign(table.pk, other)
    jobs.run()
    t.refresh_from_db()
    scores = {r.entrant.name: r.score for r in history.standings(t)}
    assert scores == {berserker.name: 3, other.name: 0}


def test_berserk_is_refused_outside_an_arena_with_a_bank_and_to_strangers(alice):
    people = guests(2)
    swiss = tournament_with(alice, people, clock=BANK, name="Suisse")
    services.start(swiss.pk, host(alice))
    refused("not_arena", services.berserk, swiss.pk, people[0])
    no_bank = arena(alice, guests(4)[2:], name="Sans pendule", clock=None)
    refused("no_bank", services.berserk, no_bank.pk, guests(4)[2])
    t = arena(alice, guests(6)[4:], name="Arène")
    refused("not_entered", services.berserk, t.pk, people[0])
    refused("not_found", services.berserk, 999_999, people[0])
    assert not PairingSeat.objects.filter(berserk=True).exists()
    # Through the page's endpoint: a stranger's press is a clear refusal, nothing changes.
    answer = Client().post(reverse("tournaments:berserk", args=[t.pk]))
    assert answer.status_code == 409 and answer.json()["error"] == "not_entered"
    assert Client().get(reverse("tournaments:berserk", args=[t.pk])).status_code == 405
    assert not PairingSeat.objects.filter(berserk=True).exists()
    assert set(Seat.objects.filter(table__tournament_pairing__round__tournament=t)
               .values_list("clock_ms", flat=True)) == {300_000}
