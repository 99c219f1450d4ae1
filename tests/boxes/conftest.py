"""Boxes fixtures: the Drumlin box on shelf D5 with its contents, a Saturday
session it was set aside for (Ana and Ben booked), and a second host, hugo."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.utils import timezone

from boxes import contents
from catalog.collection.models import Game
from catalog.shelves import services as shelves
from games.bookings import services as bookings
from games.bookings.services import copies as reservations
from tests.conftest import PASSWORD

DRUMLIN = [
    contents.Line("Plateau", "tablier de jeu", 1, True),
    contents.Line("Pièces", "pièces roses", 12),
    contents.Line("Pièces", "pièces violettes", 12),
    contents.Line("Pièces", "Drumlin", 1, True),
]


def game(title: str, slug: str, **fields) -> Game:
    g = Game(title=title, slug=slug, min_players=2, max_players=4, min_time=20, max_time=45, min_age=8,
             owned_count=500, **fields)
    g.save()
    return g


@pytest.fixture
def hugo(db):
    from ludo.accounts import create_staff_account

    return create_staff_account("hugo", "hugo@example.org", PASSWORD)


@pytest.fixture
def drumlin(db):
    g = game("Drumlin", "drumlin")
    contents.set_game_items(g, DRUMLIN)
    return g


@pytest.fixture
def box(drumlin):
    return shelves.add_copy(drumlin, "D5")


def saturday_session(host, copy, start: datetime, names=("Ana", "Ben", "Chloé", "Dan")):
    """A past session (created the day before it) with the copy set aside and bookings."""
    before = start - timedelta(days=1)
    session = bookings.create_session(host, starts_at=start, ends_at=start + timedelta(hours=3), capacity=8,
                                      title="Soirée", games=[copy.game], now=before)
    for i, name in enumerate(names):
        bookings.book(session.pk, name=name, email=f"guest{i}@example.org", seats=1, now=before)
    reservations.reserve_copy(session.pk, copy.pk, host, now=before)
    return session


@pytest.fixture
def evening(alice, box):
    start = timezone.make_aware(datetime(2026, 11, 14, 20, 0))  # a Saturday, 20:00 in Paris
    return saturday_session(alice, box, start)
