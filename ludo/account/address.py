"""Confirming an account's address: a signed link mailed (through the outbox)
to the address the account gives at sign-up, or asks for again from its page.

Following it while logged in as that account (GET shows a button, POST
confirms: mail scanners only GET links) stores a VerifiedAddress through
``ludo.accounts.remember_address``: from then on ``ludo.accounts.is_confirmed``
says yes, and the account may play rated games and book directly.

The answer to a sign-up never says whether another account uses the address:
the outbox row is written either way, and what it sends is decided by the
worker (``ludo.account.mail``): nothing to an address another account has
confirmed (it is never confirmed for a second one). The link carries the
account and the address; it stops working once the account's address is
another, and after ADDRESS_LINK_MAX_AGE. No row holds it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.core import signing
from django.db import transaction

from games.bookings import outbox
from ludo.accounts import is_confirmed, remember_address

SALT = "ludo.account.address-confirm"
ADDRESS_LINK_MAX_AGE = timedelta(days=2)
KIND = "account_confirm"
# One link per account and hour at most, whoever asks (mail_limits counts per address and client too).
RESEND_WINDOW = timedelta(hours=1)


class AddressError(ValueError):
    """A refused confirmation; ``code``: bad_link, expired_link, stale_link, wrong_account, taken."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


@dataclass(frozen=True)
class Link:
    user_id: int
    email: str


def make_token(user: Any, email: str) -> str:
    return signing.dumps({"u": user.pk, "e": email}, salt=SALT, compress=True)


def read_token(token: str) -> Link:
    if not isinstance(token, str) or len(token) > 1000:
        raise AddressError("bad_link")
    try:
        data = signing.loads(token, salt=SALT, max_age=ADDRESS_LINK_MAX_AGE)
    except signing.SignatureExpired:
        raise AddressError("expired_link") from None
    except (signing.BadSignature, ValueError, UnicodeDecodeError):
        raise AddressError("bad_link") from None
    try:
        return Link(int(data["u"]), str(data["e"]))
    except (KeyError, TypeError, ValueError):
        raise AddressError("bad_link") from None


def ask(user: Any, language: str) -> None:
    """Queue the link to the account's address (at most once per RESEND_WINDOW);
    nothing without an address or once it is confirmed."""
    email = (user.email or "").strip()
    if not email or is_confirmed(user):
        return
    outbox.enqueue(KIND, email, language=language, extra={"user": user.pk}, once_per=RESEND_WINDOW,
                   once_scope=f"account {user.pk}")


@transaction.atomic
def confirm(token: str, user: Any) -> str:
    """The link followed by ``user`` (who must be its account): the address is now confirmed."""
    found = read_token(token)
    if found.user_id != user.pk:
        raise AddressError("wrong_account")
    if (user.email or "").strip().lower() != found.email.strip().lower():
        raise AddressError("stale_link")
    if not remember_address(user, user.email):  # another account confirmed it first
        raise AddressError("taken")
    return user.email
