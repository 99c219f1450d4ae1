"""Races: moves for the same version arriving at once, from real threads with
their own database connections. Exactly one is accepted; the others are told
the table moved on. On PostgreSQL the table row lock decides; on SQLite the
write lock (BEGIN IMMEDIATE) serialises the transactions."""

from __future__ import annotations

import pytest
from django.db import connection

from games import engines, services
from games.models import Action, Table
from tests.games.tables_helpers import guest, race

pytestmark = pytest.mark.django_db(transaction=True)

THREADS = 8


def started(slug: str, count: int):
    people = [guest(f"P{i}") for i in range(count)]
    table = services.create_table(people[0], slug, count)
    for who in people[1:]:
        services.join_table(table.pk, who)
    services.start_table(table.pk, people[0])
    return Table.objects.get(pk=table.pk), people


def test_one_seat_sending_many_moves_for_one_version_gets_exactly_one_in():
    table, people = started("eclaircissement", 2)
    rules = engines.get(table.game)
    state = rules.load(table.state)
    seat = rules.to_act(state)[0]
    moves = rules.legal_moves(state, seat)
    calls = [
        (lambda m=moves[i % len(moves)]: services.play_move(table.pk, people[seat], m, table.version))
        for i in range(THREADS)
    ]
    results = race(calls)
    assert sorted(r[0] for r in results) == ["ok"] + ["refused"] * (THREADS - 1), results
    assert all(r == ("refused", "stale_version") for r in results if r[0] == "refused")
    table.refresh_from_db()
    assert table.version == 4 and Action.objects.filter(table=table).count() == 4


def test_simultaneous_choices_for_one_version_are_not_both_taken():
    # Drekki's card phase: every seat may act at the same version.
    table, people = started("drekki", 4)
    rules = engines.get("drekki")
    state = rules.load(table.state)
    assert len(rules.to_act(state)) == 4
    calls = [
        (lambda s=s: services.play_move(table.pk, people[s], rules.legal_moves(state, s)[0], table.version))
        for s in rules.to_act(state)
    ] * 2
    results = race(calls)
    assert [r[0] for r in results].count("ok") == 1, results
    assert {r for r in results if r[0] != "ok"} == {("refused", "stale_version")}
    table.refresh_from_db()
    assert table.version == 6  # create, three joins, start, one move
    assert Action.objects.filter(table=table, kind="move").count() == 1


def test_a_move_racing_a_resignation_leaves_one_consistent_table():
    table, people = started("eclaircissement", 2)
    rules = engines.get(table.game)
    state = rules.load(table.state)
    seat = rules.to_act(state)[0]
    move = rules.legal_moves(state, seat)[0]
    results = race([
        lambda: services.play_move(table.pk, people[seat], move, table.version),
        lambda: services.resign(table.pk, people[1 - seat]),
    ])
    assert ("ok", None) in results  # the resignation always goes through
    table.refresh_from_db()
    assert table.status == "finished" and table.outcome["reason"] == "resign"
    kinds = list(Action.objects.filter(table=table).order_by("version").values_list("kind", flat=True))
    assert kinds[-1] == "resign" and len(kinds) == table.version
    assert connection.vendor in ("postgresql", "sqlite")
