"""The tournament service: create, join, start, rounds paired as tables end,
results recorded by the worker, the end; with the bad input of each."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import services as tables
from games.models import Table
from tests.tournaments.helpers import guests, host, play_round, seats_of_round, tournament_with, who_of
from tournaments import history, jobs, services
from tournaments.errors import TournamentError
from tournaments.models import Entrant, Pairing, PairingSeat, Round, Tournament

pytestmark = pytest.mark.django_db


def refused(code, call, *args, **kwargs):
    with pytest.raises(TournamentError) as info:
        call(*args, **kwargs)
    assert info.value.code == code


def test_only_hosts_create_and_bad_settings_are_refused(alice, bob):
    from tests.tournaments.helpers import Who

    player = Who(user_id=bob.pk, name="bob")
    refused("staff_only", services.create_tournament, player, name="Soirée", game="quatre-en-ligne")
    h = host(alice)
    refused("unknown_game", services.create_tournament, h, name="Soirée", game="chess")
    refused("bad_rounds", services.create_tournament, h, name="Soirée", game="drumlin", rounds=0)
    refused("bad_rounds", services.create_tournament, h, name="Soirée", game="drumlin", rounds=True)
    refused("bad_name", services.create_tournament, h, name="x", game="drumlin")
    refused("bad_format", services.create_tournament, h, name="Soirée", game="drumlin", format="knockout")
    refused("bad_table_size", services.create_tournament, h, name="Soirée", game="drumlin", table_size=4)
    refused("bad_table_size", services.create_tournament, h, name="Soirée", game="drekki", table_size=7)
    refused("bad_clock", services.create_tournament, h, name="Soirée", game="drumlin", clock={"kind": "x"})
    refused("bad_start", services.create_tournament, h, name="Soirée", game="drumlin",
            starts_at=timezone.now() - timedelta(minutes=1))
    assert not Tournament.objects.exists()
    t = services.create_tournament(h, name="Drekki", game="drekki", table_size=4)
    assert (t.min_table, t.max_table, len(t.code)) == (3, 6, 5)


def test_joining_once_before_the_start_only(alice, bob):
    people = guests(3)
    t = tournament_with(alice, people)
    refused("already_joined", services.join, t.pk, people[0])
    refused("name_required", services.join, t.pk, tables.Who(guest_key="g:nobody"))
    refused("not_found", services.join, 999999, people[0])
    services.start(t.pk, host(alice))
    late = guests(4)[3]
    refused("already_started", services.join, t.pk, late)
    assert t.entrants.count() == 3


def test_guests_are_refused_where_accounts_are_asked(alice, bob):
    t = tournament_with(alice, [], guests_allowed=False)
    refused("account_required", services.join, t.pk, guests(1)[0])
    services.join(t.pk, tables.Who(user_id=bob.pk, name="bob"))


def test_start_pairs_round_one_at_seated_started_tables(alice):
    people = guests(5)
    t = tournament_with(alice, people, rounds=3)
    refused("staff_only", services.start, t.pk, people[0])
    services.start(t.pk, host(alice))
    t.refresh_from_db()
    assert (t.status, t.current_round) == (Tournament.Status.RUNNING, 1)
    seats = seats_of_round(t, 1)
    assert sorted(s.entrant.name for s in seats) == sorted(w.name for w in people)
    games = [s for s in seats if not s.pairing.bye]
    byes = [s for s in seats if s.pairing.bye]
    assert len(games) == 4 and len(byes) == 1 and byes[0].points == 1.0
    assert byes[0].entrant.rank == 5  # the lowest pairing number gets the bye
    for s in games:
        table = s.pairing.table
        assert table.status == Table.Status.RUNNING and not table.rated
        seat = table.seats.get(index=s.seat)
        assert seat.guest_key == s.entrant.guest_key and seat.name == s.entrant.name


def test_a_three_round_swiss_runs_to_its_end(alice):
    people = guests(5)
    t = tournament_with(alice, people, rounds=3)
    services.start(t.pk, host(alice))
    for number in (1, 2, 3):
        t.refresh_from_db()
        assert t.current_round == number
        play_round(t, people)
    assert t.status == Tournament.Status.FINISHED and t.code is None
    assert Round.objects.filter(tournament=t).count() == 3
    assert not Pairing.objects.filter(round__tournament=t, recorded_at__isnull=True).exists()
    # Nobody met anyone twice; everyone had at most one bye.
    met = [frozenset(p.seats.values_list("entrant_id", flat=True))
           for p in Pairing.objects.filter(round__tournament=t, bye=False)]
    assert len(met) == len(set(met)) == 6
    byes = list(PairingSeat.objects.filter(round__tournament=t, pairing__bye=True).values_list("entrant_id", flat=True))
    assert len(byes) == len(set(byes)) == 3
    rows = history.standings(t)
    assert sum(r.score for r in rows) == 6 + 3  # six games, three byes
    assert [r.place for r in rows] == sorted(r.place for r in rows)


def test_two_hosts_pressing_next_round_make_one_round(alice):
    people = guests(4)
    t = tournament_with(alice, people, round_pause=600)
    services.start(t.pk, host(alice))
    refused("round_not_over", services.next_round, t.pk, host(alice), 1)
    play_round(t, people)
    assert t.current_round == 1 and t.next_round_at is not None  # waiting for the pause
    services.next_round(t.pk, host(alice), 1)
    refused("already_paired", services.next_round, t.pk, host(alice), 1)
    refused("staff_only", services.next_round, t.pk, people[0], 2)
    assert Round.objects.filter(tournament=t).count() == 2


def test_a_player_leaving_mid_round_loses_that_game_and_is_paired_no_more(alice):
    people = guests(4)
    t = tournament_with(alice, people, rounds=3)
    services.start(t.pk, host(alice))
    leaver = seats_of_round(t, 1)[0]
    services.leave(t.pk, who_of(leaver, people))
    table = Table.objects.get(pk=leaver.pairing.table_id)
    assert table.status == Table.Status.FINISHED
    jobs.run()
    points = dict(PairingSeat.objects.filter(pairing=leaver.pairing).values_list("entrant_id", "points"))
    assert points[leaver.entrant_id] == 0 and sorted(points.values()) == [0, 1]
    refused("not_entered", services.leave, t.pk, who_of(leaver, people))
    play_round(t, people)
    assert leaver.entrant_id not in [s.entrant_id for s in seats_of_round(t, 2)]
    assert len(seats_of_round(t, 2)) == 3  # two at a table, one bye


def test_a_paused_player_sits_out_and_comes_back(alice):
    people = guests(4)
    t = tournament_with(alice, people, rounds=3)
    services.start(t.pk, host(alice))
    resting = people[3]
    services.pause(t.pk, resting)
    play_round(t, people)
    assert resting.name not in [s.entrant.name for s in seats_of_round(t, 2)]
    services.resume(t.pk, resting)
    play_round(t, people)
    assert resting.name in [s.entrant.name for s in seats_of_round(t, 3)]


def test_results_are_recorded_once_whatever_runs_again(alice):
    people = guests(2)
    t = tournament_with(alice, people, rounds=2, round_pause=600)
    services.start(t.pk, host(alice))
    seat = seats_of_round(t, 1)[0]
    tables.resign(seat.pairing.table_id, who_of(seat, people))
    assert services.record_result(seat.pairing_id) is True
    version = Tournament.objects.get(pk=t.pk).version
    assert services.record_result(seat.pairing_id) is False
    jobs.run()
    assert Tournament.objects.get(pk=t.pk).version == version
    assert services.record_result(999999) is False


def test_a_bad_row_does_not_stop_the_other_tournaments(alice):
    people_a, people_b = guests(2), [tables.Who(guest_key=f"k{i}", name=f"B{i}") for i in range(2)]
    a = tournament_with(alice, people_a, rounds=2, round_pause=600)
    b = tournament_with(alice, people_b, rounds=2, round_pause=600)
    services.start(a.pk, host(alice))
    services.start(b.pk, host(alice))
    for t, people in ((a, people_a), (b, people_b)):
        seat = seats_of_round(t, 1)[0]
        tables.resign(seat.pairing.table_id, who_of(seat, people) if t is a else people_b[
            [w.guest_key for w in people_b].index(seat.entrant.guest_key)])
    bad = seats_of_round(a, 1)[0].pairing
    Table.objects.filter(pk=bad.table_id).update(outcome={"scores": ["x", None]})  # a damaged row
    jobs.run()
    assert Pairing.objects.get(pk=bad.pk).recorded_at is None
    good = seats_of_round(b, 1)[0].pairing
    assert Pairing.objects.get(pk=good.pk).recorded_at is not None
    from ludo.bulkheads.models import JobFailure
    assert JobFailure.objects.filter(job="tournaments.results", row=str(bad.pk)).exists()


def test_hosts_adjudicate_a_running_table(alice):
    people = guests(2)
    t = tournament_with(alice, people, rounds=1)
    services.start(t.pk, host(alice))
    pairing = seats_of_round(t, 1)[0].pairing
    refused("staff_only", services.adjudicate, t.pk, people[0], pairing.pk, [1, 0])
    refused("bad_result", services.adjudicate, t.pk, host(alice), pairing.pk, [1, 1])
    refused("bad_result", services.adjudicate, t.pk, host(alice), pairing.pk, [1])
    refused("bad_result", services.adjudicate, t.pk, host(alice), pairing.pk, ["x", 0])
    refused("bad_pairing", services.adjudicate, t.pk, host(alice), 999999, [1, 0])
    assert Pairing.objects.get(pk=pairing.pk).recorded_at is None
    services.adjudicate(t.pk, host(alice), pairing.pk, [0.5, 0.5])
    assert Table.objects.get(pk=pairing.table_id).status == Table.Status.ABORTED
    assert sorted(PairingSeat.objects.filter(pairing=pairing).values_list("points", flat=True)) == [0.5, 0.5]
    jobs.run()  # the last round is over: the tournament ends
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED


def test_cancelling_ends_the_tables_and_frees_the_code(alice):
    people = guests(2)
    t = tournament_with(alice, people)
    services.start(t.pk, host(alice))
    refused("staff_only", services.cancel, t.pk, people[0])
    services.cancel(t.pk, host(alice))
    t.refresh_from_db()
    assert t.status == Tournament.Status.CANCELLED and t.code is None
    assert not Table.objects.filter(status=Table.Status.RUNNING).exists()
    refused("over", services.cancel, t.pk, host(alice))
    refused("over", services.leave, t.pk, people[0])


def test_a_bye_bot_plays_the_bye_without_counting_it(alice):
    people = guests(3)
    t = tournament_with(alice, people, bye_bot="easy")
    services.start(t.pk, host(alice))
    bye = next(s for s in seats_of_round(t, 1) if s.pairing.bye)
    table = bye.pairing.table
    assert table is not None and not table.rated and table.seats.filter(bot_level="easy").count() == 1
    assert bye.points == 1.0 and bye.pairing.recorded_at is not None


def test_a_round_robin_meets_everyone_with_a_forfeit_for_a_leaver(alice):
    people = guests(4)
    t = tournament_with(alice, people, format=Tournament.Format.ROUND_ROBIN)
    services.start(t.pk, host(alice))
    play_round(t, people)
    gone = seats_of_round(t, 2)[0]
    services.leave(t.pk, who_of(gone, people))
    jobs.run()
    play_round(t, people)
    third = seats_of_round(t, 3)
    forfeit = [s for s in third if s.pairing.bye]
    assert len(forfeit) == 1 and forfeit[0].points == 1.0
    play_round(t, people)
    assert t.status == Tournament.Status.FINISHED and t.current_round == 3


def test_where_a_player_sits_now(alice):
    people = guests(3)
    t = tournament_with(alice, people)
    assert services.current_table(t, people[0])["table"] is None
    services.start(t.pk, host(alice))
    t.refresh_from_db()
    answers = {w.name: services.current_table(t, w) for w in people}
    tabled = [a for a in answers.values() if a["table"] and not a["bye"]]
    assert len(tabled) == 2 and {a["seat"] for a in tabled} == {0, 1}
    starter = next(a for a in tabled if a["seat"] == 0)
    assert starter["text"].endswith("vous commencez") or starter["text"].endswith("you start")
    assert services.current_table(t, tables.Who(guest_key="g:stranger", name="X"))["entered"] is False


def test_a_start_time_starts_it_by_the_worker(alice):
    people = guests(2)
    t = tournament_with(alice, people, starts_at=timezone.now() + timedelta(minutes=5))
    jobs.run()
    assert Tournament.objects.get(pk=t.pk).status == Tournament.Status.OPEN
    Tournament.objects.filter(pk=t.pk).update(starts_at=timezone.now() - timedelta(seconds=1))
    jobs.run()
    assert Tournament.objects.get(pk=t.pk).status == Tournament.Status.RUNNING
    lonely = tournament_with(alice, guests(1), starts_at=timezone.now() + timedelta(minutes=5))
    Tournament.objects.filter(pk=lonely.pk).update(starts_at=timezone.now() - timedelta(seconds=1))
    jobs.run()
    lonely.refresh_from_db()
    assert lonely.status == Tournament.Status.OPEN and lonely.starts_at is None


def test_entrants_keep_one_entry_each(alice):
    people = guests(2)
    t = tournament_with(alice, people)
    assert Entrant.objects.filter(tournament=t).count() == 2


def test_nobody_acts_for_someone_else_and_entries_are_bounded(alice, monkeypatch):
    from tournaments.services import entries

    people = guests(3)
    t = tournament_with(alice, people[:2])
    stranger = people[2]
    refused("not_entered", services.leave, t.pk, stranger)
    refused("not_entered", services.pause, t.pk, stranger)
    refused("not_entered", services.resume, t.pk, stranger)
    assert Entrant.objects.filter(tournament=t).count() == 2
    monkeypatch.setattr(entries, "MAX_ENTRANTS", 2)
    refused("full", services.join, t.pk, stranger)
    # A player who left before the start is gone; the others stay.
    services.leave(t.pk, people[0])
    assert list(Entrant.objects.filter(tournament=t).values_list("name", flat=True)) == [people[1].name]


def test_hosts_swap_two_players_before_their_games_begin(alice):
    from games import engines

    people = guests(4)
    t = tournament_with(alice, people)
    services.start(t.pk, host(alice))
    seats = seats_of_round(t, 1)
    games = {}
    for s in seats:
        games.setdefault(s.pairing_id, []).append(s)
    (one, two) = games.values()
    a, b = one[0], two[0]
    refused("staff_only", services.swap_players, t.pk, people[0], a.entrant_id, b.entrant_id)
    refused("bad_pairing", services.swap_players, t.pk, host(alice), a.entrant_id, one[1].entrant_id)
    refused("bad_pairing", services.swap_players, t.pk, host(alice), a.entrant_id, 999999)
    old_tables = {one[0].pairing.table_id, two[0].pairing.table_id}
    services.swap_players(t.pk, host(alice), a.entrant_id, b.entrant_id)
    moved = {s.entrant_id: s.pairing_id for s in seats_of_round(t, 1)}
    assert moved[a.entrant_id] == b.pairing_id and moved[b.entrant_id] == a.pairing_id
    assert all(Table.objects.get(pk=pk).status == Table.Status.ABORTED for pk in old_tables)
    for pairing in Pairing.objects.filter(round__tournament=t, round__number=1):
        table = pairing.table
        assert table.pk not in old_tables and table.status == Table.Status.RUNNING
        keys = [s.guest_key for s in table.seats.order_by("index")]
        assert keys == [s.entrant.guest_key for s in pairing.seats.select_related("entrant").order_by("seat")]
    # Once a game has a move, its seating stays.
    pairing = Pairing.objects.filter(round__tournament=t).first()
    table = pairing.table
    rules = engines.get(table.game)
    state = rules.load(table.state)
    seat = rules.to_act(state)[0]
    mover = next(s for s in pairing.seats.select_related("entrant") if s.seat == seat)
    tables.play_move(table.pk, who_of(mover, people), rules.legal_moves(state, seat)[0], table.version)
    other = Pairing.objects.filter(round__tournament=t).exclude(pk=pairing.pk).first()
    refused("game_started", services.swap_players, t.pk, host(alice), mover.entrant_id,
            other.seats.first().entrant_id)
