"""A rate-limited route refuses before it does its expensive work, not after.

``/api/guest`` read every account's username (the reserved-name check) before
looking at the address's budget: a flood of refused requests still cost a scan of
the accounts each. Same for the booking proposal form (its game field searches the
collection) and quick play (it wrote a guest session before the budget).
"""

from __future__ import annotations

import pytest
from django.contrib.sessions.models import Session
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

pytestmark = pytest.mark.django_db

ADDRESS = "203.0.113.40"


def _tables_read(queries) -> str:
    return " ".join(query["sql"] for query in queries).lower()


def test_a_refused_guest_token_request_reads_no_account(settings, bob):
    settings.LUDO_GUEST_TOKEN_RATE_LIMIT = (2, 3600.0)
    client = Client(REMOTE_ADDR=ADDRESS)
    for n in range(2):
        assert client.post("/api/guest", {"name": f"Zoé {n}"}, content_type="application/json").status_code == 201
    with CaptureQueriesContext(connection) as queries:
        response = client.post("/api/guest", {"name": "Zoé 3"}, content_type="application/json")
    assert response.status_code == 429
    assert "auth_user" not in _tables_read(queries.captured_queries)


def test_an_account_name_still_counts_and_is_still_refused(settings, bob):
    settings.LUDO_GUEST_TOKEN_RATE_LIMIT = (2, 3600.0)
    client = Client(REMOTE_ADDR=ADDRESS)
    taken = client.post("/api/guest", {"name": "BOB"}, content_type="application/json")
    assert taken.status_code == 409 and taken.json()["code"] == "name_taken"
    assert client.post("/api/guest", {"name": "Zoé"}, content_type="application/json").status_code == 201
    # The taken name counted: the budget of 2 is spent.
    assert client.post("/api/guest", {"name": "Léa"}, content_type="application/json").status_code == 429


def test_a_refused_proposal_does_not_search_the_collection(settings):
    settings.BOOKINGS_FORM_LIMITS = {"address": (1, 600), "email": (100, 600)}
    client = Client(REMOTE_ADDR=ADDRESS)
    form = {"game": "Azul", "name": "Zoé", "email": "zoe@example.org"}
    client.post(reverse("bookings:propose"), form)
    with CaptureQueriesContext(connection) as queries:
        response = client.post(reverse("bookings:propose"), form)
    assert response.status_code == 429
    assert "catalog_game" not in _tables_read(queries.captured_queries)


def test_refused_quick_play_writes_no_guest_session(settings):
    settings.LUDO_RATE_LIMITS = {"table-create": {"address": (1, 300.0)}}
    assert Client(REMOTE_ADDR=ADDRESS).post(reverse("games:quick"), {"game": "drumlin"}).status_code == 302
    sessions = Session.objects.count()
    refused = Client(REMOTE_ADDR=ADDRESS).post(reverse("games:quick"), {"game": "drumlin"})
    assert refused.status_code == 429
    assert Session.objects.count() == sessions and "sessionid" not in refused.cookies
