"""The hosts manage plays in the admin too: listed with their players and
winners, changed with the play log's rules checked on save."""

from __future__ import annotations

import pytest
from django.urls import reverse

from catalog.playlog import services
from catalog.playlog.models import Play
from catalog.playlog.services import Author
from tests.playlog.conftest import entry

pytestmark = pytest.mark.django_db


def test_the_hosts_group_holds_the_play_logs_permissions(alice, bob):
    assert alice.has_perm("playlog.change_play") and alice.has_perm("playlog.delete_play")
    assert not bob.has_perm("playlog.change_play")


def test_the_admin_lists_plays_with_players_and_winners(client, alice, bob, ticket):
    services.log_play(Author(bob), entry(ticket, ("Bob", None, True), ("Anne", None, False)))
    client.force_login(alice)
    html = client.get(reverse("admin:playlog_play_changelist")).content.decode()
    assert "Bob, Anne" in html and "Les Aventuriers du Rail" in html


def _form(play, rows):
    data = {"game": play.game_id, "played_on": play.played_on.isoformat(), "note": "",
            "players-TOTAL_FORMS": len(rows), "players-INITIAL_FORMS": play.players.count(),
            "players-MIN_NUM_FORMS": 0, "players-MAX_NUM_FORMS": 1000}
    existing = list(play.players.all())
    for i, (name, score, won) in enumerate(rows):
        data.update({f"players-{i}-name": name, f"players-{i}-score": "" if score is None else score,
                     f"players-{i}-position": i, f"players-{i}-play": play.pk})
        if i < len(existing):
            data[f"players-{i}-id"] = existing[i].pk
        if won:
            data[f"players-{i}-won"] = "on"
    return data


def test_the_admin_refuses_a_play_breaking_the_rules_and_saves_a_good_one(client, alice, bob, ticket):
    play = services.log_play(Author(bob), entry(ticket, ("Bob", 10, True), ("Anne", 5, False)))
    client.force_login(alice)
    url = reverse("admin:playlog_play_change", args=[play.pk])
    assert client.get(url).status_code == 200
    response = client.post(url, _form(play, [("Bob", 10, False), ("Anne", 5, True)]))
    assert response.status_code == 200 and "le meilleur score est 10" in response.content.decode()
    assert [p.won for p in Play.objects.get().players.all()] == [True, False]
    response = client.post(url, _form(play, [("Bob", 10, True), ("Anne", 12, False)]))
    assert response.status_code == 200 and "le meilleur score est 12" in response.content.decode()
    response = client.post(url, _form(play, [("Bob", 10, True), ("Anne", 7, False)]))
    assert response.status_code == 302
    assert [p.score for p in Play.objects.get().players.all()] == [10, 7]
