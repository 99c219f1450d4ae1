"""Worker bulkheads (issue 29, finding 2): one table a job cannot handle never
stops the job for the other tables. Each job meets one poisoned table, both
ways: its stored state cannot be loaded (cut short by a fault), or the job's
own code cannot finish it (a rated table held twice by one account, whose end
cannot be rated). The other tables still time out, get rated, get their bot
moves and their absent players replaced; the poisoned one is set aside after
LUDO_WORKER_ROW_FAILURES tries, shown in the admin, and logged once per
failure (with its traceback the first time), not once per round."""

from __future__ import annotations

import logging
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from games import engines, jobs, services
from games.models import Seat, Table
from games.ratings import jobs as rating_jobs
from games.ratings.models import RatedGame, RatingChange
from ludo import worker
from ludo.bulkheads.models import JobFailure
from tests.games.tables_helpers import guest, member, short_game
from tests.ludo.poison import failures_logged, unloadable_json

pytestmark = [pytest.mark.django_db(transaction=True)]

GAME = "quatre-en-ligne"  # no chance, short games (as the ratings tests)
ROUNDS = 3


@pytest.fixture(autouse=True)
def quick(settings):
    settings.LUDO_BOT_THINK_SECONDS = 0
    settings.LUDO_TABLE_POLL_SECONDS = 0
    settings.LUDO_WORKER_ROW_FAILURES = ROUNDS
    settings.LUDO_WORKER_ROW_RETRY_SECONDS = 0  # each round may try a failed row again (the pause is tested apart)


@pytest.fixture
def log(caplog):
    caplog.set_level(logging.INFO, logger="ludo.worker")
    return caplog


@pytest.fixture
def people(db):
    User = get_user_model()
    # Hosts: confirmed by definition (ludo.accounts.is_confirmed), so their games are rated.
    return [member(User.objects.create_user(name, f"{name}@example.org", f"pw-{name}-12345", is_staff=True))
            for name in ("ana", "ben")]


def timed_table(past, *, game="drumlin", people=None, rated=False):
    """A two-player table with a minute per move, started at ``past`` (its clock ran out since)."""
    host, other = people or (guest("Zoé"), guest("Max"))
    table = services.create_table(host, game, clock={"kind": "move", "seconds": 60}, rated=rated)
    services.join_table(table.pk, other)
    Table.objects.filter(pk=table.pk).update(seed=1)
    services.start_table(table.pk, host, now=past)
    return table.pk


def held_twice(people, past):
    """A rated timed game where one account holds both seats (the seat bug of
    finding 1), a few moves in: its end cannot be rated (RatingChange is once
    per table and account)."""
    pk = timed_table(past, game=GAME, people=people, rated=True)
    seats = {s.index: p for s in Seat.objects.filter(table_id=pk) for p in people if p.user_id == s.user_id}
    for seat, move in short_game(GAME, 2, 1, decisive=True)[:4]:
        services.play_move(pk, seats[seat], move, Table.objects.get(pk=pk).version, now=past)
    Seat.objects.filter(table_id=pk, index=1).update(user_id=people[0].user_id, name=people[0].name)
    return pk


def failure(job, pk):
    return JobFailure.objects.filter(job=job, row=str(pk)).first()


def assert_set_aside_and_logged_once_per_failure(log, job, pk, error):
    record = failure(job, pk)
    assert record is not None and record.set_aside and record.failures == ROUNDS, record
    assert error in record.error and error in record.traceback
    lines = failures_logged(log, f"games.table {pk}")
    # One line per failure plus one saying it is set aside; the traceback only with the first.
    assert len(lines) == ROUNDS + 1, [r.getMessage() for r in lines]
    assert [bool(r.exc_info) for r in lines] == [True] + [False] * ROUNDS


def test_clocks_run_out_at_every_other_table_while_one_cannot_be_rated_or_loaded(people, log):
    past = timezone.now() - timedelta(hours=1)
    honest = [timed_table(past) for _ in range(3)]
    cannot_rate = held_twice(people, past)
    cannot_load = timed_table(past)
    unloadable_json(Table, cannot_load, "state")
    for round_ in range(ROUNDS + 2):
        worker.run_once(["tables.clocks"])
        if round_ == 0:
            # Every honest table timed out in the first round, newest or oldest.
            for pk in honest:
                table = Table.objects.get(pk=pk)
                assert table.status == "finished" and table.outcome["reason"] == "timeout", pk
    for pk in (cannot_rate, cannot_load):
        assert Table.objects.get(pk=pk).status == "running"  # rolled back: nothing half done
    assert not RatingChange.objects.filter(table_id=cannot_rate).exists()
    assert_set_aside_and_logged_once_per_failure(log, "tables.clocks", cannot_rate, "IntegrityError")
    assert_set_aside_and_logged_once_per_failure(log, "tables.clocks", cannot_load, "Error")
    # Set aside: later rounds leave them alone, and the lane does not spin on their deadlines.
    assert jobs._until_next() > 0


def test_a_new_timeout_is_served_while_a_table_is_set_aside(log):
    past = timezone.now() - timedelta(hours=1)
    bad = timed_table(past)
    unloadable_json(Table, bad, "state")
    for _ in range(ROUNDS):
        worker.run_once(["tables.clocks"])
    assert failure("tables.clocks", bad).set_aside
    later = timed_table(past)
    worker.run_once(["tables.clocks"])
    assert Table.objects.get(pk=later).status == "finished"
    assert failure("tables.clocks", bad).failures == ROUNDS  # not tried again


def bot_table(zoe):
    """A table where the bot is to move now."""
    table = services.quick_game(zoe, "drumlin", "easy")
    rules = engines.get("drumlin")
    current = Table.objects.get(pk=table.pk)
    if 1 not in rules.to_act(rules.load(current.state)):
        services.play_move(table.pk, zoe, rules.legal_moves(rules.load(current.state), 0)[0], current.version)
    return table.pk


def test_bots_move_at_every_other_table_while_one_cannot_be_loaded(log):
    people = [guest(f"P{i}") for i in range(4)]
    tables = [bot_table(p) for p in people]
    cannot_load, unknown_game, honest = tables[0], tables[1], tables[2:]
    unloadable_json(Table, cannot_load, "state")
    # A game this version no longer has (an engine removed, a migration half applied).
    Table.objects.filter(pk=unknown_game).update(game="retired-game")
    # The poisoned ones are due first, round after round.
    Table.objects.filter(pk__in=[cannot_load, unknown_game]).update(bot_due=timezone.now() - timedelta(hours=1))
    versions = {pk: Table.objects.get(pk=pk).version for pk in honest}
    worker.run_once(["tables.bots"])
    for pk in honest:
        assert Table.objects.get(pk=pk).version > versions[pk], "the bot did not move"
    for _ in range(ROUNDS - 1):
        worker.run_once(["tables.bots"])
    assert_set_aside_and_logged_once_per_failure(log, "tables.bots", cannot_load, "Error")
    assert_set_aside_and_logged_once_per_failure(log, "tables.bots", unknown_game, "unknown_game")


def test_countdowns_and_absent_players_are_served_around_a_table_that_cannot_be_loaded(log):
    past = timezone.now() - timedelta(hours=1)
    bad = timed_table(past)
    Table.objects.filter(pk=bad).update(countdown_deadline=past)
    unloadable_json(Table, bad, "state")
    # Absent players: the bad table asks for a bot too, and so does an honest one.
    tables = []
    for pk in (bad, timed_table(timezone.now())):
        Table.objects.filter(pk=pk).update(absent_bot="easy", absent_grace=60)
        Seat.objects.filter(table_id=pk, index=1).update(absent_since=past)
        tables.append(pk)
    honest = tables[1]
    for _ in range(ROUNDS):
        worker.run_once(["tables.clocks"])
        jobs.run_presence(force=True)
    assert Seat.objects.get(table_id=honest, index=1).bot_level == "easy"
    assert failure("tables.countdowns", bad).set_aside and failure("tables.absent", bad).set_aside


def finished_unrated(people, *, held_twice=False):
    """A rated game finished on the event loop (left to the sweep)."""
    table = services.create_table(people[0], GAME)
    services.join_table(table.pk, people[1])
    Table.objects.filter(pk=table.pk).update(seed=1)
    services.start_table(table.pk, people[0])
    seats = {s.index: p for s in Seat.objects.filter(table=table) for p in people if p.user_id == s.user_id}
    for seat, move in short_game(GAME, 2, 1, decisive=True):
        services.play_move(table.pk, seats[seat], move, Table.objects.get(pk=table.pk).version)
    Table.objects.filter(pk=table.pk).update(rated=True)
    if held_twice:
        Seat.objects.filter(table=table, index=1).update(user_id=people[0].user_id)
    return table.pk


def test_the_rating_sweep_rates_every_later_game_while_the_oldest_cannot_be_rated(people, log):
    cannot_rate = finished_unrated(people, held_twice=True)
    cannot_load = finished_unrated(people)
    unloadable_json(Table, cannot_load, "outcome")
    honest = [finished_unrated(people) for _ in range(2)]
    rating_jobs.rate_pending()
    assert set(RatedGame.objects.values_list("table_id", flat=True)) == set(honest)
    for _ in range(ROUNDS - 1):
        rating_jobs.rate_pending()
    assert_set_aside_and_logged_once_per_failure(log, "ratings.sweep", cannot_rate, "IntegrityError")
    assert_set_aside_and_logged_once_per_failure(log, "ratings.sweep", cannot_load, "Error")
    # A game finished after them is rated at the next sweep.
    later = finished_unrated(people)
    assert rating_jobs.rate_pending() == 1 and RatedGame.objects.filter(table_id=later).exists()


def test_a_hosts_end_settles_a_game_that_could_not_be_rated(people, log):
    User = get_user_model()
    host = member(User.objects.create_user("hote-1", "h@example.org", "pw-hote-12345", is_staff=True))
    pk = finished_unrated(people, held_twice=True)
    for _ in range(ROUNDS):
        rating_jobs.rate_pending()
    assert failure("ratings.sweep", pk).set_aside
    services.staff_end(pk, host, "stuck rating")  # no longer "game_over"
    verdict = RatedGame.objects.get(table_id=pk)
    assert not verdict.counted and verdict.reason == "ended_by_host"
    rating_jobs.rate_pending()
    assert failure("ratings.sweep", pk) is None  # no longer waits for the sweep: forgotten
    with pytest.raises(services.TableError) as exc:
        services.staff_end(pk, host)
    assert exc.value.code == "game_over"  # once settled, as any finished game
    with pytest.raises(services.TableError) as exc:
        services.staff_end(finished_unrated(people), guest("Max"))
    assert exc.value.code == "staff_only"


def test_a_failed_row_waits_before_its_next_try_and_comes_after_the_others(settings, log):
    settings.LUDO_WORKER_ROW_RETRY_SECONDS = 60
    past = timezone.now() - timedelta(hours=1)
    bad = timed_table(past)
    unloadable_json(Table, bad, "state")
    worker.run_once(["tables.clocks"])
    record = failure("tables.clocks", bad)
    assert record.failures == 1 and record.retry_at > timezone.now() + timedelta(seconds=50)
    worker.run_once(["tables.clocks"])
    assert failure("tables.clocks", bad).failures == 1  # waiting: not tried, not logged again
    assert len(failures_logged(log, f"games.table {bad}")) == 1
    assert jobs._until_next() > 0  # and the lane sleeps instead of spinning on its deadline
    # Its time comes: it is tried after the tables that never failed, within the batch.
    JobFailure.objects.filter(pk=record.pk).update(retry_at=timezone.now() - timedelta(seconds=1))
    # Two tables that never failed, their deadlines after the bad one's and a second apart
    # (equal deadlines would leave their order to the database).
    others = [timed_table(past + timedelta(seconds=1 + n)) for n in range(2)]
    due = Table.objects.filter(status="running", clock_deadline__lte=timezone.now()).order_by("clock_deadline")
    picked = jobs.CLOCKS.pick(due, 10)
    assert picked == [*others, bad]  # its deadline is the oldest, yet it comes last
    assert jobs.CLOCKS.pick(due, 2) == [*others, bad]  # a full batch still leaves it one try a round
    assert jobs.CLOCKS.pick(due, 1) == [others[0], bad]


def test_a_host_sends_a_set_aside_row_back_from_the_admin(client, log):
    from ludo.accounts import create_staff_account

    host = create_staff_account("hote-garde", "garde@example.org", "pw-garde-12345")  # a host, not a superuser
    past = timezone.now() - timedelta(hours=1)
    bad = timed_table(past)
    unloadable_json(Table, bad, "state")
    for _ in range(ROUNDS):
        worker.run_once(["tables.clocks"])
    record = failure("tables.clocks", bad)
    client.force_login(host)
    listing = client.get("/admin/bulkheads/jobfailure/?set_aside__exact=1")
    assert listing.status_code == 200
    page = listing.content.decode()
    assert "tables.clocks" in page and f"/admin/games/table/{bad}/change/" in page and "Error" in page
    detail = client.get(f"/admin/bulkheads/jobfailure/{record.pk}/change/").content.decode()
    assert "Traceback" in detail
    answer = client.post("/admin/bulkheads/jobfailure/", {"action": "try_rows_again", "_selected_action": [record.pk]})
    assert answer.status_code == 302
    record.refresh_from_db()
    assert not record.set_aside and record.failures == 0
    # The fault repaired (state written back from a replay, say), the next round handles it.
    rules = engines.get("drumlin")
    Table.objects.filter(pk=bad).update(state=rules.dump(rules.new_game(2, seed=1)))
    worker.run_once(["tables.clocks"])
    assert Table.objects.get(pk=bad).status == "finished" and failure("tables.clocks", bad) is None


def test_a_job_that_fails_as_a_whole_logs_its_traceback_once(log):
    calls = []

    def broken() -> None:
        calls.append(1)
        raise RuntimeError("database away")

    worker.register("test.broken", broken)
    try:
        for _ in range(5):
            worker.run_once(["test.broken"])
    finally:
        worker._jobs.pop("test.broken", None)
        worker._last_error.pop("test.broken", None)
    lines = [r for r in log.records if "test.broken" in r.getMessage()]
    assert len(calls) == 5 and len(lines) == 5
    assert [bool(r.exc_info) for r in lines] == [True, False, False, False, False]


def test_a_table_whose_clock_step_is_held_back_still_gets_its_bot_on_time():
    """The lane's next wake-up leaves out a held table only for the deadline its
    guard holds: a table whose clock step was set aside still has its bot move
    due now (before, the lane slept its idle pause past it)."""
    table = services.quick_game(guest("Zoé"), "drumlin")
    past = timezone.now() - timedelta(seconds=5)
    Table.objects.filter(pk=table.pk).update(bot_due=past, clock_deadline=None)
    now = timezone.now()
    JobFailure.objects.create(job="tables.clocks", model="games.table", row=str(table.pk), failures=ROUNDS,
                              set_aside=True, first_failed_at=now, last_failed_at=now)
    assert jobs._until_next() == 0.0
    JobFailure.objects.create(job="tables.bots", model="games.table", row=str(table.pk), failures=1,
                              retry_at=now + timedelta(minutes=5), first_failed_at=now, last_failed_at=now)
    assert jobs._until_next() > 0  # held by its own guard: the lane sleeps instead of spinning on it
