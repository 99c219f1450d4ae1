"""Shared fixtures and the rule for tests that need a real service.

A test that needs PostgreSQL, Redis or Chromium and cannot find it is skipped
with the reason locally; under CI (CI=true) nothing skips: a missing service
fails the run.
"""

from __future__ import annotations

import os

import pytest

IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def require(condition: bool, reason: str) -> None:
    """Skip (locally) or fail (in CI) when a needed service is missing."""
    if condition:
        return
    if IN_CI:
        pytest.fail(f"{reason} (CI=true: required services must be present)", pytrace=False)
    pytest.skip(reason)
