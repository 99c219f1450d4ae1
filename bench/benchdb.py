"""What the catalogue benches share: percentiles, a fresh PostgreSQL database, and
each database measured in a child process of its own (a clean Django setup per URL).

A bench script calls :func:`on_each_database` from its ``main`` with a function that
starts its child for one database URL (usually :func:`run_child`)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * (len(ordered) - 1))))]


def fresh_postgres(url: str) -> None:
    """Drop and create the database ``url`` names."""
    from urllib.parse import urlsplit

    import psycopg

    name = urlsplit(url).path.lstrip("/")
    admin = url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        conn.execute(f'CREATE DATABASE "{name}"')


def run_child(script: str, url: str, *args: str) -> dict:
    """Run ``script --child URL ARGS`` on that database; the JSON of its last line."""
    env = dict(os.environ, DATABASE_URL=url, DEBUG="true")
    out = subprocess.run(
        [sys.executable, script, "--child", url, *args],
        env=env, cwd=ROOT, stdout=subprocess.PIPE, check=True, text=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def on_each_database(sqlite: bool, postgres: str | None, default_pg: str,
                     measure: Callable[[str], dict]) -> list[dict]:
    """``measure`` on a new SQLite file and on a fresh PostgreSQL database: --sqlite alone
    runs SQLite only, --postgres alone PostgreSQL only, both or neither run both. A
    PostgreSQL server that does not answer is said on stderr; SQLite's figures stay."""
    both = sqlite == (postgres is not None)
    results = []
    if sqlite or both:
        with tempfile.TemporaryDirectory() as tmp:
            print("SQLite...", file=sys.stderr)
            results.append(measure(f"sqlite:///{tmp}/bench.sqlite3"))
    if postgres or both:
        url = postgres or default_pg
        print("PostgreSQL...", file=sys.stderr)
        try:
            fresh_postgres(url)
        except Exception as exc:  # no server: say so, keep the SQLite figures
            print(f"PostgreSQL unavailable at {url}: {exc}", file=sys.stderr)
        else:
            results.append(measure(url))
    return results
