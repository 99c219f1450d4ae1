"""What follows a change of an account's credentials (its password, its address):
personal tokens made before the change stop working, the open sockets are told
(ludo.signals.credentials_changed, after the commit) and, for a password, the
account's address is told by email (the outbox).

Other sessions end by themselves on a password change: Django keeps a hash of
the password in each session and logs out any session whose hash no longer
matches (the session that made the change is updated with
``update_session_auth_hash`` by the view, and stays logged in).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from ludo.account.mail import queue_password_notice
from ludo.language import account_language
from ludo.signals import send_credentials_changed
from ludo.tokens.services import revoke_made_before


@transaction.atomic
def password_changed(user: Any, *, keep_session: str = "", language: str = "", now: Any = None) -> list[int]:
    """After ``user``'s password changed (a change or a reset): the tokens revoked (their ids)."""
    now = now or timezone.now()
    revoked = revoke_made_before(user, now)
    queue_password_notice(user, account_language(user) or language or "fr")
    send_credentials_changed(user.pk, "password", token_ids=revoked, keep_session=keep_session)
    return revoked


def email_changed(user: Any, *, keep_session: str = "", now: Any = None) -> list[int]:
    """After ``user``'s address changed (inside the change's transaction): the tokens revoked."""
    revoked = revoke_made_before(user, now or timezone.now())
    send_credentials_changed(user.pk, "email", token_ids=revoked, keep_session=keep_session)
    return revoked
