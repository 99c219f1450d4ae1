"""``check --deploy`` warns when SITE_URL is unset, on http:// or on a host the site does not serve.

The links the site sends by email (password resets, booking links) start with
SITE_URL: a production site that leaves it at the development default, on plain
HTTP or on another host sent links that fail or travel in clear, and
``check --deploy`` said nothing.
"""

from __future__ import annotations

import secrets

import pytest
from django.core.checks import Tags, run_checks

from tests.ludo.test_settings import run_manage


def _site_url_warnings() -> list[str]:
    return [message.id for message in run_checks(include_deployment_checks=True, tags=[Tags.security]) if message.id.startswith("ludo.")]


@pytest.mark.parametrize(("site_url", "expected"), [
    ("http://127.0.0.1:8000", ["ludo.W001"]),  # what an unset SITE_URL gives
    ("", ["ludo.W001"]),
    ("http://ludo.example.org", ["ludo.W002"]),
    ("https://other.example.net", ["ludo.W003"]),
    ("http://other.example.net:8080", ["ludo.W002", "ludo.W003"]),
    ("ludo.example.org", ["ludo.W002"]),  # no scheme: not an address at all
    ("https://ludo.example.org", []),
    ("https://ludo.example.org:8443", []),
    ("https://www.ludo.example.org", []),  # ALLOWED_HOSTS' ".ludo.example.org" covers it
])
def test_it_warns_on_a_site_url_that_mail_links_cannot_use(settings, site_url, expected):
    settings.ALLOWED_HOSTS = ["ludo.example.org", ".ludo.example.org"]
    settings.SITE_URL = site_url
    assert _site_url_warnings() == expected


def test_the_checks_run_only_for_deploy(settings):
    settings.SITE_URL = "http://ludo.example.org"
    assert not [m for m in run_checks(tags=[Tags.security]) if m.id.startswith("ludo.")]


@pytest.mark.parametrize("site_url", [None, "http://ludo.example.org", "https://evil.example.net"])
def test_check_deploy_fails_at_warning_level_with_production_settings_but_site_url(tmp_path, site_url):
    env = {
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(64),
        "ALLOWED_HOSTS": "ludo.example.org",
        "CSRF_TRUSTED_ORIGINS": "https://ludo.example.org",
        "TRUSTED_PROXIES": "127.0.0.1,::1",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'deploy.sqlite3'}",
        "LUDO_VAR_DIR": str(tmp_path),
    }
    if site_url is not None:
        env["SITE_URL"] = site_url
    result = run_manage(env, "check", "--deploy", "--fail-level", "WARNING")
    assert result.returncode != 0
    assert "SITE_URL" in result.stderr + result.stdout
