"""Play log fixtures: boxes on the shelves, a session under way today with a
confirmed booking (its emailed link is the guests' way in), and an entry maker.

Personas: ``alice`` a host, ``bob`` an account; carol booked the session
without an account; dave is another account.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone, translation

from catalog.collection.models import Game, GameName, refresh_titles
from catalog.playlog import rules
from catalog.playlog.rules import Entry, Seat
from catalog.playlog.services import Author
from catalog.shelves import services as shelves
from games.bookings import services as bookings, tokens
from tests.conftest import PASSWORD


@pytest.fixture(autouse=True)
def _site_language():
    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.deactivate()


def box(title: str, french: str | None = None, **fields) -> Game:
    game = Game(title=title, min_players=2, max_players=5, min_time=30, max_time=45, min_age=8, **fields)
    game.save()
    if french:
        GameName.objects.create(game=game, language="fr", name=french, primary=True)
        refresh_titles([game])
        game.refresh_from_db()
    shelves.add_copy(game, f"A{game.pk % 1000}")
    return game


@pytest.fixture
def ticket(db):
    return box("Ticket to Ride", "Les Aventuriers du Rail", owned_count=1000)


@pytest.fixture
def azul(db):
    return box("Azul", owned_count=900)


@pytest.fixture
def dave(db):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user("dave", "dave@example.org", PASSWORD)


@pytest.fixture
def session_today(alice, ticket):
    """A session that started an hour ago and ends in two hours."""
    now = timezone.now()
    return bookings.create_session(alice, starts_at=now - timedelta(hours=1), ends_at=now + timedelta(hours=2),
                                   capacity=10, title="Soirée jeux", games=[ticket])


@pytest.fixture
def carol_booking(session_today):
    """Carol's party of three, booked the day before, without an account."""
    return bookings.book(session_today.pk, name="Carol", email="carol@example.org", seats=3,
                         now=session_today.starts_at - timedelta(days=1))


@pytest.fixture
def bob_booking(session_today, bob):
    return bookings.book(session_today.pk, name="Bob Martin", email="bob@example.org", seats=1, user=bob,
                         now=session_today.starts_at - timedelta(days=1))


@pytest.fixture
def carol_token(carol_booking):
    return tokens.manage_token(carol_booking)


@pytest.fixture
def carol(carol_booking):
    return Author(None, carol_booking)


def entry(game, *seats, day=None, **fields) -> Entry:
    """An entry: seats as (name, score, won) tuples or Seat objects."""
    made = [s if isinstance(s, Seat) else Seat(*s) for s in seats]
    return Entry(game.pk if game is not None else None, day or timezone.localdate(), made, **fields)


def post_data(game, *rows, day=None, **flags) -> dict:
    """The form's fields: rows as (name, score, won)."""
    data = {"game": game.pk if game else "", "played_on": (day or timezone.localdate()).isoformat(),
            "rows": len(rows), "note": flags.pop("note", "")}
    for i, (name, score, won) in enumerate(rows):
        data[f"player-{i}-name"] = name
        data[f"player-{i}-score"] = "" if score is None else str(score)
        if won:
            data[f"player-{i}-won"] = "on"
    data.update({k: "on" for k, v in flags.items() if v})
    return data


__all__ = ["box", "entry", "post_data", "rules"]
