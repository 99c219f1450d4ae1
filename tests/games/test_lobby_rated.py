"""The lobby's "Create a table" form offers a rated game to accounts whose address is
confirmed (games.ratings.eligibility), as the API does; a guest or an unconfirmed
account sees why not, and a forged rated request from them creates nothing."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.urls import reverse

from games.models import Table
from tests.conftest import PASSWORD
from tests.games.tables_helpers import confirm, guest_session

pytestmark = pytest.mark.django_db
FORM = {"game": "quatre-en-ligne", "seats-quatre-en-ligne": "2", "seat-1": "easy", "clock": "none", "rated": "on"}


def rated_box(client) -> str:
    html = client.get(reverse("games:play")).content.decode()
    start = html.index("<input type=\"checkbox\" name=\"rated\"")
    return html[start:html.index(">", start)] + html[html.index('id="rated-help"'):][:300]


def test_a_confirmed_account_creates_a_rated_table_from_the_lobby(client):
    ana = confirm(get_user_model().objects.create_user("ana", "ana@example.org", PASSWORD))
    client.force_login(ana)
    assert "disabled" not in rated_box(client).split(">")[0]
    answer = client.post(reverse("games:create"), FORM)
    table = Table.objects.get()
    assert answer.status_code == 302 and answer.url == reverse("games:table", args=[table.pk])
    assert table.rated and table.seats.get(index=1).bot_level == "easy"
    # Without the box ticked, the table is not rated.
    client.post(reverse("games:create"), {**FORM, "rated": ""})
    assert [t.rated for t in Table.objects.order_by("pk")] == [True, False]


def test_a_guest_sees_why_not_and_a_forged_rated_request_creates_nothing(client):
    client.cookies[settings.SESSION_COOKIE_NAME] = guest_session("Zoé")
    box = rated_box(client)
    assert "disabled" in box.split(">")[0] and "connectez-vous ou créez un compte" in box
    answer = client.post(reverse("games:create"), FORM, follow=True)
    assert not Table.objects.exists()
    assert "Les tables classées sont réservées aux joueurs qui ont un compte." in answer.content.decode()


def test_an_unconfirmed_account_is_told_to_confirm_and_cannot_create_one(client):
    ben = get_user_model().objects.create_user("ben", "ben@example.org", PASSWORD)
    client.force_login(ben)
    box = rated_box(client)
    assert "disabled" in box.split(">")[0] and "adresse confirmée" in box
    client.post(reverse("games:create"), FORM)
    assert not Table.objects.exists()
