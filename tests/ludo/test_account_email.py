"""Changing my email address: a link goes to the new address, and the address
changes only once the link is followed, by the same account."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core import mail

from ludo.account import email_change
from tests.conftest import PASSWORD
from tests.ludo.account_helpers import carol, logged_in  # noqa: F401

pytestmark = pytest.mark.django_db

LINK = re.compile(r"https?://\S+/compte/adresse/confirmer/\S+/")


def email_of(user) -> str:
    return get_user_model().objects.get(pk=user.pk).email


def sent() -> list:
    """The emails the worker has sent (the address change's go through the outbox)."""
    from games.bookings import emails

    emails.deliver_due()
    return mail.outbox


def ask(client, email: str, password: str = PASSWORD):
    return client.post("/compte/adresse/", {"email": email, "password": password})


def test_it_sends_a_link_to_the_new_address_and_changes_nothing_yet(bob, settings):
    settings.SITE_URL = "https://ludo.example"
    response = ask(logged_in(bob), "bob@new.example")
    assert response.status_code == 302
    assert email_of(bob) == "bob@example.org"
    [message] = sent()
    assert message.to == ["bob@new.example"] and "nouvelle adresse" in message.subject
    assert LINK.search(message.body).group(0).startswith("https://ludo.example/compte/adresse/confirmer/")


def test_following_the_link_changes_the_address_and_tells_the_old_one(bob, django_capture_on_commit_callbacks):
    client = logged_in(bob)
    ask(client, "bob@new.example")
    path = LINK.search(sent()[0].body).group(0).split("127.0.0.1:8000")[-1]
    page = client.get(path)
    assert page.status_code == 200 and "bob@new.example" in page.content.decode()
    assert email_of(bob) == "bob@example.org"  # a GET (a mail scanner's) changes nothing
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(path).status_code == 302
    assert email_of(bob) == "bob@new.example"
    notice = sent()[-1]
    assert notice.to == ["bob@example.org"] and "bob@new.example" in notice.body
    assert "/compte/mot-de-passe/oubli/" in notice.body
    assert client.post(path).status_code == 302 and email_of(bob) == "bob@new.example"  # twice: no harm


def test_another_account_cannot_use_my_link(bob, carol):
    ask(logged_in(bob), "bob@new.example")
    path = LINK.search(sent()[0].body).group(0).split("127.0.0.1:8000")[-1]
    response = logged_in(carol).post(path)
    assert response.status_code == 400 and "autre compte" in response.content.decode()
    assert email_of(bob) == "bob@example.org" and email_of(carol) == "carol@example.org"


def test_a_link_needs_to_log_in(bob):
    ask(logged_in(bob), "bob@new.example")
    path = LINK.search(sent()[0].body).group(0).split("127.0.0.1:8000")[-1]
    from django.test import Client

    assert Client().post(path).status_code == 302 and email_of(bob) == "bob@example.org"


def test_an_older_link_stops_working_once_the_address_changed(bob):
    client = logged_in(bob)
    ask(client, "one@new.example")
    ask(client, "two@new.example")
    first, second = (LINK.search(m.body).group(0).split("127.0.0.1:8000")[-1] for m in sent())
    client.post(second)
    response = client.post(first)
    assert response.status_code == 410 and email_of(bob) == "two@new.example"


@pytest.mark.parametrize("token", ["nope", "x" * 40])
def test_a_forged_link_is_refused(bob, token):
    response = logged_in(bob).post(f"/compte/adresse/confirmer/{token}/")
    assert response.status_code == 400 and email_of(bob) == "bob@example.org"


def test_an_expired_link_is_refused(bob, monkeypatch):
    token = email_change.make_token(bob, "bob@new.example")
    # Any age is too old once the allowed age is below zero.
    monkeypatch.setattr(email_change, "EMAIL_CHANGE_MAX_AGE", timedelta(seconds=-1))
    response = logged_in(bob).post(f"/compte/adresse/confirmer/{token}/")
    assert response.status_code == 410 and "expiré" in response.content.decode()
    assert email_of(bob) == "bob@example.org"


@pytest.mark.parametrize("email", ["not an address", "", "bob@example.org"])
def test_it_refuses_a_bad_address_and_sends_nothing(bob, carol, email):
    response = ask(logged_in(bob), email)
    assert response.status_code == 400 and "errorlist" in response.content.decode()
    assert not sent() and email_of(bob) == "bob@example.org"


def test_it_stops_sending_links_past_the_limit(bob, settings):
    settings.LUDO_ACCOUNT_MAIL_RATE_LIMIT = (1, 3600)
    client = logged_in(bob)
    assert ask(client, "bob@new.example").status_code == 302
    refused = ask(client, "bob@new.example")
    assert refused.status_code == 429 and "Trop de liens" in refused.content.decode()
    assert len(sent()) == 1


def test_an_account_without_an_address_can_add_one(db, django_capture_on_commit_callbacks):
    user = get_user_model().objects.create_user("dora", "", "pw-dora-123456789")
    client = logged_in(user)
    assert "Pas encore d’adresse e-mail" in client.get("/compte/").content.decode()
    ask(client, "dora@example.org", "pw-dora-123456789")
    path = LINK.search(sent()[0].body).group(0).split("127.0.0.1:8000")[-1]
    with django_capture_on_commit_callbacks(execute=True):
        client.post(path)
    assert email_of(user) == "dora@example.org" and len(sent()) == 1  # no old address to tell


@pytest.mark.django_db(transaction=True)
def test_the_request_never_waits_for_the_mail_server_and_a_server_down_loses_nothing(bob, settings):
    """The link goes through the outbox: with the mail server down the request still
    answers at once, the link waits (its error kept), and it leaves once the server is back."""
    from django.test import override_settings

    from games.bookings.outbox import OutgoingEmail

    down = {"default": {"BACKEND": "django.core.mail.backends.smtp.EmailBackend",
                        "OPTIONS": {"host": "127.0.0.1", "port": 9, "timeout": 2}}}
    with override_settings(MAILERS=down):
        assert ask(logged_in(bob), "bob@new.example").status_code == 302
        assert not sent()
    row = OutgoingEmail.objects.get(kind="account_email_change")
    assert (row.status, row.attempts, row.to) == ("queued", 1, "bob@new.example") and row.last_error
    OutgoingEmail.objects.update(next_attempt_at=row.created_at)  # its next try has come
    [message] = sent()
    assert message.to == ["bob@new.example"] and LINK.search(message.body)


def test_a_link_queued_for_an_address_that_changed_meanwhile_is_not_sent(bob, carol):
    """Built when the worker sends it: a link asked before the address changed another
    way, or for an address another account took meanwhile, is never sent (it could not work)."""
    client = logged_in(bob)
    ask(client, "first@new.example")
    ask(client, "second@new.example")
    [first, second] = sent()
    ask(client, "third@new.example")  # queued, not sent yet
    assert client.post(LINK.search(second.body).group(0).split("127.0.0.1:8000")[-1]).status_code == 302
    mail.outbox.clear()
    assert [m.to for m in sent()] == [["bob@example.org"]]  # only the notice to the old address
    ask(client, "carol-to-be@new.example")
    get_user_model().objects.filter(pk=carol.pk).update(email="carol-to-be@new.example")
    mail.outbox.clear()
    assert sent() == [] and email_of(bob) == "second@new.example"
