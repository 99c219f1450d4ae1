"""Fixtures of the sessions tests: a host, sessions built through the
services, and a database that threads can share for the races.

Personas: ``alice`` (a host, from tests/conftest.py) runs the sessions; the
guests are people with an email and no account (carol, dave, ...), and
``bob`` has an account.
"""

from __future__ import annotations

import sqlite3
from contextlib import contextmanager
from datetime import date, datetime, time, timedelta

import pytest
from django.conf import settings
from django.db import connection, connections
from django.utils import timezone, translation

from games.bookings import services
from games.bookings.models import Session

PARIS = timezone.get_default_timezone()


@pytest.fixture(autouse=True)
def _fresh_form_limits():
    """The guests' forms count requests per client in the cache: every test
    starts with none counted."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def _site_language():
    """Each test starts in the site's default language: a request to an /en/
    page leaves English active in the test's thread, and reverse() would
    then build English URLs in the next test."""
    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.deactivate()


def at(day: date, hour: int, minute: int = 0, fold: int = 0) -> datetime:
    """An aware Paris wall-clock time."""
    return datetime.combine(day, time(hour, minute), tzinfo=PARIS).replace(fold=fold)


@pytest.fixture
def now():
    """A fixed 'now' for the services, midday a Monday in May."""
    return at(date(2031, 5, 5), 12)


@pytest.fixture
def make_session(alice, now):
    """A session in three days (20:00-23:00 Paris), public, ten seats by default."""

    def make(**fields) -> Session:
        start = fields.pop("starts_at", now + timedelta(days=3, hours=8))
        end = fields.pop("ends_at", start + timedelta(hours=3))
        fields.setdefault("capacity", 10)
        fields.setdefault("title", "Soirée jeux")
        return services.create_session(alice, starts_at=start, ends_at=end, now=now, **fields)

    return make


def guest(n: int) -> dict:
    return {"name": f"Guest {n}", "email": f"guest{n}@example.org"}


@pytest.fixture
def shared_database(transactional_db, tmp_path):
    """One database every thread's own connection reaches, as in production.

    On PostgreSQL the test database already is one. SQLite's test database is
    in memory and shared-cache, where locks do not behave like a real file
    (no busy timeout): copy it into a file and point the connections there,
    so that each thread opens a real connection and BEGIN IMMEDIATE makes
    the writers queue exactly as they do on a server.
    """
    if connection.vendor != "sqlite":
        yield
        return
    settings_dict = connection.settings_dict
    memory_name = settings_dict["NAME"]
    assert "mode=memory" in memory_name
    # Keeps the in-memory database alive while nobody else holds it open.
    keeper = sqlite3.connect(memory_name, uri=True)
    connection.ensure_connection()
    path = tmp_path / "shared.sqlite3"
    target = sqlite3.connect(path)
    connection.connection.backup(target)
    target.close()
    settings_dict["NAME"] = str(path)
    connection.close()
    try:
        yield path
    finally:
        connections.close_all()
        settings_dict["NAME"] = memory_name
        connection.ensure_connection()
        keeper.close()


def last_sunday(year: int, month: int) -> date:
    """The night the clocks change in Europe: last Sunday of March or October."""
    day = date(year, month + 1, 1) - timedelta(days=1)
    return day - timedelta(days=(day.weekday() - 6) % 7)


@pytest.fixture
def soon(alice):
    """A session starting in two days by the real clock (for pages and jobs,
    which read the time themselves)."""

    def make(**fields) -> Session:
        now = timezone.now().replace(minute=0, second=0, microsecond=0)
        start = fields.pop("starts_at", now + timedelta(days=2))
        fields.setdefault("capacity", 10)
        fields.setdefault("title", "Soirée jeux")
        return services.create_session(alice, starts_at=start, ends_at=start + timedelta(hours=3), **fields)

    return make


@pytest.fixture
def on_commit(django_capture_on_commit_callbacks):
    """Run the block, then what follows its commit: the after-commit
    callbacks, and the worker's job that sends the outbox's emails. Emails
    queued before the block (by the test's setting up) are left unsent, so
    a test sees the emails of its block only."""
    from games.bookings.outbox import OutgoingEmail

    @contextmanager
    def run():
        OutgoingEmail.objects.filter(status=OutgoingEmail.Status.QUEUED).update(
            status=OutgoingEmail.Status.SKIPPED, last_error="queued before the test's block")
        with django_capture_on_commit_callbacks(execute=True) as callbacks:
            yield callbacks
        deliver()

    return run


def deliver() -> int:
    """What the worker's email job does: send every due outbox row."""
    from games.bookings import emails

    return emails.deliver_due(limit=1000)
