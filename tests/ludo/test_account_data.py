"""Export of my data (a JSON download of everything stored about me, never a
secret) and deletion of my account (bookings and games kept, anonymised)."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client

from games.bookings.models import Booking
from games.models import ChatMessage, Seat, Table
from ludo import worker
from ludo.models import Profile
from ludo.tokens import services as tokens
from ludo.tokens.models import PersonalToken
from tests.conftest import PASSWORD
from tests.ludo.account_helpers import carol, history_of, logged_in  # noqa: F401

pytestmark = pytest.mark.django_db
# Deleting runs in one transaction, its emails leave after the commit (as in production): real transactions.
deletes = pytest.mark.django_db(transaction=True)


def test_the_export_holds_everything_about_me_and_no_secret(bob, carol, alice):
    mine = history_of(bob, alice, carol, "B")
    history_of(carol, alice, bob, "C")
    Profile.objects.create(user=bob, language="en")
    response = logged_in(bob).get("/en/account/export/")
    assert response.status_code == 200 and response["Content-Type"].startswith("application/json")
    assert response["Content-Disposition"].startswith("attachment; filename=\"ludo-")
    assert "no-store" in response["Cache-Control"]
    data = json.loads(response.content)
    assert data["account"]["username"] == "bob" and data["account"]["email"] == "bob@example.org"
    assert data["preferences"] == {"language": "en"}
    assert {b["session"]["title"] for b in data["bookings"]} == {"Soirée à venir B", "Soirée passée B"}
    tables = {g["table"] for g in data["games"]}
    # bob's own tables, and carol's where he sat as her opponent.
    assert {mine.running.pk, mine.finished.pk} <= tables and len(tables) == 4
    assert [m["text"] for m in data["chat_messages"]] == ["bonne partie B"]
    assert [t["name"] for t in data["api_tokens"]] == ["robot B"]
    text = response.content.decode()
    row = PersonalToken.objects.get(user=bob)
    assert row.digest not in text and "ludo_pat_" + row.prefix + "…" in text
    assert str(Table.objects.get(pk=mine.running.pk).seed) not in text
    assert "Soirée à venir C" not in text and "robot C" not in text and "pbkdf2" not in text and "md5$" not in text


@deletes
def test_deleting_needs_my_password_and_changes_nothing_without_it(bob, carol, alice):
    history_of(bob, alice, carol, "B")
    response = logged_in(bob).post("/compte/suppression/", {"password": "wrong", "confirm": "on"})
    assert response.status_code == 400 and "Ce n’est pas votre mot de passe." in response.content.decode()
    response = logged_in(bob).post("/compte/suppression/", {"password": PASSWORD})
    assert response.status_code == 400
    user = get_user_model().objects.get(pk=bob.pk)
    assert user.is_active and user.username == "bob"
    assert Booking.objects.filter(user=bob, status="confirmed").count() == 2


@deletes
def test_deleting_my_account_keeps_bookings_and_games_anonymised(bob, carol, alice):
    mine = history_of(bob, alice, carol, "B")
    _, token = tokens.create_personal_token(bob, "second")
    worker.run_once(["bookings.emails"])  # the bookings' own emails, sent before
    mail.outbox.clear()
    client = logged_in(bob)
    response = client.post("/compte/suppression/", {"password": PASSWORD, "confirm": "on"})
    assert response.status_code == 302 and response["Location"] == "/"

    user = get_user_model().objects.get(pk=bob.pk)
    assert not user.is_active and not user.has_usable_password()
    assert user.username == f"deleted:{bob.pk}" and user.email == "" and user.first_name == ""
    # The booking to come is cancelled (its email, sent by the worker, goes to the real address);
    # both are kept, anonymised.
    assert mail.outbox == []  # nothing sent inside the request
    worker.run_once(["bookings.emails"])
    assert [m.to for m in mail.outbox] == [["bob@example.org"]]
    upcoming, past = Booking.objects.get(pk=mine.upcoming.pk), Booking.objects.get(pk=mine.past.pk)
    assert upcoming.status == "cancelled" and past.status == "confirmed"
    for booking in (upcoming, past):
        assert booking.name == "Compte supprimé" and "bob" not in booking.email and booking.email.endswith("@invalid")
    # Games kept; the seat is still taken (not a free seat), under the new name.
    seats = Seat.objects.filter(user=bob)
    assert seats.count() == 2 and {s.name for s in seats} == {"Compte supprimé"}
    assert Table.objects.get(pk=mine.finished.pk).status == "finished"
    assert Table.objects.get(pk=mine.running.pk).status == "finished"  # resigned: carol won
    assert Table.objects.get(pk=mine.running.pk).outcome["winners"] == [1]
    assert set(ChatMessage.objects.filter(user=bob).values_list("name", flat=True)) == {"Compte supprimé"}
    assert not PersonalToken.objects.filter(user=bob).exists() and tokens.authenticate(token) is None
    # Logged out, and the password no longer opens anything.
    assert client.get("/compte/").status_code == 302
    for name in ("bob", f"deleted:{bob.pk}"):
        refused = Client().post("/compte/connexion/", {"username": name, "password": PASSWORD})
        assert refused.status_code == 200 and "_auth_user_id" not in refused.wsgi_request.session
    # carol's own rows are untouched.
    assert Seat.objects.filter(user=carol).exclude(name="carol").count() == 0
    assert get_user_model().objects.get(pk=carol.pk).is_active


@deletes
def test_two_deleted_accounts_can_share_a_past_session(bob, carol, alice):
    from datetime import timedelta

    from django.utils import timezone

    from games.bookings import services

    before = timezone.now() - timedelta(days=20)
    session = services.create_session(alice, starts_at=before + timedelta(days=5),
                                      ends_at=before + timedelta(days=5, hours=3), capacity=8, now=before)
    for user in (bob, carol):
        services.book(session.pk, name=user.username, email=user.email, seats=1, user=user, now=before)
        logged_in(user).post("/compte/suppression/", {"password": PASSWORD, "confirm": "on"})
    assert set(Booking.objects.filter(session=session).values_list("name", flat=True)) == {"Compte supprimé"}
    assert Booking.objects.filter(session=session, status="confirmed").count() == 2


def test_the_deletion_page_is_in_english_under_en(bob):
    html = logged_in(bob).get("/en/account/delete/").content.decode()
    assert "<h1>Delete my account</h1>" in html and "Deleted account" in html
