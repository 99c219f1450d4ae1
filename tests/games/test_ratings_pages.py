"""Leaderboards and player profiles: who sees what, the private profile, the
provisional mark, the 90 days of activity, bad input."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone, translation

from games import services
from games.models import Seat, Table
from games.ratings.models import Privacy, Rating, RatingChange
from tests.games.tables_helpers import confirm, member, short_game

pytestmark = pytest.mark.django_db
GAME = "quatre-en-ligne"


@pytest.fixture
def users(db):
    User = get_user_model()
    return [confirm(User.objects.create_user(n, f"{n}@example.org", f"pw-{n}-12345")) for n in ("ana", "ben", "cid")]


def finished_rated_game(ana, ben):
    a, b = member(ana), member(ben)
    table = services.create_table(a, GAME, rated=True)
    services.join_table(table.pk, b)
    Table.objects.filter(pk=table.pk).update(seed=1)
    services.start_table(table.pk, a)
    seats = {s.index: (a if s.user_id == ana.pk else b) for s in Seat.objects.filter(table=table)}
    for seat, move in short_game(GAME, 2, 1, decisive=True):
        services.play_move(table.pk, seats[seat], move, Table.objects.get(pk=table.pk).version)
    return Table.objects.get(pk=table.pk)


def established(user, rating, days_ago=1):
    return Rating.objects.create(user=user, game=GAME, rating=rating, rd=60, games=30,
                                 last_played=timezone.now() - timedelta(days=days_ago))


def test_the_leaderboard_ranks_active_players_and_marks_provisional_ones(client, users):
    ana, ben, cid = users
    table = finished_rated_game(ana, ben)  # both provisional after one game
    established(cid, 1720)
    gone = get_user_model().objects.create_user("dan", "d@example.org", "pw-dan-12345")
    established(gone, 1900, days_ago=91)
    page = client.get(reverse("leaderboard", args=[GAME]))
    assert page.status_code == 200
    ranked = [e["name"] for e in page.context["ranked"]]
    provisional = [e["name"] for e in page.context["provisional"]]
    assert ranked == ["cid"] and sorted(provisional) == ["ana", "ben"]  # dan: inactive for 91 days
    html = page.content.decode()
    assert "1\xa0720" in html  # French grouping (Django's: a no-break space)
    winner = Seat.objects.get(table=table, index=table.outcome["winners"][0]).user
    after = round(Rating.objects.get(user=winner).rating)
    assert f"{after}?" in html.replace("\xa0", "")
    assert "<svg" in html and "polyline" in html  # each player's history, drawn on the server
    assert client.get(reverse("leaderboard", args=["chess"])).status_code == 404
    index = client.get(reverse("leaderboards")).content.decode()
    assert f'href="{reverse("leaderboard", args=[GAME])}"' in index
    with translation.override("en"):
        english = client.get(reverse("leaderboard", args=[GAME]))
    assert english.status_code == 200 and "1,720" in english.content.decode()


def test_profiles_are_for_accounts_and_private_ones_for_their_owner(client, users):
    ana, ben, cid = users
    table = finished_rated_game(ana, ben)
    url = reverse("player_profile", args=["ana"])
    anonymous = client.get(url)
    assert anonymous.status_code == 302 and reverse("login") in anonymous["Location"]
    client.force_login(ben)
    page = client.get(url)
    assert page.status_code == 200
    html = page.content.decode()
    assert reverse("games:replay", args=[table.pk]) in html and "ben" in html
    assert page.context["games"][0]["played"] == 1 and page.context["games"][0]["rating"] is not None
    # Ana makes her profile private, from the profile page itself.
    client.force_login(ana)
    assert client.post(url, {"private": "1"}).status_code == 302
    assert Privacy.objects.get(user=ana).private
    assert client.get(url).status_code == 200  # she still sees it
    client.force_login(ben)
    hidden = client.get(url)
    assert hidden.status_code == 403
    assert reverse("games:replay", args=[table.pk]) not in hidden.content.decode()
    names = [e["name"] for e in client.get(reverse("leaderboard", args=[GAME])).context["provisional"]]
    assert names == ["ben"]  # and she is out of the leaderboard
    # Nobody else may change it; a bad value changes nothing.
    assert client.post(url, {"private": "0"}).status_code == 403
    client.force_login(ana)
    assert client.post(url, {"private": "maybe"}).status_code == 400
    assert Privacy.objects.get(user=ana).private
    assert client.post(url, {"private": "0"}).status_code == 302 and not Privacy.objects.get(user=ana).private
    assert client.get(reverse("player_profile", args=["nobody"])).status_code == 404


def test_a_profile_counts_every_finished_game_and_the_rating_history(client, users):
    ana, ben, _cid = users
    finished_rated_game(ana, ben)
    finished_rated_game(ana, ben)
    client.force_login(ana)
    page = client.get(reverse("player_profile", args=["ana"]))
    game = page.context["games"][0]
    assert game["played"] == 2 and game["win"] + game["loss"] + game["draw"] == 2
    assert RatingChange.objects.filter(user=ana).count() == 2
    assert len(page.context["last"]) == 2 and all(item["change"] for item in page.context["last"])
    assert 'role="img"' in game["chart"]


def test_a_deleted_account_leaves_the_leaderboard_and_the_account_page_links_the_profile(client, users):
    ana, ben, cid = users
    established(ana, 1800)
    established(ben, 1700)
    get_user_model().objects.filter(pk=ben.pk).update(is_active=False)  # what deleting an account leaves
    page = client.get(reverse("leaderboard", args=[GAME]))
    assert [e["name"] for e in page.context["ranked"]] == ["ana"]
    client.force_login(ana)
    account = client.get(reverse("account:home")).content.decode()
    assert f'href="{reverse("player_profile", args=["ana"])}"' in account
