"""Accounts, round two of the hardening (issue 29), tried as an attacker would:
a name squatted to block someone's deletion, a deleted account's socket still
talking, a borrowed session moving the address, tokens outliving a reset,
the email form telling which addresses have accounts, look-alike names, and
what a deletion or an export leaves out."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client

from catalog.collection.models import Game
from catalog.playlog.models import Play, Player
from games import services as tables
from games.bookings.models import Booking, VerifiedAddress
from games.bookings.outbox import OutgoingEmail
from games.models import ChatMessage, Connection, Seat, Table
from games.protocol import TableError
from games.ratings.models import Privacy
from ludo import worker
from ludo.accounts import NameTaken, clean_guest_name, is_confirmed, name_is_reserved
from ludo.signals import credentials_changed
from ludo.tokens import services as tokens
from tests.conftest import PASSWORD
from tests.ludo.account_helpers import carol, history_of, logged_in, member  # noqa: F401

pytestmark = pytest.mark.django_db
# Deletion and credentials changes act after the commit (emails, signals): real transactions.
committed = pytest.mark.django_db(transaction=True)
NEW_PASSWORD = "un tout autre mot de passe"


@pytest.fixture
def signals():
    """Every credentials_changed sent, as (user_id, reason, token_ids, keep_session)."""
    sent: list[tuple] = []

    def receive(sender, user_id, reason, token_ids, keep_session, **kwargs):
        sent.append((user_id, reason, sorted(token_ids), keep_session))

    credentials_changed.connect(receive, dispatch_uid="test-account-hardening")
    yield sent
    credentials_changed.disconnect(dispatch_uid="test-account-hardening")


def user_row(user):
    return get_user_model().objects.get(pk=user.pk)


def delete(client) -> int:
    return client.post("/compte/suppression/", {"password": PASSWORD, "confirm": "on"}).status_code


def send_outbox() -> list:
    mail.outbox.clear()
    worker.run_once(["bookings.emails"])
    return list(mail.outbox)


# -- 5. nobody can block a deletion ------------------------------------------------------------

def test_sign_up_refuses_the_names_deleted_accounts_go_by(bob):
    for name in (f"deleted-{bob.pk}", f"Deleted_{bob.pk}", "deleted", "supprime-3"):
        response = Client().post("/compte/inscription/", {"username": name, "password1": PASSWORD,
                                                          "password2": PASSWORD})
        assert response.status_code == 200 and "errorlist" in response.content.decode(), name
        assert not get_user_model().objects.filter(username=name).exists()


@committed
def test_a_squatted_name_cannot_block_a_deletion(bob, carol, alice):
    """An account named ``deleted-<id>`` from before the names were reserved (or made by
    hand) made the victim's deletion fail with a 500 after their bookings were cancelled."""
    mine = history_of(bob, alice, carol, "B")
    for pk in range(bob.pk, bob.pk + 3):
        get_user_model().objects.create_user(f"deleted-{pk}", "", PASSWORD)
    assert delete(logged_in(bob)) == 302
    shell = user_row(bob)
    assert not shell.is_active and shell.username != "bob" and shell.email == ""
    assert Booking.objects.get(pk=mine.upcoming.pk).status == "cancelled"
    assert get_user_model().objects.filter(username__startswith="deleted-").count() == 3  # untouched


@committed
def test_a_deletion_that_fails_changes_nothing(bob, carol, alice, monkeypatch):
    """One transaction: a failure on the last step leaves bookings, games and account as they were."""
    mine = history_of(bob, alice, carol, "B")

    def broken(self):
        raise RuntimeError("disk full")

    monkeypatch.setattr(get_user_model(), "set_unusable_password", broken)
    client = logged_in(bob)
    client.raise_request_exception = False
    assert delete(client) == 500
    row = user_row(bob)
    assert row.is_active and row.username == "bob" and row.email == "bob@example.org"
    assert Booking.objects.get(pk=mine.upcoming.pk).status == "confirmed"
    assert Table.objects.get(pk=mine.running.pk).status == "running"
    assert Seat.objects.get(table=mine.running, user=bob).name == "bob"
    assert send_outbox() == [] or all("annul" not in m.subject.lower() for m in mail.outbox)


# -- 4. a deleted account's socket writes nothing back -------------------------------------------

@committed
def test_a_deleted_accounts_open_socket_cannot_chat_sit_or_write_its_name_back(bob, carol, alice, signals):
    mine = history_of(bob, alice, carol, "B")
    socket_who = member(bob)  # what a socket opened before the deletion holds
    waiting = tables.create_table(member(carol), "drumlin")
    assert delete(logged_in(bob)) == 302
    assert (bob.pk, "deleted", [], "") in signals
    for action in (lambda: tables.post_chat(mine.finished.pk, socket_who, "je suis encore là"),
                   lambda: tables.join_table(waiting.pk, socket_who),
                   lambda: tables.create_table(socket_who, "drumlin")):
        with pytest.raises(TableError):
            action()
    tables.connect(mine.finished.pk, "ch-1", socket_who, None)  # a socket's presence: not recorded
    assert not Connection.objects.filter(user=bob).exists()
    assert not ChatMessage.objects.filter(name="bob").exists()
    assert not Seat.objects.filter(name="bob").exists() and not Table.objects.filter(creator_name="bob").exists()


# -- 10. a borrowed session cannot take the account over ------------------------------------------

@committed  # (the worker's round closes old connections)
def test_the_email_change_needs_the_current_password(bob):
    thief = logged_in(bob)  # a session left open on a shared computer
    for password in ("", "guess"):
        response = thief.post("/compte/adresse/", {"email": "thief@evil.example", "password": password})
        assert response.status_code == 400
    assert not send_outbox() and user_row(bob).email == "bob@example.org"


@committed
def test_a_password_reset_ends_the_thiefs_session_and_older_tokens(bob, signals):
    thief = logged_in(bob)
    _, stolen = tokens.create_personal_token(bob, "made by the thief")
    Client().post("/compte/mot-de-passe/oubli/", {"email": "bob@example.org"})
    link = re.search(r"https?://\S+/compte/mot-de-passe/oubli/\S+/", mail.outbox[-1].body).group(0)
    owner = Client()
    form = owner.get(link.split("127.0.0.1:8000")[-1], follow=True)
    response = owner.post(form.redirect_chain[-1][0], {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert response.status_code == 302
    assert thief.get("/compte/").status_code == 302  # logged out
    assert tokens.authenticate(stolen) is None
    assert [s[:2] for s in signals] == [(bob.pk, "password")] and signals[0][2]
    [notice] = send_outbox()
    assert notice.to == ["bob@example.org"] and "mot de passe" in notice.subject.lower()


@committed
def test_a_password_change_keeps_this_session_and_ends_the_others(bob, signals):
    mine, other = logged_in(bob), logged_in(bob)
    row, old_token = tokens.create_personal_token(bob, "old")
    response = mine.post("/compte/mot-de-passe/", {"old_password": PASSWORD, "new_password1": NEW_PASSWORD,
                                                   "new_password2": NEW_PASSWORD})
    assert response.status_code == 302
    assert mine.get("/compte/").status_code == 200 and other.get("/compte/").status_code == 302
    assert tokens.authenticate(old_token) is None
    _, new_token = tokens.create_personal_token(bob, "new")
    assert tokens.authenticate(new_token) is not None  # made after: works
    assert signals == [(bob.pk, "password", [row.pk], mine.session.session_key)]
    assert [m.to for m in send_outbox()] == [["bob@example.org"]]


@committed
def test_an_email_change_ends_older_tokens(bob, signals):
    client = logged_in(bob)
    row, older = tokens.create_personal_token(bob, "older")
    client.post("/compte/adresse/", {"email": "bob@new.example", "password": PASSWORD})
    path = re.search(r"https?://\S+/compte/adresse/confirmer/\S+/", send_outbox()[-1].body).group(0)
    assert client.post(path.split("127.0.0.1:8000")[-1]).status_code == 302
    assert user_row(bob).email == "bob@new.example" and is_confirmed(user_row(bob))  # the link proved it
    assert tokens.authenticate(older) is None
    assert signals == [(bob.pk, "email", [row.pk], client.session.session_key)]


@committed
def test_revoking_a_token_tells_its_sockets(bob, signals):
    row, _ = tokens.create_personal_token(bob, "robot")
    tokens.revoke_personal_token(bob, row.pk)
    tokens.revoke_personal_token(bob, row.pk)  # again: nothing more
    assert signals == [(bob.pk, "token_revoked", [row.pk], "")]


# -- 11. the email form tells nothing about other accounts ---------------------------------------

@committed  # (the worker's round closes old connections)
def test_the_email_change_answers_the_same_for_a_taken_and_a_free_address(bob, carol):
    client = logged_in(bob)
    answers = []
    for email in ("carol@example.org", "nobody@free.example"):
        response = client.post("/compte/adresse/", {"email": email, "password": PASSWORD})
        page = client.get(response["Location"]).content.decode().replace(email, "ADDRESS")
        page = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", page)
        answers.append((response.status_code, response["Location"], response.content, page))
    assert answers[0] == answers[1]
    assert [m.to for m in send_outbox()] == [["nobody@free.example"]]  # only the free one gets a link


def test_the_email_change_is_rate_limited_per_account(bob):
    client = logged_in(bob)
    codes = [client.post("/compte/adresse/", {"email": f"bob{i}@x.example", "password": "guess"}).status_code
             for i in range(8)]
    assert codes[:5] == [400] * 5 and codes[5:] == [429] * 3  # password guesses count too


# -- sign-up: the address is confirmed by a link -------------------------------------------------

@committed
def test_sign_up_confirms_the_address_by_a_link_before_the_account_counts_as_confirmed(db):
    client = Client()
    response = client.post("/compte/inscription/", {"username": "nina", "email": "nina@example.org",
                                                    "password1": PASSWORD, "password2": PASSWORD})
    assert response.status_code == 302
    nina = get_user_model().objects.get(username="nina")
    assert not is_confirmed(nina)
    [message] = send_outbox()
    assert message.to == ["nina@example.org"]
    path = re.search(r"https?://\S+/compte/adresse/valider/\S+/", message.body).group(0).split("127.0.0.1:8000")[-1]
    assert client.get(path).status_code == 200 and not is_confirmed(nina)  # a GET (mail scanners) does nothing
    assert Client().post(path).status_code == 302 and not is_confirmed(nina)  # not logged in: to the login page
    assert client.post(path).status_code == 302 and is_confirmed(nina)
    assert send_outbox() == []  # nothing more to send


@committed
def test_sign_up_with_another_accounts_address_answers_the_same_and_never_confirms_it(carol):
    VerifiedAddress.objects.create(user=carol, email="carol@example.org")
    answers = []
    for name, email in (("mallory", "carol@example.org"), ("oscar", "oscar@example.org")):
        client = Client()
        response = client.post("/compte/inscription/", {"username": name, "email": email,
                                                        "password1": PASSWORD, "password2": PASSWORD})
        page = client.get(response["Location"]).content.decode().replace(email, "ADDRESS").replace(name, "NAME")
        page = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", page)
        answers.append((response.status_code, response["Location"], page))
    assert answers[0] == answers[1]
    assert [m.to for m in send_outbox()] == [["oscar@example.org"]]  # carol's mailbox gets nothing
    from ludo.account import address

    mallory = get_user_model().objects.get(username="mallory")
    # Even with a link (carol clicking one mallory forwarded), the address stays carol's alone.
    forged = address.make_token(mallory, "carol@example.org")
    response = logged_in(mallory).post(f"/compte/adresse/valider/{forged}/")
    assert response.status_code == 400 and not is_confirmed(mallory)
    assert list(VerifiedAddress.objects.values_list("user_id", flat=True)) == [carol.pk]


def test_a_booking_confirmed_from_the_owners_mailbox_does_not_confirm_a_second_account(carol, alice):
    from datetime import timedelta

    from django.utils import timezone

    from games.bookings import services as bookings

    VerifiedAddress.objects.create(user=carol, email="carol@example.org")
    mallory = get_user_model().objects.create_user("mallory", "carol@example.org", PASSWORD)
    now = timezone.now()
    later = now + timedelta(days=2)
    session = bookings.create_session(alice, starts_at=later, ends_at=later + timedelta(hours=2), capacity=8)
    booking = bookings.request_booking(session.pk, name="Mallory", email="carol@example.org", seats=1, user=mallory)
    bookings.confirm_booking(booking.pk)
    assert not is_confirmed(mallory)


# -- reserved names --------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["Hôte", "h0te", "Admin", "Staff", "ADM1N", "B0b", "Bob", "deleted-7",
                                  "Compte supprimé"])
def test_sign_up_refuses_the_houses_words_look_alikes_and_existing_names(bob, name):
    response = Client().post("/compte/inscription/", {"username": name, "password1": PASSWORD,
                                                      "password2": PASSWORD})
    assert response.status_code == 200 and "errorlist" in response.content.decode()
    assert list(get_user_model().objects.values_list("username", flat=True)) == ["bob"]


@pytest.mark.parametrize("name", ["\u202eetôh", "Zo\u200be", "a\u2066b\u2069", "An\u061cna", "Jo\u200fe"])
def test_names_with_direction_or_invisible_characters_are_refused(db, name):
    with pytest.raises(ValueError):
        clean_guest_name(name)


def test_guest_names_refuse_a_deleted_accounts_words_and_accept_plain_names(db):
    for name in ("deleted-12", "Compte supprimé", "Deleted account"):
        with pytest.raises(NameTaken):
            clean_guest_name(name)
    assert clean_guest_name("  Léa   M. ") == "Léa M."


def test_an_account_renamed_keeps_its_name_reserved(bob):
    bob.username = "robert"
    bob.save()
    assert name_is_reserved("R0bert") and not name_is_reserved("bob")


# -- what a deletion leaves, what an export holds ---------------------------------------------------

@committed
def test_deleting_forgets_every_copy_of_the_name_and_address(bob, carol, alice):
    mine = history_of(bob, alice, carol, "B")
    VerifiedAddress.objects.create(user=bob, email="bob@example.org")
    Privacy.objects.create(user=bob, private=True)
    game = Game.objects.create(title="Karo de bois")
    play = Play.objects.create(game=game, played_on="2026-11-01", note="Bob Martin a gagné", logged_by=bob)
    Player.objects.create(play=play, name="Bob Martin", user=bob, won=True)
    Player.objects.create(play=play, name="Carol", user=carol)
    Client().post("/compte/connexion/", {"username": "bob", "password": "wrong"})  # a throttle row
    send_outbox()
    frame = json.dumps(tables.snapshot(mine.finished.pk, tables.Who()))  # cached by this process
    assert '"bob"' in frame

    assert delete(logged_in(bob)) == 302
    sent = send_outbox()
    assert [m.to for m in sent] == [["bob@example.org"]]  # the cancellation still reaches bob
    assert not OutgoingEmail.objects.filter(to__icontains="bob").exists()
    assert not VerifiedAddress.objects.filter(user=bob).exists() and not Privacy.objects.filter(user=bob).exists()
    from axes.models import AccessAttempt, AccessLog

    assert not AccessAttempt.objects.filter(username__iexact="bob").exists()
    assert not AccessLog.objects.filter(username__iexact="bob").exists()
    assert Play.objects.get(pk=play.pk).note == ""
    assert set(Player.objects.filter(play=play).values_list("name", flat=True)) == {"Compte supprimé", "Carol"}
    for table in (mine.finished, mine.running):
        frame = json.dumps(tables.snapshot(table.pk, tables.Who()), ensure_ascii=False)
        assert '"bob"' not in frame and "Compte supprimé" in frame
    page = Client().get(f"/jouer/table/{mine.finished.pk}/")
    assert page.status_code in (200, 404) and b'"bob"' not in page.content and b">bob<" not in page.content


def test_the_export_holds_the_play_log_ratings_privacy_and_confirmed_addresses(bob, carol):
    from games.ratings.models import Rating

    VerifiedAddress.objects.create(user=bob, email="bob@example.org")
    Privacy.objects.create(user=bob, private=True)
    Rating.objects.create(user=bob, game="drumlin", rating=1612.5, games=3)
    Rating.objects.create(user=carol, game="drumlin", rating=1400.0)
    game = Game.objects.create(title="Karo de bois")
    play = Play.objects.create(game=game, played_on="2026-11-01", note="revanche demain", logged_by=carol)
    Player.objects.create(play=play, name="Bob", user=bob, score=12, won=True)
    Player.objects.create(play=play, name="Carol", user=carol, score=9)
    data = json.loads(logged_in(bob).get("/compte/export/").content)
    assert data["confirmed_addresses"][0]["email"] == "bob@example.org"
    assert data["ratings"]["private_profile"] is True
    assert [(r["game"], r["rating"]) for r in data["ratings"]["ratings"]] == [("drumlin", 1612.5)]
    [entry] = data["play_log"]
    assert entry["game"] == "Karo de bois" and entry["note"] is None  # carol's note is hers
    assert {(p["name"], p["me"]) for p in entry["players"]} == {("Bob", True), ("Carol", False)}


def test_a_confirmed_sign_up_address_books_directly_whatever_its_case(alice):
    from datetime import timedelta

    from django.utils import timezone

    from games.bookings import services as bookings
    from ludo.account import address

    nora = get_user_model().objects.create_user("nora", "Nora@Example.org", PASSWORD)
    assert logged_in(nora).post(f"/compte/adresse/valider/{address.make_token(nora, nora.email)}/").status_code == 302
    later = timezone.now() + timedelta(days=2)
    session = bookings.create_session(alice, starts_at=later, ends_at=later + timedelta(hours=2), capacity=8)
    booking = bookings.request_booking(session.pk, name="Nora", email="nora@example.org", seats=1, user=nora)
    assert is_confirmed(nora) and booking.status == "confirmed"


@committed
def test_two_accounts_confirming_one_address_at_the_same_moment_get_it_once(db):
    """Racing: the mailbox's owner follows two links (two accounts) at once."""
    import threading

    from django.db import OperationalError, connection, transaction

    from ludo.accounts import remember_address

    users = [get_user_model().objects.create_user(f"race{i}", "shared@example.org", PASSWORD) for i in range(4)]
    start = threading.Barrier(len(users))
    results: list[object] = []

    def confirm(user):
        try:
            start.wait()
            with transaction.atomic():
                results.append(remember_address(user, "Shared@example.org"))
        except OperationalError as exc:  # SQLite: one writer; the other waits and may give up
            results.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=confirm, args=(user,)) for user in users]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert results.count(True) == 1
    assert VerifiedAddress.objects.filter(email__iexact="shared@example.org").count() == 1


@committed
def test_a_table_that_cannot_be_resigned_does_not_block_the_deletion(bob, carol, alice, monkeypatch):
    """A broken table (its own code fails on resign) is logged and left; the account still goes."""
    mine = history_of(bob, alice, carol, "B")

    def broken(table_id, who):
        raise RuntimeError("this table's state cannot be loaded")

    monkeypatch.setattr(tables, "resign", broken)
    assert delete(logged_in(bob)) == 302
    assert not user_row(bob).is_active
    assert Table.objects.get(pk=mine.running.pk).status == "running"  # left to time out, or to the hosts
    assert set(Seat.objects.filter(user=bob).values_list("name", flat=True)) == {"Compte supprimé"}


@committed
def test_deleting_an_account_that_typed_someone_elses_address_leaves_that_persons_emails(bob, carol):
    """mallory signs up with carol's address (unconfirmed), then deletes her account:
    carol's own emails keep their address."""
    from games.bookings import outbox

    outbox.enqueue("lost_links", "carol@example.org")
    mallory = get_user_model().objects.create_user("mallory", "carol@example.org", PASSWORD)
    assert delete(logged_in(mallory)) == 302
    assert OutgoingEmail.objects.filter(to="carol@example.org", kind="lost_links").exists()
