"""Two hosts pressing the same button at once (real threads, their own
connections): a move happens once, a cancel once."""

from __future__ import annotations

import pytest

from tests.races import race
from tests.tournaments.helpers import guests, host, seats_of_round, tournament_with
from tournaments import services
from tournaments.errors import TournamentError
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_hosts_moving_the_same_players_at_once_move_them_once(alice):
    from ludo.accounts import create_staff_account

    other_host = create_staff_account("hote2", "hote2@example.org", "pw-hote2-123456")
    people = guests(4)
    t = tournament_with(alice, people)
    services.start(t.pk, host(alice))
    seats = seats_of_round(t, 1)
    a = seats[0]
    b = next(s for s in seats if s.pairing_id != a.pairing_id)
    seen = [a.pairing_id, b.pairing_id]
    results = race([lambda: services.swap_players(t.pk, host(alice), a.entrant_id, b.entrant_id, seen),
                    lambda: services.swap_players(t.pk, host(other_host), a.entrant_id, b.entrant_id, seen)],
                   TournamentError)
    assert sorted(results) == [("ok", None), ("refused", "moved_meanwhile")]
    after = {s.entrant_id: s.pairing_id for s in seats_of_round(t, 1)}
    assert after[a.entrant_id] == b.pairing_id and after[b.entrant_id] == a.pairing_id
    assert len(after) == 4


def test_two_hosts_cancelling_at_once_cancel_once(alice):
    people = guests(2)
    t = tournament_with(alice, people)
    services.start(t.pk, host(alice))
    results = race([lambda: services.cancel(t.pk, host(alice))] * 2, TournamentError)
    assert sorted(results) == [("ok", None), ("refused", "over")]
    assert Tournament.objects.get(pk=t.pk).status == Tournament.Status.CANCELLED
