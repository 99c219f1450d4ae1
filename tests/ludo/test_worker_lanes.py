"""The worker's lanes (issue 18, finding 4): play (bots, clocks, countdowns,
presence) runs in a lane of its own, so a document job that hangs or raises never
holds it up; a job registered without a lane (emails, reminders) is not in play's."""

from __future__ import annotations

import threading

import pytest

from ludo import worker


@pytest.fixture
def registered():
    names: list[str] = []

    def add(name, job, **kwargs):
        worker.register(name, job, **kwargs)
        names.append(name)

    yield add
    for name in names:
        worker._jobs.pop(name, None)


def test_it_puts_the_tables_jobs_in_the_play_lane_and_documents_apart():
    assert {worker.lane_of(n) for n in ("tables.bots", "tables.clocks", "tables.presence")} == {worker.PLAY}
    assert worker.lane_of("catalog.extract_text") == worker.DOCUMENTS
    assert worker.lane_of("bookings.reminders") != worker.PLAY


def test_a_job_registered_without_a_lane_is_not_in_play(registered):
    registered("test.mail", lambda: None)
    assert worker.lane_of("test.mail") == worker.DEFAULT_LANE != worker.PLAY
    with pytest.raises(ValueError, match="unknown worker lane"):
        worker.register("test.bad", lambda: None, lane="fast")


def test_play_goes_on_while_a_document_job_hangs_and_another_raises(registered):
    release, hanging, stop = threading.Event(), threading.Event(), threading.Event()
    plays = []

    def hang():
        hanging.set()
        release.wait(60)

    def explode():
        raise RuntimeError("mail server down")

    registered("test.hang", hang, lane=worker.DOCUMENTS)
    registered("test.explode", explode)
    registered("test.play", lambda: plays.append(1) or 0.0, lane=worker.PLAY)
    names = ["test.hang", "test.explode", "test.play"]
    runner = threading.Thread(target=worker.run_forever, args=(stop, names), daemon=True)
    runner.start()
    try:
        assert hanging.wait(10)
        start = len(plays)
        assert worker.wait_until(lambda: len(plays) >= start + 5, timeout=30), "play waited for the hung job"
    finally:
        release.set()
        stop.set()
        runner.join(20)
        worker._forever = False
    assert not runner.is_alive()


@pytest.mark.django_db  # run_once closes the connections it finds, as between jobs
def test_run_once_still_runs_every_lane(registered):
    ran = []
    registered("test.a", lambda: ran.append("a"), lane=worker.PLAY)
    registered("test.b", lambda: ran.append("b"), lane=worker.DOCUMENTS)
    registered("test.c", lambda: ran.append("c"))
    worker.run_once(["test.a", "test.b", "test.c"])
    assert sorted(ran) == ["a", "b", "c"]


@pytest.mark.django_db(transaction=True)  # the lane closes old connections between jobs
def test_an_idle_play_lane_reads_little_and_a_due_bot_is_still_played(django_assert_max_num_queries, monkeypatch):
    """The play lane polls several times a second: a round with nothing due reads the
    failure records once and the earliest deadlines once per job (tournaments, throttled
    to every half second, are left out here), and never looks for due rows; a table whose
    bot is due is still served in the next round."""
    from datetime import timedelta

    from django.utils import timezone

    from games import jobs, services
    from games.models import Table
    from tests.games.tables_helpers import guest

    monkeypatch.setattr("tournaments.jobs._last_pass", float("inf"))  # not this round
    played = []
    monkeypatch.setattr(jobs, "play_bot_turn", lambda pk: played.append(pk))
    worker.run_once(lane=worker.PLAY)  # presence's first pass (every 5 s)
    with django_assert_max_num_queries(3):
        worker.run_once(lane=worker.PLAY)
    table = services.create_table(guest("Zoé"), "drumlin")
    Table.objects.filter(pk=table.pk).update(status=Table.Status.RUNNING, bot_due=timezone.now() - timedelta(seconds=1))
    worker.run_once(lane=worker.PLAY)
    assert played == [table.pk]


def test_the_tournaments_job_runs_at_most_every_half_second_in_the_worker(monkeypatch):
    from tournaments import jobs

    runs = []
    monkeypatch.setattr(jobs, "run", lambda: runs.append(1))
    monkeypatch.setattr(jobs, "_last_pass", float("-inf"))
    assert jobs.run_in_worker() == jobs.EVERY and runs == [1]
    pause = jobs.run_in_worker()
    assert 0 < pause <= jobs.EVERY and runs == [1]  # too soon: not run, the time left asked
    monkeypatch.setattr(jobs, "_last_pass", float("-inf"))
    jobs.run_in_worker()
    assert runs == [1, 1]


def test_the_worker_keeps_its_sqlite_connections_between_rounds():
    """On SQLite (no pool) the lanes keep their connections from round to round, with
    health checks; on PostgreSQL the pool already does, and nothing changes."""
    from django.db import connections

    conf = connections.settings["default"]
    kept = conf["CONN_MAX_AGE"], conf["CONN_HEALTH_CHECKS"]
    try:
        worker.keep_connections()
        sqlite = conf["ENGINE"].endswith("sqlite3")
        assert (conf["CONN_MAX_AGE"], conf["CONN_HEALTH_CHECKS"]) == ((None, True) if sqlite else kept)
        worker.keep_connections(False)
        assert (conf["CONN_MAX_AGE"], conf["CONN_HEALTH_CHECKS"]) == ((0, False) if sqlite else kept)
    finally:
        conf["CONN_MAX_AGE"], conf["CONN_HEALTH_CHECKS"] = kept
