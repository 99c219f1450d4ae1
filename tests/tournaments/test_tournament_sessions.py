"""A tournament for a booked session: its confirmed bookings with an account are entered."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games.bookings import services as bookings
from tests.bookings.conftest import make_session, now  # noqa: F401 - fixtures
from tests.tournaments.helpers import host
from tournaments import services
from tournaments.errors import TournamentError

pytestmark = pytest.mark.django_db


def test_the_sessions_booked_accounts_are_entered(alice, make_session, now):  # noqa: F811
    session = make_session(capacity=10)
    carol = get_user_model().objects.create_user("carol", "carol@example.org", "pw-carol-12345")
    bookings.book(session.pk, seats=2, now=now, name="Carol", email="carol@example.org", user=carol)
    bookings.book(session.pk, seats=1, now=now, name="Sans compte", email="x@example.org")
    t = services.create_tournament(host(alice), name="Soirée", game="drumlin", session_id=session.pk)
    assert list(t.entrants.values_list("name", flat=True)) == ["carol"]
    with pytest.raises(TournamentError) as info:
        services.create_tournament(host(alice), name="Soirée", game="drumlin", session_id=999999)
    assert info.value.code == "bad_session"
