"""Settings come from the environment through typed readers; bad values fail loudly."""

from __future__ import annotations

import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from ludo.env import check_redis_url, env_bool, env_choice, env_int, env_list, env_path, parse_database_url

ROOT = Path(__file__).resolve().parents[2]


def run_manage(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    """manage.py in a clean environment: only what the test gives (and PATH, HOME)."""
    base = {"PATH": "/usr/bin:/bin", "HOME": "/tmp"}
    if args[0] == "shell":
        args = ("shell", "--no-imports", *args[1:])
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env={**base, **env}, capture_output=True, text=True, timeout=120
    )


def test_it_reads_booleans():
    assert env_bool("X", False, {"X": "yes"}) is True
    assert env_bool("X", True, {"X": "Off"}) is False
    assert env_bool("X", True, {}) is True


def test_it_refuses_a_bad_boolean_naming_the_variable():
    with pytest.raises(ImproperlyConfigured, match="DEBUG must be a boolean.*'maybe'"):
        env_bool("DEBUG", False, {"DEBUG": "maybe"})


def test_it_reads_integers_within_bounds():
    assert env_int("EMAIL_PORT", 25, {"EMAIL_PORT": " 587 "}) == 587
    assert env_int("EMAIL_PORT", 25, {}) == 25
    with pytest.raises(ImproperlyConfigured, match="EMAIL_PORT must be a whole number"):
        env_int("EMAIL_PORT", 25, {"EMAIL_PORT": "25a"})
    with pytest.raises(ImproperlyConfigured, match="EMAIL_PORT must be at most 65535"):
        env_int("EMAIL_PORT", 25, {"EMAIL_PORT": "70000"}, minimum=1, maximum=65535)


def test_it_reads_lists_choices_and_paths(tmp_path):
    assert env_list("ALLOWED_HOSTS", [], {"ALLOWED_HOSTS": " a.org, ,b.org "}) == ["a.org", "b.org"]
    assert env_choice("LOG_LEVEL", "INFO", ("DEBUG", "INFO"), {"LOG_LEVEL": "debug"}) == "DEBUG"
    with pytest.raises(ImproperlyConfigured, match="LOG_LEVEL must be one of DEBUG, INFO, not 'loud'"):
        env_choice("LOG_LEVEL", "INFO", ("DEBUG", "INFO"), {"LOG_LEVEL": "loud"})
    assert env_path("MEDIA_ROOT", tmp_path, {"MEDIA_ROOT": str(tmp_path / "m")}) == tmp_path / "m"


def test_it_parses_database_urls():
    pg = parse_database_url("postgres://ludo:s%40cret@db.local:5433/ludo?sslmode=require")
    assert pg["ENGINE"] == "django.db.backends.postgresql"
    assert (pg["NAME"], pg["USER"], pg["PASSWORD"], pg["HOST"], pg["PORT"]) == ("ludo", "ludo", "s@cret", "db.local", "5433")
    assert pg["OPTIONS"] == {"connect_timeout": 5, "sslmode": "require"}
    assert parse_database_url("sqlite:////srv/ludo.sqlite3")["NAME"] == "/srv/ludo.sqlite3"
    assert parse_database_url("sqlite:///var/ludo.sqlite3")["NAME"] == "var/ludo.sqlite3"
    assert parse_database_url("sqlite:///x.sqlite3?timeout=3")["OPTIONS"]["timeout"] == 3.0


@pytest.mark.parametrize(
    "url, message",
    [
        ("mysql://localhost/ludo", "must start with sqlite:// or postgres://"),
        ("postgres://localhost/", "must name a database"),
        ("postgres://localhost:port/ludo", "bad port"),
        ("sqlite://", "must look like sqlite:///"),
        ("sqlite:///x.sqlite3?journal=wal", "the only SQLite option is timeout"),
    ],
)
def test_it_refuses_bad_database_urls(url, message):
    with pytest.raises(ImproperlyConfigured, match=f"DATABASE_URL.*{message}|DATABASE_URL: {message}"):
        parse_database_url(url)


def test_it_refuses_a_bad_redis_url():
    assert check_redis_url("redis://127.0.0.1:6379/0")
    with pytest.raises(ImproperlyConfigured, match="REDIS_URL must look like redis://"):
        check_redis_url("http://127.0.0.1:6379")


@pytest.mark.parametrize(
    "env, variable",
    [
        ({"DEBUG": "maybe"}, "DEBUG"),
        ({"DATABASE_URL": "mongodb://localhost/ludo"}, "DATABASE_URL"),
        ({"REDIS_URL": "127.0.0.1:6379"}, "REDIS_URL"),
        ({"EMAIL_PORT": "twenty-five", "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend"}, "EMAIL_PORT"),
        ({"DEBUG": "0", "ALLOWED_HOSTS": "ludo.example.org"}, "SECRET_KEY"),
        ({"DEBUG": "0", "SECRET_KEY": "x" * 60}, "ALLOWED_HOSTS"),
        ({"CSRF_TRUSTED_ORIGINS": "ludo.example.org"}, "CSRF_TRUSTED_ORIGINS"),
        ({"AXES_FAILURE_LIMIT": "0"}, "AXES_FAILURE_LIMIT"),
        ({"AXES_ADDRESS_FAILURE_LIMIT": "0"}, "AXES_ADDRESS_FAILURE_LIMIT"),
        ({"TRUSTED_PROXIES": "127.0.0.1,nginx"}, "TRUSTED_PROXIES"),
    ],
)
def test_it_stops_at_start_with_a_message_naming_the_bad_variable(env, variable, tmp_path):
    result = run_manage({"LUDO_VAR_DIR": str(tmp_path), **env}, "check")
    assert result.returncode != 0
    last_line = result.stderr.strip().splitlines()[-1]
    assert "ImproperlyConfigured" in last_line and variable in last_line, result.stderr[-2000:]


def test_it_passes_check_deploy_with_production_settings(tmp_path):
    env = {
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(64),
        "ALLOWED_HOSTS": "ludo.example.org",
        "CSRF_TRUSTED_ORIGINS": "https://ludo.example.org",
        "SITE_URL": "https://ludo.example.org",
        "TRUSTED_PROXIES": "127.0.0.1,::1",  # the README's setup (daphne behind nginx)
        "DATABASE_URL": f"sqlite:///{tmp_path / 'deploy.sqlite3'}",
        "LUDO_VAR_DIR": str(tmp_path),
    }
    result = run_manage(env, "check", "--deploy", "--fail-level", "WARNING")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues (0 silenced)" in result.stdout + result.stderr


def test_it_uses_safe_production_settings_when_debug_is_off(tmp_path):
    env = {
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(64),
        "ALLOWED_HOSTS": "ludo.example.org",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'deploy.sqlite3'}",
    }
    code = (
        "from django.conf import settings as s; "
        "print(s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.SECURE_SSL_REDIRECT, s.SECURE_HSTS_SECONDS >= 31536000, "
        "s.MAILERS['default']['BACKEND'].endswith('smtp.EmailBackend'))"
    )
    result = run_manage(env, "shell", "-c", code)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True"] * 5


def test_it_defaults_to_sqlite_in_var_and_the_in_memory_layer(tmp_path):
    code = (
        "from django.conf import settings as s; "
        "print(s.DATABASES['default']['NAME']); print(s.CHANNEL_LAYERS['default']['BACKEND']); "
        "print(s.TIME_ZONE, s.LANGUAGE_CODE)"
    )
    result = run_manage({"LUDO_VAR_DIR": str(tmp_path)}, "shell", "-c", code)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        str(tmp_path / "ludo.sqlite3"),
        "channels.layers.InMemoryChannelLayer",
        "Europe/Paris fr",
    ]


def test_it_uses_redis_for_the_channel_layer_when_redis_url_is_set(tmp_path):
    code = "from django.conf import settings as s; c = s.CHANNEL_LAYERS['default']; print(c['BACKEND']); print(c['CONFIG']['hosts'][0]['socket_timeout'])"
    env = {"REDIS_URL": "redis://127.0.0.1:6379/3", "LUDO_VAR_DIR": str(tmp_path)}
    result = run_manage(env, "shell", "-c", code)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["channels_redis.pubsub.RedisPubSubChannelLayer", "None"]
