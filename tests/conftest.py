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
)


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """Tests log in a lot: a fast hasher keeps them quick (production keeps Django's default)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


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
