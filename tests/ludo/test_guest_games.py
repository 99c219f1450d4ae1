"""A guest's finished games are carried into the account they create from the same
browser (ludo.account.guest_games): only the games of the session doing the sign-up,
never another session's (whatever the form says), only finished ones, and once."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.sessions.backends.db import SessionStore
from django.urls import reverse

from games import services
from games.models import Seat, Table
from ludo.account.guest_games import carry_over
from ludo.guests import GUEST_ID_KEY
from tests.conftest import PASSWORD
from tests.games.tables_helpers import guest_session

pytestmark = pytest.mark.django_db


def identity(session_key: str) -> str:
    return SessionStore(session_key=session_key)[GUEST_ID_KEY]


def played(key: str, name: str, finish: bool = True) -> Table:
    """A quick table of the guest ``key`` against a bot; resigned (finished) or still in play."""
    who = services.Who(guest_key=key, name=name)
    table = services.create_table(who, "quatre-en-ligne", 2)
    services.add_bots(table.pk, who, "easy", [1])
    services.start_table(table.pk, who)
    if finish:
        services.resign(table.pk, who)
    return Table.objects.get(pk=table.pk)


def sign_up(client, username: str, **extra: str):
    return client.post(reverse("signup"), {"username": username, "email": "", "password1": PASSWORD,
                                           "password2": PASSWORD, **extra}, follow=True)


def test_sign_up_carries_this_sessions_finished_games_and_nobody_elses(client):
    mine, theirs = guest_session("Zoé"), guest_session("Max")
    zoe_key, max_key = identity(mine), identity(theirs)
    finished, running, other = played(zoe_key, "Zoé"), played(zoe_key, "Zoé", finish=False), played(max_key, "Max")
    assert finished.status == Table.Status.FINISHED and running.status == Table.Status.RUNNING
    client.cookies[settings.SESSION_COOKIE_NAME] = mine
    # The form naming another session's identity changes nothing: only the session counts.
    page = sign_up(client, "zoe", guest_id=max_key, guest_key=max_key)
    zoe = get_user_model().objects.get(username="zoe")
    assert list(Seat.objects.filter(user=zoe).values_list("table_id", flat=True)) == [finished.pk]
    assert Seat.objects.get(table=finished, index=0).guest_key == ""
    assert Table.objects.get(pk=finished.pk).created_by_id == zoe.pk
    # The game still in play keeps the guest identity (its socket and clock know the seat by it).
    assert Seat.objects.get(table=running, index=0).guest_key == zoe_key
    # Max's game stays his.
    assert Seat.objects.get(table=other, index=0).guest_key == max_key
    assert not Seat.objects.filter(table=other, user__isnull=False).exists()
    assert "Votre partie finie en invité est maintenant dans votre compte." in page.content.decode()
    assert f'href="{reverse("games:replay", args=[finished.pk])}"' in client.get(reverse("account:home")).content.decode()


def test_it_happens_once_and_the_identity_is_forgotten(client):
    mine = guest_session("Zoé")
    key = identity(mine)
    tables = [played(key, "Zoé"), played(key, "Zoé")]
    client.cookies[settings.SESSION_COOKIE_NAME] = mine
    page = sign_up(client, "zoe")
    assert "Vos 2 parties finies en invité sont maintenant dans votre compte." in page.content.decode()
    assert GUEST_ID_KEY not in client.session
    # Someone holding the old identity later (a copied session) has nothing left to claim.
    other = get_user_model().objects.create_user("max", "", PASSWORD)
    assert carry_over({GUEST_ID_KEY: key}, other) == 0
    zoe = get_user_model().objects.get(username="zoe")
    assert Seat.objects.filter(table__in=tables, user=zoe).count() == 2


@pytest.mark.parametrize("held", [None, "", "not-an-identity", "session-zoé"])
def test_a_session_without_a_guest_identity_carries_nothing(held, db):
    played("g:" + "0" * 32, "Zoé")
    user = get_user_model().objects.create_user("zoe", "", PASSWORD)
    session = {} if held is None else {GUEST_ID_KEY: held}
    assert carry_over(session, user) == 0
    assert not Seat.objects.filter(user=user).exists()
