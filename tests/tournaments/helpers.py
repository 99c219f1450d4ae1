"""Tournaments in tests: hosts, guests, and games ended by a resignation."""

from __future__ import annotations

from games import services as tables
from games.models import Table
from games.services.who import Who
from tests.games.tables_helpers import guest
from tournaments import jobs, services
from tournaments.models import PairingSeat, Tournament


def host(user) -> Who:
    return Who(user_id=user.pk, name=user.username, is_staff=True)


def guests(n: int) -> list[Who]:
    return [guest(f"Joueur{i}") for i in range(1, n + 1)]


def tournament_with(alice, people, **options) -> Tournament:
    options.setdefault("name", "Soirée")
    options.setdefault("game", "quatre-en-ligne")
    options.setdefault("round_pause", 0)
    t = services.create_tournament(host(alice), **options)
    for who in people:
        services.join(t.pk, who)
    return t


def seats_of_round(t: Tournament, number: int) -> list[PairingSeat]:
    return list(PairingSeat.objects.filter(round__tournament=t, round__number=number)
                .select_related("pairing", "entrant").order_by("pairing__board", "seat"))


def who_of(seat: PairingSeat, people: list[Who]) -> Who:
    return next(w for w in people if w.guest_key == seat.entrant.guest_key)


def play_round(t: Tournament, people: list[Who], loser_seat=lambda pairing: 1) -> None:
    """End every table of the current round: the seat ``loser_seat`` chooses resigns;
    then the worker records the results (and pairs the next round: no pause)."""
    t.refresh_from_db()
    by_pairing: dict[int, list[PairingSeat]] = {}
    for s in seats_of_round(t, t.current_round):
        by_pairing.setdefault(s.pairing_id, []).append(s)
    for seats in by_pairing.values():
        pairing = seats[0].pairing
        if pairing.bye or pairing.table.status != Table.Status.RUNNING:
            continue
        loser = seats[loser_seat(pairing)]
        tables.resign(pairing.table_id, who_of(loser, people))
        assert Table.objects.get(pk=pairing.table_id).status == Table.Status.FINISHED
    jobs.run()
    t.refresh_from_db()
