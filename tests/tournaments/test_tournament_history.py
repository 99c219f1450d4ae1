"""A tournament's history: final places kept on the entries, its games in the
play log once it ends (once, whatever the worker's passes), the player's
profile listing it."""

from __future__ import annotations

import pytest
from django.urls import reverse

from catalog.collection.models import Game as Box
from catalog.playlog.models import Play
from games.services.who import Who
from tests.games.tables_helpers import guest
from tests.tournaments.helpers import guests, host, play_round, seats_of_round, tournament_with
from tournaments import jobs, services
from tournaments.models import Entrant, Tournament
from tournaments.playlog import log_games

pytestmark = pytest.mark.django_db


@pytest.fixture
def box(db):
    game = Box(title="Four in a Row", min_players=2, max_players=2, engine_slug="quatre-en-ligne")
    game.save()
    return game


def play_out(t, people, rounds):
    services.start(t.pk, host(t.created_by))
    for _ in range(rounds):
        play_round(t, people)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED


def test_the_games_go_into_the_play_log_once(alice, bob, box):
    bob_who = Who(user_id=bob.pk, name="bob")
    people = guests(4)
    t = tournament_with(alice, [bob_who, *people], rounds=2)
    play_out(t, [bob_who, *people], 2)  # five players: one bye a round, four games
    jobs.run()
    plays = list(Play.objects.filter(game=box).prefetch_related("players").order_by("pk"))
    assert len(plays) == 4
    for play in plays:
        names = [p.name for p in play.players.all()]
        assert len(names) == 2 and sum(p.won for p in play.players.all()) == 1
        assert play.logged_by_id == alice.pk and "Soirée" in play.note
    assert Play.objects.filter(players__user=bob).count() == 2
    # Again, by the worker or by hand: nothing more.
    jobs.run()
    assert log_games(t.pk) == 0
    assert Play.objects.filter(game=box).count() == 4
    # Every entrant has their place: 1 to 5, the standings' order.
    places = sorted(Entrant.objects.filter(tournament=t).values_list("place", flat=True))
    assert places[0] == 1 and None not in places


def test_byes_forfeits_and_cancelled_tournaments_are_not_plays(alice, box):
    people = guests(2)
    t = tournament_with(alice, people, rounds=1)
    services.start(t.pk, host(alice))
    pairing = seats_of_round(t, 1)[0].pairing
    services.adjudicate(t.pk, host(alice), pairing.pk, [0, 0])  # a double forfeit: nobody played
    jobs.run()
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED and t.logged_at is not None
    assert not Play.objects.exists()
    other = tournament_with(alice, guests(3)[1:], rounds=1, name="Annulé")
    services.start(other.pk, host(alice))
    services.cancel(other.pk, host(alice))
    jobs.run()
    other.refresh_from_db()
    assert other.logged_at is None and not Play.objects.exists()
    assert log_games(other.pk) == 0


def test_an_adjudicated_draw_is_logged_as_nobody_won(alice, box):
    people = guests(2)
    t = tournament_with(alice, people, rounds=1)
    services.start(t.pk, host(alice))
    pairing = seats_of_round(t, 1)[0].pairing
    services.adjudicate(t.pk, host(alice), pairing.pk, [0.5, 0.5])
    jobs.run()
    play = Play.objects.get()
    assert not any(p.won for p in play.players.all())


def test_a_game_the_play_log_refuses_leaves_the_others_logged(alice, box):
    # Two guests whose names are one for the play log (case and accents aside)
    # meet at table 1: that game is left out, the other is logged.
    people = [guest("Zoé", "k-zoe-1"), guest("zoe", "k-zoe-2"), guest("Ana"), guest("Ben")]
    t = tournament_with(alice, people, rounds=1)
    services.start(t.pk, host(alice))
    seats = seats_of_round(t, 1)
    tables = {}
    for s in seats:
        tables.setdefault(s.pairing_id, []).append(s.entrant.name)
    if not any(sorted(n) == ["Zoé", "zoe"] for n in tables.values()):
        # Put the two namesakes together by hand (a host's swap before the first move).
        zoe2 = next(s for s in seats if s.entrant.name == "zoe")
        partner = next(s for s in seats if s.pairing_id == next(x for x in seats if x.entrant.name == "Zoé").pairing_id
                       and s.entrant.name != "Zoé")
        services.swap_players(t.pk, host(alice), zoe2.entrant_id, partner.entrant_id)
    play_round(t, people)  # the worker's pass records, ends, then logs
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED and t.logged_at is not None
    assert [p.name for p in Play.objects.get().players.all()] in (["Ana", "Ben"], ["Ben", "Ana"])


def test_without_a_box_in_the_catalogue_nothing_is_logged_and_the_job_goes_on(alice):
    people = guests(2)
    t = tournament_with(alice, people, rounds=1)
    play_out(t, people, 1)
    jobs.run()
    t.refresh_from_db()
    assert t.logged_at is not None and not Play.objects.exists()


def test_the_profile_lists_the_players_tournaments_with_their_place(client, alice, bob, box):
    bob_who = Who(user_id=bob.pk, name="bob")
    people = guests(2)
    t = tournament_with(alice, [bob_who, *people], rounds=2, name="Coupe de Noël")
    tournament_with(alice, [bob_who], name="Pas commencé")  # still open: not listed
    # Bob wins his games: the loser is always the other seat.
    services.start(t.pk, host(alice))
    for _ in range(2):
        play_round(t, [bob_who, *people],
                   loser_seat=lambda p: 1 if p.seats.order_by("seat").first().entrant.user_id == bob.pk else 0)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    client.force_login(bob)
    page = client.get(reverse("player_profile", args=["bob"])).content.decode()
    assert "Coupe de Noël" in page and "Pas commencé" not in page
    assert "data-place" in page and Entrant.objects.get(tournament=t, user=bob).place == 1
