"""Changing an account's email address: the new address confirms by a link.

Asking takes the account's password (a borrowed session must not move the
address, then reset the password through it), and answers the same whether
or not another account uses the address: a link is sent only when none does
(``request_change``). Nothing changes when the person asks: a signed link goes to the new address,
and only following it (logged in as the same account) changes the address.
The old address is told once the change is made. The link carries the
account, the new address and the address it replaces,
so it stops working once the address changed in any other way, and it
expires after EMAIL_CHANGE_MAX_AGE. No row is stored but the emails'.

Both emails go through the outbox (games.bookings.outbox, built by
ludo.account.mail when the worker sends them): the request never waits for the
mail server (nor tells by its time whether a link was sent), and a mail server
that fails has the email tried again instead of losing it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import get_language

from ludo.account.credentials import email_changed
from ludo.accounts import address_confirmed_elsewhere, remember_address

SALT = "ludo.account.email-change"
EMAIL_CHANGE_MAX_AGE = timedelta(days=2)


class EmailChangeError(ValueError):
    """A refused change; ``code`` is stable: bad_link, expired_link, stale_link, wrong_account, taken."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


@dataclass(frozen=True)
class Request:
    user_id: int
    new: str
    old: str


def address_taken(email: str, user: Any) -> bool:
    """Another account already uses this address (password resets go by address), or confirmed it."""
    return (get_user_model().objects.filter(email__iexact=email).exclude(pk=user.pk).exists()
            or address_confirmed_elsewhere(email, user))


def request_change(user: Any, new_email: str) -> None:
    """Send the link, unless the address is taken: the caller answers the same either way."""
    if not address_taken(new_email, user):
        send_confirmation(user, new_email)


def make_token(user: Any, new_email: str) -> str:
    return signing.dumps({"u": user.pk, "e": new_email, "o": user.email}, salt=SALT, compress=True)


def read_token(token: str) -> Request:
    try:
        data = signing.loads(token, salt=SALT, max_age=EMAIL_CHANGE_MAX_AGE)
    except signing.SignatureExpired:
        raise EmailChangeError("expired_link") from None
    except (signing.BadSignature, ValueError, UnicodeDecodeError):
        raise EmailChangeError("bad_link") from None
    try:
        return Request(int(data["u"]), str(data["e"]), str(data["o"]))
    except (KeyError, TypeError, ValueError):
        raise EmailChangeError("bad_link") from None


def send_confirmation(user: Any, new_email: str) -> None:
    """Queue the link to the new address (in the current language)."""
    from ludo.account import mail

    with transaction.atomic():
        mail.queue_email_change(user, new_email, old_email=user.email, language=get_language())


def confirmation_message(user: Any, new_email: str) -> tuple[str, str]:
    """The subject and body of the link's email (the account's address now is the old one)."""
    link = settings.SITE_URL + reverse("account:email_confirm", args=[make_token(user, new_email)])
    context = {"user": user, "new_email": new_email, "link": link,
               "days": EMAIL_CHANGE_MAX_AGE.days, "site_url": settings.SITE_URL}
    subject = render_to_string("account/email/email_change_subject.txt", context).strip()
    return subject, render_to_string("account/email/email_change.txt", context)


@transaction.atomic
def confirm(token: str, user: Any, keep_session: str = "") -> str:
    """Apply the change the link stands for to ``user`` (who must be its account); the new
    address. Following the link proves the new address is the account's (confirmed, as a
    sign-up's); tokens made before stop working, and the sockets are told."""
    found = read_token(token)
    if found.user_id != user.pk:
        raise EmailChangeError("wrong_account")
    row = get_user_model().objects.select_for_update().get(pk=user.pk)
    if row.email == found.new:
        return found.new  # followed twice: already done
    if row.email != found.old:
        raise EmailChangeError("stale_link")
    if address_taken(found.new, row):
        raise EmailChangeError("taken")
    row.email = found.new
    row.save(update_fields=["email"])
    user.email = found.new
    remember_address(row, found.new)
    email_changed(row, keep_session=keep_session)
    if found.old:  # (in the change's transaction: told if and only if it is made)
        from ludo.account import mail

        mail.queue_change_notice(row, found.old, found.new, language=get_language())
    return found.new


def notice_message(user: Any, new_email: str) -> tuple[str, str]:
    """Telling the old address that it no longer belongs to the account (in case it
    was not its owner): the subject and body."""
    context = {"user": user, "new_email": new_email, "site_url": settings.SITE_URL,
               "reset": settings.SITE_URL + reverse("account:password_reset")}
    subject = render_to_string("account/email/email_changed_subject.txt", context).strip()
    return subject, render_to_string("account/email/email_changed.txt", context)
