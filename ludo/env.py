"""Typed readers for settings that come from environment variables.

Each reader returns a safe default when the variable is unset and fails loudly,
naming the variable, when it is set to something it cannot read: a typo in a
production setting must stop the server at start, not surface later.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def _raw(name: str, environ: Mapping[str, str] | None) -> str | None:
    return (os.environ if environ is None else environ).get(name)


def env_str(name: str, default: str = "", environ: Mapping[str, str] | None = None) -> str:
    value = _raw(name, environ)
    return default if value is None else value


def env_bool(name: str, default: bool, environ: Mapping[str, str] | None = None) -> bool:
    value = _raw(name, environ)
    if value is None:
        return default
    lowered = value.strip().lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (true/false, 1/0, yes/no, on/off), not {value!r}")


def env_int(
    name: str,
    default: int,
    environ: Mapping[str, str] | None = None,
    minimum: int | None = None,
    maximum: int | None = None,
) -> int:
    value = _raw(name, environ)
    if value is None or value.strip() == "":
        return default
    try:
        number = int(value.strip())
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number, not {value!r}") from None
    if minimum is not None and number < minimum:
        raise ImproperlyConfigured(f"{name} must be at least {minimum}, not {number}")
    if maximum is not None and number > maximum:
        raise ImproperlyConfigured(f"{name} must be at most {maximum}, not {number}")
    return number


def env_choice(name: str, default: str, choices: tuple[str, ...], environ: Mapping[str, str] | None = None) -> str:
    """One of ``choices`` (compared case-insensitively, returned as listed)."""
    value = _raw(name, environ)
    if value is None or value.strip() == "":
        return default
    for choice in choices:
        if value.strip().lower() == choice.lower():
            return choice
    raise ImproperlyConfigured(f"{name} must be one of {', '.join(choices)}, not {value!r}")


def env_list(name: str, default: list[str], environ: Mapping[str, str] | None = None) -> list[str]:
    """A comma-separated list; blanks around items are dropped."""
    value = _raw(name, environ)
    if value is None:
        return list(default)
    return [item.strip() for item in value.split(",") if item.strip()]


def env_path(name: str, default: Path, environ: Mapping[str, str] | None = None) -> Path:
    value = _raw(name, environ)
    if value is None or value.strip() == "":
        return default
    return Path(value).expanduser().resolve()


def parse_database_url(url: str, name: str = "DATABASE_URL") -> dict[str, Any]:
    """Django DATABASES entry for ``sqlite:///path`` or ``postgres://user:pass@host:port/db``."""
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    options = dict(parse_qsl(parts.query))
    if scheme == "sqlite":
        path = unquote(parts.path)
        if parts.netloc or not path or path == "/":
            raise ImproperlyConfigured(
                f"{name} must look like sqlite:////absolute/path.sqlite3 or sqlite:///relative.sqlite3, not {url!r}"
            )
        # sqlite:///var/db.sqlite3 is relative (to the project), sqlite:////srv/db.sqlite3 absolute.
        path = path[1:]
        sqlite_options: dict[str, Any] = {"transaction_mode": "IMMEDIATE", "timeout": 20}
        for key, value in options.items():
            if key != "timeout":
                raise ImproperlyConfigured(f"{name}: the only SQLite option is timeout (seconds), not {key!r}")
            try:
                sqlite_options["timeout"] = float(value)
            except ValueError:
                raise ImproperlyConfigured(f"{name}: timeout must be a number of seconds, not {value!r}") from None
        return {"ENGINE": "django.db.backends.sqlite3", "NAME": path, "OPTIONS": sqlite_options}
    if scheme in {"postgres", "postgresql", "pgsql"}:
        db_name = unquote(parts.path.lstrip("/"))
        if not db_name:
            raise ImproperlyConfigured(f"{name} must name a database, e.g. postgres://user@localhost/ludo, not {url!r}")
        try:
            port = parts.port
        except ValueError:
            raise ImproperlyConfigured(f"{name} has a bad port in {url!r}") from None
        return {
            "ENGINE": "django.db.backends.postgresql",
            "NAME": db_name,
            "USER": unquote(parts.username or ""),
            "PASSWORD": unquote(parts.password or ""),
            "HOST": unquote(parts.hostname or ""),
            "PORT": str(port or ""),
            "CONN_MAX_AGE": 0,
            # Without a connect timeout an unreachable server blocks the request
            # thread (and /healthz's probe) for minutes.
            "OPTIONS": {"connect_timeout": 5, **options},
        }
    raise ImproperlyConfigured(
        f"{name} must start with sqlite:// or postgres:// (or postgresql://), not {url!r}"
    )


def check_redis_url(url: str, name: str = "REDIS_URL") -> str:
    parts = urlsplit(url)
    if parts.scheme not in {"redis", "rediss", "unix"} or (parts.scheme != "unix" and not parts.hostname):
        raise ImproperlyConfigured(f"{name} must look like redis://host:6379/0, not {url!r}")
    try:
        parts.port
    except ValueError:
        raise ImproperlyConfigured(f"{name} has a bad port in {url!r}") from None
    return url
