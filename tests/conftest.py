"""Shared fixtures and the rule for tests that need a real service.

A test that needs PostgreSQL, Redis or Chromium and cannot find it is skipped
with the reason locally; under CI (CI=true) nothing skips: a missing service
fails the run.

Personas (as in healthchecks' hc/test.py): ``alice`` is one of the gîte's hosts
(staff, in the "Hôtes" group), ``bob`` a player with an account. Guests have no
account: they are a session holding a display name.
"""

from __future__ import annotations

import os

import pytest

IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}
PASSWORD = "correct horse battery staple"
# `make soak` (and `make bench`) runs the slow tests (marker ``slow``) in full: LUDO_SOAK=full. CI and
# `make test` run them in a reduced form (fewer games, shorter waits), chosen to reach
# the same lines of the code under test (docs/performance.md, "CI").
SOAK_FULL = os.environ.get("LUDO_SOAK", "").lower() == "full"


def soak[T](full: T, reduced: T) -> T:
    """How much a slow test plays or waits (games, seeds, seconds): ``full`` under
    `make soak` and `make bench` (LUDO_SOAK=full), ``reduced`` otherwise (CI, `make test`)."""
    return full if SOAK_FULL else reduced


def require(condition: bool, reason: str) -> None:
    """Skip (locally) or fail (in CI) when a needed service is missing."""
    if condition:
        return
    if IN_CI:
        pytest.fail(f"{reason} (CI=true: required services must be present)", pytrace=False)
    pytest.skip(reason)


# Real servers and the browser (tests/servers.py); imported here so every test sees them.
from tests.servers import (  # noqa: E402,F401
    _migrated_sqlite_template,
    _server_postgres_url,
    browser_page,
    chromium,
    daphne_server,
    server_env,
    shared_daphne_server,
)


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """pytest-django's, plus this: before it drops the PostgreSQL test database,
    end the sessions this process leaves open on it (the database threads of the
    sockets' tests, the moves' own connections), which would make the DROP fail
    ("being accessed by other users") and leave the database behind."""
    yield
    with django_db_blocker.unblock():
        from django.db import connection

        from games.services import close_move_connections

        close_move_connections()
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                               "WHERE datname = current_database() AND pid <> pg_backend_pid()")


@pytest.fixture(scope="session", autouse=True)
def _static_files_without_collectstatic(django_test_environment):
    """The suite runs the development configuration (DEBUG set when the settings load:
    static files from the apps' folders, no collectstatic). pytest-django then turns
    DEBUG off, and WhiteNoise, which takes its autorefresh mode from DEBUG, would look
    for collectstatic's folder on every test client's first request and warn that it
    is missing (512 warnings a pass). Autorefresh is the development mode it stands for."""
    from django.conf import settings

    settings.WHITENOISE_AUTOREFRESH = True
    yield


# Rows migrate's post_migrate signal derives from the models alone (content types and
# permissions): kept by the flush after a transactional test, so it need not be sent again.
KEPT_BY_FLUSH = frozenset({"django_content_type", "auth_permission"})


@pytest.fixture(scope="session", autouse=True)
def _cheap_flush(django_test_environment):
    """After each transactional test Django empties every table, then sends post_migrate
    again to recreate content types, permissions and the hosts' group: 1.5-3 s a test on
    a loaded CI machine, most of it in post_migrate (one permission query per app), and
    the largest cost of the PostgreSQL pass. Here the flush keeps the rows post_migrate
    derives from the models (KEPT_BY_FLUSH), empties the others and recreates the hosts'
    group: the state migrate leaves, without the signal. The triggers post_migrate
    installs are schema, which no flush removes.

    On PostgreSQL Django empties the tables with one TRUNCATE of them all, which creates a
    new file for every table and index; the tables of a test hold a few rows, so DELETE is
    several times cheaper, and every foreign key Django creates is deferrable, so their
    order does not matter inside the flush's transaction."""
    from django.core.management.color import no_style
    from django.db import connections
    from django.db.backends.postgresql.operations import DatabaseOperations
    from django.test import TransactionTestCase

    from ludo.accounts import sync_hosts_group

    teardown = TransactionTestCase._fixture_teardown
    truncate = DatabaseOperations.sql_flush

    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        if reset_sequences or not tables:
            return truncate(self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade)
        return ["SET CONSTRAINTS ALL DEFERRED"] + [
            f"{style.SQL_KEYWORD('DELETE FROM')} {style.SQL_FIELD(self.quote_name(table))}" for table in tables
        ]

    def fixture_teardown(self):
        if self.available_apps is not None or self.serialized_rollback or self.reset_sequences:
            return teardown(self)
        for name in self._databases_names(include_mirrors=False):
            connection = connections[name]
            tables = [table for table in connection.introspection.django_table_names(only_existing=True)
                      if table not in KEPT_BY_FLUSH]
            connection.ops.execute_sql_flush(connection.ops.sql_flush(no_style(), tables))
        sync_hosts_group()

    DatabaseOperations.sql_flush = sql_flush
    TransactionTestCase._fixture_teardown = fixture_teardown
    yield
    DatabaseOperations.sql_flush = truncate
    TransactionTestCase._fixture_teardown = teardown


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """Tests log in a lot: a fast hasher keeps them quick (production keeps Django's default)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _site_language():
    """Every test starts in the site's language: a request to an /en/ page leaves
    English active in the test's thread, and a later reverse() would give English paths."""
    from django.conf import settings
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    """Every test starts with no request counted (ludo.limits keeps counts for the
    process, or in Redis under the run's prefix)."""
    from ludo import limits

    limits.reset()
    yield


@pytest.fixture
def alice(db):
    """A host: staff account in the hosts' group."""
    from ludo.accounts import create_staff_account

    return create_staff_account("alice", "alice@example.org", PASSWORD)


@pytest.fixture
def bob(db):
    """A player with an account, no staff rights."""
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user("bob", "bob@example.org", PASSWORD)


# Test modules of the pure engines and bots (games/engines, games/bots import no Django).
# They give the same result whatever the database and channel layer, so CI runs them on
# its first pass only (`-m "not engine"` on the PostgreSQL + Redis pass).
# test_move_descriptions (the JavaScript's words for every kind of move, through node) is
# as pure.
ENGINE_MODULES = (
    "test_bots", "test_conformance", "test_drekki_", "test_drumlin_", "test_eclaircissement",
    "test_karo_", "test_quatre_en_ligne", "test_rampants_sauteurs", "test_move_descriptions",
)
_DJANGO_FIXTURES = {"db", "transactional_db", "django_db_setup", "client", "admin_client", "live_server",
                    "server_env", "daphne_server", "browser_page", "chromium", "alice", "bob"}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    _deselect_postgres_backend_tests(config, items)
    for item in items:
        module = item.path.stem
        if item.path.parent.name != "games" or not module.startswith(ENGINE_MODULES):
            continue
        django = item.get_closest_marker("django_db") or _DJANGO_FIXTURES & set(getattr(item, "fixturenames", ()))
        if django:
            raise pytest.UsageError(
                f"{item.nodeid} uses the database or a server but its module is listed as a pure engine "
                "test (tests/conftest.py ENGINE_MODULES): move the test or take the module off the list"
            )
        item.add_marker(pytest.mark.engine)


def _deselect_postgres_backend_tests(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests of code that only exists on PostgreSQL (marker ``postgres_backend``) are
    deselected, not skipped, when the suite's database is another: there is nothing
    missing to install, the code path is simply not taken. CI's second pass runs them."""
    from django.conf import settings

    if "postgresql" in settings.DATABASES["default"]["ENGINE"]:
        return
    dropped = [item for item in items if item.get_closest_marker("postgres_backend")]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = [item for item in items if not item.get_closest_marker("postgres_backend")]
