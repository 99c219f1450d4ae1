"""Shared people and history for the account tests (not a test module).

``bob`` (tests/conftest.py) and ``carol`` both have accounts; ``history_of``
gives one of them a booking to come, a past one, a game in play, a finished
one, a chat line and a token, all made through the services, so each test
can check that one account's page shows its own and nothing of the other's.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone, translation

from games import services as tables
from games.bookings import services as bookings
from games.bookings.models import Booking, Session
from games.models import Table
from ludo.tokens import services as tokens
from tests.conftest import PASSWORD


@pytest.fixture
def carol(db):
    return get_user_model().objects.create_user("carol", "carol@example.org", PASSWORD)


def logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return client


def member(user: Any) -> tables.Who:
    return tables.Who(user_id=user.pk, name=user.get_username(), is_staff=bool(user.is_staff))


@dataclass
class History:
    upcoming: Booking
    past: Booking
    running: Table
    finished: Table
    token_name: str


def history_of(user: Any, host: Any, opponent: Any, tag: str) -> History:
    """Bookings, games, a chat line and a token for ``user``; ``tag`` marks their titles."""
    now = timezone.now()
    soon = bookings.create_session(host, starts_at=now + timedelta(days=3), ends_at=now + timedelta(days=3, hours=3),
                                   capacity=8, title=f"Soirée à venir {tag}")
    before = now - timedelta(days=20)
    gone = bookings.create_session(host, starts_at=now - timedelta(days=10), ends_at=now - timedelta(days=10, hours=-3),
                                   capacity=8, title=f"Soirée passée {tag}", now=before)
    upcoming = bookings.book(soon.pk, name=f"{user.username} {tag}", email=user.email, seats=2, user=user)
    past = bookings.book(gone.pk, name=f"{user.username} {tag}", email=user.email, seats=1, user=user, now=before)
    running = tables.create_table(member(user), "drumlin")
    tables.join_table(running.pk, member(opponent))
    tables.start_table(running.pk, member(user))
    tables.post_chat(running.pk, member(user), f"bonne partie {tag}")
    finished = tables.create_table(member(user), "eclaircissement")
    tables.join_table(finished.pk, member(opponent))
    tables.start_table(finished.pk, member(user))
    tables.resign(finished.pk, member(opponent))
    tokens.create_personal_token(user, f"robot {tag}")
    return History(Booking.objects.get(pk=upcoming.pk), Booking.objects.get(pk=past.pk),
                   Table.objects.get(pk=running.pk), Table.objects.get(pk=finished.pk), f"robot {tag}")


__all__ = ["History", "Session", "carol", "history_of", "logged_in", "member"]
