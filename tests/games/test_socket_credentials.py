"""Sockets follow the account (issue 29, findings 3 and 4): a socket opened with a
token or a signed-in session is closed (code 4401) once what opened it no longer
stands, whether or not it says anything: at once when the change is told
(``ludo.signals.credentials_changed``, Django's ``user_logged_out``), on the
check timer when it is not, and before a late message is handled."""

from __future__ import annotations

from importlib import import_module

import pytest
from channels.db import database_sync_to_async as db
from django.conf import settings as django_settings
from django.contrib.auth import HASH_SESSION_KEY, get_user_model
from django.test import Client
from django.urls import reverse

from games import services
from games.models import ChatMessage
from ludo.signals import send_credentials_changed
from ludo.tokens import services as tokens
from ludo.tokens.models import GuestToken
from tests.games.socket_helpers import answer, close_code, finish, open_socket, send, still_open
from tests.games.tables_helpers import member, user_session
from tests.games.tables_helpers import move_connections  # noqa: F401  (an autouse fixture)

pytestmark = pytest.mark.django_db(transaction=True)

SIGNED_OUT = 4401


@pytest.fixture(autouse=True)
def quiet_tables(settings):
    settings.LUDO_TABLE_POLL_SECONDS = 0
    settings.LUDO_BOT_THINK_SECONDS = 0


@pytest.fixture
def told_only(settings):
    """No timer within the test: only a push (or a message) can close a socket."""
    settings.LUDO_WS_CREDENTIALS_SECONDS = 600


@pytest.fixture
def quick_timer(settings):
    settings.LUDO_WS_CREDENTIALS_SECONDS = 0.5


def tell(user_id, reason, **kwargs):
    """What the accounts' services send after their change is committed."""
    send_credentials_changed(user_id, reason, **kwargs)


def log_out(session_key: str) -> None:
    """The account's logout, as the site's page does it (POST, Django's LogoutView)."""
    client = Client()
    client.cookies["sessionid"] = session_key
    response = client.post(reverse("logout"))
    assert response.status_code in (200, 302)


def change_password_keeping(user, kept_session: str) -> None:
    """A password change from one session, as Django's views do it: the new hash is
    written into that session (update_session_auth_hash), every other one falls."""
    user.set_password("another horse battery staple")
    user.save()
    store = import_module(django_settings.SESSION_ENGINE).SessionStore(kept_session)
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.save()


# -- tokens --------------------------------------------------------------------------------

@pytest.mark.parametrize("what", ["personal revoked", "guest revoked", "account deactivated"])
async def test_a_silent_token_socket_is_closed_by_the_timer(bob, quick_timer, what):
    if what == "guest revoked":
        row, token = await db(tokens.create_guest_token)("Zoé")
    else:
        row, token = await db(tokens.create_personal_token)(bob, "bot")
    comm = await open_socket("/ws/lobby/", token=token)
    assert (await comm.receive_json_from(10))["t"] == "lobby"
    if what == "personal revoked":
        await db(tokens.revoke_personal_token)(bob, row.pk)
    elif what == "guest revoked":
        await db(tokens.revoke)(GuestToken.objects.filter(pk=row.pk))
    else:
        await db(get_user_model().objects.filter(pk=bob.pk).update)(is_active=False)
    # The socket says nothing at all, and is closed all the same.
    assert await close_code(comm, 15) == SIGNED_OUT
    await finish(comm)


async def test_a_revocation_told_closes_that_tokens_sockets_at_once_and_no_other(bob, told_only):
    row, token = await db(tokens.create_personal_token)(bob, "bot")
    _, other_token = await db(tokens.create_personal_token)(bob, "another bot")
    table = await db(services.create_table)(member(bob), "drumlin")
    revoked = await open_socket(f"/ws/tables/{table.pk}/", token=token)
    kept = await open_socket("/ws/ping/", token=other_token)
    await send(revoked, t="hello", id="h")
    assert (await answer(revoked, "h"))["t"] == "state"
    await db(tokens.revoke_personal_token)(bob, row.pk)
    await db(tell)(bob.pk, "token_revoked", token_ids=[row.pk])
    assert await close_code(revoked, 10) == SIGNED_OUT
    assert await still_open(kept)
    await finish(revoked)
    await kept.disconnect()


async def test_a_message_after_a_revocation_is_not_handled(bob, settings):
    settings.LUDO_WS_CREDENTIALS_SECONDS = 0  # every message checks
    row, token = await db(tokens.create_personal_token)(bob, "bot")
    table = await db(services.create_table)(member(bob), "drumlin")
    comm = await open_socket(f"/ws/tables/{table.pk}/", token=token)
    await send(comm, t="hello", id="h")
    assert (await answer(comm, "h"))["t"] == "state"
    await db(tokens.revoke_personal_token)(bob, row.pk)
    await send(comm, t="chat", text="still here", id="c")
    assert await close_code(comm, 10) == SIGNED_OUT
    assert not await db(ChatMessage.objects.filter(table_id=table.pk).exists)()
    await finish(comm)


# -- sessions ------------------------------------------------------------------------------

async def test_logging_out_closes_that_sessions_sockets_at_once_and_not_the_other_sessions(bob, told_only):
    here, elsewhere = await db(user_session)(bob), await db(user_session)(bob)
    table = await db(services.create_table)(member(bob), "drumlin")
    page = await open_socket(f"/ws/tables/{table.pk}/", session=here)
    lobby = await open_socket("/ws/lobby/", session=here)
    other = await open_socket("/ws/ping/", session=elsewhere)
    await send(page, t="hello", id="h")
    assert (await answer(page, "h"))["seat"] == 0
    await db(log_out)(here)
    assert await close_code(page, 10) == SIGNED_OUT
    assert await close_code(lobby, 10) == SIGNED_OUT
    assert await still_open(other)
    for comm in (page, lobby):
        await finish(comm)
    await other.disconnect()


async def test_a_page_opened_signed_in_is_never_reopened_as_a_visitors(bob, told_only):
    # A close that is not 4401 (the connection dropped as the logout was told) makes the
    # page reconnect: its session is gone by then, and its hello says the page was opened
    # by an account (``account``). That socket is closed as signed out, the table not
    # opened for a visitor; a page opened signed in and still signed in opens as before.
    here = await db(user_session)(bob)
    table = await db(services.create_table)(member(bob), "drumlin")
    page = await open_socket(f"/ws/tables/{table.pk}/", session=here)
    await send(page, t="hello", id="h", account=True)
    assert (await answer(page, "h"))["seat"] == 0
    await finish(page)
    await db(log_out)(here)
    again = await open_socket(f"/ws/tables/{table.pk}/", session=here)  # the stale cookie
    await send(again, t="hello", id="h2", account=True)
    assert await close_code(again, 10) == SIGNED_OUT
    visitor = await open_socket(f"/ws/tables/{table.pk}/")  # no such claim: a visitor as ever
    await send(visitor, t="hello", id="h3")
    assert (await answer(visitor, "h3"))["seat"] is None
    await visitor.disconnect()
    for claim in ("yes", 1):  # true or false (null: as if absent)
        bad = await open_socket(f"/ws/tables/{table.pk}/")
        await send(bad, t="hello", id="h4", account=claim)
        assert (await answer(bad, "h4"))["code"] == "bad_message"
        await bad.disconnect()


@pytest.mark.parametrize("told", [True, False], ids=["told", "timer"])
async def test_a_password_change_closes_every_other_sessions_sockets(bob, settings, told):
    settings.LUDO_WS_CREDENTIALS_SECONDS = 600 if told else 0.5
    here, elsewhere = await db(user_session)(bob), await db(user_session)(bob)
    _, token = await db(tokens.create_personal_token)(bob, "bot")
    mine = await open_socket("/ws/ping/", session=here)
    stolen = await open_socket("/ws/lobby/", session=elsewhere)
    by_token = await open_socket("/ws/ping/", token=token)
    await db(change_password_keeping)(bob, here)
    if told:
        await db(tell)(bob.pk, "password", keep_session=here)
    assert await close_code(stolen, 15) == SIGNED_OUT
    assert await still_open(mine)  # the session that changed the password goes on
    if told:  # every socket of the account but that session's, tokens' too
        assert await close_code(by_token, 10) == SIGNED_OUT
        await finish(by_token)
    else:  # the timer checks what still stands: the token does
        assert await still_open(by_token)
        await by_token.disconnect()
    await finish(stolen)
    await mine.disconnect()


@pytest.mark.parametrize("told", [True, False], ids=["told", "timer"])
async def test_a_deleted_account_socket_is_closed_and_writes_nothing_more(settings, told):
    settings.LUDO_WS_CREDENTIALS_SECONDS = 600 if told else 0.5
    carol = await db(get_user_model().objects.create_user)("carol", "carol@example.org", "pw-carol-123456")
    session = await db(user_session)(carol)
    table = await db(services.create_table)(member(carol), "drumlin")
    comm = await open_socket(f"/ws/tables/{table.pk}/", session=session)
    await send(comm, t="hello", id="h")
    assert (await answer(comm, "h"))["seat"] == 0
    carol_id = carol.pk
    await db(carol.delete)()
    if told:
        await db(tell)(carol_id, "deleted")
    assert await close_code(comm, 15) == SIGNED_OUT
    assert not await db(ChatMessage.objects.filter(table_id=table.pk).exists)()
    await finish(comm)


async def test_a_deactivation_anywhere_ends_the_accounts_sockets_at_once(bob, told_only):
    """A host unticks "active" in the admin (or a shell saves the row): no service runs,
    yet every socket of the account closes at once; other saves of the row tell nothing."""
    sockets = [await open_socket("/ws/lobby/", session=await db(user_session)(bob)) for _ in range(2)]
    bob.first_name = "Bob"
    await db(bob.save)()  # a save that leaves the account active
    await db(bob.save)(update_fields=["last_login"])
    for comm in sockets:
        assert await still_open(comm)
    bob.is_active = False
    await db(bob.save)()
    for comm in sockets:
        assert await close_code(comm, 10) == SIGNED_OUT
        await finish(comm)


def test_only_an_active_account_turned_inactive_is_told(bob, monkeypatch):
    """Creating an inactive account, saving an inactive one again, or activating one
    tells nothing; turning an active one inactive tells once, after the commit."""
    from django.db import transaction

    from ludo.account import credentials

    told = []
    monkeypatch.setattr(credentials, "send_credentials_changed", lambda user_id, reason: told.append((user_id, reason)))
    with transaction.atomic():
        carol = get_user_model().objects.create_user("carol", "carol@example.org", "pw-carol-123456", is_active=False)
        carol.save()
        carol.is_active = True
        carol.save()
    assert told == []
    bob.is_active = False
    bob.save()
    bob.save()
    assert told == [(bob.pk, "deactivated")]


async def test_an_email_change_ends_the_accounts_other_sockets(bob, told_only):
    here, elsewhere = await db(user_session)(bob), await db(user_session)(bob)
    mine = await open_socket("/ws/lobby/", session=here)
    other = await open_socket("/ws/lobby/", session=elsewhere)
    await db(tell)(bob.pk, "email", keep_session=here)
    assert await close_code(other, 10) == SIGNED_OUT
    assert await still_open(mine)
    await finish(other)
    await mine.disconnect()


async def test_a_guest_and_a_standing_account_keep_their_sockets(bob, quick_timer):
    from tests.games.tables_helpers import guest_session

    guest = await open_socket("/ws/lobby/", session=await db(guest_session)("Zoé"))
    account = await open_socket("/ws/lobby/", session=await db(user_session)(bob))
    for comm in (guest, account):
        assert (await comm.receive_json_from(10))["t"] == "lobby"
    await db(tell)(bob.pk, "logout")  # a check, and the session still stands
    assert await account.receive_nothing(1.5)  # rounds of the timer go by
    for n, comm in enumerate((guest, account)):
        assert await still_open(comm, n)
        await comm.disconnect()
