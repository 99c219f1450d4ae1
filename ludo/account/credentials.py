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


# -- a deactivation, wherever it is made (the admin, the shell, a staff page) --------------

def remember_active(sender: Any, instance: Any, raw: bool = False, update_fields: Any = None, **kwargs: Any) -> None:
    """pre_save of the user model: note whether the stored row was active, for
    ``tell_deactivation``. Saves that cannot change ``is_active`` (a login's
    ``update_fields=["last_login"]``) cost no query."""
    instance._ludo_was_active = None
    if raw or instance.pk is None or (update_fields is not None and "is_active" not in update_fields):
        return
    instance._ludo_was_active = (
        type(instance)._default_manager.filter(pk=instance.pk).values_list("is_active", flat=True).first()
    )


def tell_deactivation(sender: Any, instance: Any, created: bool = False, raw: bool = False, **kwargs: Any) -> None:
    """post_save of the user model: an account that was active and no longer is ends
    its sockets at once (after the commit), as a deletion does; its sessions and
    tokens already fail their checks (Django's ModelBackend refuses inactive users)."""
    was_active = getattr(instance, "_ludo_was_active", None)
    instance._ludo_was_active = None
    if not raw and not created and was_active and not instance.is_active:
        send_credentials_changed(instance.pk, "deactivated")
