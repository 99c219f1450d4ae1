"""Signals the site's parts send each other when a person's credentials change.

``credentials_changed`` is sent (after the change is committed) when an account's
credentials stop being what they were: a logout, a password change or reset, an
email change, a deletion or deactivation, a personal token revoked. Receivers end
whatever still holds the old credentials (open sockets, other sessions).

Arguments: ``user_id`` (int or None), ``reason`` (one of REASONS), ``token_ids``
(a list of revoked token ids, possibly empty), ``keep_session`` (a session key that
stays valid, the one that made the change, or "").
"""

from __future__ import annotations

from django.dispatch import Signal

REASONS = ("logout", "password", "email", "deleted", "token_revoked", "deactivated")

credentials_changed = Signal()


def send_credentials_changed(user_id: int | None, reason: str, *, token_ids: list[int] | None = None,
                             keep_session: str = "") -> None:
    """Tell every receiver, once the current transaction commits (at once outside one)."""
    from django.db import transaction

    if reason not in REASONS:
        raise ValueError(f"unknown reason {reason!r}")

    def send() -> None:
        credentials_changed.send(sender=None, user_id=user_id, reason=reason, token_ids=list(token_ids or []),
                                 keep_session=keep_session)

    transaction.on_commit(send)
