"""ludo.limits: one limiter for HTTP and sockets, shared by every server process."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from django.http import HttpResponse
from django.test import RequestFactory

from ludo import limits
from tests.games.live_helpers import redis_url, require_redis

ROOT = Path(__file__).resolve().parents[2]


def test_it_allows_up_to_the_limit_then_says_when_to_come_back():
    for _ in range(3):
        assert limits.allow("probe", "a:203.0.113.5", (3, 60.0))
    refused = limits.allow("probe", "a:203.0.113.5", (3, 60.0))
    assert not refused and 58 <= refused.retry_after <= 60 and refused.retry_seconds in (59, 60)
    # Another key, another scope: counted on their own.
    assert limits.allow("probe", "a:198.51.100.7", (3, 60.0))
    assert limits.allow("other", "a:203.0.113.5", (3, 60.0))


def test_the_sockets_ask_the_same_counts_as_http():
    for _ in range(2):
        assert limits.allow("ws", "g:abc", (3, 60.0))
    assert asyncio.run(limits.aallow("ws", "g:abc", (3, 60.0)))
    assert not asyncio.run(limits.aallow("ws", "g:abc", (3, 60.0)))
    assert not limits.allow("ws", "g:abc", (3, 60.0))


def test_no_rate_or_limits_off_lets_everything_through(settings):
    assert all(limits.allow("probe", "k", None) for _ in range(50))
    settings.LUDO_RATE_LIMITS_ENABLED = False
    assert all(limits.allow("probe", "k", (1, 60.0)) for _ in range(50))


def test_the_decorator_answers_429_with_retry_after_in_json_and_html(settings):
    settings.LUDO_RATE_LIMITS = {"probe": {"address": (2, 30.0)}}

    @limits.rate_limited("probe", per_person=(100, 30.0), per_address=(100, 30.0))
    def view(request):
        return HttpResponse("ok")

    factory = RequestFactory()

    def post(path, **extra):
        request = factory.post(path, REMOTE_ADDR="203.0.113.5", **extra)
        from django.contrib.auth.models import AnonymousUser
        from django.contrib.sessions.backends.db import SessionStore

        request.user, request.session = AnonymousUser(), SessionStore()
        return view(request)

    assert post("/x/").status_code == 200
    assert post("/x/").status_code == 200
    page = post("/x/")
    assert page.status_code == 429 and 1 <= int(page["Retry-After"]) <= 30
    assert "Trop de demandes" in page.content.decode()
    api = post("/api/x/")
    assert api.status_code == 429 and json.loads(api.content)["code"] == "rate_limited" and api["Retry-After"]
    # GETs do not write: never counted.
    request = factory.get("/x/", REMOTE_ADDR="203.0.113.5")
    assert view(request).status_code == 200


def test_the_person_of_a_request_is_never_its_session_key(db):
    from django.contrib.auth.models import AnonymousUser
    from django.contrib.sessions.backends.db import SessionStore

    request = RequestFactory().post("/x/", REMOTE_ADDR="203.0.113.5")
    request.user, request.session = AnonymousUser(), SessionStore()
    request.session["guest_name"] = "Zoé"
    request.session.save()
    assert limits.request_person(request) == "a:203.0.113.5"
    request.session["guest_id"] = "g:" + "ab" * 16
    assert limits.request_person(request) == "g:" + "ab" * 16


COUNT_IN_A_PROCESS = """
import django, os
django.setup()
from ludo import limits
print(sum(bool(limits.allow("processes", "a:203.0.113.9", (5, 60.0))) for _ in range(4)))
"""


def test_counts_hold_across_server_processes():
    # Redis on both passes: the suite's, or the local one (the SQLite pass has none of its own).
    require_redis()
    prefix = f"{os.environ.get('CHANNELS_PREFIX', 'test')}-limits-{uuid.uuid4().hex[:8]}"
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "ludo.settings", "REDIS_URL": redis_url(), "CHANNELS_PREFIX": prefix}
    allowed = [int(subprocess.run([sys.executable, "-c", COUNT_IN_A_PROCESS], cwd=ROOT, env=env, check=True,
                                  capture_output=True, text=True).stdout.strip().splitlines()[-1])
               for _ in range(2)]
    assert allowed == [4, 1]
