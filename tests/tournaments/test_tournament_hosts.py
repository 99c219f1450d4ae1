"""The hosts' tools, as an attacker tries them: a tournament from a booked
session's page, moving players (onto the bye too), adjudicating, cancelling;
a guest or a player pressing the hosts' buttons, two hosts pressing at once,
a host acting through one tournament on another's tables."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournaments.helpers import guests, host, seats_of_round, tournament_with
from tournaments import services
from tournaments.errors import TournamentError
from tournaments.models import Pairing, PairingSeat, Tournament

pytestmark = pytest.mark.django_db


def refused(code, call, *args, **kwargs):
    with pytest.raises(TournamentError) as info:
        call(*args, **kwargs)
    assert info.value.code == code


def state(t: Tournament) -> tuple:
    """Everything a host action could change: status, round, seating, tables, points."""
    t.refresh_from_db()
    seats = tuple(PairingSeat.objects.filter(round__tournament=t).order_by("pk")
                  .values_list("pairing_id", "entrant_id", "points", "pairing__table_id", "pairing__recorded_at"))
    return (t.status, t.current_round, t.code, seats)


def started(alice, n=5, **options):
    people = guests(n)
    t = tournament_with(alice, people, **options)
    services.start(t.pk, host(alice))
    return t, people


def test_a_guest_or_a_player_pressing_the_hosts_buttons_changes_nothing(alice, bob):
    t, _people = started(alice)
    seats = seats_of_round(t, 1)
    games = [s for s in seats if not s.pairing.bye]
    before = state(t)
    phone = Client()
    phone.post(reverse("tournaments:code", args=[t.code]), {"name": "Intrus"})  # a late guest, refused entry
    player = Client()
    player.force_login(bob)
    act = reverse("tournaments:act", args=[t.pk])
    for client in (phone, player, Client()):
        for post in ({"action": "next", "round": "1"}, {"action": "cancel"},
                     {"action": "adjudicate", "pairing": games[0].pairing_id, "result": "1-0"},
                     {"action": "swap", "first": f"{games[0].entrant_id}-{games[0].pairing_id}",
                      "second": f"{games[2].entrant_id}-{games[2].pairing_id}"}):
            response = client.post(act, post)
            assert response.status_code == 302
    assert state(t) == before
    # The services say why, to anyone who calls them directly.
    who = guests(1)[0]
    refused("staff_only", services.cancel, t.pk, who)
    refused("staff_only", services.swap_players, t.pk, who, games[0].entrant_id, games[2].entrant_id)
    refused("staff_only", services.adjudicate, t.pk, who, games[0].pairing_id, [1, 0])


def test_a_host_cannot_reach_another_tournaments_tables_through_this_one(alice):
    t, _ = started(alice, 4)
    other, _ = started(alice, 4, name="Autre")
    mine, theirs = seats_of_round(t, 1), seats_of_round(other, 1)
    before = (state(t), state(other))
    refused("bad_pairing", services.adjudicate, t.pk, host(alice), theirs[0].pairing_id, [1, 0])
    refused("bad_pairing", services.swap_players, t.pk, host(alice), mine[0].entrant_id, theirs[0].entrant_id)
    refused("bad_pairing", services.swap_players, t.pk, host(alice), "x", mine[0].entrant_id)
    # Ids no column can hold (enumerating with huge numbers) are refused the same way.
    refused("bad_pairing", services.swap_players, t.pk, host(alice), "9" * 23, mine[0].entrant_id)
    across = next(s for s in mine if s.pairing_id != mine[0].pairing_id)
    refused("bad_pairing", services.swap_players, t.pk, host(alice), mine[0].entrant_id, across.entrant_id,
            [mine[0].pairing_id, "9" * 23])
    refused("bad_pairing", services.adjudicate, t.pk, host(alice), str(2**63), [1, 0])
    staff = Client()
    staff.force_login(alice)
    staff.post(reverse("tournaments:act", args=[t.pk]),
               {"action": "adjudicate", "pairing": theirs[0].pairing_id, "result": "1-0"})
    staff.post(reverse("tournaments:act", args=[t.pk]),
               {"action": "swap", "first": f"{mine[0].entrant_id}-{mine[0].pairing_id}",
                "second": f"{theirs[0].entrant_id}-{theirs[0].pairing_id}"})
    assert (state(t), state(other)) == before


def test_a_player_is_moved_onto_the_bye_and_the_bye_keeps_its_point(alice):
    t, _ = started(alice, 5)
    seats = seats_of_round(t, 1)
    bye = next(s for s in seats if s.pairing.bye)
    player = next(s for s in seats if not s.pairing.bye)
    staff = Client()
    staff.force_login(alice)
    staff.post(reverse("tournaments:act", args=[t.pk]),
               {"action": "swap", "first": f"{player.entrant_id}-{player.pairing_id}",
                "second": f"{bye.entrant_id}-{bye.pairing_id}"})
    after = {s.entrant_id: s for s in seats_of_round(t, 1)}
    assert after[player.entrant_id].pairing_id == bye.pairing_id and after[player.entrant_id].points == 1.0
    moved = after[bye.entrant_id]
    assert moved.pairing_id == player.pairing_id and moved.points is None
    table = Pairing.objects.get(pk=player.pairing_id).table
    assert table.pk != player.pairing.table_id
    assert bye.entrant.guest_key in {s.guest_key for s in table.seats.all()}
    # A stale page (the pairings it showed before the move) is refused.
    refused("moved_meanwhile", services.swap_players, t.pk, host(alice), player.entrant_id, bye.entrant_id,
            [player.pairing_id, bye.pairing_id])


def test_the_sessions_page_offers_a_tournament_for_its_guests(alice, make_session):
    session = make_session()
    staff = Client()
    staff.force_login(alice)
    page = staff.get(reverse("bookings:staff_session", args=[session.pk])).content.decode()
    link = f"{reverse('tournaments:new')}?session={session.pk}"
    assert link in page
    form = staff.get(link).content.decode()
    assert f'name="session" value="{session.pk}"' in form
    staff.post(link, {"name": "Coupe du soir", "game": "drumlin", "format": "swiss", "rounds": "3",
                      "clock": "none", "round_pause": "30", "session": str(session.pk), "guests": "on"})
    t = Tournament.objects.get(name="Coupe du soir")
    assert t.session_id == session.pk
    page = staff.get(reverse("bookings:staff_session", args=[session.pk])).content.decode()
    assert reverse("tournaments:screen", args=[t.pk]) in page


@pytest.fixture
def make_session(alice):
    from datetime import timedelta

    from django.utils import timezone

    from games.bookings import services as bookings

    def make():
        start = timezone.now() + timedelta(days=2)
        return bookings.create_session(alice, starts_at=start, ends_at=start + timedelta(hours=3), capacity=10,
                                       title="Soirée jeux")
    return make
